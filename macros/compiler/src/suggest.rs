//! "Did you mean" suggestions.

/// The candidate closest to `word` by edit distance (case-insensitive), if it is close enough to
/// be a plausible typo.
#[must_use]
pub fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).clamp(1, 3);
    candidates
        .iter()
        .map(|c| (levenshtein(&w, &c.to_ascii_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != *cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn suggests_typos() {
        assert_eq!(closest("requried", &["required", "properties"]), Some("required"));
        assert_eq!(closest("maxlength", &["maxLength", "minLength"]), Some("maxLength"));
        assert_eq!(closest("strin", &["string", "integer"]), Some("string"));
        assert_eq!(closest("frobnicate", &["required", "type"]), None);
    }
}
