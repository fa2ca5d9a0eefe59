//! Print the benchmark table (ratios: competitor time / toolgate time) as markdown, from the
//! estimates criterion left under `$CARGO_TARGET_DIR/criterion` (default `target/criterion`).
//!
//! `cargo bench -p toolgate-bench --bench compare && cargo run -p toolgate-bench --bin table`

#![allow(clippy::pedantic)]

use std::path::{Path, PathBuf};

use toolgate_bench::{automaton_sizes, cases, mask_points, COMPETITORS, MASK_POINT_NAMES, STREAMING};

fn median_ns(root: &Path, group: &str, id: &str) -> Option<f64> {
    let p = root.join(group).join(id).join("new").join("estimates.json");
    let text = std::fs::read_to_string(p).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("median")?.get("point_estimate")?.as_f64()
}

/// The smallest median over all runs: on a shared machine, load only ever adds time.
fn best_ns(roots: &[PathBuf], group: &str, id: &str) -> Option<f64> {
    roots.iter().filter_map(|r| median_ns(r, group, id)).reduce(f64::min)
}

fn time(ns: f64) -> String {
    if ns >= 1_000_000.0 {
        format!("{:.2} ms", ns / 1_000_000.0)
    } else if ns >= 1_000.0 {
        format!("{:.2} µs", ns / 1_000.0)
    } else {
        format!("{ns:.0} ns")
    }
}

fn ratio(other: Option<f64>, ours: Option<f64>, target: Option<f64>) -> String {
    match (other, ours) {
        (Some(o), Some(u)) if u > 0.0 => {
            let r = o / u;
            let miss = target.is_some_and(|t| r < t);
            if miss {
                format!("**{r:.2}×** ✗")
            } else {
                format!("{r:.2}×")
            }
        }
        _ => "–".to_owned(),
    }
}

/// `ours / base` (lower is better), marked ✗ above `max`.
fn times(ours: Option<f64>, base: Option<f64>, max: Option<f64>) -> String {
    match (ours, base) {
        (Some(o), Some(b)) if b > 0.0 => {
            let r = o / b;
            if max.is_some_and(|m| r > m) {
                format!("**{r:.2}×** ✗")
            } else {
                format!("{r:.2}×")
            }
        }
        _ => "–".to_owned(),
    }
}

/// The streaming section (`benches/stream.rs`), if any of its results are there.
fn streaming(roots: &[PathBuf]) {
    let valid: Vec<_> = cases().into_iter().filter(|c| c.valid).collect();
    let ids: Vec<&str> = STREAMING.iter().map(|(id, _)| *id).collect();
    if !valid.iter().any(|c| ids.iter().any(|id| best_ns(roots, &format!("stream-{}", c.schema), id).is_some())) {
        return;
    }
    println!("\n### Streaming (each schema's valid reply; every ratio is a time over a time, lower is better for the stream)\n");
    println!("| case | bytes | (a) `is_valid_json` | (b) `Stream`, 1-byte chunks | (b)/(a) (target ≤ 3×) | (c) `Stream`, 16-byte chunks | (c)/(a) (target ≤ 1.5×) | (d) `is_valid_json` on each 16-byte-longer prefix | (d)/(c) | (e) `serde_json` + jsonschema macro, once at the end | (b)/(e) | (c)/(e) | (f) jiter's partial parse of each 16-byte-longer prefix | (f)/(c) | (g) `Stream`, 4-byte chunks | (g)/(a) | (h) `Stream`, token by token (`o200k_base`) | (h)/(a) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for c in &valid {
        let g = format!("stream-{}", c.schema);
        let t = |i: usize| ids.get(i).and_then(|id| best_ns(roots, &g, id));
        let cell = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), time);
        println!(
            "| {}/{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.schema,
            c.name,
            c.text.len(),
            cell(t(0)),
            cell(t(1)),
            times(t(1), t(0), Some(3.0)),
            cell(t(2)),
            times(t(2), t(0), Some(1.5)),
            cell(t(3)),
            times(t(3), t(2), None),
            cell(t(4)),
            times(t(1), t(4), None),
            times(t(2), t(4), None),
            cell(t(5)),
            times(t(5), t(2), None),
            cell(t(6)),
            times(t(6), t(0), None),
            cell(t(7)),
            times(t(7), t(0), None),
        );
    }
    println!("\n### Streaming over the caller's text (a `TextStream`, given the text so far: it copies nothing)\n");
    println!("| case | (a) `is_valid_json` | (j) `TextStream`, 1-byte steps | (j)/(a) (target ≤ 3×) | (k) `TextStream`, 16-byte steps | (k)/(a) (target ≤ 1.5×) | (j)/(b) | (k)/(c) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for c in &valid {
        let g = format!("stream-{}", c.schema);
        let t = |i: usize| ids.get(i).and_then(|id| best_ns(roots, &g, id));
        let cell = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), time);
        println!(
            "| {}/{} | {} | {} | {} | {} | {} | {} | {} |",
            c.schema,
            c.name,
            cell(t(0)),
            cell(t(8)),
            times(t(8), t(0), Some(3.0)),
            cell(t(9)),
            times(t(9), t(0), Some(1.5)),
            times(t(8), t(1), None),
            times(t(9), t(2), None),
        );
    }
    println!("\n### Streaming state per schema\n");
    println!("| schema | `Stream::<T>::automaton_size()` | `size_of::<Stream<T>>()` | `size_of::<TextStream<T>>()` |");
    println!("|---|---:|---:|---:|");
    for (schema, automaton, whole, over) in automaton_sizes() {
        println!("| {schema} | {automaton} B | {whole} B | {over} B |");
    }
}

/// The token-mask section (`benches/mask.rs`), if any of its results are there: per vocabulary
/// and point, the time of one mask (toolgate, llguidance if built with `--features llguidance`),
/// their ratio, and the allowed counts from `mask-counts.tsv` (written by the bench beside
/// criterion's results).
fn masks(roots: &[PathBuf]) {
    let vocabs = ["o200k_base", "cl100k_base"];
    let points = mask_points();
    let any = vocabs.iter().any(|v| {
        points
            .iter()
            .any(|p| best_ns(roots, &format!("mask-{v}"), &format!("{}_{}_toolgate", p.schema, p.name)).is_some())
    });
    if !any {
        return;
    }
    // The counts of the last run that has them.
    let counts: Vec<Vec<String>> = roots
        .iter()
        .rev()
        .find_map(|r| std::fs::read_to_string(r.join("mask-counts.tsv")).ok())
        .map(|t| t.lines().skip(1).map(|l| l.split('\t').map(str::to_owned).collect()).collect())
        .unwrap_or_default();
    println!("\n### Token masks (one mask: the time of `Stream::allowed`, and of llguidance's `compute_mask`; ratio = toolgate time / llguidance time, above 1 means toolgate is slower)\n");
    println!("| vocabulary | point | prefix (bytes / tokens) | toolgate | llguidance | toolgate / llguidance | allowed: toolgate | allowed: llguidance |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for v in vocabs {
        for p in &points {
            let g = format!("mask-{v}");
            let ours = best_ns(roots, &g, &format!("{}_{}_toolgate", p.schema, p.name));
            let theirs = best_ns(roots, &g, &format!("{}_{}_llguidance", p.schema, p.name));
            let row = counts.iter().find(|r| r.len() >= 7 && r[0] == v && r[1] == p.schema && r[2] == p.name);
            let cell = |i: usize| row.and_then(|r| r.get(i)).cloned().unwrap_or_else(|| "–".to_owned());
            let what = MASK_POINT_NAMES.iter().find(|(n, _)| *n == p.name).map_or(p.name, |(_, w)| *w);
            println!(
                "| {v} | {}: {what} | {} / {} | {} | {} | {} | {} | {} |",
                p.schema,
                cell(3),
                cell(4),
                ours.map_or_else(|| "–".to_owned(), time),
                theirs.map_or_else(|| "–".to_owned(), time),
                times(ours, theirs, None),
                cell(5),
                cell(6),
            );
        }
    }
}

fn main() {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    // Arguments: criterion output directories (one per run); default: `criterion-run*` saved by
    // `bench/run.sh`, else `criterion`.
    let mut roots: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if roots.is_empty() {
        let mut runs: Vec<PathBuf> = std::fs::read_dir(&target)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("criterion-run")))
                    .collect()
            })
            .unwrap_or_default();
        runs.sort();
        roots = if runs.is_empty() { vec![target.join("criterion")] } else { runs };
    }
    roots.retain(|r| r.is_dir());
    if roots.is_empty() {
        eprintln!("no criterion results; run `bench/run.sh` or `cargo bench -p toolgate-bench --bench compare` first");
        return;
    }
    println!("Best of {} run(s): the smallest of the per-run medians.\n", roots.len());
    let ids: Vec<&str> = COMPETITORS.iter().map(|(id, _)| *id).collect();
    println!(
        "### Text → verdict (ratio = competitor time / toolgate `is_valid_json` time; higher is better for toolgate)\n"
    );
    println!("| case | bytes | toolgate text | vs serde_json + jsonschema macro (target ≥ 5×) | vs serde_json + jsonschema runtime | vs serde derive, borrowed (target ≥ 1×) | toolgate / syntax check `IgnoredAny` (valid: target ≤ 1.2×) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for c in cases() {
        let g = format!("{}-{}", c.schema, c.name);
        let t = |i: usize| ids.get(i).and_then(|id| best_ns(&roots, &g, id));
        let ours = t(0);
        println!(
            "| {}/{} | {} | {} | {} | {} | {} | {} |",
            c.schema,
            c.name,
            c.text.len(),
            ours.map_or_else(|| "–".to_owned(), time),
            ratio(t(2), ours, Some(5.0)),
            ratio(t(3), ours, None),
            ratio(t(4), ours, Some(1.0)),
            times(ours, t(10), c.valid.then_some(1.2)),
        );
    }
    println!("\n### `&Value` → verdict (ratio = competitor time / toolgate `is_valid(&Value)` time)\n");
    println!("| case | toolgate value | vs `#[jsonschema::validator]` (target ≥ 1×) | vs jsonschema runtime |");
    println!("|---|---:|---:|---:|");
    for c in cases() {
        let g = format!("{}-{}", c.schema, c.name);
        let t = |i: usize| ids.get(i).and_then(|id| best_ns(&roots, &g, id));
        let ours = t(1);
        println!(
            "| {}/{} | {} | {} | {} |",
            c.schema,
            c.name,
            ours.map_or_else(|| "–".to_owned(), time),
            ratio(t(5), ours, Some(1.0)),
            ratio(t(6), ours, None),
        );
    }
    println!("\n### Text → typed struct (ratio = competitor time / toolgate `from_json` time)\n");
    println!("| case | toolgate `from_json` | vs serde derive, owned fields (target ≥ 1×) | vs `from_str::<Value>` + jsonschema macro + `from_value` |");
    println!("|---|---:|---:|---:|");
    for c in cases() {
        let g = format!("{}-{}", c.schema, c.name);
        let t = |i: usize| ids.get(i).and_then(|id| best_ns(&roots, &g, id));
        let ours = t(7);
        if ours.is_none() {
            continue;
        }
        println!(
            "| {}/{} | {} | {} | {} |",
            c.schema,
            c.name,
            ours.map_or_else(|| "–".to_owned(), time),
            ratio(t(8), ours, Some(1.0)),
            ratio(t(9), ours, None),
        );
    }
    println!("\n### Absolute times (median)\n");
    let header: Vec<&str> = COMPETITORS.iter().map(|(_, l)| *l).collect();
    println!("| case | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(header.len()));
    for c in cases() {
        let g = format!("{}-{}", c.schema, c.name);
        let cells: Vec<String> =
            ids.iter().map(|id| best_ns(&roots, &g, id).map_or_else(|| "–".to_owned(), time)).collect();
        println!("| {}/{} | {} |", c.schema, c.name, cells.join(" | "));
    }
    streaming(&roots);
    masks(&roots);
}
