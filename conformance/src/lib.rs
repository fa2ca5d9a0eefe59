//! Conformance of toolgate's generated validators.
//!
//! The build script reads the official JSON Schema Test Suite (drafts 2020-12, 7, 6 and 4, each
//! with `optional/`; the older drafts' schemas compiled with the dialect of their directory) and,
//! for every test group the schema compiler accepts, generates the validator through the
//! macro's code path (`toolgate_compiler::compile_text_with`; the generated code lives in
//! [`generated`]). This library holds that table ([`generated::SUITE`]), runs every case
//! against every entry point of [`toolgate::Tool`] ([`run`]) and renders `docs/CONFORMANCE.md`
//! ([`report`]).
//!
//! The tests live in `tests/`: `suite.rs` (the suite, the report), `stream.rs` (the streaming
//! validator over every accepted case, [`check_stream`], and `docs/STREAMING.md`,
//! [`stream_report`]), `mask.rs` (token masks over vocabularies cut from each group's cases,
//! [`mask_run`]) and `differential.rs` (generated instances, checked against the `jsonschema`
//! crate, and through the stream).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;
use toolgate::{Tool, Violations};

pub use generated::{DRAFTS, SUPPORTED};

/// One draft of the suite the harness runs.
#[derive(Debug, Clone, Copy)]
pub struct DraftInfo {
    /// its directory under `tests/`, e.g. `draft7`
    pub dir: &'static str,
    /// its name in the report, e.g. `draft-07`
    pub title: &'static str,
    /// the keywords the compiler supports in it (asked of the compiler at build time)
    pub supported: &'static [&'static str],
}

/// A use of a supported keyword that toolgate refuses by design, recognised by its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedForm {
    /// the name the report gives it, e.g. `$ref (outside the document)`
    pub label: &'static str,
    /// a fragment of the compiler's message for it
    pub message: &'static str,
    /// why it is refused
    pub reason: &'static str,
}

/// The uses of supported keywords that toolgate refuses by design. A refusal of a group whose
/// keywords are all supported is a finding (the test fails) unless every diagnostic is one of
/// these.
pub const REFUSED_FORMS: &[RefusedForm] = &[
    RefusedForm {
        label: "$ref (outside the document)",
        message: "points outside this schema",
        reason: "toolgate never fetches schemas: every reference must resolve within the tool's own schema",
    },
    RefusedForm {
        label: "$ref (into a non-schema)",
        message: "does not point at a schema",
        reason: "a reference must point at a subschema, not into the value of an annotation or an unknown keyword",
    },
    RefusedForm {
        label: "format (cannot be asserted)",
        message: "cannot be asserted",
        reason: "under `#[tool(formats = assert)]`, a format toolgate has no exact check for is a compile error",
    },
];

impl RefusedForm {
    /// The refused form a diagnostic message names, if any.
    #[must_use]
    pub fn of(message: &str) -> Option<&'static Self> {
        REFUSED_FORMS.iter().find(|f| message.contains(f.message))
    }
}

/// A suite group that toolgate refuses on purpose although the suite expects it to work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deliberate {
    /// the file, as in [`SuiteFile::path`]
    pub file: &'static str,
    /// the group's description
    pub group: &'static str,
    /// a fragment every refusal message of the group contains
    pub message: &'static str,
    /// why toolgate refuses it (goes into the report)
    pub reason: &'static str,
}

/// The known conflicts between toolgate's compile-time refusals and the suite. Each one is listed
/// in the report; an entry that no longer matches a refused group fails the test, so that the
/// list cannot go stale.
pub const DELIBERATE: &[Deliberate] = &[Deliberate {
    file: "draft2020-12/enum.json",
    group: "empty enum",
    message: "`enum` is empty",
    reason: "the spec says `enum` SHOULD have at least one element, and the suite expects `\"enum\": []` to \
             reject every instance; toolgate refuses it at compile time as a schema no value can satisfy \
             (DESIGN.md: compile-time refusals). Awaiting a decision: accept it as `false`, or keep refusing.",
}];

/// An optional suite group whose expected verdicts toolgate does not give, by a documented
/// choice. Only the optional tests (behaviour the specification leaves to implementations) may
/// have one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deviation {
    /// the file, as in [`SuiteFile::path`]
    pub file: &'static str,
    /// the group's description
    pub group: &'static str,
    /// what toolgate does instead, and why (goes into the report)
    pub reason: &'static str,
}

/// The optional groups where toolgate's verdicts differ from the suite's on purpose. Every one
/// is listed in the report with the cases that differ; an entry whose group no longer differs
/// (or is not an accepted optional group) fails the test, so that the list cannot go stale.
pub const DEVIATIONS: &[Deviation] = &[
    Deviation {
        file: "draft7/optional/content.json",
        group: "validation of string-encoded content based on media type",
        reason: CONTENT_ANNOTATIONS,
    },
    Deviation {
        file: "draft7/optional/content.json",
        group: "validation of binary string-encoding",
        reason: CONTENT_ANNOTATIONS,
    },
    Deviation {
        file: "draft7/optional/content.json",
        group: "validation of binary-encoded media type documents",
        reason: CONTENT_ANNOTATIONS,
    },
    Deviation {
        file: "draft4/optional/zeroTerminatedFloats.json",
        group: "some languages do not distinguish between different types of numeric value",
        reason: "draft-04 defines `integer` as \"a JSON number without a fraction or exponent part\", so `1.0` is \
                 not one; toolgate counts a number with a zero fractional part as an integer in every dialect \
                 (the definition of draft-06 and later, which the required draft-04 tests do not contradict). The \
                 draft-04 definition is not a choice lowering can make: the generated code, the text scanner and \
                 the stream would have to tell how a number was written, and a `serde_json::Value` does not keep \
                 that for an integer beyond 64 bits. Awaiting a decision: implement it for draft-04, or keep this",
    },
];

/// The [`DEVIATIONS`] entry of a group, if it has one (only optional files can).
#[must_use]
pub fn deviation_of(file: &SuiteFile, group: &Group) -> Option<&'static Deviation> {
    DEVIATIONS.iter().find(|d| file.optional && d.file == file.path && d.group == group.description)
}

/// Why the draft-07 `content.json` groups differ.
const CONTENT_ANNOTATIONS: &str = "draft-07 lets a validator choose to assert `contentEncoding` and \
     `contentMediaType`, and these optional tests expect one that does; toolgate treats them as annotations \
     in every draft, as draft 2019-09 and later define them (it does not decode base64 or parse embedded \
     documents)";

/// The suite as the build script found it.
#[derive(Debug)]
pub struct Suite {
    /// whether the suite directory was there
    pub present: bool,
    /// where it was looked for (absolute; never written into the report)
    pub location: &'static str,
    /// the suite's commit, when its `SOURCE.md` names one
    pub commit: Option<&'static str>,
    /// what the build script could not make sense of (each one fails the test)
    pub problems: &'static [&'static str],
    /// every file, sorted by path
    pub files: &'static [SuiteFile],
}

/// One file of the suite.
#[derive(Debug)]
pub struct SuiteFile {
    /// the path under `tests/`, e.g. `draft2020-12/type.json` or `draft7/ref.json`
    pub path: &'static str,
    /// the draft directory it is in ([`DraftInfo::dir`]), e.g. `draft7`
    pub draft: &'static str,
    /// whether it is under `optional/`
    pub optional: bool,
    /// its test groups, in order
    pub groups: &'static [Group],
}

/// One test group: a schema and its cases.
#[derive(Debug)]
pub struct Group {
    /// the group's description
    pub description: &'static str,
    /// compiled as `#[tool(formats = assert)]` (the `optional/format/` groups)
    pub formats_asserted: bool,
    /// the schema, as written in the suite
    pub schema: &'static str,
    /// every keyword the schema uses, recursively, sorted (see [`DraftInfo::supported`])
    pub keywords: &'static [&'static str],
    /// the keywords the compiler supports in the group's draft
    pub supported: &'static [&'static str],
    /// why the compiler refused the schema (empty when it accepted it)
    pub refusals: &'static [Refusal],
    /// the generated validator, when the schema was accepted and compiled
    pub ops: Option<Ops>,
    /// the name of its module in [`generated`] (empty when there is none); groups whose
    /// generated code is the same share one
    pub module: &'static str,
    /// set when `diagnose_text_with` accepted the schema but `compile_text_with` did not
    pub build_error: Option<&'static str>,
    /// the test cases
    pub cases: &'static [Case],
}

impl Group {
    /// The keywords the schema uses that its draft does not support ([`Group::supported`]).
    pub fn unsupported(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.keywords.iter().copied().filter(|k| !self.supported.contains(k))
    }
}

/// One diagnostic of a refused schema.
#[derive(Debug)]
pub struct Refusal {
    /// the schema location (JSON Pointer)
    pub pointer: &'static str,
    /// the keyword the pointer ends in
    pub keyword: &'static str,
    /// the compiler's message
    pub message: &'static str,
    /// whether it comes from the impossible-schema checks (`check.rs`) rather than lowering
    pub impossible: bool,
}

/// One test case.
#[derive(Debug)]
pub struct Case {
    /// the case's description
    pub description: &'static str,
    /// the instance, as its JSON text in the suite
    pub data: &'static str,
    /// whether the suite says it is valid
    pub valid: bool,
}

/// The entry points of one generated [`Tool`].
#[derive(Clone, Copy)]
pub struct Ops {
    /// [`Tool::is_valid`]
    pub is_valid: fn(&Value) -> bool,
    /// [`Tool::validate`]
    pub validate: fn(&Value) -> Result<(), Violations>,
    /// [`Tool::is_valid_json`]
    pub is_valid_json: fn(&str) -> bool,
    /// whether [`Tool::from_json`] succeeds
    pub from_json: fn(&str) -> bool,
    /// whether the type's `serde::Deserialize` (through `serde_json::from_str`) succeeds
    pub deserialize: fn(&str) -> bool,
    /// every violation [`Tool::check_json`] reports (`None` if it says the text is not JSON)
    pub check_json: fn(&str) -> Option<Vec<toolgate::Violation>>,
    /// the text fed to [`Tool::stream`] in the given chunks ([`stream_run`])
    pub stream: fn(&str, &[usize]) -> StreamRun,
    /// token masks over a vocabulary cut from the texts, with a seed and a number of random
    /// walks ([`mask_run`])
    pub mask: fn(&[&str], u64, usize) -> MaskRun,
}

impl std::fmt::Debug for Ops {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ops")
    }
}

fn from_json_ok<T: Tool>(text: &str) -> bool {
    T::from_json(text).is_ok()
}

fn check_json_all<T: Tool>(text: &str) -> Option<Vec<toolgate::Violation>> {
    let mut c = toolgate::Collect::default();
    T::check_json(text, &mut c).ok().map(|()| c.0)
}

fn deserialize_ok<T: serde::de::DeserializeOwned>(text: &str) -> bool {
    serde_json::from_str::<T>(text).is_ok()
}

impl Ops {
    /// The entry points of `T`.
    #[must_use]
    pub const fn of<T: Tool + serde::de::DeserializeOwned>() -> Self {
        Self {
            is_valid: T::is_valid,
            validate: T::validate,
            is_valid_json: T::is_valid_json,
            from_json: from_json_ok::<T>,
            deserialize: deserialize_ok::<T>,
            check_json: check_json_all::<T>,
            stream: stream_run::<T>,
            mask: mask_run::<T>,
        }
    }
}

/// The generated harness: one module per accepted group and the table [`generated::SUITE`].
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/suite.rs"));
}

/// What happened to one group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// accepted; every case was run
    Accepted {
        /// cases whose every check agreed with the suite
        passed: usize,
    },
    /// refused at compile time
    Refused {
        /// the schema uses only supported keywords: the refusal is a finding
        wrongly: bool,
    },
    /// refused on purpose although every keyword is supported (see [`DELIBERATE`])
    Deliberate(&'static Deliberate),
    /// accepted, an optional group whose verdicts differ on purpose (see [`DEVIATIONS`])
    Deviates {
        /// cases whose every check agreed with the suite
        passed: usize,
        /// the documented choice
        deviation: &'static Deviation,
    },
    /// accepted by `diagnose_text` but not compiled (a harness or compiler failure)
    Broken,
}

/// The result of running one file.
#[derive(Debug, Clone)]
pub struct FileResult {
    /// the file's path under `tests/`
    pub path: &'static str,
    /// its draft directory ([`SuiteFile::draft`])
    pub draft: &'static str,
    /// whether it is under `optional/`
    pub optional: bool,
    /// per group, in order
    pub groups: Vec<(&'static Group, Status)>,
}

/// The result of running the suite.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// per file, in path order
    pub files: Vec<FileResult>,
    /// every wrong verdict, wrong refusal and problem, one line each (empty means conformance)
    pub failures: Vec<String>,
}

/// Check one case against every entry point; returns what disagreed with the suite.
#[must_use]
pub fn check_case(ops: &Ops, case: &Case) -> Vec<String> {
    let mut wrong = Vec::new();
    let expected = if case.valid { "valid" } else { "invalid" };
    match serde_json::from_str::<Value>(case.data) {
        Err(e) => wrong.push(format!("serde_json cannot parse the data: {e}")),
        Ok(value) => {
            if (ops.is_valid)(&value) != case.valid {
                wrong.push(format!("is_valid says {}", !case.valid));
            }
            let validated = (ops.validate)(&value);
            match &validated {
                Ok(()) if !case.valid => wrong.push("validate returns Ok".to_owned()),
                Err(v) if case.valid => wrong.push(format!("validate returns {v}").replace('\n', "; ")),
                Err(v) if v.is_empty() => wrong.push("validate returns Err with no violation".to_owned()),
                _ => {}
            }
            // The text path reports exactly what the value path reports, in the same order.
            let from_value: Vec<toolgate::Violation> = validated.err().into_iter().flatten().collect();
            match (ops.check_json)(case.data) {
                Some(from_text) if from_text == from_value => {}
                Some(from_text) => wrong.push(format!("check_json reports {from_text:?}, validate {from_value:?}")),
                None => wrong.push("check_json says the text is not JSON".to_owned()),
            }
        }
    }
    if (ops.is_valid_json)(case.data) != case.valid {
        wrong.push(format!("is_valid_json says {}", !case.valid));
    }
    if (ops.from_json)(case.data) != case.valid {
        wrong.push(format!("from_json {}", if case.valid { "fails" } else { "succeeds" }));
    }
    if (ops.deserialize)(case.data) != case.valid {
        wrong.push(format!("Deserialize {}", if case.valid { "fails" } else { "succeeds" }));
    }
    if !wrong.is_empty() {
        wrong.insert(0, format!("expected {expected}"));
    }
    wrong
}

/// Run every case of every accepted group and classify every refusal.
#[must_use]
pub fn run(suite: &Suite) -> Outcome {
    let mut out = Outcome::default();
    for p in suite.problems {
        out.failures.push(format!("suite problem: {p}"));
    }
    for file in suite.files {
        let mut groups = Vec::new();
        for group in file.groups {
            let here = format!("{} / {:?}", file.path, group.description);
            let status = if let Some(ops) = &group.ops {
                let deviation = deviation_of(file, group);
                let mut passed = 0;
                let mut wrong_cases = Vec::new();
                for case in group.cases {
                    let wrong = check_case(ops, case);
                    if wrong.is_empty() {
                        passed += 1;
                    } else {
                        wrong_cases.push(format!(
                            "wrong verdict: {here} / {:?}: data {}: {}",
                            case.description,
                            one_line(case.data),
                            wrong.join(", ")
                        ));
                    }
                }
                match deviation {
                    Some(deviation) if !wrong_cases.is_empty() => Status::Deviates { passed, deviation },
                    _ => {
                        out.failures.extend(wrong_cases);
                        Status::Accepted { passed }
                    }
                }
            } else if group.refusals.is_empty() {
                out.failures.push(format!(
                    "not compiled: {here}: {}",
                    group.build_error.unwrap_or("accepted but no validator was generated")
                ));
                Status::Broken
            } else {
                let wrongly = group.unsupported().next().is_none()
                    && !group.refusals.iter().all(|r| RefusedForm::of(r.message).is_some());
                let deliberate = DELIBERATE.iter().find(|d| {
                    d.file == file.path
                        && d.group == group.description
                        && group.refusals.iter().all(|r| r.message.contains(d.message))
                });
                if let (true, Some(d)) = (wrongly, deliberate) {
                    groups.push((group, Status::Deliberate(d)));
                    continue;
                }
                if wrongly {
                    let kind = if group.refusals.iter().all(|r| r.impossible) {
                        "by the impossible-schema checks (check.rs)"
                    } else {
                        "although every keyword it uses is supported"
                    };
                    let why: Vec<String> =
                        group.refusals.iter().map(|r| format!("#{}: {}", r.pointer, r.message)).collect();
                    out.failures.push(format!("wrongly refused {kind}: {here}: {}", why.join("; ")));
                }
                Status::Refused { wrongly }
            };
            groups.push((group, status));
        }
        out.files.push(FileResult { path: file.path, draft: file.draft, optional: file.optional, groups });
    }
    if suite.present {
        for d in DELIBERATE {
            let used = out
                .files
                .iter()
                .flat_map(|f| &f.groups)
                .any(|(_, s)| matches!(s, Status::Deliberate(x) if std::ptr::eq(*x, d)));
            if !used {
                out.failures.push(format!(
                    "stale entry in DELIBERATE: {} / {:?} is no longer refused with {:?}; remove the entry",
                    d.file, d.group, d.message
                ));
            }
        }
        for d in DEVIATIONS {
            let used = out
                .files
                .iter()
                .flat_map(|f| &f.groups)
                .any(|(_, s)| matches!(s, Status::Deviates { deviation, .. } if std::ptr::eq(*deviation, d)));
            if !used {
                out.failures.push(format!(
                    "stale entry in DEVIATIONS: {} / {:?} is not an accepted optional group with a wrong verdict; \
                     remove the entry",
                    d.file, d.group
                ));
            }
        }
    }
    out
}

fn one_line(s: &str) -> String {
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() > 120 {
        let mut t: String = joined.chars().take(120).collect();
        t.push('…');
        t
    } else {
        joined
    }
}

#[derive(Default, Clone, Copy)]
struct Counts {
    groups: usize,
    groups_accepted: usize,
    groups_passed: usize,
    groups_refused: usize,
    cases: usize,
    cases_accepted: usize,
    cases_passed: usize,
    cases_refused: usize,
}

impl Counts {
    fn add(&mut self, group: &Group, status: &Status) {
        let n = group.cases.len();
        self.groups += 1;
        self.cases += n;
        match status {
            Status::Accepted { passed } | Status::Deviates { passed, .. } => {
                self.groups_accepted += 1;
                self.cases_accepted += n;
                self.cases_passed += passed;
                if *passed == n {
                    self.groups_passed += 1;
                }
            }
            Status::Refused { .. } | Status::Deliberate(_) => {
                self.groups_refused += 1;
                self.cases_refused += n;
            }
            Status::Broken => {}
        }
    }

    fn merge(&mut self, o: &Self) {
        self.groups += o.groups;
        self.groups_accepted += o.groups_accepted;
        self.groups_passed += o.groups_passed;
        self.groups_refused += o.groups_refused;
        self.cases += o.cases;
        self.cases_accepted += o.cases_accepted;
        self.cases_passed += o.cases_passed;
        self.cases_refused += o.cases_refused;
    }

    fn row(&self, label: &str) -> String {
        format!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            self.groups,
            self.groups_accepted,
            self.groups_passed,
            self.groups_refused,
            self.cases,
            self.cases_accepted,
            self.cases_passed,
            self.cases_refused
        )
    }
}

const COUNT_HEADER: &str = "| | groups | accepted | passed | refused | cases | accepted | passed | refused |\n\
                            |---|---:|---:|---:|---:|---:|---:|---:|---:|\n";

/// The totals of the required (`optional == false`) or optional files of one draft.
fn totals(outcome: &Outcome, draft: &str, optional: bool) -> Counts {
    let mut t = Counts::default();
    for f in outcome.files.iter().filter(|f| f.draft == draft && f.optional == optional) {
        for (g, s) in &f.groups {
            t.add(g, s);
        }
    }
    t
}

/// The headline numbers of one draft (its directory, e.g. `draft7`), for the README:
/// `(groups, accepted groups, cases, accepted cases, passed cases)` of the required tests.
#[must_use]
pub fn headline(outcome: &Outcome, draft: &str) -> (usize, usize, usize, usize, usize) {
    let t = totals(outcome, draft, false);
    (t.groups, t.groups_accepted, t.cases, t.cases_accepted, t.cases_passed)
}

/// A file's path without its draft directory (`draft7/ref.json` → `ref.json`).
fn short(path: &'static str, draft: &str) -> &'static str {
    path.strip_prefix(draft).and_then(|p| p.strip_prefix('/')).unwrap_or(path)
}

fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Refusal causes of a group: its unsupported keywords, or, when it has none, the keywords the
/// diagnostics point at.
fn causes(group: &Group) -> Vec<String> {
    let mut c: Vec<String> = group.unsupported().map(str::to_owned).collect();
    for r in group.refusals {
        if let Some(f) = RefusedForm::of(r.message) {
            if !c.iter().any(|x| x == f.label) {
                c.push(f.label.to_owned());
            }
        }
    }
    if c.is_empty() {
        for r in group.refusals {
            let tag = if r.impossible { "impossible schema" } else { "value refused" };
            let s = format!("{} ({tag})", r.keyword);
            if !c.contains(&s) {
                c.push(s);
            }
        }
    }
    c
}

fn by_keyword(outcome: &Outcome, draft: &str, optional: bool, out: &mut String) {
    // keyword -> (groups, cases, groups where it is the only cause)
    let mut table: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for f in outcome.files.iter().filter(|f| f.draft == draft && f.optional == optional) {
        for (g, s) in &f.groups {
            if !matches!(s, Status::Refused { .. } | Status::Deliberate(_)) {
                continue;
            }
            let c = causes(g);
            let sole = c.len() == 1;
            for k in c {
                let e = table.entry(k).or_default();
                e.0 += 1;
                e.1 += g.cases.len();
                if sole {
                    e.2 += 1;
                }
            }
        }
    }
    let mut rows: Vec<(String, (usize, usize, usize))> = table.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    if rows.is_empty() {
        out.push_str("None.\n");
        return;
    }
    out.push_str("| keyword | groups | cases | groups refused for this keyword alone |\n|---|---:|---:|---:|\n");
    for (k, (g, c, s)) in rows {
        let _ = writeln!(out, "| `{}` | {g} | {c} | {s} |", md(&k));
    }
}

fn per_file(outcome: &Outcome, draft: &str, optional: bool, out: &mut String) {
    out.push_str(&COUNT_HEADER.replacen("| |", "| file |", 1));
    let mut total = Counts::default();
    for f in outcome.files.iter().filter(|f| f.draft == draft && f.optional == optional) {
        let mut c = Counts::default();
        for (g, s) in &f.groups {
            c.add(g, s);
        }
        total.merge(&c);
        out.push_str(&c.row(&format!("`{}`", short(f.path, draft))));
    }
    out.push_str(&total.row("**total**"));
}

fn group_list(outcome: &Outcome, draft: &str, optional: bool, out: &mut String) {
    for f in outcome.files.iter().filter(|f| f.draft == draft && f.optional == optional) {
        let _ = writeln!(out, "- `{}`", short(f.path, draft));
        for (g, s) in &f.groups {
            let n = g.cases.len();
            let line = match s {
                Status::Accepted { passed } => format!("accepted, {passed}/{n} cases passed"),
                Status::Refused { wrongly: true } => format!("**wrongly refused** ({})", causes(g).join(", ")),
                Status::Refused { wrongly: false } => {
                    let c: Vec<String> = causes(g).iter().map(|k| format!("`{k}`")).collect();
                    format!("refused: {}", c.join(", "))
                }
                Status::Deliberate(_) => "refused on purpose, see above".to_owned(),
                Status::Deviates { passed, .. } => {
                    format!("accepted, {passed}/{n} cases passed (the others differ on purpose, see above)")
                }
                Status::Broken => "**not compiled**".to_owned(),
            };
            let _ = writeln!(out, "  - {}: {line}", md(g.description));
        }
    }
}

/// `docs/CONFORMANCE.md`: the same text for the same suite and compiler, on every run.
#[must_use]
pub fn report(suite: &Suite, outcome: &Outcome) -> String {
    let mut out = String::new();
    out.push_str("# Conformance: the JSON Schema Test Suite\n\n");
    out.push_str(
        "<!-- Generated by `cargo test -p toolgate-conformance` (conformance/tests/suite.rs). Do not edit. -->\n\n",
    );
    let commit = suite.commit.map(|c| format!(", commit `{c}`")).unwrap_or_default();
    let present: Vec<&DraftInfo> = DRAFTS.iter().filter(|d| outcome.files.iter().any(|f| f.draft == d.dir)).collect();
    let dirs: Vec<String> = present.iter().map(|d| format!("`tests/{}/`", d.dir)).collect();
    let _ = writeln!(
        out,
        "Suite: [json-schema-org/JSON-Schema-Test-Suite](https://github.com/json-schema-org/JSON-Schema-Test-Suite){commit}, \
         {}, each with its `optional/` directory.\n",
        dirs.join(", ")
    );
    out.push_str(
        "Every test group is one schema and its cases. A group is **accepted** when `tool_schema!` compiles \
         its schema (the harness generates the validator with `toolgate_compiler::compile_text_with`, the \
         macro's own code path) and **refused** when the macro rejects it at compile time: toolgate \
         implements a keyword exactly or refuses it. Every case of an accepted group is checked with \
         `is_valid`, `validate` (`Ok` exactly when valid, at least one violation otherwise), \
         `is_valid_json` on the case's JSON text, `from_json` and the generated `Deserialize`; a case \
         **passes** when all five agree with the suite. A group **passes** when all its cases do.\n\n",
    );
    out.push_str(
        "The suite's draft 2020-12 schemas declare their `$schema`; its draft-07, draft-06 and draft-04 \
         schemas declare none, so each is compiled as `#[tool(dialect = \"draft-07\")]` (`\"draft-06\"`, \
         `\"draft-04\"`) compiles it: the dialect of its directory, with that draft's keywords and \
         meanings.\n\n",
    );
    out.push_str(
        "The test fails on any wrong verdict, and on any refused group whose keywords (recursively) are \
         all supported in its draft: a refusal must be caused by a keyword toolgate does not implement, or \
         by one of the uses of a supported keyword refused by design (listed below).\n\n",
    );

    out.push_str("## Headlines\n\n");
    out.push_str(
        "| draft | required groups accepted | required cases passed | optional groups accepted | optional cases passed |\n\
         |---|---:|---:|---:|---:|\n",
    );
    for d in &present {
        let (req, opt) = (totals(outcome, d.dir, false), totals(outcome, d.dir, true));
        let _ = writeln!(
            out,
            "| {} | {}/{} | {}/{} accepted ({} in all) | {}/{} | {}/{} accepted ({} in all) |",
            d.title,
            req.groups_accepted,
            req.groups,
            req.cases_passed,
            req.cases_accepted,
            req.cases,
            opt.groups_accepted,
            opt.groups,
            opt.cases_passed,
            opt.cases_accepted,
            opt.cases
        );
    }
    let statuses = || outcome.files.iter().flat_map(|f| f.groups.iter());
    let wrong: usize = statuses()
        .map(|(g, s)| match s {
            Status::Accepted { passed } => g.cases.len() - passed,
            _ => 0,
        })
        .sum();
    let wrongly_refused = statuses().filter(|(_, s)| matches!(s, Status::Refused { wrongly: true })).count();
    let deliberate = statuses().filter(|(_, s)| matches!(s, Status::Deliberate(_))).count();
    let deviating: usize = statuses()
        .map(|(g, s)| match s {
            Status::Deviates { passed, .. } => g.cases.len() - passed,
            _ => 0,
        })
        .sum();
    let _ = writeln!(
        out,
        "\nWrong verdicts: **{wrong}**. Wrongly refused groups: **{wrongly_refused}**. \
         Refused on purpose although the suite expects them to work: **{deliberate}** (listed below). \
         Optional cases whose verdict differs on purpose: **{deviating}** (listed below). \
         Other problems: **{}**.\n",
        outcome.failures.len().saturating_sub(wrong).saturating_sub(wrongly_refused)
    );

    out.push_str("Uses of supported keywords that are refused by design:\n\n");
    for f in REFUSED_FORMS {
        let _ = writeln!(out, "- `{}`: {}.", f.label, f.reason);
    }

    out.push_str("\n## Refused on purpose, although the suite expects the schema to work\n\n");
    let mut any = false;
    for f in &outcome.files {
        for (g, s) in &f.groups {
            if let Status::Deliberate(d) = s {
                any = true;
                let _ = writeln!(
                    out,
                    "- `{}`, group \"{}\" ({} cases): {}",
                    f.path,
                    md(g.description),
                    g.cases.len(),
                    md(d.reason)
                );
            }
        }
    }
    if !any {
        out.push_str("None.\n");
    }

    out.push_str("\n## Optional tests whose verdicts differ on purpose\n\n");
    let mut any = false;
    for f in &outcome.files {
        for (g, s) in &f.groups {
            if let Status::Deviates { passed, deviation } = s {
                any = true;
                let _ = writeln!(
                    out,
                    "- `{}`, group \"{}\" ({} of {} cases differ): {}.",
                    f.path,
                    md(g.description),
                    g.cases.len() - passed,
                    g.cases.len(),
                    md(deviation.reason)
                );
            }
        }
    }
    if !any {
        out.push_str("None.\n");
    }

    for d in &present {
        draft_section(outcome, d, &mut out);
    }

    out.push_str("\n## Every group\n");
    for d in &present {
        for (optional, what) in [(false, "required tests"), (true, "optional tests")] {
            let _ = writeln!(out, "\n<details><summary>{}, {what}</summary>\n", d.title);
            group_list(outcome, d.dir, optional, &mut out);
            out.push_str("\n</details>\n");
        }
    }
    if !outcome.failures.is_empty() {
        out.push_str("\n## Failures\n\n");
        for f in &outcome.failures {
            let _ = writeln!(out, "- {}", md(f));
        }
    }
    out
}

/// One draft's part of the report: its supported keywords, totals, tables and refusals.
fn draft_section(outcome: &Outcome, d: &DraftInfo, out: &mut String) {
    let _ = writeln!(out, "\n## {}\n", capitalised(d.title));
    let kws: Vec<String> = d.supported.iter().map(|k| format!("`{k}`")).collect();
    let _ = writeln!(
        out,
        "Supported keywords in {} (asked of the compiler when the harness is built): {}.\n",
        d.title,
        kws.join(", ")
    );
    let req = totals(outcome, d.dir, false);
    let opt = totals(outcome, d.dir, true);
    let _ = writeln!(out, "### Totals ({})\n", d.title);
    out.push_str(COUNT_HEADER);
    out.push_str(&req.row(&format!("required (`tests/{}`)", d.dir)));
    out.push_str(&opt.row("optional (`optional/`)"));
    let _ = writeln!(out, "\n### Required tests, per file ({})\n", d.title);
    per_file(outcome, d.dir, false, out);
    let _ = writeln!(out, "\n### Refusals by keyword ({}, required tests)\n", d.title);
    out.push_str(
        "A group that uses several unsupported keywords counts once under each. `items (array form)` is \
         tuple validation in a draft 2020-12 schema; `$schema (another draft)` is a `$schema` other than \
         draft 2020-12, draft-07, draft-06 or draft-04.\n\n",
    );
    by_keyword(outcome, d.dir, false, out);
    let _ = writeln!(out, "\n### Optional tests ({})\n", d.title);
    optional_notes(outcome, d.dir, out);
    out.push('\n');
    per_file(outcome, d.dir, true, out);
    let _ = writeln!(out, "\n#### Refusals by keyword ({}, optional tests)\n", d.title);
    by_keyword(outcome, d.dir, true, out);
}

/// `draft-07` → `Draft-07`.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// What the optional tests of a draft cover, and what toolgate chooses for them: for draft
/// 2020-12 [`OPTIONAL_NOTES`]; for the others, the notes of [`LEGACY_NOTES`] whose file the
/// draft has.
fn optional_notes(outcome: &Outcome, draft: &str, out: &mut String) {
    if draft == "draft2020-12" {
        out.push_str(OPTIONAL_NOTES);
        return;
    }
    out.push_str(
        "The optional tests cover behaviour the specification leaves to implementations. Every accepted group \
         is checked like the required tests, and a wrong verdict fails the test just the same; toolgate's \
         choices are those of draft 2020-12:\n\n",
    );
    for (file, note) in LEGACY_NOTES {
        let here = |f: &FileResult| short(f.path, draft).starts_with(file) || f.path.starts_with(file);
        if outcome.files.iter().filter(|f| f.draft == draft && f.optional).any(here) {
            let _ = writeln!(out, "- {note}");
        }
    }
}

const OPTIONAL_NOTES: &str = "\
The optional tests cover behaviour the specification leaves to implementations. Every accepted group \
is checked like the required tests, and a wrong verdict fails the test just the same:

- `bignum.json`: integers beyond 64 bits are integers and numbers; limits up to `u64::MAX` and \
  down to `-u64::MAX` compare exactly. Instances are `serde_json` values, so a number beyond `u64`/`i64` is \
  held as the nearest `f64`: its integer-ness and its order against a limit are still right (an `f64` \
  beyond 2^53 is an integer), but two such numbers that differ only after the 17th significant digit \
  compare equal. The high-precision groups pass because the suite's values round that way.
- `float-overflow.json`: `multipleOf` is decided on decimal values, never on a rounded quotient, so \
  `1e308` is a multiple of `0.5`.
- `format/*.json` expect `format` to assert: the harness compiles them as `#[tool(formats = assert)]` \
  compiles them. A format toolgate has no exact check for is then refused at compile time (see the \
  uses refused by design). Without that option `format` is an annotation, as `format.json` of the \
  required tests expects.
- `unknownKeyword.json`, `refOfUnknownKeyword.json`: unknown keywords are refused by design (a typo must \
  not be ignored).
- `dependencies-compatibility.json`, `cross-draft.json`: keywords and references of other drafts are \
  refused in a draft 2020-12 schema.
";

/// Notes on the optional tests of draft-07, draft-06 and draft-04: a file (or directory) under
/// the draft's directory (`draft4/...` for a note on that draft only), and what the report says
/// about it when the draft has it.
const LEGACY_NOTES: &[(&str, &str)] = &[
    (
        "optional/bignum.json",
        "`bignum.json`, `float-overflow.json`: as for draft 2020-12 (limits up to `u64::MAX` and down to \
         `-u64::MAX` compare exactly; `multipleOf` is decided on decimal values).",
    ),
    (
        "optional/format/",
        "`format/*.json` expect `format` to assert: the harness compiles them as \
         `#[tool(formats = assert, dialect = \"draft-0N\")]` compiles them, with the format checks of draft \
         2020-12; a format toolgate has no exact check for is refused at compile time. Without that option \
         `format` is an annotation in every draft, as `format.json` of the required tests expects.",
    ),
    (
        "optional/content.json",
        "`content.json` expects `contentEncoding` and `contentMediaType` to assert, which draft-07 allows but \
         does not require: toolgate keeps them annotations in every draft (see the verdicts that differ on \
         purpose).",
    ),
    (
        "optional/zeroTerminatedFloats.json",
        "`zeroTerminatedFloats.json`: draft-04's `integer` is a number written without a fraction or \
         exponent, so `1.0` is not one; toolgate's is a number with a zero fractional part (see the verdicts \
         that differ on purpose).",
    ),
    (
        "draft4/optional/id.json",
        "`id.json`: its schema has a `const`, which a draft-04 validator ignores as unknown; \
         toolgate refuses a keyword of another draft (it would be ignored, which is never what was meant).",
    ),
    (
        "optional/unknownKeyword.json",
        "`unknownKeyword.json`: unknown keywords are refused by design (a typo must not be ignored).",
    ),
    (
        "optional/cross-draft.json",
        "`cross-draft.json`: its references to documents of other drafts (the suite's `remotes/`) point \
         outside the schema (toolgate never fetches).",
    ),
];

// ---------------------------------------------------------------------------------------------
// The streaming validator: soundness, agreement at the end, and how early it rejects.
// ---------------------------------------------------------------------------------------------

/// Where a [`StreamRun`] first came back [`toolgate::Progress::Dead`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamDeath {
    /// `Dead::offset`: the byte at which no continuation could be valid any more
    pub offset: usize,
    /// how many bytes had been fed when `feed` first returned `Dead`
    pub fed: usize,
    /// `Dead::error`, as text
    pub error: String,
}

/// One text fed to [`Tool::stream`] in chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamRun {
    /// the first `Dead` that `feed` returned, if any
    pub dead: Option<StreamDeath>,
    /// a `feed` after the first `Dead` returned something other than that same `Dead`
    pub unstable: bool,
    /// `__automaton_verdict()` once everything was fed (before `finish`)
    pub verdict: Option<bool>,
    /// `finish()`, the error as text
    pub finish: Result<(), String>,
    /// where `T` streams with the lean automaton: where the general automaton of the same
    /// program dies on the text (fed byte by byte; computed for 1-byte chunks only), which the
    /// lean one must match
    pub reference: Option<Option<usize>>,
    /// the lean automaton handed over to the general one (it never should)
    pub handed_over: bool,
    /// the first feed (or `finish`) at which the stream said something else than the same
    /// stream without its quick reader (`Stream::__automaton_only`), fed the same chunks: the
    /// quick reader must change nothing but the cost
    pub quick: Option<String>,
    /// the stream's first reader is the flat reader (a flat tool's), not the quick reader
    pub flat: bool,
    /// the first feed (or `finish`) at which a `TextStream` given the text so far after each
    /// chunk said something else than the stream: it must answer the same, feed for feed
    pub over: Option<String>,
}

/// Feed `text` to `T::stream()` in chunks of the sizes `sizes` cycles through (an empty `sizes`
/// means one chunk; a size of 0 counts as 1), then finish.
#[must_use]
pub fn stream_run<T: Tool>(text: &str, sizes: &[usize]) -> StreamRun {
    let bytes = text.as_bytes();
    let mut s = T::stream();
    let mut plain = T::stream().__automaton_only();
    let mut over_stream = toolgate::TextStream::<T>::new();
    let mut quick = None;
    let mut over = None;
    let (mut at, mut k) = (0, 0);
    let mut first: Option<toolgate::Progress> = None;
    let mut dead = None;
    let mut unstable = false;
    while at < bytes.len() {
        let left = bytes.len() - at;
        let n = sizes.get(k % sizes.len().max(1)).copied().unwrap_or(left).clamp(1, left);
        k += 1;
        let p = s.feed(&bytes[at..at + n]);
        let q = plain.feed(&bytes[at..at + n]);
        if p != q && quick.is_none() {
            quick = Some(format!("bytes {at}..{}: {p:?}, without the quick reader {q:?}", at + n));
        }
        let o = over_stream.feed_text(&bytes[..at + n]);
        if p != o && over.is_none() {
            over = Some(format!("bytes {at}..{}: {p:?}, the text stream {o:?}", at + n));
        }
        at += n;
        match (&first, p) {
            (None, toolgate::Progress::Alive) => {}
            (None, p @ toolgate::Progress::Dead(_)) => {
                if let toolgate::Progress::Dead(d) = &p {
                    dead = Some(StreamDeath { offset: d.offset, fed: at, error: d.error.to_string() });
                }
                first = Some(p);
            }
            (Some(f), p) => unstable |= *f != p,
        }
    }
    let verdict = s.__automaton_verdict();
    let handed_over = s.__handed_over();
    let finish = s.finish().map_err(|e| e.to_string());
    let plain_finish = plain.finish().map_err(|e| e.to_string());
    if finish != plain_finish && quick.is_none() {
        quick = Some(format!("finish: {finish:?}, without the quick reader {plain_finish:?}"));
    }
    let over_finish = over_stream.finish(bytes).map_err(|e| e.to_string());
    if finish != over_finish && over.is_none() {
        over = Some(format!("finish: {finish:?}, the text stream {over_finish:?}"));
    }
    let reference =
        (toolgate::Stream::<T>::__lean() && sizes == [1]).then(|| toolgate::Stream::<T>::__reference(bytes).0);
    let flat = toolgate::Stream::<T>::__flat();
    StreamRun { dead, unstable, verdict, finish, reference, handed_over, quick, flat, over }
}

/// Eight chunk sizes between 1 and 17, the same for the same `seed` (SplitMix64).
#[must_use]
pub fn random_chunking(seed: u64) -> Vec<usize> {
    let mut x = seed;
    (0..8)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            1 + usize::try_from(z % 17).unwrap_or(0)
        })
        .collect()
}

/// FNV-1a of `parts`: a fixed seed for a case.
#[must_use]
pub fn seed_of(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// What [`check_stream`] found about one text.
#[derive(Debug, Clone, Default)]
pub struct StreamCheck {
    /// every broken guarantee, one line each (empty: the stream behaved)
    pub wrong: Vec<String>,
    /// the death offset with 1-byte chunks
    pub dead: Option<usize>,
    /// the text's length in bytes
    pub len: usize,
    /// the schema streams with the lean automaton (checked against the general one)
    pub lean: bool,
    /// the stream reads first with the flat reader (a flat tool's)
    pub flat: bool,
}

fn chunking_label(sizes: &[usize], len: usize) -> String {
    match sizes {
        [1] => "1-byte chunks".to_owned(),
        [] => "one chunk".to_owned(),
        [n] if *n >= len => "one chunk".to_owned(),
        _ => format!("chunks {sizes:?} (cycled)"),
    }
}

/// Check the stream on `text`: fed byte by byte (so every prefix is looked at), then in each of
/// `chunkings`. `expected` is the known verdict (the suite's), if any; the stream must agree
/// with it and with `is_valid_json`.
///
/// The guarantees: a prefix of a valid text is never dead; `finish()` is `Ok` exactly when the
/// text is valid; the death offset does not depend on the chunking (and lies before the bytes
/// fed when it was reported); feeding after `Dead` returns the same `Dead`; the automaton's
/// own verdict, when it gives one and the text did not die, is right; the lean automaton, where a
/// schema has it, dies where the general one does and never hands over.
#[must_use]
pub fn check_stream(
    stream: fn(&str, &[usize]) -> StreamRun,
    is_valid_json: fn(&str) -> bool,
    text: &str,
    expected: Option<bool>,
    chunkings: &[Vec<usize>],
) -> StreamCheck {
    let json = is_valid_json(text);
    let truth = expected.unwrap_or(json);
    let len = text.len();
    let mut wrong = Vec::new();
    if json != truth {
        wrong.push(format!("is_valid_json says {json}, expected {truth}"));
    }
    let first = stream(text, &[1]);
    let dead = first.dead.as_ref().map(|d| d.offset);
    for (i, sizes) in std::iter::once(&vec![1]).chain(chunkings).enumerate() {
        let r = if i == 0 { first.clone() } else { stream(text, sizes) };
        let how = chunking_label(sizes, len);
        if let Some(d) = &r.dead {
            if truth || json {
                let prefix = String::from_utf8_lossy(&text.as_bytes()[..d.fed]);
                wrong.push(format!(
                    "UNSOUND ({how}): a valid text is dead at byte {}, reported after {} bytes fed (prefix {prefix:?}): {}",
                    d.offset, d.fed, d.error
                ));
            }
            if d.offset >= d.fed || d.offset >= len {
                wrong.push(format!(
                    "{how}: dead at byte {} of {len}, reported after only {} bytes fed",
                    d.offset, d.fed
                ));
            }
            if r.finish.is_ok() {
                wrong.push(format!("{how}: dead at byte {}, yet finish() is Ok", d.offset));
            }
        }
        if r.unstable {
            wrong.push(format!("{how}: a feed after Dead returned something else"));
        }
        if r.handed_over {
            wrong.push(format!("{how}: the lean automaton handed over to the general one"));
        }
        if let Some(q) = &r.quick {
            wrong.push(format!("{how}: the quick reader changed the answer at {q}"));
        }
        if let Some(o) = &r.over {
            wrong.push(format!("{how}: the text stream answered otherwise at {o}"));
        }
        if let Some(reference) = r.reference.filter(|&g| g != r.dead.as_ref().map(|d| d.offset)) {
            wrong.push(format!("{how}: the lean automaton died at {dead:?}, the general one at {reference:?}"));
        }
        let ok = r.finish.is_ok();
        if ok != truth || ok != json {
            let why = r.finish.as_ref().err().map(|e| format!(" ({e})")).unwrap_or_default();
            wrong.push(format!(
                "{how}: finish() is {}{why}, expected {truth}, is_valid_json says {json}",
                if ok { "Ok" } else { "Err" }
            ));
        }
        let at = r.dead.as_ref().map(|d| d.offset);
        if at != dead {
            wrong.push(format!("{how}: death offset {at:?}, with 1-byte chunks {dead:?}"));
        }
        if let (None, Some(v)) = (&r.dead, r.verdict) {
            if v != truth {
                wrong.push(format!("{how}: the automaton's own verdict is {v}, expected {truth}"));
            }
        }
    }
    StreamCheck { wrong, dead, len, lean: first.reference.is_some(), flat: first.flat }
}

/// How early the stream rejected a set of invalid texts.
#[derive(Debug, Clone, Default)]
pub struct Earliness {
    /// invalid texts counted
    pub invalid: usize,
    /// of which dead before their last byte (`offset + 1 < len`)
    pub early: usize,
    /// per text, the share of its bytes never waited for (0 unless early)
    saved: Vec<f64>,
}

impl Earliness {
    /// Count one invalid text of `len` bytes whose stream died at `dead` (1-byte chunks).
    #[allow(clippy::cast_precision_loss)]
    pub fn add(&mut self, dead: Option<usize>, len: usize) {
        self.invalid += 1;
        match dead {
            Some(o) if o + 1 < len => {
                self.early += 1;
                self.saved.push(1.0 - (o + 1) as f64 / len as f64);
            }
            _ => self.saved.push(0.0),
        }
    }

    /// Add another set.
    pub fn merge(&mut self, o: &Self) {
        self.invalid += o.invalid;
        self.early += o.early;
        self.saved.extend_from_slice(&o.saved);
    }

    /// The share rejected before the last byte.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn early_share(&self) -> Option<f64> {
        (self.invalid > 0).then(|| self.early as f64 / self.invalid as f64)
    }

    /// The median share of bytes never waited for.
    #[must_use]
    pub fn median_saved(&self) -> Option<f64> {
        let mut v = self.saved.clone();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(v[n / 2]),
            _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
        }
    }

    fn row(&self, label: &str) -> String {
        let pct = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), |x| format!("{:.1}%", x * 100.0));
        format!(
            "| {label} | {} | {} ({}) | {} |\n",
            self.invalid,
            pct(self.early_share()),
            self.early,
            pct(self.median_saved())
        )
    }
}

const EARLY_HEADER: &str = "| | invalid cases | rejected early | median saved |\n|---|---:|---:|---:|\n";

/// The stream over the suite: per file, how early its invalid cases died; every broken guarantee.
#[derive(Debug, Clone, Default)]
pub struct StreamOutcome {
    /// per draft 2020-12 file with at least one accepted case: path, optional, earliness of its
    /// invalid cases (what `docs/STREAMING.md` tabulates)
    pub files: Vec<(&'static str, bool, Earliness)>,
    /// draft 2020-12 cases checked (valid, invalid)
    pub cases: (usize, usize),
    /// cases of the other drafts checked (valid, invalid): their guarantees are checked the same
    /// way (a failure is in `failures`), but `docs/STREAMING.md` tabulates draft 2020-12 only
    pub other_drafts: (usize, usize),
    /// accepted groups of every draft: (streamed with the lean automaton, all)
    pub lean_groups: (usize, usize),
    /// the accepted groups whose tool is flat: read first by the flat reader, checked against the
    /// automaton alone on every case like the quick reader
    pub flat_groups: usize,
    /// one line per case that broke a guarantee: file / group / case / text, then what broke
    pub failures: Vec<String>,
}

/// Feed every case of every accepted group (every draft) through the stream: byte by byte, in
/// one chunk and in three seeded random chunkings ([`check_stream`]).
#[must_use]
pub fn run_stream(suite: &Suite) -> StreamOutcome {
    let mut out = StreamOutcome::default();
    for file in suite.files {
        let newest = file.draft == "draft2020-12";
        let mut e = Earliness::default();
        let mut any = false;
        for (gi, group) in file.groups.iter().enumerate() {
            let Some(ops) = &group.ops else { continue };
            // where toolgate's verdict differs on purpose, the stream must agree with toolgate's
            let deviates = deviation_of(file, group).is_some();
            let (mut lean, mut flat) = (false, false);
            for (ci, case) in group.cases.iter().enumerate() {
                any = true;
                let (g, c) = (gi.to_string(), ci.to_string());
                let seed = seed_of(&[file.path, &g, &c]);
                let mut chunkings = vec![vec![case.data.len().max(1)]];
                chunkings.extend((0..3).map(|k| random_chunking(seed.wrapping_add(k))));
                let expected = (!deviates).then_some(case.valid);
                let r = check_stream(ops.stream, ops.is_valid_json, case.data, expected, &chunkings);
                lean |= r.lean;
                flat |= r.flat;
                let counts = if newest { &mut out.cases } else { &mut out.other_drafts };
                if case.valid {
                    counts.0 += 1;
                } else {
                    counts.1 += 1;
                    e.add(r.dead, r.len);
                }
                if !r.wrong.is_empty() {
                    out.failures.push(format!(
                        "{} / group {gi} {:?} / case {ci} {:?} (valid: {}): data {:?}: {}",
                        file.path,
                        group.description,
                        case.description,
                        case.valid,
                        case.data,
                        r.wrong.join("; ")
                    ));
                }
            }
            out.lean_groups.0 += usize::from(lean);
            out.lean_groups.1 += 1;
            out.flat_groups += usize::from(flat);
        }
        if any && newest {
            out.files.push((file.path, file.optional, e));
        }
    }
    out
}

/// The suite's invalid cases of draft 2020-12 counted together: the required ones
/// (`Some(false)`), the optional ones (`Some(true)`) or all of them (`None`).
fn total(outcome: &StreamOutcome, optional: Option<bool>) -> Earliness {
    let mut t = Earliness::default();
    for (_, o, e) in &outcome.files {
        if optional.is_none_or(|x| x == *o) {
            t.merge(e);
        }
    }
    t
}

/// The fixtures' invalid texts counted together.
fn fixture_total(fixtures: &[(&str, Earliness)]) -> Earliness {
    let mut f = Earliness::default();
    for (_, e) in fixtures {
        f.merge(e);
    }
    f
}

/// The README's sentence on the totals of [`stream_report`] (the README must quote it, so that
/// its figures are the report's), of the form "66.7% of the suite's 805 (61.0% of the required
/// tests' 485, 75.3% of the optional ones' 320, most of them formats) and 77.8% of the
/// fixtures' 126".
#[must_use]
pub fn stream_summary(outcome: &StreamOutcome, fixtures: &[(&str, Earliness)]) -> String {
    let share = |e: &Earliness| format!("{:.1}%", 100.0 * e.early_share().unwrap_or(0.0));
    let (all, req, opt, fx) =
        (total(outcome, None), total(outcome, Some(false)), total(outcome, Some(true)), fixture_total(fixtures));
    format!(
        "{} of the suite's {} ({} of the required tests' {}, {} of the optional ones' {}, most of them formats) and {} \
         of the fixtures' {}",
        share(&all),
        all.invalid,
        share(&req),
        req.invalid,
        share(&opt),
        opt.invalid,
        share(&fx),
        fx.invalid
    )
}

/// `docs/STREAMING.md`: the same text for the same suite, compiler and fixtures, on every run.
/// `fixtures` are the in-repo fixtures' invalid texts, per fixture.
#[must_use]
pub fn stream_report(suite: &Suite, outcome: &StreamOutcome, fixtures: &[(&str, Earliness)]) -> String {
    let mut out = String::new();
    out.push_str("# Streaming: how early the stream rejects\n\n");
    out.push_str(
        "<!-- Generated by `cargo test -p toolgate-conformance --test stream` (conformance/tests/stream.rs). Do not edit. -->\n\n",
    );
    out.push_str(
        "Every case of every suite group that `tool_schema!` accepts (see CONFORMANCE.md) is fed to \
         `T::stream()` byte by byte, in one chunk and in three seeded random chunkings. The test fails \
         if a prefix of a valid case is ever dead, if `finish()` disagrees with the suite or with \
         `is_valid_json`, if the death offset depends on the chunking, or if the automaton's own end \
         verdict is wrong. The tables below count the invalid cases: one is **rejected early** when \
         `feed` returns `Dead` before its last byte (offset + 1 < length), so the whole text was not \
         needed; **saved** is the share of its bytes never waited for, 1 − (offset + 1) / length, and \
         0 for a case decided at its last byte or only by `finish()`. The suite's data is always \
         JSON, so every invalid case breaks the schema, not the syntax. The same suite, compiler and \
         fixtures give the same text.\n\n",
    );
    let commit = suite.commit.map(|c| format!(", commit `{c}`")).unwrap_or_default();
    let _ = writeln!(
        out,
        "Suite: [json-schema-org/JSON-Schema-Test-Suite](https://github.com/json-schema-org/JSON-Schema-Test-Suite){commit}, \
         `tests/draft2020-12/` and `optional/`. Cases checked: {} valid, {} invalid. Broken guarantees: **{}**.\n",
        outcome.cases.0,
        outcome.cases.1,
        outcome.failures.len()
    );
    let _ = writeln!(
        out,
        "Automata: {} of the {} accepted groups (every draft) stream with the lean automaton (a value that \
         several subschemas speak of, below the root, handed to the general one), checked to die at the same \
         byte as the general automaton on every case; the others, whose root value several subschemas speak \
         of, stream with the general automaton. {} of the groups are flat tools (an object or array of scalars, \
         objects and arrays), read first by the flat reader the macro emits for them, the others by the quick \
         reader; either one is checked feed by feed against the automaton alone.\n",
        outcome.lean_groups.0, outcome.lean_groups.1, outcome.flat_groups
    );
    out.push_str("## Totals\n\n");
    out.push_str(EARLY_HEADER);
    out.push_str(&total(outcome, Some(false)).row("required (`tests/draft2020-12`)"));
    out.push_str(&total(outcome, Some(true)).row("optional (`optional/`)"));
    out.push_str(&total(outcome, None).row("**all**"));
    if !fixtures.is_empty() {
        out.push_str(&fixture_total(fixtures).row("in-repo fixtures (`tests/tests/fixtures`)"));
    }
    for (optional, title) in [(false, "Required tests, per file"), (true, "Optional tests, per file")] {
        let _ = writeln!(out, "\n## {title}\n");
        out.push_str(&EARLY_HEADER.replacen("| |", "| file |", 1));
        for (path, _, e) in outcome.files.iter().filter(|(_, o, e)| *o == optional && e.invalid > 0) {
            out.push_str(&e.row(&format!("`{}`", path.trim_start_matches("draft2020-12/"))));
        }
    }
    if !fixtures.is_empty() {
        out.push_str("\n## In-repo fixtures, per schema\n\n");
        out.push_str(
            "The invalid texts among the instances each fixture of `tests/tests/fixtures/mod.rs` lists (not \
             its shared malformed texts, nor mutants), checked the same way (`is_valid_json` is the \
             verdict).\n\n",
        );
        out.push_str(&EARLY_HEADER.replacen("| |", "| fixture |", 1).replace("invalid cases", "invalid texts"));
        for (name, e) in fixtures {
            out.push_str(&e.row(&format!("`{name}`")));
        }
    }
    if !outcome.failures.is_empty() {
        out.push_str("\n## Broken guarantees\n\n");
        for f in &outcome.failures {
            let _ = writeln!(out, "- {}", md(f));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Token masks: equal to brute force, and random walks under them end valid.
// ---------------------------------------------------------------------------------------------

/// The length budget of one random walk under the mask ([`mask_run`]), in tokens.
pub const WALK_BUDGET: usize = 100;

/// What [`mask_run`] found over one group's texts.
#[derive(Debug, Clone, Default)]
pub struct MaskRun {
    /// the size of the vocabulary cut from the texts ([`mask_vocabulary`])
    pub tokens: usize,
    /// the stream states at which the mask was compared with brute force: every cut point of
    /// every text up to where it died, and the last state of every walk that did not end
    pub compared: usize,
    /// random walks run
    pub walks: usize,
    /// walks that ended (the end was allowed by `can_finish()`): each one checked valid
    pub ended: usize,
    /// walks cut at the length budget ([`WALK_BUDGET`])
    pub budget: usize,
    /// of those, the walks that closing tries ([`close_walk`]) brought to a valid end
    pub closed: usize,
    /// the texts of the walks cut at the budget that no closing try brought to an end (a hint
    /// of a trap: a prefix the mask let through that may have no valid end)
    pub unclosed: Vec<String>,
    /// the texts of the walks that got stuck: alive, no non-empty token allowed, and
    /// `can_finish()` false (a completeness gap, not a soundness bug)
    pub stuck: Vec<String>,
    /// walks that could not begin: no value satisfies the schema, and nothing is allowed from
    /// the start (not stuck: the right answer)
    pub nothing: usize,
    /// every broken guarantee, one line each (empty: the mask behaved)
    pub failures: Vec<String>,
}

/// SplitMix64: the walks' and the vocabulary's randomness, the same for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).unwrap_or(u64::MAX).max(1);
        usize::try_from(self.next() % n).unwrap_or(0)
    }
}

/// A small vocabulary cut from `texts`, the same for the same texts and `seed`: every byte
/// 0x20..=0x7E and `\n`, every byte >= 0x80 the texts hold (so that walks can write their
/// characters), pieces of 2 to 6 bytes cut at seeded places from each text (so tokens split
/// UTF-8 characters, escapes, keys and numbers), an empty token and a duplicate of `"`; in a
/// seeded order, so that ids are not sorted by bytes.
#[must_use]
pub fn mask_vocabulary(texts: &[&str], seed: u64) -> Vec<Vec<u8>> {
    let mut set: std::collections::BTreeSet<Vec<u8>> = (0x20..=0x7E).chain([b'\n']).map(|b| vec![b]).collect();
    set.extend(texts.iter().flat_map(|t| t.bytes()).filter(|b| *b >= 0x80).map(|b| vec![b]));
    let mut rng = Rng(seed);
    for t in texts {
        let b = t.as_bytes();
        let mut i = rng.below(3);
        while i + 2 <= b.len() {
            let end = (i + 2 + rng.below(5)).min(b.len());
            set.insert(b[i..end].to_vec());
            i = end + rng.below(2);
        }
    }
    let mut v: Vec<Vec<u8>> = set.into_iter().collect();
    v.push(Vec::new());
    v.push(b"\"".to_vec());
    for i in (1..v.len()).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
    v
}

/// A token's bytes, escaped, for a message.
fn show_token(b: &[u8]) -> String {
    format!("\"{}\"", b.escape_ascii())
}

/// Compare the mask at `s` with brute force (a clone of the stream fed each token: alive?).
fn compare_mask<T: Tool>(
    s: &toolgate::Stream<T>,
    vocab: &toolgate::Vocabulary,
    mask: &mut toolgate::TokenMask,
    here: &str,
    run: &mut MaskRun,
) {
    s.allowed(vocab, mask);
    run.compared += 1;
    let got: Vec<usize> = mask.allowed().collect();
    let brute: Vec<usize> = (0..vocab.len())
        .filter(|&t| {
            let mut c = s.clone();
            !c.feed(vocab.bytes(t)).is_dead()
        })
        .collect();
    let at = format!("{here}: after {}", show_token(s.text()));
    if got.len() != mask.count() {
        run.failures.push(format!("{at}: mask.count() is {}, mask.allowed() has {}", mask.count(), got.len()));
    }
    if (0..vocab.len()).any(|t| mask.contains(t) != got.binary_search(&t).is_ok()) {
        run.failures.push(format!("{at}: mask.contains() disagrees with mask.allowed()"));
    }
    if got != brute {
        let list = |ids: Vec<usize>| -> String {
            let v: Vec<String> = ids.iter().take(12).map(|&t| format!("{t} {}", show_token(vocab.bytes(t)))).collect();
            match ids.len() {
                0 => "none".to_owned(),
                n if n > v.len() => format!("{} … ({n} in all)", v.join(", ")),
                _ => v.join(", "),
            }
        };
        let killing: Vec<usize> = got.iter().copied().filter(|t| brute.binary_search(t).is_err()).collect();
        let missed: Vec<usize> = brute.iter().copied().filter(|t| got.binary_search(t).is_err()).collect();
        run.failures.push(format!(
            "{at}: the mask differs from brute force: allowed but the stream dies: {}; masked but the stream lives: {}",
            list(killing),
            list(missed)
        ));
    }
}

/// The closing tries given to a walk cut at the length budget.
pub const CLOSE_TRIES: usize = 8;

/// The tokens one closing try may feed.
pub const CLOSE_BUDGET: usize = 400;

/// Try to bring a walk cut at the length budget to a valid end: [`CLOSE_TRIES`] random walks
/// from its state, each of at most [`CLOSE_BUDGET`] tokens, under the mask, that strongly favour
/// the tokens holding `"`, `}`, `]` or `,`, then the pieces cut from the texts (which hold the
/// schema's names and words), and end as soon as `can_finish()`. True when one ended
/// (checked valid, as every walk's end is).
fn close_walk<T: Tool>(
    from: &toolgate::Stream<T>,
    vocab: &toolgate::Vocabulary,
    mask: &mut toolgate::TokenMask,
    rng: &mut Rng,
    failures: &mut Vec<String>,
) -> bool {
    for _ in 0..CLOSE_TRIES {
        let mut s = from.clone();
        for _ in 0..=CLOSE_BUDGET {
            if s.can_finish() {
                let text = String::from_utf8_lossy(s.text()).into_owned();
                if std::str::from_utf8(s.text()).is_err() || !T::is_valid_json(&text) {
                    failures.push(format!("closing a walk: can_finish() was true, yet the text is invalid: {text:?}"));
                } else if let Err(e) = s.finish() {
                    failures.push(format!("closing a walk: can_finish() was true, yet finish() fails ({e}): {text:?}"));
                }
                return true;
            }
            s.allowed(vocab, mask);
            let allowed: Vec<usize> = mask.allowed().filter(|&t| !vocab.bytes(t).is_empty()).collect();
            let Some(&first) = allowed.first() else { break };
            let weights: Vec<usize> = allowed
                .iter()
                .map(|&t| {
                    let b = vocab.bytes(t);
                    let w = if b.iter().any(|c| b"\"}],".contains(c)) {
                        400
                    } else if b.len() > 1 {
                        40
                    } else {
                        1
                    };
                    w + rng.below(4)
                })
                .collect();
            let mut pick = rng.below(weights.iter().sum());
            let mut chosen = first;
            for (&t, &wt) in allowed.iter().zip(&weights) {
                if pick < wt {
                    chosen = t;
                    break;
                }
                pick -= wt;
            }
            if s.feed(vocab.bytes(chosen)).is_dead() {
                failures.push(format!("closing a walk: the mask allowed token {chosen}, which kills the stream"));
                return true;
            }
        }
    }
    false
}

/// The token masks of `T` over a vocabulary cut from `texts` ([`mask_vocabulary`], with `seed`):
///
/// - at every cut point of every text (valid or not; up to and including the byte it dies at),
///   the mask equals brute force (clone the stream, feed the token, alive?);
/// - `walks` seeded random walks under the mask (random weights, tokens holding `"`, `}` or `]`
///   favoured; the walk ends with probability 1/3 whenever `can_finish()`, and must end when
///   nothing non-empty is allowed and it can finish; [`WALK_BUDGET`] tokens at most): every walk
///   that ends is valid by `is_valid_json` and `finish()`, no token the mask allowed kills the
///   stream, and the mask at the last state of a walk that did not end (stuck or cut at the
///   budget) equals brute force too.
///
/// A walk with nothing non-empty allowed that cannot finish is stuck: a completeness gap of the
/// stream, recorded in [`MaskRun::stuck`], not a failure (unless it is at the start, under a
/// schema no value satisfies: [`MaskRun::nothing`]). A walk cut at the budget is given closing
/// tries ([`close_walk`]); those that no try ends are recorded in [`MaskRun::unclosed`].
#[must_use]
pub fn mask_run<T: Tool>(texts: &[&str], seed: u64, walks: usize) -> MaskRun {
    let pieces = mask_vocabulary(texts, seed);
    let vocab = toolgate::Vocabulary::new(&pieces);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut run = MaskRun { tokens: vocab.len(), ..MaskRun::default() };
    for (ci, text) in texts.iter().enumerate() {
        let here = format!("text {ci} {}", show_token(text.as_bytes()));
        let mut s = T::stream();
        for &b in text.as_bytes() {
            compare_mask(&s, &vocab, &mut mask, &here, &mut run);
            if s.feed(&[b]).is_dead() {
                break;
            }
        }
        compare_mask(&s, &vocab, &mut mask, &here, &mut run);
    }
    let weight_base: Vec<usize> =
        (0..vocab.len()).map(|t| if vocab.bytes(t).iter().any(|c| b"\"}]".contains(c)) { 40 } else { 0 }).collect();
    let mut rng = Rng(seed ^ 0x6d61_736b_5f77_616c);
    for w in 0..walks {
        run.walks += 1;
        let mut s = T::stream();
        let mut steps = 0;
        loop {
            s.allowed(&vocab, &mut mask);
            let can_end = s.can_finish();
            let allowed: Vec<usize> = mask.allowed().filter(|&t| !vocab.bytes(t).is_empty()).collect();
            if can_end && (allowed.is_empty() || rng.below(3) == 0) {
                let text = String::from_utf8_lossy(s.text()).into_owned();
                if std::str::from_utf8(s.text()).is_err() || !T::is_valid_json(&text) {
                    run.failures.push(format!("walk {w}: can_finish() was true, yet the text is invalid: {text:?}"));
                } else if let Err(e) = s.finish() {
                    run.failures.push(format!("walk {w}: can_finish() was true, yet finish() fails ({e}): {text:?}"));
                }
                run.ended += 1;
                break;
            }
            if allowed.is_empty() {
                compare_mask(&s, &vocab, &mut mask, &format!("walk {w} (stuck)"), &mut run);
                if s.text().is_empty() && s.clone().feed(b"").is_dead() {
                    run.nothing += 1;
                } else {
                    run.stuck.push(String::from_utf8_lossy(s.text()).into_owned());
                }
                break;
            }
            if steps == WALK_BUDGET {
                run.budget += 1;
                compare_mask(&s, &vocab, &mut mask, &format!("walk {w} (at the length budget)"), &mut run);
                if close_walk(&s, &vocab, &mut mask, &mut Rng(seed ^ w as u64), &mut run.failures) {
                    run.closed += 1;
                } else {
                    run.unclosed.push(String::from_utf8_lossy(s.text()).into_owned());
                }
                break;
            }
            let weights: Vec<usize> = allowed.iter().map(|&t| weight_base[t] + 1 + rng.below(4)).collect();
            let mut pick = rng.below(weights.iter().sum());
            let mut chosen = allowed[0];
            for (&t, &wt) in allowed.iter().zip(&weights) {
                if pick < wt {
                    chosen = t;
                    break;
                }
                pick -= wt;
            }
            let before = show_token(s.text());
            if let toolgate::Progress::Dead(d) = s.feed(vocab.bytes(chosen)) {
                run.failures.push(format!(
                    "walk {w}: after {before}, the mask allowed token {chosen} {}, which kills the stream: {}",
                    show_token(vocab.bytes(chosen)),
                    d.error
                ));
                break;
            }
            steps += 1;
        }
    }
    run
}
