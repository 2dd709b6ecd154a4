//! The benchmark workloads of the behaviour contract and a generator of valid tool arguments.
//!
//! [`transform_request`] builds the synthetic transform request for one tool count, and
//! [`mcp_corpus`] builds the real-corpus requests from the shared MCP tool files, and [`batch_lines`] the
//! `llmshim batch` input that sends them through every target.
//! [`input_schemas`] takes the tool schemas out of such a request, and [`generated_schemas`] reads
//! the schemas that schema generators (pydantic, zod) produced, for the stage benches.
//! [`valid_instance`] makes one plausible argument object for a tool schema, for benches and tests
//! that need a valid instance without hand-writing one.

use serde_json::{Map, Number, Value, json};

use crate::testdata;

/// The tool counts N of the transform workload.
pub const TOOL_COUNTS: [usize; 6] = [0, 1, 5, 10, 25, 50];

/// Returns the transform workload request with `n` tools.
///
/// The request is
/// `{"model":"claude-sonnet-4-5","max_tokens":50,"messages":[{"role":"user","content":"Reply with one word."}],"tools":[T0,…,T(n-1)]}`
/// where each `Ti` is a chat function tool named `lookup_i` whose parameters take a required
/// string `key` and an optional integer `limit` between 1 and 100, with keys in the order the
/// contract writes them.
///
/// ```
/// let request = llmshim_benches::workload::transform_request(1);
/// let text = serde_json::to_string(&request).expect("a value serializes");
/// assert!(text.starts_with(r#"{"model":"claude-sonnet-4-5","max_tokens":50,"#));
/// assert_eq!(request["tools"][0]["function"]["name"], "lookup_0");
/// ```
pub fn transform_request(n: usize) -> Value {
    let tools: Vec<Value> = (0..n).map(transform_tool).collect();
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 50,
        "messages": [{"role": "user", "content": "Reply with one word."}],
        "tools": tools
    })
}

/// Returns one request `{"tools": [...]}` per file of `mcp-tools/*.json`, named by the file stem.
///
/// Each request holds that file's `tools` array (not its `variants`) as raw MCP tools.
/// The list follows the sorted file names, and is `None` when the test data is absent.
///
/// # Panics
///
/// Panics with the file name when a corpus file cannot be read or has no `tools` array, since the
/// test data is then corrupt.
pub fn mcp_corpus() -> Option<Vec<(String, Value)>> {
    testdata::root()?;
    let corpus = testdata::mcp_tool_files()
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file =
                testdata::read_json(&path).unwrap_or_else(|err| panic!("corrupt test data: {err}"));
            let Some(tools) = file.get("tools").filter(|tools| tools.is_array()) else {
                panic!("corrupt test data: {} has no `tools` array", path.display());
            };
            (stem, json!({ "tools": tools }))
        })
        .collect();
    Some(corpus)
}

/// Returns the `inputSchema` of every tool of the MCP corpus, in [`mcp_corpus`] order, or `None` when the test data is
/// absent.
///
/// # Panics
///
/// Panics as [`mcp_corpus`] does on a corrupt corpus file.
pub fn mcp_input_schemas() -> Option<Vec<Value>> {
    Some(
        mcp_corpus()?
            .iter()
            .flat_map(|(_, request)| input_schemas(request))
            .collect(),
    )
}

/// Returns the batch workload: the lines of `llmshim batch` input that send the whole MCP corpus through every
/// target, or `None` when the test data is absent.
///
/// Per [`mcp_corpus`] request and per target of `targets` (command-line names; the callers pass every built-in
/// target from `Target::BUILTIN`, which this kit cannot depend on), one `tools` line with all the file's tools (as the
/// real-corpus benchmark sends them), then one `normalize` line per tool schema with strict off and one with strict
/// on; after the targets, one `mcp_tool` line per tool. The command line's corpus test asserts how many lines the
/// shared test data gives, and `cargo xtask batch` times `llmshim batch` over them.
///
/// # Panics
///
/// Panics as [`mcp_corpus`] does on a corrupt corpus file.
pub fn batch_lines(targets: &[String]) -> Option<Vec<Value>> {
    let mut lines = Vec::new();
    for (_, request) in mcp_corpus()? {
        let tools = request["tools"].as_array().cloned().unwrap_or_default();
        for target in targets {
            lines.push(json!({"api": "tools", "target": target, "input": {"tools": tools}}));
            for strict in [false, true] {
                for tool in &tools {
                    if let Some(schema) = tool.get("inputSchema") {
                        lines.push(json!({
                            "name": tool["name"], "api": "normalize", "target": target, "strict": strict,
                            "input": schema
                        }));
                    }
                }
            }
        }
        for tool in &tools {
            lines.push(json!({"api": "mcp_tool", "input": tool}));
        }
    }
    Some(lines)
}

/// Returns the `inputSchema` of every tool in the `tools` array of an [`mcp_corpus`] request, in order.
///
/// A tool without an `inputSchema` contributes nothing.
///
/// ```
/// use serde_json::json;
///
/// let request = json!({"tools": [
///     {"name": "a", "inputSchema": {"type": "object"}},
///     {"name": "b"},
///     {"name": "c", "inputSchema": {"type": "object", "properties": {}}}
/// ]});
/// let schemas = llmshim_benches::workload::input_schemas(&request);
/// assert_eq!(schemas, [json!({"type": "object"}), json!({"type": "object", "properties": {}})]);
/// ```
pub fn input_schemas(request: &Value) -> Vec<Value> {
    request
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|tool| tool.get("inputSchema").cloned())
        .collect()
}

/// Returns the schemas of `generated/<generator>.json` (its `schemas` object, such as the 30 pydantic models of
/// `generated/pydantic.json`), named by their keys in file order, or `None` when the test data is absent.
///
/// # Panics
///
/// Panics with the file name when the file cannot be read or has no `schemas` object, since the test data is then
/// corrupt.
pub fn generated_schemas(generator: &str) -> Option<Vec<(String, Value)>> {
    let path = testdata::root()?
        .join("generated")
        .join(format!("{generator}.json"));
    let file = testdata::read_json(&path).unwrap_or_else(|err| panic!("corrupt test data: {err}"));
    let Some(Value::Object(schemas)) = file.get("schemas") else {
        panic!(
            "corrupt test data: {} has no `schemas` object",
            path.display()
        );
    };
    Some(
        schemas
            .iter()
            .map(|(name, schema)| (name.clone(), schema.clone()))
            .collect(),
    )
}

/// Returns one deterministic instance that is meant to be valid against a simple tool schema.
///
/// This is best-effort, not a solver: it follows `const`, then `enum` (the first value), then the
/// type (the first non-null entry of a type array, or one inferred from the keywords present).
/// Objects get every `required` property, then optional properties in declared order until
/// `minProperties` is met; strings honour `format` (common formats), `minLength` and `maxLength`,
/// and use a string `default` or `examples` entry when a `pattern` is present; numbers honour
/// `minimum`, `maximum`, their exclusive forms and an integral `multipleOf`; arrays get
/// `minItems` items (tuple forms included) that differ from each other where the item schema
/// allows; booleans are `false`.
/// Counts (`minItems`, `minLength`, `minProperties`) are capped at 1024.
/// `anyOf` and `oneOf` take their first branch, `allOf` merges object branches shallowly, local
/// `$ref`s (`#...` pointers) are followed, and nesting deeper than 32 levels yields `null`.
/// Keywords it does not understand (`not`, `if`, `pattern` without an example, `uniqueItems`
/// over objects) are ignored, so the result can still be invalid.
///
/// ```
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "key": {"type": "string", "minLength": 3},
///         "limit": {"type": "integer", "minimum": 1, "maximum": 100}
///     },
///     "required": ["key", "limit"]
/// });
/// let instance = llmshim_benches::workload::valid_instance(&schema);
/// assert_eq!(instance, json!({"key": "aaa", "limit": 1}));
/// ```
pub fn valid_instance(schema: &Value) -> Value {
    Generator { root: schema }.instance(schema, 0, 0)
}

fn transform_tool(i: usize) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": format!("lookup_{i}"),
            "description": format!("Look up record {i}."),
            "parameters": {
                "type": "object",
                "description": format!("Input for lookup {i}"),
                "properties": {
                    "key": {"type": "string", "description": "Record key"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}
                },
                "required": ["key"],
                "additionalProperties": false
            }
        }
    })
}

/// The nesting depth past which the generator gives up and returns `null`.
const MAX_DEPTH: usize = 32;

/// The largest `minItems`, `minLength` or `minProperties` the generator honours.
const MAX_COUNT: u64 = 1024;

/// Generates instances against one root schema, in which local references resolve.
struct Generator<'a> {
    root: &'a Value,
}

impl Generator<'_> {
    /// Returns an instance of `schema`; `seed` varies the choice between siblings.
    fn instance(&self, schema: &Value, seed: usize, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        let Some(object) = schema.as_object() else {
            // `true` accepts anything and `false` nothing; either way a string is as good as any.
            return letters(seed, 1);
        };
        if let Some(target) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| self.resolve(reference))
        {
            return self.instance(target, seed, depth + 1);
        }
        if let Some(value) = object.get("const") {
            return value.clone();
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array)
            && let Some(value) = values.get(seed % values.len().max(1))
        {
            return value.clone();
        }
        if type_of(object).is_none() {
            for combinator in ["anyOf", "oneOf"] {
                if let Some(first) = object
                    .get(combinator)
                    .and_then(Value::as_array)
                    .and_then(|branches| branches.first())
                {
                    return self.instance(first, seed, depth + 1);
                }
            }
        }
        if let Some(branches) = object.get("allOf").and_then(Value::as_array) {
            let merged = self.merge_all_of(object, branches, depth);
            return self.instance_of(&merged, seed, depth);
        }
        self.instance_of(object, seed, depth)
    }

    /// Returns an instance of a schema object by its (possibly inferred) type.
    fn instance_of(&self, object: &Map<String, Value>, seed: usize, depth: usize) -> Value {
        match type_of(object) {
            Some("object") => self.object(object, seed, depth),
            Some("array") => self.array(object, seed, depth),
            Some("integer") => number(object, seed, true),
            Some("number") => number(object, seed, false),
            Some("boolean") => Value::Bool(false),
            Some("null") => Value::Null,
            _ => string(object, seed),
        }
    }

    fn object(&self, object: &Map<String, Value>, seed: usize, depth: usize) -> Value {
        let properties = object.get("properties").and_then(Value::as_object);
        let mut names: Vec<&str> = Vec::new();
        for name in object
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let min = count(object, "minProperties").unwrap_or(0);
        for name in properties.into_iter().flat_map(Map::keys) {
            if names.len() >= min {
                break;
            }
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        let additional = object
            .get("additionalProperties")
            .filter(|schema| schema.is_object());
        let mut instance = Map::new();
        for name in names {
            let schema = properties
                .and_then(|properties| properties.get(name))
                .or(additional);
            let value = match schema {
                Some(schema) => self.instance(schema, seed, depth + 1),
                None => letters(seed, 1),
            };
            instance.insert(name.to_owned(), value);
        }
        Value::Object(instance)
    }

    fn array(&self, object: &Map<String, Value>, seed: usize, depth: usize) -> Value {
        let (prefix, rest): (&[Value], Option<&Value>) =
            match (object.get("prefixItems"), object.get("items")) {
                (Some(Value::Array(prefix)), items) => (prefix, items),
                (_, Some(Value::Array(prefix))) => (prefix, object.get("additionalItems")),
                (_, items) => (&[], items),
            };
        let length = count(object, "minItems").unwrap_or(0);
        let items = (0..length)
            .map(|at| match prefix.get(at).or(rest) {
                Some(schema) => self.instance(schema, seed + at, depth + 1),
                None => letters(seed + at, 1),
            })
            .collect();
        Value::Array(items)
    }

    /// Merges the object-shaping members of `allOf` branches into the schema, shallowly.
    fn merge_all_of(
        &self,
        object: &Map<String, Value>,
        branches: &[Value],
        depth: usize,
    ) -> Map<String, Value> {
        let mut merged = object.clone();
        merged.remove("allOf");
        for branch in branches {
            let mut branch = branch;
            for _ in depth..MAX_DEPTH {
                match branch
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|reference| self.resolve(reference))
                {
                    Some(target) => branch = target,
                    None => break,
                }
            }
            let Some(branch) = branch.as_object() else {
                continue;
            };
            for (key, value) in branch {
                match (key.as_str(), merged.get_mut(key), value) {
                    ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                        for (name, schema) in theirs {
                            if !mine.contains_key(name) {
                                mine.insert(name.clone(), schema.clone());
                            }
                        }
                    }
                    ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                        for name in theirs {
                            if !mine.contains(name) {
                                mine.push(name.clone());
                            }
                        }
                    }
                    ("$ref", _, _) => {}
                    (_, None, _) => {
                        merged.insert(key.clone(), value.clone());
                    }
                    _ => {}
                }
            }
        }
        merged
    }

    /// Resolves a local reference, `#` or `#/json/pointer`, against the root.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        self.root.pointer(&percent_decode(pointer))
    }
}

/// Returns the schema's type: the first non-null entry of `type`, or one inferred from keywords.
fn type_of(object: &Map<String, Value>) -> Option<&str> {
    match object.get("type") {
        Some(Value::String(name)) => return Some(name),
        Some(Value::Array(names)) => {
            let mut names = names.iter().filter_map(Value::as_str);
            let first = names.next();
            return first
                .filter(|name| *name != "null")
                .or_else(|| names.find(|name| *name != "null"))
                .or(first);
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|key| object.contains_key(*key));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "patternProperties",
    ]) {
        Some("object")
    } else if has(&["items", "prefixItems", "minItems", "maxItems", "contains"]) {
        Some("array")
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        Some("string")
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        Some("number")
    } else {
        None
    }
}

/// Returns a non-negative integer member as a count, capped at [`MAX_COUNT`].
#[expect(
    clippy::cast_sign_loss,
    reason = "negative and non-finite values are filtered out before the cast"
)]
fn count(object: &Map<String, Value>, name: &str) -> Option<usize> {
    let value = object.get(name)?;
    value
        .as_u64()
        .or_else(|| {
            value
                .as_f64()
                .filter(|value| value.is_finite() && *value >= 0.0)
                .map(|value| value.ceil() as u64)
        })
        .map(|value| value.min(MAX_COUNT) as usize)
}

/// Returns `length` copies of the letter chosen by `seed`.
fn letters(seed: usize, length: usize) -> Value {
    let letter = char::from(b'a' + (seed % 26) as u8);
    Value::String(std::iter::repeat_n(letter, length).collect())
}

fn string(object: &Map<String, Value>, seed: usize) -> Value {
    if object.contains_key("pattern") {
        let example = object
            .get("default")
            .filter(|value| value.is_string())
            .or_else(|| {
                object
                    .get("examples")
                    .and_then(Value::as_array)
                    .and_then(|examples| examples.iter().find(|value| value.is_string()))
            });
        if let Some(example) = example {
            return example.clone();
        }
    }
    let formatted = match object.get("format").and_then(Value::as_str) {
        Some("date-time") => Some("2024-01-01T00:00:00Z"),
        Some("date") => Some("2024-01-01"),
        Some("time") => Some("00:00:00Z"),
        Some("duration") => Some("P1D"),
        Some("email" | "idn-email") => Some("user@example.com"),
        Some("hostname" | "idn-hostname") => Some("example.com"),
        Some("ipv4") => Some("127.0.0.1"),
        Some("ipv6") => Some("::1"),
        Some("uri" | "iri" | "url") => Some("https://example.com/"),
        Some("uri-reference" | "iri-reference" | "json-pointer") => Some("/a"),
        Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
        Some("regex") => Some("a"),
        _ => None,
    };
    if let Some(formatted) = formatted {
        return Value::String(formatted.to_owned());
    }
    let min = count(object, "minLength").unwrap_or(1);
    let max = count(object, "maxLength").unwrap_or(usize::MAX);
    letters(seed, min.max(1).min(max))
}

fn number(object: &Map<String, Value>, seed: usize, integer: bool) -> Value {
    let bound = |name: &str| object.get(name).and_then(Value::as_f64);
    // Draft 4 writes exclusive bounds as booleans beside `minimum` and `maximum`.
    let flag = |name: &str| object.get(name).and_then(Value::as_bool).unwrap_or(false);
    let mut low: Option<(f64, bool)> =
        bound("minimum").map(|value| (value, flag("exclusiveMinimum")));
    if let Some(value) = bound("exclusiveMinimum")
        && low.is_none_or(|(low, _)| value >= low)
    {
        low = Some((value, true));
    }
    let mut high: Option<(f64, bool)> =
        bound("maximum").map(|value| (value, flag("exclusiveMaximum")));
    if let Some(value) = bound("exclusiveMaximum")
        && high.is_none_or(|(high, _)| value <= high)
    {
        high = Some((value, true));
    }
    let step = bound("multipleOf").filter(|step| *step > 0.0 && step.fract() == 0.0);
    let unit = step.unwrap_or(1.0);

    // The smallest admissible multiple of the unit at or above the lower bound, plus the seed.
    let start = match low {
        Some((low, exclusive)) => {
            let mut start = (low / unit).ceil() * unit;
            if exclusive && start <= low {
                start += unit;
            }
            start
        }
        None => 0.0,
    };
    #[expect(clippy::cast_precision_loss, reason = "seeds are small array indexes")]
    let mut value = start + unit * (seed % 4) as f64;
    if let Some((high, exclusive)) = high {
        let over = |value: f64| {
            if exclusive {
                value >= high
            } else {
                value > high
            }
        };
        if over(value) {
            value = start;
        }
        if over(value) {
            // The bounds admit no multiple of the unit; fall back to a point inside them.
            value = match low {
                Some((low, _)) if !integer => f64::midpoint(low, high),
                Some(_) => start,
                None => {
                    let mut below = (high / unit).floor() * unit;
                    if exclusive && below >= high {
                        below -= unit;
                    }
                    below
                }
            };
        }
    }
    let integral = integer || value.fract() == 0.0;
    if integral && value.abs() < 9.0e15 {
        return Value::Number(Number::from(value as i64));
    }
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// Decodes `%XX` escapes in a reference's fragment.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let Some(hex) = text.get(at + 1..at + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::{testdata, workload};

    #[test]
    fn the_transform_request_is_byte_exact() {
        let text = serde_json::to_string(&workload::transform_request(2)).expect("serializes");
        let tool = |i: usize| {
            format!(
                r#"{{"type":"function","function":{{"name":"lookup_{i}","description":"Look up record {i}.","parameters":{{"type":"object","description":"Input for lookup {i}","properties":{{"key":{{"type":"string","description":"Record key"}},"limit":{{"type":"integer","minimum":1,"maximum":100,"default":10}}}},"required":["key"],"additionalProperties":false}}}}}}"#
            )
        };
        let expected = format!(
            r#"{{"model":"claude-sonnet-4-5","max_tokens":50,"messages":[{{"role":"user","content":"Reply with one word."}}],"tools":[{},{}]}}"#,
            tool(0),
            tool(1)
        );
        assert_eq!(text, expected);
        let empty = serde_json::to_string(&workload::transform_request(0)).expect("serializes");
        assert!(empty.ends_with(r#""tools":[]}"#), "{empty}");
        for n in workload::TOOL_COUNTS {
            let request = workload::transform_request(n);
            assert_eq!(request["tools"].as_array().map(Vec::len), Some(n));
        }
        assert_eq!(
            workload::transform_request(50)["tools"][49]["function"]["name"],
            "lookup_49"
        );
    }

    #[test]
    fn valid_instances_follow_simple_constraints() {
        let tool = &workload::transform_request(1)["tools"][0]["function"]["parameters"];
        assert_eq!(workload::valid_instance(tool), json!({"key": "a"}));

        let schema = json!({
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast", "slow"]},
                "fixed": {"const": {"x": 1}},
                "name": {"type": ["null", "string"], "minLength": 2, "maxLength": 4},
                "count": {"type": "integer", "exclusiveMinimum": 3, "maximum": 10},
                "ratio": {"type": "number", "minimum": 0.5, "maximum": 0.75},
                "step": {"type": "integer", "minimum": 5, "multipleOf": 4},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                "pair": {"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "null"}], "minItems": 2},
                "when": {"type": "string", "format": "date-time"},
                "nested": {"$ref": "#/$defs/inner"},
                "either": {"anyOf": [{"type": "integer", "maximum": -3}, {"type": "string"}]},
                "both": {"allOf": [
                    {"properties": {"a": {"type": "boolean"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "integer"}}, "required": ["b"]}
                ]},
                "optional": {"type": "string"}
            },
            "required": ["mode", "fixed", "name", "count", "ratio", "step", "tags", "pair",
                         "when", "nested", "either", "both"],
            "$defs": {"inner": {"type": "object", "properties": {"deep": {"type": "boolean"}},
                                "required": ["deep"], "additionalProperties": false}}
        });
        let instance = workload::valid_instance(&schema);
        assert_eq!(
            instance,
            json!({
                "mode": "fast",
                "fixed": {"x": 1},
                "name": "aa",
                "count": 4,
                "ratio": 0.625,
                "step": 8,
                "tags": ["a", "b"],
                "pair": [false, null],
                "when": "2024-01-01T00:00:00Z",
                "nested": {"deep": false},
                "either": -3,
                "both": {"a": false, "b": 0}
            })
        );
        assert_eq!(workload::valid_instance(&schema), instance, "deterministic");
    }

    #[test]
    fn recursive_and_odd_schemas_terminate() {
        let recursive = json!({
            "type": "object",
            "properties": {"next": {"$ref": "#"}},
            "required": ["next"]
        });
        let mut value = &workload::valid_instance(&recursive);
        let mut depth = 0;
        while let Some(next) = value.get("next") {
            value = next;
            depth += 1;
        }
        assert!(depth > 5 && depth < 40, "{depth}");
        assert_eq!(workload::valid_instance(&json!({"$ref": "#"})), Value::Null);
        assert_eq!(workload::valid_instance(&json!(true)), json!("a"));
        assert_eq!(workload::valid_instance(&json!({"enum": []})), json!("a"));
        assert_eq!(
            workload::valid_instance(&json!({"type": "integer", "minimum": 1.5, "maximum": 1.7})),
            json!(2),
            "best-effort: no integer fits, the kit does not pretend otherwise"
        );
        assert_eq!(
            workload::valid_instance(&json!({"maxItems": 2, "minItems": 1e6}))
                .as_array()
                .map(Vec::len),
            Some(1024)
        );
    }

    #[test]
    fn generated_schemas_are_named_objects() {
        let Some(_) = testdata::require("generated_schemas_are_named_objects") else {
            return;
        };
        let schemas = workload::generated_schemas("pydantic").expect("the data is present");
        assert_eq!(schemas.len(), 30);
        assert!(
            schemas
                .iter()
                .all(|(name, schema)| !name.is_empty() && schema.is_object())
        );
        let corpus = workload::mcp_corpus().expect("the data is present");
        let (_, github) = corpus
            .iter()
            .find(|(stem, _)| stem == "github-mcp-server")
            .expect("the GitHub MCP server is in the corpus");
        let tools = github["tools"].as_array().map_or(0, Vec::len);
        assert_eq!(workload::input_schemas(github).len(), tools);
    }

    #[test]
    fn real_mcp_corpus_has_one_request_per_file() {
        let Some(_) = testdata::require("real_mcp_corpus_has_one_request_per_file") else {
            return;
        };
        let corpus = workload::mcp_corpus().expect("the data is present");
        assert_eq!(corpus.len(), testdata::mcp_tool_files().len());
        assert!(corpus.iter().any(|(stem, _)| stem == "github-mcp-server"));
        let mut tools = 0;
        for (stem, request) in &corpus {
            let object = request.as_object().expect("a request object");
            assert_eq!(object.keys().collect::<Vec<_>>(), ["tools"], "{stem}");
            for tool in request["tools"].as_array().expect("a tools array") {
                tools += 1;
                let schema = &tool["inputSchema"];
                let instance = workload::valid_instance(schema);
                for name in schema["required"].as_array().into_iter().flatten() {
                    let name = name.as_str().expect("required names are strings");
                    assert!(instance.get(name).is_some(), "{stem}: {name}");
                }
            }
        }
        assert!(tools > 500, "{tools}");
    }
}
