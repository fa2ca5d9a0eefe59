//! Every accepted schema of the corpus compiled (that this test builds at all is the first
//! check), no hand-written shape refused, and each generated type agreeing with itself on a few
//! instances: `from_json` accepts exactly what `is_valid_json` accepts, and what it builds
//! serialises back to a valid value.

use toolgate_corpus::{CORPUS, REFUSED};

const INSTANCES: &[&str] =
    &["{}", "null", "[]", "0", "-1", "1.5", "\"a\"", "true", r#"{"p": null}"#, r#"{"a": "x", "b": 1}"#, r#"["a", 1]"#];

#[test]
fn the_corpus_is_large_and_every_shape_is_accepted() {
    assert!(REFUSED.is_empty(), "shapes refused:\n{}", REFUSED.join("\n"));
    let shapes = CORPUS.iter().filter(|e| e.label.starts_with("shape ")).count();
    let shaped = CORPUS.iter().filter(|e| e.label.starts_with("tool-shaped ")).count();
    let soup = CORPUS.iter().filter(|e| e.label.starts_with("keyword soup ")).count();
    eprintln!("corpus: {shapes} shapes, {shaped} tool-shaped, {soup} from the keyword soup");
    assert!(shapes >= 100 && shaped >= 50 && soup >= 5, "{shapes} shapes, {shaped} tool-shaped, {soup} soup");
}

#[test]
fn every_generated_type_agrees_with_itself() {
    let mut failures = Vec::new();
    for e in CORPUS {
        for text in INSTANCES {
            let valid = (e.ops.is_valid_json)(text);
            match (e.ops.round_trip)(text) {
                None if valid => failures
                    .push(format!("{}: `{text}` is valid but from_json (or its text builder) refused it", e.label)),
                Some(_) if !valid => failures.push(format!("{}: `{text}` is invalid but from_json built it", e.label)),
                Some(false) => failures.push(format!(
                    "{}: `{text}` built a value that serialises invalid (or the text builder built another)",
                    e.label
                )),
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
