//! The adversarial inputs of the reliability suite, built in code so that no huge file is ever committed.
//!
//! This file is shared: the example `adversarial` measures each input for RELIABILITY.md, and the facade's test
//! `llmshim/tests/it/adversarial.rs` includes it with `#[path]` and asserts a bounded outcome for each.
//! Every builder returns a fresh value, because cloning a deep `Value` recurses as deep as the value.

use serde_json::{Map, Value, json};

/// The nesting depth of the deep inputs.
pub(crate) const DEEP: usize = 100_000;

/// The member count of the wide inputs (`properties`, `required`).
pub(crate) const WIDE: usize = 100_000;

/// The size of the huge string literal: 100 MB.
pub(crate) const HUGE_BYTES: usize = 100_000_000;

/// The levels of the reference bomb: full expansion would need 2^40 nodes.
pub(crate) const BOMB_LEVELS: usize = 40;

/// The length of the subject string a backtracking pattern is matched against.
pub(crate) const SUBJECT_LEN: usize = 100_000;

/// Patterns that backtrack catastrophically in a naive engine, each with no match on [`backtracking_subject`].
pub(crate) const BACKTRACKING_PATTERNS: [&str; 4] =
    ["^(a+)+$", "^(a|aa)+$", "^(?=a)(a+)+$", "(a*)*\\1$"];

/// The keyword a deep schema nests through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nest {
    /// `{"items": {"items": …}}`.
    Items,
    /// `{"type": "object", "properties": {"a": …}}`.
    Properties,
    /// `{"anyOf": [{"anyOf": […]}]}`.
    AnyOf,
}

/// A schema nested `depth` levels through `nest` around `{"type": "string"}`.
pub(crate) fn nested(nest: Nest, depth: usize) -> Value {
    let mut value = json!({"type": "string"});
    for _ in 0..depth {
        let mut map = Map::new();
        match nest {
            Nest::Items => {
                map.insert("items".to_owned(), value);
            }
            Nest::Properties => {
                let mut properties = Map::new();
                properties.insert("a".to_owned(), value);
                map.insert("type".to_owned(), Value::String("object".to_owned()));
                map.insert("properties".to_owned(), Value::Object(properties));
            }
            Nest::AnyOf => {
                map.insert("anyOf".to_owned(), Value::Array(vec![value]));
            }
        }
        value = Value::Object(map);
    }
    value
}

/// An array nested `depth` levels around `0`: a deep instance, or a deep literal.
pub(crate) fn deep_array(depth: usize) -> Value {
    let mut value = json!(0);
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// An object schema whose `default` is an array nested `depth` levels deep.
pub(crate) fn deep_default(depth: usize) -> Value {
    // Built by hand: `json!` would walk the literal recursively.
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    map.insert("default".to_owned(), deep_array(depth));
    Value::Object(map)
}

/// A reference bomb: `d{i}` refers to `d{i-1}` twice, `levels` times over, so full expansion doubles per level.
pub(crate) fn reference_bomb(levels: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("d0".to_owned(), json!({"type": "string"}));
    for i in 1..=levels {
        let previous = format!("#/$defs/d{}", i - 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"l": {"$ref": previous}, "r": {"$ref": previous}}}),
        );
    }
    let mut schema =
        json!({"type": "object", "properties": {"root": {"$ref": format!("#/$defs/d{levels}")}}});
    if let Some(map) = schema.as_object_mut() {
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    schema
}

/// A combinator bomb: `d{i}` is `{combinator: [d{i-1}, d{i-1}]}` by reference, so one instance is checked against
/// `d0` up to 2^`levels` times by a validator that neither memoizes nor budgets its work.
pub(crate) fn combinator_bomb(combinator: &str, levels: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("d0".to_owned(), json!({"type": "integer"}));
    for i in 1..=levels {
        let previous = format!("#/$defs/d{}", i - 1);
        let mut node = Map::new();
        node.insert(
            combinator.to_owned(),
            json!([{"$ref": previous}, {"$ref": previous}]),
        );
        defs.insert(format!("d{i}"), Value::Object(node));
    }
    let mut schema = json!({"$ref": format!("#/$defs/d{levels}")});
    if let Some(map) = schema.as_object_mut() {
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    schema
}

/// An object schema with `count` string properties.
pub(crate) fn wide_object(count: usize) -> Value {
    let mut properties = Map::new();
    for i in 0..count {
        properties.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    map.insert("properties".to_owned(), Value::Object(properties));
    Value::Object(map)
}

/// An object schema whose property `a` has a `default` string of `bytes` bytes.
pub(crate) fn huge_default(bytes: usize) -> Value {
    let mut a = Map::new();
    a.insert("type".to_owned(), Value::String("string".to_owned()));
    a.insert("default".to_owned(), Value::String("x".repeat(bytes)));
    as_property(Value::Object(a))
}

/// An object schema with `count` names in `required`: `p0`, `p1`, … when `distinct`, else `count` copies of `a`
/// (which is also its one property).
pub(crate) fn required_names(count: usize, distinct: bool) -> Value {
    let names: Vec<Value> = (0..count)
        .map(|i| {
            Value::String(if distinct {
                format!("p{i}")
            } else {
                "a".to_owned()
            })
        })
        .collect();
    let mut schema = as_property(json!({"type": "string"}));
    if let Some(map) = schema.as_object_mut() {
        map.insert("required".to_owned(), Value::Array(names));
    }
    schema
}

/// `a` repeated [`SUBJECT_LEN`] times and then `b`: no pattern of [`BACKTRACKING_PATTERNS`] matches it.
pub(crate) fn backtracking_subject() -> Value {
    Value::String(format!("{}b", "a".repeat(SUBJECT_LEN)))
}

/// A string schema whose `pattern` is `pattern`.
pub(crate) fn pattern_schema(pattern: &str) -> Value {
    json!({"type": "string", "pattern": pattern})
}

/// A pattern of `depth` nested groups (`((…(a)…))`), or nested lookaheads (`(?=(?=…a…))`) when `lookahead`.
pub(crate) fn nested_groups_pattern(depth: usize, lookahead: bool) -> String {
    let open = if lookahead { "(?=" } else { "(" };
    format!("{}a{}", open.repeat(depth), ")".repeat(depth))
}

/// An object schema with one property `a` of `schema`: the shape tool parameters have.
pub(crate) fn as_property(schema: Value) -> Value {
    // Built by hand: `json!` would serialize `schema` into a copy.
    let mut properties = Map::new();
    properties.insert("a".to_owned(), schema);
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    map.insert("properties".to_owned(), Value::Object(properties));
    // Required, so that a failure inside it reaches the root instead of being narrowed away with the property.
    map.insert(
        "required".to_owned(),
        Value::Array(vec![Value::String("a".to_owned())]),
    );
    Value::Object(map)
}

/// An MCP tool named `t` whose `inputSchema` is `schema`.
pub(crate) fn mcp_tool(schema: Value) -> Value {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), Value::String("t".to_owned()));
    tool.insert("inputSchema".to_owned(), schema);
    Value::Object(tool)
}

/// A request with one chat tool named `t` whose `parameters` are `schema`.
pub(crate) fn chat_request(schema: Value) -> Value {
    let mut function = Map::new();
    function.insert("name".to_owned(), Value::String("t".to_owned()));
    function.insert("parameters".to_owned(), schema);
    let mut tool = Map::new();
    tool.insert("type".to_owned(), Value::String("function".to_owned()));
    tool.insert("function".to_owned(), Value::Object(function));
    let mut request = Map::new();
    request.insert("tools".to_owned(), Value::Array(vec![Value::Object(tool)]));
    Value::Object(request)
}

/// Reference loops through anchors, `$dynamicRef` and `$recursiveRef`, each never reaching a schema of its own.
pub(crate) fn reference_loops() -> Vec<Value> {
    vec![
        json!({"$ref": "#"}),
        json!({"allOf": [{"$ref": "#"}]}),
        json!({"$defs": {"a": {"$anchor": "x", "$ref": "#x"}}, "$ref": "#x"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"$dynamicAnchor": "a", "$dynamicRef": "#a"}),
        json!({"$defs": {"a": {"$dynamicAnchor": "x", "$dynamicRef": "#x"}}, "$dynamicRef": "#x"}),
        json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "$recursiveRef": "#"}),
    ]
}

/// Object schemas with one malformed URI or percent-escape each, in `$ref` or `$id`.
pub(crate) fn malformed_uris() -> Vec<Value> {
    let long_escape = format!("#/{}", "%25".repeat(WIDE));
    let deep_id = format!("https://x.test/{}", "a/".repeat(WIDE));
    vec![
        as_property(json!({"$ref": "#/$defs/%zz"})),
        as_property(json!({"$ref": "#/%E0%A4"})),
        as_property(json!({"$ref": "#%"})),
        as_property(json!({"$ref": "%"})),
        as_property(json!({"$ref": "http://a b/"})),
        as_property(json!({"$ref": "http://[::1/x"})),
        as_property(json!({"$ref": long_escape})),
        json!({"type": "object", "$id": "http://[::1", "properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "$id": "::::", "properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "$id": deep_id, "properties": {"a": {"$ref": "../".repeat(WIDE)}}, "required": ["a"]}),
    ]
}

/// Object schemas that name two different schemas with one `$id` or one anchor.
pub(crate) fn duplicate_ids() -> Vec<Value> {
    vec![
        json!({
            "type": "object",
            "properties": {"p": {"$ref": "https://x.test/a"}},
            "$defs": {"a": {"$id": "https://x.test/a", "type": "string"}, "b": {"$id": "https://x.test/a", "type": "integer"}}
        }),
        json!({
            "type": "object",
            "properties": {"p": {"$ref": "#q"}},
            "$defs": {"a": {"$anchor": "q", "type": "string"}, "b": {"$anchor": "q", "type": "integer"}}
        }),
        json!({
            "type": "object",
            "properties": {"p": {"type": "string"}},
            "$defs": {"a": {"$id": "https://x.test/a"}, "b": {"$id": "https://x.test/a"}}
        }),
    ]
}

/// Drops `value` without recursion: `serde_json`'s own drop recurses once per level and overflows on deep values.
pub(crate) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
