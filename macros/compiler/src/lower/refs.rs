//! References: `$ref`, `$defs` and `definitions`, `$id` (draft-04: `id`), `$anchor`; resolved after the
//! whole document is lowered. Only references into the same document are supported.

use std::collections::HashMap;

use super::applicators::schema_map;
use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Loc, Member};
use crate::model::{Body, Checks, Kw, Node, NodeId};

/// A `$ref` waiting for the whole document.
pub struct PendingRef {
    /// the node holding the `$ref`
    pub node: NodeId,
    /// the reference as written
    pub reference: String,
    /// the base URI in force
    pub base: String,
    /// where the `$ref` key is
    pub loc: Loc,
    /// its schema pointer
    pub ptr: String,
}

/// The reference keywords of one schema object.
pub fn lower(l: &mut Lowerer<'_>, _: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "$ref" => {
            let JsonValue::String(r) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`$ref` must be a URI reference, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            let id = l.current;
            l.refs.push(PendingRef {
                node: id,
                reference: r.clone(),
                base: l.base.clone(),
                loc: m.key_loc,
                ptr: ptr.to_owned(),
            });
            Claim::Assertion
        }
        // Containers of schemas reachable by pointer, in every draft (generators emit `$defs`
        // in draft-07 documents and `definitions` in 2020-12 ones).
        "$defs" | "definitions" => {
            schema_map(l, m, ptr);
            Claim::Annotation
        }
        // `$id` (draft-04: `id`) was read before the other members (it sets the base of its
        // own object).
        "$id" | "id" => Claim::Annotation,
        "$anchor" => {
            match &m.value.value {
                JsonValue::String(a) if valid_anchor(a) => {
                    let uri = format!("{}#{a}", strip_fragment(&l.base));
                    l.anchors.insert(uri, l.current);
                }
                other => l.error(
                    m.value.loc,
                    ptr,
                    format!(
                        "`$anchor` must be a plain name (letters, digits, `-`, `_`, `.`), found {}",
                        describe(other)
                    ),
                ),
            }
            Claim::Annotation
        }
        _ => Claim::No,
    }
}

fn valid_anchor(a: &str) -> bool {
    let mut c = a.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || matches!(x, '-' | '_' | '.'))
}

/// `uri` without its fragment.
pub fn strip_fragment(uri: &str) -> &str {
    uri.split('#').next().unwrap_or("")
}

fn has_scheme(r: &str) -> bool {
    let end = r.find([':', '/', '?', '#']);
    matches!(end, Some(i) if i > 0 && r.as_bytes().get(i) == Some(&b':') && r[..i].chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
}

fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    for (i, s) in segs.iter().enumerate() {
        match *s {
            "." => {
                if i + 1 == segs.len() {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i + 1 == segs.len() {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// Resolve a URI reference against a base (RFC 3986 §5.2, enough for schema identifiers).
#[must_use]
pub fn resolve(base: &str, r: &str) -> String {
    if has_scheme(r) {
        return r.to_owned();
    }
    let base = strip_fragment(base);
    if r.is_empty() {
        return base.to_owned();
    }
    if r.starts_with('#') {
        return format!("{base}{r}");
    }
    // Split the base into scheme+authority and path.
    let (prefix, path) = match base.find("://") {
        Some(i) => {
            let rest = &base[i + 3..];
            let p = rest.find('/').map_or(rest.len(), |j| j);
            (&base[..i + 3 + p], &rest[p..])
        }
        None => match base.find(':') {
            Some(i) if has_scheme(base) => (&base[..=i], &base[i + 1..]),
            _ => ("", base),
        },
    };
    if let Some(net) = r.strip_prefix("//") {
        let scheme = base.find(':').map_or("", |i| &base[..=i]);
        return format!("{scheme}//{net}");
    }
    let (rpath, tail) = match r.find(['?', '#']) {
        Some(i) => (&r[..i], &r[i..]),
        None => (r, ""),
    };
    let merged = if rpath.starts_with('/') {
        rpath.to_owned()
    } else {
        let dir = path.rfind('/').map_or("", |i| &path[..=i]);
        let dir = if dir.is_empty() && !prefix.is_empty() { "/" } else { dir };
        format!("{dir}{rpath}")
    };
    format!("{prefix}{}{tail}", remove_dots(&merged))
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Resolve every pending `$ref`, then refuse in-place reference cycles (validation would never
/// end).
pub fn resolve_all(l: &mut Lowerer<'_>) {
    let by_pointer: HashMap<String, NodeId> = l.nodes.iter().enumerate().map(|(i, n)| (n.pointer.clone(), i)).collect();
    let refs = std::mem::take(&mut l.refs);
    for p in refs {
        let target_uri = resolve(&p.base, &p.reference);
        let (doc, frag) = match target_uri.split_once('#') {
            Some((d, f)) => (d.to_owned(), f.to_owned()),
            None => (target_uri.clone(), String::new()),
        };
        let Some(res_ptr) = l.resources.get(&doc).cloned() else {
            l.error(
                p.loc,
                &p.ptr,
                format!(
                    "`$ref` {:?} points outside this schema{}; only references within the document are supported (toolgate never fetches schemas)",
                    p.reference,
                    if doc == p.reference { String::new() } else { format!(" (to {doc:?})") }
                ),
            );
            continue;
        };
        let target = if frag.is_empty() {
            by_pointer.get(&res_ptr).copied()
        } else if frag.starts_with('/') {
            percent_decode(&frag).and_then(|f| by_pointer.get(&format!("{res_ptr}{f}")).copied())
        } else {
            l.anchors.get(&format!("{doc}#{frag}")).copied()
        };
        let Some(target) = target else {
            l.error(p.loc, &p.ptr, format!("`$ref` {:?} does not point at a schema in this document", p.reference));
            continue;
        };
        if let Some(Body::Checks(c)) = l.nodes.get_mut(p.node).map(|n| &mut n.body) {
            c.reference = Some(Kw { value: (p.reference.clone(), target), loc: p.loc });
        } else if let Some(n) = l.nodes.get_mut(p.node) {
            let checks = Checks {
                reference: Some(Kw { value: (p.reference.clone(), target), loc: p.loc }),
                ..Checks::default()
            };
            n.body = Body::Checks(Box::new(checks));
        }
    }
    refuse_cycles(l);
}

fn in_place_edges(n: &Node) -> Vec<NodeId> {
    match &n.body {
        Body::Checks(c) => c.in_place().collect(),
        _ => Vec::new(),
    }
}

fn refuse_cycles(l: &mut Lowerer<'_>) {
    // Iterative DFS with colours: 0 new, 1 on the stack, 2 done.
    let n = l.nodes.len();
    let mut colour = vec![0u8; n];
    let mut reported = false;
    for start in 0..n {
        if colour.get(start) != Some(&0) {
            continue;
        }
        let mut stack: Vec<(NodeId, usize)> = vec![(start, 0)];
        if let Some(c) = colour.get_mut(start) {
            *c = 1;
        }
        while let Some((node, edge)) = stack.last().copied() {
            let edges = l.nodes.get(node).map(in_place_edges).unwrap_or_default();
            if let Some(&next) = edges.get(edge) {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                match colour.get(next) {
                    Some(0) => {
                        if let Some(c) = colour.get_mut(next) {
                            *c = 1;
                        }
                        stack.push((next, 0));
                    }
                    Some(1) if !reported => {
                        reported = true;
                        let (loc, ptr) = l
                            .nodes
                            .get(node)
                            .map(|x| (x.loc.unwrap_or(Loc::Bytes { start: 0, end: 0 }), x.pointer.clone()))
                            .unwrap_or((Loc::Bytes { start: 0, end: 0 }, String::new()));
                        let loc = match l.nodes.get(node).map(|x| &x.body) {
                            Some(Body::Checks(c)) => c.reference.as_ref().map_or(loc, |r| r.loc),
                            _ => loc,
                        };
                        l.error(
                            loc,
                            &ptr,
                            "this schema refers back to itself without descending into the instance: validation would never end",
                        );
                    }
                    _ => {}
                }
            } else {
                if let Some(c) = colour.get_mut(node) {
                    *c = 2;
                }
                stack.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn resolves_references() {
        assert_eq!(resolve("", "#/a"), "#/a");
        assert_eq!(resolve("http://x.com/root.json", "#foo"), "http://x.com/root.json#foo");
        assert_eq!(resolve("http://x.com/a/root.json", "b.json"), "http://x.com/a/b.json");
        assert_eq!(resolve("http://x.com/a/root.json", "../b.json#/c"), "http://x.com/b.json#/c");
        assert_eq!(resolve("http://x.com/a/root.json", "/b.json"), "http://x.com/b.json");
        assert_eq!(resolve("http://x.com/root.json", "urn:x:y"), "urn:x:y");
        assert_eq!(resolve("urn:uuid:deadbeef", "#/$defs/a"), "urn:uuid:deadbeef#/$defs/a");
        assert_eq!(resolve("http://x.com", "b.json"), "http://x.com/b.json");
    }
}
