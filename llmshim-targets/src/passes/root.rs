//! Step W15: root shaping for rule sets whose root may not keep combinators.

use llmshim_core::rules::Root;
use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Position, Rewalk, Settings};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value};

/// W15: in root position, lifts `required`-only alternatives, merges object alternatives into one object, and
/// refuses any other root combinator.
///
/// Where the rule set keeps root combinators (no shaping, no `anyOf` isolation or merge: MCP, google-json), a root
/// typed `object` beside an `anyOf` or `oneOf` none of whose branches can be an object (each typed otherwise, as the
/// walk left it) admits nothing, so it fails `target_unsupported` when the root is left, as a root branch that is not
/// an object fails where roots are shaped; the input, typed only by the walk, may have admitted the branches' values.
#[derive(Clone, Copy, Debug)]
pub struct RootShaping<'r> {
    rules: &'r RuleSet,
}

impl<'r> RootShaping<'r> {
    /// Root shaping for `rules` (a no-op unless its root rule is `Shaped`).
    pub fn new(rules: &'r RuleSet) -> Self {
        RootShaping { rules }
    }
}

/// The most kept definitions the root check follows from a union branch through definitions that only name another.
const MAX_ALIASES: usize = 16;

const META_ONLY: [&str; 4] = ["required", "title", "description", "$comment"];

impl Pass for RootShaping<'_> {
    fn name(&self) -> &'static str {
        "root-shaping"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::new(
            matches!(self.rules.root, Root::Shaped(_)),
            keeps_root_unions(self.rules),
        )
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        if !keeps_root_unions(self.rules) || !cx.position().root || cx.intermediate() {
            return Ok(());
        }
        let Some(map) = node.as_object() else {
            return Ok(());
        };
        if map.get("type").and_then(Value::as_str) != Some("object") {
            return Ok(());
        }
        // A kept recursive site stands for its definition, walked by now: the output names it by reference, or holds
        // a copy of it where no cycle is left. A definition that is itself only a site of another (an entry merged
        // into a node it names) stands for that one, followed a bounded number of times.
        let typed_otherwise = |branch: &Value| {
            let mut schema = branch;
            for _ in 0..MAX_ALIASES {
                let Some(name) = llmshim_core::defs::site_name(schema) else {
                    return not_an_object(schema);
                };
                match cx.definition(name) {
                    Some(definition) => schema = definition,
                    None => return false,
                }
            }
            false
        };
        for combinator in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(combinator)
                && !branches.is_empty()
                && branches.iter().all(typed_otherwise)
            {
                return Err(cx.fail(
                    FallbackKind::TargetUnsupported,
                    format!("no root {combinator} branch can be an object"),
                ));
            }
        }
        Ok(())
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Root::Shaped(keys) = self.rules.root else {
            return Ok(Flow::Continue);
        };
        if !cx.position().root {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let present: Vec<&'static str> = keys
            .iter()
            .copied()
            .filter(|k| map.contains_key(*k))
            .collect();
        if present.is_empty() {
            return Ok(Flow::Continue);
        }
        let type_is = |t: &str| map.get("type").and_then(Value::as_str) == Some(t);
        let objectish =
            type_is("object") || (!map.contains_key("type") && map.contains_key("properties"));
        if objectish
            && !present.contains(&"enum")
            && present.iter().all(|k| required_only(map.get(*k)))
        {
            for key in present {
                if let Some(value) = json::remove(map, key) {
                    cx.queue_lift(key, value, "root.required-only");
                }
            }
            return Ok(Flow::Continue);
        }
        let untyped_or_object = !map.contains_key("type") || type_is("object");
        if let ([combinator @ ("anyOf" | "oneOf")], true) = (present.as_slice(), untyped_or_object)
        {
            return merge(map, combinator, cx);
        }
        Err(cx.fail(
            FallbackKind::TargetUnsupported,
            format!("the target rejects a root with {}", present.join(", ")),
        ))
    }
}

/// Whether `rules` keeps a root `anyOf`/`oneOf` as it is: no root shaping, no `anyOf` isolation or merge.
fn keeps_root_unions(rules: &RuleSet) -> bool {
    !matches!(rules.root, Root::Shaped(_)) && !rules.isolate_any_of && !rules.merge_combinators
}

/// Whether a walked union branch is typed so that no object matches it.
fn not_an_object(branch: &Value) -> bool {
    match branch.get("type") {
        Some(Value::String(t)) => t != "object",
        Some(Value::Array(types)) => !types.iter().any(|t| t.as_str() == Some("object")),
        _ => false,
    }
}

/// Whether a reference (`$ref`, `$dynamicRef`, `$recursiveRef`) stands anywhere in `value`.
fn holds_reference(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if ["$ref", "$dynamicRef", "$recursiveRef"]
                    .iter()
                    .any(|k| map.get(*k).is_some_and(Value::is_string))
                {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// Whether every subschema under a shaped key is an object of only `required` (strings), `title`, `description`
/// and `$comment`.
fn required_only(value: Option<&Value>) -> bool {
    let only = |v: &Value| {
        v.as_object().is_some_and(|m| {
            m.iter().all(|(k, v)| {
                META_ONLY.contains(&k.as_str())
                    && (k != "required"
                        || v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
            })
        })
    };
    match value {
        Some(Value::Array(entries)) => entries.iter().all(only),
        Some(v @ Value::Object(_)) => only(v),
        _ => false,
    }
}

/// Merges the object alternatives of `combinator` into the root.
fn merge(
    map: &mut Map<String, Value>,
    combinator: &'static str,
    cx: &mut NodeCtx<'_>,
) -> Result<Flow, FallbackReason> {
    let Some(Value::Array(branches)) = map.get(combinator).cloned() else {
        return Err(cx.fail(
            FallbackKind::InvalidSchema,
            format!("{combinator} must be an array"),
        ));
    };
    // The lifted text: each branch as written, but a branch holding a reference as walked, since a written `$ref`
    // would name a definition the output no longer holds. A kept recursive site in it is spelled out as its walked
    // definition (the siblings a site with siblings merged in included): the output keeps only the definitions its
    // own sites reach, and a site that only the text names would name nothing.
    let mut lifted = Vec::with_capacity(branches.len());
    let mut walked = Vec::with_capacity(branches.len());
    for mut branch in branches {
        let written = (!holds_reference(&branch)).then(|| branch.clone());
        let how = Rewalk::here()
            .with_position(Position::new(true, false))
            .with_strict(false);
        cx.rewalk(&mut branch, &how)?;
        lifted.push(written.unwrap_or_else(|| {
            let mut named = branch.clone();
            llmshim_core::defs::spell_out(&mut named, |name| cx.definition(name));
            named
        }));
        // A branch that became a kept reference merges as its definition.
        if let Some(value) =
            llmshim_core::defs::site_name(&branch).and_then(|name| cx.definition(name))
        {
            branch = value.clone();
        }
        match branch {
            Value::Object(b) if b.get("type").and_then(Value::as_str) == Some("object") => {
                walked.push(b);
            }
            _ => {
                return Err(cx.fail(
                    FallbackKind::TargetUnsupported,
                    format!("a root {combinator} branch is not an object schema"),
                ));
            }
        }
    }
    let mut properties: Vec<(String, Vec<Value>)> = Vec::new();
    let own = map
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for source in std::iter::once(&own).chain(
        walked
            .iter()
            .filter_map(|b| b.get("properties").and_then(Value::as_object)),
    ) {
        for (name, schema) in source {
            match properties.iter_mut().find(|(n, _)| n == name) {
                Some((_, variants)) => {
                    if !variants.contains(schema) {
                        variants.push(schema.clone());
                    }
                }
                None => properties.push((name.clone(), vec![schema.clone()])),
            }
        }
    }
    let mut merged_props = Map::new();
    for (name, variants) in properties {
        merged_props.insert(name, merge_variants(variants));
    }
    let mut required: Vec<Value> = map
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let lists: Vec<Vec<Value>> = walked
        .iter()
        .map(|b| {
            b.get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    if let Some(first) = lists.first() {
        for name in first {
            if lists.iter().all(|l| l.contains(name)) && !required.contains(name) {
                required.push(name.clone());
            }
        }
    }
    json::remove(map, combinator);
    json::set(map, "type", Value::String("object".to_owned()));
    json::set(map, "properties", Value::Object(merged_props));
    if !required.is_empty() {
        json::set(map, "required", Value::Array(required));
    }
    cx.queue_lift(combinator, Value::Array(lifted), "root.merge-alternatives");
    cx.record(
        "root.merge-alternatives",
        ChangeKind::Relaxed,
        Some(combinator),
    );
    Ok(Flow::Continue)
}

/// One schema for a property whose alternatives differ: when they are simple (one primitive type, nothing but
/// constants and annotations), that type with the `enum` of their constants if every variant is limited to
/// constants, or the type alone if some variant admits any value of it; else an `anyOf` of the variants.
fn merge_variants(mut variants: Vec<Value>) -> Value {
    if variants.len() == 1 {
        return variants.pop().unwrap_or(Value::Null);
    }
    let simple = ["type", "const", "enum", "title", "description"];
    let first_type = variants
        .first()
        .and_then(|v| v.get("type"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let primitive = first_type
        .as_deref()
        .is_some_and(|t| !matches!(t, "object" | "array"));
    let all_simple = primitive
        && variants.iter().all(|v| {
            v.as_object()
                .is_some_and(|m| m.keys().all(|k| simple.contains(&k.as_str())))
                && v.get("type").and_then(Value::as_str) == first_type.as_deref()
        });
    if !all_simple {
        let mut any = Map::new();
        any.insert("anyOf".to_owned(), Value::Array(variants));
        return Value::Object(any);
    }
    // A variant without `const` or `enum` admits every value of the type, and so does their union.
    let limited = variants
        .iter()
        .all(|v| v.get("const").is_some() || v.get("enum").is_some_and(Value::is_array));
    let mut values: Vec<Value> = Vec::new();
    for v in &variants {
        let consts = v.get("const").into_iter().chain(
            v.get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        for c in consts {
            if !values.contains(c) {
                values.push(c.clone());
            }
        }
    }
    let mut out = Map::new();
    out.insert(
        "type".to_owned(),
        Value::String(first_type.unwrap_or_default()),
    );
    if limited {
        out.insert("enum".to_owned(), Value::Array(values));
    }
    for key in ["title", "description"] {
        if let Some(v) = variants.iter().find_map(|v| v.get(key)) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::merge_variants;
    use serde_json::json;

    #[test]
    fn variants_limited_to_constants_merge_into_their_enum() {
        let merged = merge_variants(vec![
            json!({"type": "string", "const": "p"}),
            json!({"type": "string", "enum": ["q", "p"], "description": "d"}),
        ]);
        assert_eq!(
            merged,
            json!({"type": "string", "enum": ["p", "q"], "description": "d"})
        );
    }

    #[test]
    fn a_variant_without_constants_leaves_the_merged_type_unlimited() {
        // Both differ only in their descriptions: no `enum` at all (an empty one would admit nothing).
        let merged = merge_variants(vec![
            json!({"type": "string", "description": "x"}),
            json!({"type": "string", "description": "y"}),
        ]);
        assert_eq!(merged, json!({"type": "string", "description": "x"}));
        // One variant admits any string, so the other's constant does not limit the union.
        let merged = merge_variants(vec![
            json!({"type": "string", "const": "p"}),
            json!({"type": "string"}),
        ]);
        assert_eq!(merged, json!({"type": "string"}));
    }
}
