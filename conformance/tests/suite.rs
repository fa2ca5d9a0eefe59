//! The official JSON Schema Test Suite against toolgate's generated validators.
//!
//! Fails on any wrong verdict, on any refused group whose keywords are all supported, and on any
//! problem reading the suite. Regenerates `docs/CONFORMANCE.md` (deterministically) when the
//! suite is present; says loudly that it skipped when it is not.

use std::path::PathBuf;

use toolgate_conformance::{generated::SUITE, headline, report, run, DRAFTS};

#[test]
fn json_schema_test_suite() {
    if !SUITE.present {
        eprintln!(
            "\n=== SKIPPED: the JSON Schema Test Suite was not found ({}) ===\n\
             Set TOOLGATE_SUITE_DIR to a checkout of json-schema-org/JSON-Schema-Test-Suite and rebuild.\n",
            SUITE.location
        );
        return;
    }
    let outcome = run(&SUITE);
    let text = report(&SUITE, &outcome);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("docs").join("CONFORMANCE.md");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        if let Err(e) = std::fs::write(&path, &text) {
            panic!("cannot write {}: {e}", path.display());
        }
        eprintln!("updated {}", path.display());
    }
    for d in DRAFTS {
        let (groups, accepted, cases, cases_accepted, passed) = headline(&outcome, d.dir);
        eprintln!(
            "JSON Schema Test Suite ({}, required): {accepted}/{groups} groups accepted, \
             {passed}/{cases_accepted} accepted cases passed ({cases} cases in all)",
            d.title
        );
    }
    assert!(
        outcome.failures.is_empty(),
        "{} conformance failure(s):\n{}",
        outcome.failures.len(),
        outcome.failures.join("\n")
    );
    for d in DRAFTS.iter().filter(|d| SUITE.files.iter().any(|f| f.draft == d.dir)) {
        let (_, accepted, _, _, passed) = headline(&outcome, d.dir);
        assert!(accepted > 0 && passed > 0, "the suite's {} tests are present but nothing was checked", d.title);
    }
}
