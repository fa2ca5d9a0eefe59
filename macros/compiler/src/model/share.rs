//! Subschemas that check exactly the same thing share their validation code.
//!
//! Tool schemas repeat themselves: `{"type": "string"}` for most properties, the same enum in
//! two places, one object shape under several names. Each node would otherwise get its own scan,
//! verdict and validator functions (and pattern automata), identical but for their names, and the
//! user's compiler would check and translate every copy. [`canonical`] finds, for each node, the
//! first node whose checks are the same, children compared by what *they* check, so codegen
//! emits one set of functions per distinct check.
//!
//! What is compared is everything validation reads: each keyword's value as written (numbers
//! keep their text, which the violations quote), property names, patterns as written, and the
//! children by their shared node. Annotations (`title`, `description`) and locations are not
//! compared: they do not change what is valid or what a violation says, and the typed structs,
//! which do read them, stay per node.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Body, Checks, Kw, Node, NodeId};
use crate::json::{write_value, JsonValue};

/// For each node, the first node that checks exactly the same (the node itself if none does).
///
/// Nodes are grouped by their checks with the children named by their group, starting from
/// every node on its own, until the groups stop merging: two nodes are grouped only when their
/// keywords are equal and their children were found to check the same, so the grouping is sound
/// for recursive schemas too (a recursive shape repeated twice is not merged; nothing is lost
/// but sharing).
#[must_use]
pub fn canonical(nodes: &[Node]) -> Vec<NodeId> {
    let mut canon: Vec<NodeId> = (0..nodes.len()).collect();
    // Each round can only merge (equal children stay equal), so this ends within `nodes.len()`
    // rounds; in practice within the depth of the schema.
    for _ in 0..=nodes.len() {
        let mut first: HashMap<String, NodeId> = HashMap::with_capacity(nodes.len());
        let next: Vec<NodeId> =
            nodes.iter().enumerate().map(|(id, n)| *first.entry(shape(&n.body, &canon)).or_insert(id)).collect();
        if next == canon {
            break;
        }
        canon = next;
    }
    canon
}

/// For each node, whether another node's `canon` names it (its functions are called for both).
#[must_use]
pub fn shared(canon: &[NodeId]) -> Vec<bool> {
    let mut shared = vec![false; canon.len()];
    for (id, &c) in canon.iter().enumerate() {
        if let Some(s) = shared.get_mut(c).filter(|_| c != id) {
            *s = true;
        }
    }
    shared
}

/// A text that is equal for two bodies exactly when they check the same, given `canon`.
fn shape(body: &Body, canon: &[NodeId]) -> String {
    let c = match body {
        Body::Always => return "true".into(),
        Body::Never => return "false".into(),
        Body::Checks(c) => c,
    };
    // Exhaustive: a keyword added to `Checks` does not compile here until it is compared.
    let Checks {
        types,
        enum_values,
        const_value,
        properties,
        required,
        additional,
        items,
        min_items,
        max_items,
        unique_items,
        min_length,
        max_length,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        min_properties,
        max_properties,
        reference,
        all_of,
        any_of,
        one_of,
        not,
        if_,
        then_,
        else_,
        prefix_items,
        contains,
        min_contains,
        max_contains,
        pattern_properties,
        property_names,
        dependent_required,
        dependent_schemas,
        unevaluated_properties,
        unevaluated_items,
        pattern,
        format,
        additional_items,
        // (Made from `format`, which is compared.)
        format_prefix: _,
    } = &**c;
    let node = |n: &NodeId| canon.get(*n).copied().unwrap_or(*n);
    let nodes = |v: &[NodeId]| v.iter().map(node).collect::<Vec<_>>();
    let opt = |n: &Option<NodeId>| n.as_ref().map(node);
    let value = |v: &JsonValue| {
        let mut s = String::new();
        write_value(v, &mut s);
        s
    };
    let num = |k: &Option<Kw<crate::json::Num>>| k.as_ref().map(|k| k.value.text().to_owned());
    let count = |k: &Option<Kw<u64>>| k.as_ref().map(|k| k.value);
    let mut s = String::new();
    // Writing to a `String` cannot fail.
    let _ = write!(
        s,
        "type {:?}; enum {:?}; const {:?}; properties {:?}; required {:?}; additional {:?}; \
         items {:?} {:?} {:?} {unique_items}; length {:?} {:?}; \
         bounds {:?} {:?} {:?} {:?} {:?}; member counts {:?} {:?}; ",
        types.as_ref().map(|t| &t.value),
        enum_values.as_ref().map(|e| e.value.iter().map(|(v, _)| value(v)).collect::<Vec<_>>()),
        const_value.as_ref().map(|c| value(&c.value)),
        properties.iter().map(|p| (&p.name, node(&p.node))).collect::<Vec<_>>(),
        required.iter().map(|(r, _)| r).collect::<Vec<_>>(),
        opt(additional),
        opt(items),
        count(min_items),
        count(max_items),
        count(min_length),
        count(max_length),
        num(minimum),
        num(maximum),
        num(exclusive_minimum),
        num(exclusive_maximum),
        num(multiple_of),
        count(min_properties),
        count(max_properties),
    );
    let _ = write!(
        s,
        "ref {:?}; allOf {:?}; anyOf {:?}; oneOf {:?}; not {:?}; if {:?} {:?} {:?}; prefixItems {:?}; \
         contains {:?} {:?} {:?}; patternProperties {:?}; propertyNames {:?}; dependentRequired {:?}; \
         dependentSchemas {:?}; unevaluated {:?} {:?}; pattern {:?}; format {:?}; additionalItems {:?}",
        reference.as_ref().map(|r| (&r.value.0, node(&r.value.1))),
        nodes(all_of),
        nodes(any_of),
        nodes(one_of),
        opt(not),
        opt(if_),
        opt(then_),
        opt(else_),
        nodes(prefix_items),
        opt(contains),
        count(min_contains),
        count(max_contains),
        pattern_properties.iter().map(|(p, n)| (&p.source, node(n))).collect::<Vec<_>>(),
        opt(property_names),
        dependent_required,
        dependent_schemas.iter().map(|(k, n)| (k, node(n))).collect::<Vec<_>>(),
        opt(unevaluated_properties),
        opt(unevaluated_items),
        pattern.as_ref().map(|p| &p.source),
        format.as_ref().map(|f| &f.value),
        opt(additional_items),
    );
    s
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_valid_text as ir;
    use crate::model::Ir;

    /// The node of the subschema at `pointer`.
    fn at(ir: &Ir, pointer: &str) -> usize {
        ir.nodes.iter().position(|n| n.pointer == pointer).unwrap_or_else(|| panic!("no node at {pointer}"))
    }

    #[test]
    fn nodes_that_check_the_same_share_whatever_their_annotations() {
        let ir = ir(r#"{
            "type": "object",
            "properties": {
                "a": {"type": "string", "description": "one"},
                "b": {"type": "string", "title": "two"},
                "c": {"type": "string", "maxLength": 3},
                "d": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
                "e": {"type": "object", "properties": {"x": {"type": "string", "description": "y"}}, "required": ["x"]},
                "f": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
                "g": {"type": "number", "minimum": 1},
                "h": {"type": "number", "minimum": 1.0},
                "i": {"type": "number", "minimum": 1}
            }
        }"#);
        let canon = |p: &str| ir.canon(at(&ir, p));
        assert_eq!(canon("/properties/b"), canon("/properties/a"));
        assert_eq!(canon("/properties/a"), at(&ir, "/properties/a"), "the first one stands for the others");
        let shared = |p: &str| ir.is_shared(at(&ir, p));
        assert!(shared("/properties/a") && !shared("/properties/b") && !shared("/properties/c"));
        assert_ne!(canon("/properties/c"), canon("/properties/a"));
        // Objects are compared by what their children check.
        assert_eq!(canon("/properties/e"), canon("/properties/d"));
        assert_ne!(canon("/properties/f"), canon("/properties/d"));
        // Numbers keep their text: the violation quotes the bound as written.
        assert_ne!(canon("/properties/h"), canon("/properties/g"));
        assert_eq!(canon("/properties/i"), canon("/properties/g"));
        assert_eq!(ir.canon(ir.root), ir.root);
    }

    #[test]
    fn recursive_schemas_end_and_stay_apart_from_what_differs() {
        let ir = ir(r##"{
            "$defs": {
                "tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}},
                "list": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/list"}, "maxItems": 2}}}
            },
            "properties": {"t": {"$ref": "#/$defs/tree"}, "l": {"$ref": "#/$defs/list"}}
        }"##);
        let canon = |p: &str| ir.canon(at(&ir, p));
        assert_ne!(canon("/$defs/tree"), canon("/$defs/list"));
        assert_ne!(canon("/properties/t"), canon("/properties/l"));
        for (id, &c) in ir.canon.iter().enumerate() {
            assert!(c <= id && ir.canon(c) == c, "node {id} shares with {c}, which is not its own canon");
        }
    }
}
