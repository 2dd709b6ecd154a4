//! Whether a schema compiles, answered for common schemas without building a validator.
//!
//! Compiling builds the whole validator: a registry scan, a node per subschema, tables, linking. A caller that only
//! needs to know whether compiling succeeds (llmshim checks every normalized output this way) pays for all of it.
//! Most schemas use only plain keywords with well-formed values and no identifiers or references; for those the
//! value checks of compiling are done here in one walk, and `pattern` sources are compiled once per process and
//! remembered. Anything this walk is not sure of (references, identifiers, a `$schema` other than a root one naming
//! 2020-12, rarer keywords, a value a check rejects) goes to the full compile, so the answer and the error are
//! always compile's.

use std::sync::{Mutex, OnceLock, PoisonError};

use hashbrown::HashSet;
use llmshim_core::keyword::{KeywordClass, class_of};
use llmshim_resolve::Draft;
use serde_json::Value;

use crate::compile::type_keyword;
use crate::error::Error;
use crate::options::Options;
use crate::regex::Pattern;

/// Every key the compiler reads on a schema object; a key among them that [`plain`] does not check sends the
/// schema to the full compile.
const COMPILED: [&str; 55] = [
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicAnchor",
    "$id",
    "contentEncoding",
    "contentMediaType",
    "title",
    "description",
    "$comment",
    "format",
    "readOnly",
    "writeOnly",
    "deprecated",
    "examples",
    "type",
    "enum",
    "const",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
    "pattern",
    "uniqueItems",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
];

/// `compile(schema)`'s verdict without the validator: `Ok` exactly when [`compile`](crate::compile) succeeds, and
/// otherwise compile's error.
///
/// A schema made only of plain keywords (types, bounds, `properties`, `items`, combinators, `required`, `enum`,
/// `pattern`, annotations; no identifier or reference, and no `$schema` but a root one naming 2020-12) is checked
/// in one walk without building anything; every other schema is compiled.
///
/// ```
/// use llmshim_validate::{check, compile};
/// use serde_json::json;
///
/// let plain = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}});
/// assert!(check(&plain).is_ok());
/// let bad = json!({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}});
/// assert_eq!(check(&bad).err(), compile(&bad).err());
/// ```
///
/// # Errors
///
/// As [`compile`](crate::compile).
pub fn check(schema: &Value) -> Result<(), Error> {
    if crate::limits::within(schema) && (plain(schema) || plain_root(schema)) {
        return Ok(());
    }
    crate::compile(schema).map(drop)
}

/// [`plain`] for a root that names the 2020-12 dialect in `$schema` (as MCP outputs do): compiling reads a root's
/// `$schema` only to choose the dialect, and 2020-12 is the one it uses without it. Kept out of line, so the
/// common case, [`plain`] at the root, stays as it was.
#[inline(never)]
fn plain_root(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    map.iter().all(|(key, value)| {
        if key == "$schema" {
            value
                .as_str()
                .and_then(Draft::from_uri)
                .is_some_and(|draft| draft == Draft::Draft202012)
        } else {
            member(key, value)
        }
    })
}

/// Whether `value` is a schema that certainly compiles under the default options: an object or a boolean whose
/// keys are all checked here and pass, or are ignored by the compiler and by the registry scan alike. The value is
/// within the fixed limits, so the recursion is at most 96 levels deep.
fn plain(value: &Value) -> bool {
    match value {
        Value::Bool(_) => true,
        Value::Object(map) => map.iter().all(|(key, value)| member(key, value)),
        _ => false,
    }
}

/// Whether the member `key` of a schema object certainly passes compiling. Inlined into both of its callers, the
/// hot one being [`plain`].
#[expect(
    clippy::inline_always,
    reason = "called from two places, it is otherwise kept out of line, which costs the hot walk more than it saves"
)]
#[inline(always)]
fn member(key: &str, value: &Value) -> bool {
    match key {
        "title" | "description" | "$comment" | "format" | "contentEncoding"
        | "contentMediaType" => value.is_string(),
        "readOnly" | "writeOnly" | "deprecated" | "uniqueItems" => value.is_boolean(),
        "examples" | "enum" => value.is_array(),
        "const" => true,
        "type" => type_keyword(value).is_ok(),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        "multipleOf" => value.as_f64().is_some_and(|f| f > 0.0),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => {
            value.is_u64()
        }
        "pattern" => value.as_str().is_some_and(pattern),
        "required" => unique_strings(value),
        "properties" | "$defs" => value
            .as_object()
            .is_some_and(|members| members.values().all(plain)),
        // In 2020-12, `items` is one schema, with or without `prefixItems` beside it.
        "additionalProperties" | "not" | "propertyNames" | "items" => plain(value),
        "prefixItems" | "anyOf" | "oneOf" | "allOf" => value
            .as_array()
            .is_some_and(|items| !items.is_empty() && items.iter().all(plain)),
        _ => ignored(key),
    }
}

/// Whether both the compiler and the registry scan pass over `key` without reading its value.
fn ignored(key: &str) -> bool {
    !key.starts_with('$')
        && key != "id"
        && !COMPILED.contains(&key)
        && class_of(key) == KeywordClass::Literal
        && !matches!(key, "any_of" | "one_of" | "all_of")
}

/// An array of strings, none repeated.
fn unique_strings(value: &Value) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    if items.len() <= 16 {
        return items.iter().enumerate().all(|(i, item)| {
            item.as_str().is_some_and(|s| {
                items
                    .iter()
                    .take(i)
                    .all(|earlier| earlier.as_str() != Some(s))
            })
        });
    }
    let mut seen = HashSet::with_capacity(items.len());
    items
        .iter()
        .all(|item| item.as_str().is_some_and(|s| seen.insert(s)))
}

/// At most this many pattern sources are remembered as compiling; past it, a source is compiled every time.
const REMEMBERED: usize = 4096;

/// Whether `source` compiles as the value of `pattern` under the default options, as [`check`] and
/// [`compile`](crate::compile) compile it: a schema whose only doubt is its patterns compiles exactly when each of
/// them does. The answer is remembered per source, as [`check`] remembers it.
///
/// ```
/// use llmshim_validate::pattern_compiles;
///
/// assert!(pattern_compiles("^[a-z]+$"));
/// assert!(!pattern_compiles("(unclosed"));
/// ```
pub fn pattern_compiles(source: &str) -> bool {
    pattern(source)
}

/// Whether `source` compiles as a `pattern` under the default options, remembered per source.
fn pattern(source: &str) -> bool {
    static COMPILED_PATTERNS: OnceLock<Mutex<HashSet<Box<str>>>> = OnceLock::new();
    let known = COMPILED_PATTERNS.get_or_init(|| Mutex::new(HashSet::new()));
    if known
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(source)
    {
        return true;
    }
    if Pattern::new(source, Options::default().backtrack_limit).is_err() {
        return false;
    }
    let mut known = known.lock().unwrap_or_else(PoisonError::into_inner);
    if known.len() < REMEMBERED {
        known.insert(source.into());
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{plain, plain_root};
    use serde_json::json;

    /// The walk answers for the schemas it exists for, and leaves the rest to the full compile.
    #[test]
    fn plain_schemas_take_the_walk_and_others_the_compile() {
        let tool = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "A path", "pattern": "^/"},
                "depth": {"type": ["integer", "null"], "minimum": 0, "default": 1},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3}
            },
            "required": ["path"],
            "additionalProperties": false,
            "propertyOrdering": ["path", "depth", "tags"]
        });
        assert!(plain(&tool));
        for other in [
            json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}),
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
            json!({"properties": {"a": {"$id": "a.json"}}}),
            json!({"if": {}, "then": {}}),
            json!({"any_of": [{}]}),
            json!({"minLength": 2.0}),
            json!({"pattern": "("}),
        ] {
            assert!(!plain(&other), "{other}");
        }
    }

    /// A root `$schema` naming 2020-12 (either spelling, with or without the empty fragment) keeps the walk; any
    /// other dialect, or `$schema` below the root, goes to the compile.
    #[test]
    fn a_root_2020_12_schema_keyword_keeps_the_walk() {
        for uri in [
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft/2020-12/schema#",
        ] {
            assert!(
                plain_root(&json!({"$schema": uri, "type": "string"})),
                "{uri}"
            );
        }
        for other in [
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}),
            json!({"$schema": "https://example.test/meta", "type": "string"}),
            json!({"$schema": 7}),
            json!({"properties": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}}),
        ] {
            assert!(!plain_root(&other), "{other}");
        }
    }
}
