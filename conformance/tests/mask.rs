//! Token masks over the official JSON Schema Test Suite (every draft, required and optional).
//!
//! For every accepted group (all of them: every one is fast enough; a group of another draft with
//! the same generated validator and the same case texts as one already run is skipped), a small
//! vocabulary is cut
//! from the group's case texts (`mask_vocabulary`: the printable ASCII bytes and `\n`, the
//! texts' bytes >= 0x80, pieces of 2 to 6 bytes cut at seeded places, an empty token and a
//! duplicate), and `mask_run` checks that:
//!
//! - at every cut point of every case text, valid and invalid (up to where its stream dies), the
//!   mask equals brute force (clone the stream, feed the token, alive?);
//! - seeded random walks under the mask (`TOOLGATE_MASK_WALKS` per group, 30 by default; tokens
//!   holding `"`, `}` or `]` favoured; ending with probability 1/3 whenever `can_finish()`;
//!   at most 100 tokens) never feed a token that kills the stream, and every walk that ends is
//!   valid by `is_valid_json` and `finish()`; the mask at the last state of every walk that did
//!   not end equals brute force too.
//!
//! A walk that gets stuck (alive, no non-empty token allowed, `can_finish()` false) is a
//! completeness gap, not a soundness bug: such walks are printed (schema and text), not failed;
//! so are the walks cut at the length budget that closing tries (8 walks from there favouring
//! the tokens that close strings and containers) did not bring to a valid end. A walk under a
//! schema that no value satisfies cannot begin (nothing is allowed from the start): counted apart.
//! Says loudly that it skipped when the suite is absent.

use std::collections::BTreeSet;

use toolgate_conformance::{generated::SUITE, seed_of};

#[test]
fn masks_over_the_suite() {
    if !SUITE.present {
        eprintln!(
            "\n=== SKIPPED: the JSON Schema Test Suite was not found ({}) ===\n\
             Set TOOLGATE_SUITE_DIR to a checkout of json-schema-org/JSON-Schema-Test-Suite and rebuild.\n",
            SUITE.location
        );
        return;
    }
    let walks: usize = std::env::var("TOOLGATE_MASK_WALKS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let (mut groups, mut tokens, mut compared, mut total_walks, mut ended, mut budget, mut closed) =
        (0, 0, 0, 0, 0, 0, 0);
    let mut unclosed: Vec<(String, Vec<String>)> = Vec::new();
    let mut nothing = 0;
    // per group with stuck walks: where, and the texts
    let mut stuck: Vec<(String, Vec<String>)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    // a group with the same validator (generated module) and the same texts as one already run
    // (the same schema and cases in another draft) would only repeat its checks with other seeds
    let mut done: BTreeSet<(&str, Vec<&str>)> = BTreeSet::new();
    let mut repeated = 0;
    for file in SUITE.files {
        for (gi, group) in file.groups.iter().enumerate() {
            let Some(ops) = &group.ops else { continue };
            let texts: Vec<&str> = group.cases.iter().map(|c| c.data).collect();
            if !done.insert((group.module, texts.clone())) {
                repeated += 1;
                continue;
            }
            groups += 1;
            let run = (ops.mask)(&texts, seed_of(&[file.path, &gi.to_string()]), walks);
            tokens += run.tokens;
            compared += run.compared;
            total_walks += run.walks;
            ended += run.ended;
            budget += run.budget;
            closed += run.closed;
            nothing += run.nothing;
            let schema = group.schema.split_whitespace().collect::<Vec<_>>().join(" ");
            let here = format!("{} / group {gi} {:?} / schema {schema}", file.path, group.description);
            for f in run.failures {
                failures.push(format!("{here} / {f}"));
            }
            if !run.unclosed.is_empty() {
                unclosed.push((here.clone(), run.unclosed));
            }
            if !run.stuck.is_empty() {
                stuck.push((here, run.stuck));
            }
        }
    }
    let n_stuck: usize = stuck.iter().map(|(_, t)| t.len()).sum();
    eprintln!(
        "masks over the suite: {groups} groups ({repeated} more skipped: a validator and texts already run; \
         vocabularies of {} tokens on average), {compared} states compared with brute force; {total_walks} walks: {ended} ended valid, {budget} hit the length budget, {n_stuck} stuck \
         (in {} groups)",
        tokens / groups.max(1),
        stuck.len()
    );
    eprintln!("  {nothing} walks could not begin: no value satisfies their schema, and nothing is allowed");
    let n_unclosed: usize = unclosed.iter().map(|(_, t)| t.len()).sum();
    eprintln!(
        "  of the {budget} walks cut at the budget, {closed} closed valid, {n_unclosed} not (in {} groups)",
        unclosed.len()
    );
    for (here, texts) in &unclosed {
        eprintln!("  unclosed: {here}: {} walk(s): {texts:?}", texts.len());
    }
    for (here, texts) in &stuck {
        eprintln!("  completeness gap: {here}: {} stuck walk(s): {texts:?}", texts.len());
    }
    assert!(groups > 0 && total_walks > 0, "the suite is present but no group was checked");
    assert!(failures.is_empty(), "{} broken mask guarantee(s):\n{}", failures.len(), failures.join("\n"));
}
