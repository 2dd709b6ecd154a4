//! Step W23: a `type` array becomes an `anyOf` of one branch per type (`walk.split-type-array`).

use serde_json::{Map, Value};

use crate::json;
use crate::keep::Keywords;
use crate::keyword::TYPE_NAMES;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Rewalk, Settings};

/// W23: splits a `type` array into `anyOf` branches, each pruned of the keywords its type cannot use and walked.
///
/// Under strict every type name makes a branch and the wrapper keeps the description. Outside strict (the rule
/// set's `split_type_arrays`), `"null"` makes no branch; every branch gets the description and, when `"null"` was
/// present, `nullable: true`; the wrapper is exactly `{"anyOf": [...]}`. The branches carry the node's `enum` and
/// `const`, but for `"null"`, which makes no branch (outside strict, no `nullable`) when they hold no null, unless
/// it is the only type. The root of a `$ref` target
/// ([`NodeCtx::intermediate`]) is left to the walk of the node merged from it and its siblings.
#[derive(Clone, Copy, Debug)]
pub struct SplitTypeArray {
    outside_strict: bool,
}

impl SplitTypeArray {
    /// The split under strict, and outside strict when `outside_strict` (the rule set's `split_type_arrays`).
    pub const fn new(outside_strict: bool) -> Self {
        SplitTypeArray { outside_strict }
    }
}

impl Pass for SplitTypeArray {
    fn name(&self) -> &'static str {
        "split-type-array"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(settings.strict || self.outside_strict, Hooks::ENTER)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let strict = cx.settings().strict;
        // An intermediate root (a `$ref` target before its siblings are merged over it) is split by the walk of the
        // merged node, so that the branches are pruned from its final keys, siblings included.
        if !(strict || self.outside_strict) || cx.intermediate() {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(Value::Array(types)) = json::member(map, "type") else {
            return Ok(Flow::Continue);
        };
        let mut names: Vec<String> = Vec::with_capacity(types.len());
        for t in types {
            match t.as_str() {
                Some(name) if TYPE_NAMES.contains(&name) => names.push(name.to_owned()),
                _ => {
                    return Err(cx.fail(
                        FallbackKind::InvalidSchema,
                        "a type array may hold only type names",
                    ));
                }
            }
        }
        if names.is_empty() {
            return Err(cx.fail(
                FallbackKind::InvalidSchema,
                "a type array must not be empty",
            ));
        }
        let description = json::remove(map, "description");
        // A value constraint binds every branch. The other branches carry the node's `enum` and `const`; the null
        // branch, which keeps nothing but its type, is not made (nor, outside strict, the `nullable` mark) when they
        // hold no null, or carries them when it is the only branch.
        let null_held = holds_a_value_of(map, "null");
        let has_null = names.iter().any(|n| n == "null") && null_held;
        let alone = names.len() == 1;
        let mut branches = Vec::with_capacity(names.len());
        for name in &names {
            if name == "null" && (!strict || !(null_held || alone)) {
                continue;
            }
            let mut branch = prune(map, name, cx.settings().keywords);
            if name == "null" && !null_held {
                for key in ["enum", "const"] {
                    if let Some(value) = json::member(map, key) {
                        branch.insert(key.to_owned(), value.clone());
                    }
                }
            }
            if !strict {
                if let Some(d) = &description {
                    branch.insert("description".to_owned(), d.clone());
                }
                if has_null {
                    json::set(&mut branch, "nullable", Value::Bool(true));
                }
            }
            let mut branch = Value::Object(branch);
            cx.rewalk(&mut branch, &Rewalk::here())?;
            branches.push(branch);
        }
        let mut wrapper = Map::new();
        wrapper.insert("anyOf".to_owned(), Value::Array(branches));
        if strict && let Some(d) = description {
            wrapper.insert("description".to_owned(), d);
        }
        *node = Value::Object(wrapper);
        cx.record("walk.split-type-array", ChangeKind::Rewritten, Some("type"));
        Ok(Flow::Done)
    }
}

/// Whether the node's `const` and `enum` (when present and readable) each hold some value of the type `name`.
fn holds_a_value_of(node: &Map<String, Value>, name: &str) -> bool {
    let of_type = |value: &Value| match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("object", Value::Object(_))
        | ("array", Value::Array(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    };
    json::member(node, "const").is_none_or(of_type)
        && match json::member(node, "enum") {
            Some(Value::Array(values)) => values.iter().any(of_type),
            _ => true,
        }
}

/// The node with `type` set to `name` in place and the keywords that type cannot use removed.
///
/// Under [`Keywords::Current`], where keep-lists keep string, object and array constraints that a branch of another
/// type would carry to no effect (and a provider may refuse there), they follow their types too: non-string
/// branches lose `pattern`, `minLength`, `maxLength` and a string `format`, non-object branches `minProperties` and
/// `maxProperties`, non-array branches `minItems` and `maxItems`. A numeric format (`int32`, `int64` on integers,
/// `float`, `double` on numbers) stays on its numeric branches and leaves the others. Under
/// [`Keywords::Conservative`] those keys never reach the split (the keep-lists lifted them), and a `format` is
/// copied into every branch as it always was.
fn prune(node: &Map<String, Value>, name: &str, keywords: Keywords) -> Map<String, Value> {
    if name == "null" {
        let mut only = Map::new();
        only.insert("type".to_owned(), Value::String("null".to_owned()));
        return only;
    }
    let object_only = ["properties", "required", "additionalProperties"];
    let array_only = ["items", "prefixItems"];
    let numeric_only = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    let current = keywords == Keywords::Current;
    let mut branch = Map::new();
    for (key, value) in node {
        let k = key.as_str();
        let keep = (name == "object" || !object_only.contains(&k))
            && (name == "array" || !array_only.contains(&k))
            && (name == "integer" || name == "number" || !numeric_only.contains(&k))
            && (!current || follows_its_type(k, value, name));
        if k == "type" {
            branch.insert(key.clone(), Value::String(name.to_owned()));
        } else if keep {
            branch.insert(key.clone(), value.clone());
        }
    }
    branch
}

/// Whether `key` with `value` applies to a branch of type `name`, for the keys the current keep-lists keep that
/// apply to one kind of value (every other key applies).
fn follows_its_type(key: &str, value: &Value, name: &str) -> bool {
    match key {
        "pattern" | "minLength" | "maxLength" => name == "string",
        "minProperties" | "maxProperties" => name == "object",
        "minItems" | "maxItems" => name == "array",
        "format" => match value.as_str() {
            Some("int32" | "int64") => name == "integer",
            Some("float" | "double") => name == "number",
            _ => name == "string",
        },
        _ => true,
    }
}
