//! The look before the walk: a schema that normalization would hand back exactly as it is, found without copying it.
//!
//! Most tool schemas sent without strict already suit their target (about 72% of the MCP corpus for the OpenAI,
//! Anthropic and MCP targets, about 48% for Google), yet the uncached path copies each one, walks the copy through
//! every pass, checks and compiles it, compares it with the input and drops the input. [`unchanged`] reads the schema
//! once, borrowed and without allocating, and answers `true` only for shapes on which no pass acts and every check
//! passes, so that the pipeline may skip all of that and report what the walk would: nothing changed, nothing
//! narrowed, no fallback, strict off (the look runs only without strict, the only mode in which such shapes pass
//! through unchanged).
//!
//! It is conservative: a node qualifies only when each of its keys is one of a few keywords with a value of the
//! expected kind (`type` naming one type, `properties`, `required` naming distinct properties, `description`,
//! `title`, an `enum` of strings, `items`, `default` as a scalar, numeric bounds, counts, `format`, and `anyOf`
//! below the root where the target keeps unions as they are), the rule set's keep-list and forbidden list let
//! them stand, and none of the rule set's rewrites applies (an object without `properties` where the target adds
//! them, an array without `items` where it adds them, a keyword of another type where the Google value rules drop it).
//! Anything else (references, identifiers, `$schema`, patterns, other combinators, `const`, `additionalProperties`,
//! boolean schemas, type arrays, `nullable`, a target with hooks of its own, diagnostics, structured output) goes to
//! the walk. Sizes stay far inside every budget: a node count, a depth and a bound on the literal bytes the walk
//! would charge. The unit tests hold the answer to the walk's over the whole shared corpus and generated schemas.

use llmshim_core::keep::KeepSet;
use llmshim_core::keyword::TYPE_NAMES;
use llmshim_core::rules::{DefaultItems, EmptyProperties, Root};
use llmshim_core::walk::Hooks;
use llmshim_core::{Normalization, RuleSet};
use serde_json::{Map, Value};

use crate::schema::Options;

/// The deepest nesting of JSON containers the look accepts (far below the walk's budget and the compile limits).
const MAX_DEPTH: usize = 48;

/// The most schema objects the look accepts in one schema.
const MAX_NODES: usize = 4_096;

/// The most literal bytes (an upper bound of what the walk's literal charge counts) the look accepts.
const MAX_LITERAL_BYTES: usize = 1 << 20;

/// The report of a normalization that changed nothing, as the walk gives it without strict.
pub(crate) fn report() -> Normalization {
    Normalization::produced(false).with_strict(false)
}

/// Whether normalizing `input` with the effective `options` certainly hands it back unchanged, with
/// [`report`] as its report.
pub(crate) fn unchanged(options: &Options, input: &Value) -> bool {
    if options.strict || options.diagnostics || options.structured_output || options.bypass {
        return false;
    }
    let target = options.target.rules();
    // A target's own hooks may do anything; only rule-set data is read here.
    if target.hooks() != Hooks::NONE {
        return false;
    }
    let rules = target.rules();
    let Value::Object(root) = input else {
        return false;
    };
    let mut look = Look {
        rules,
        keep: rules.keep_set(options.keywords),
        max_nodes: options.budget.max_nodes.min(MAX_NODES),
        max_depth: options.budget.max_depth.min(MAX_DEPTH),
        max_literal_bytes: options.budget.max_literal_bytes.min(MAX_LITERAL_BYTES),
        nodes: 0,
        literal_bytes: 0,
    };
    look.root(root) && look.node(root, 0, true)
}

/// The running state of one look.
struct Look<'r> {
    rules: &'r RuleSet,
    keep: Option<&'r KeepSet>,
    max_nodes: usize,
    max_depth: usize,
    max_literal_bytes: usize,
    nodes: usize,
    literal_bytes: usize,
}

/// The keys of a node that the look reads after its pass over the members.
#[derive(Default)]
struct Node<'v> {
    ty: Option<&'v str>,
    properties: Option<&'v Map<String, Value>>,
    required: Option<&'v [Value]>,
    items: Option<&'v Map<String, Value>>,
    any_of: Option<&'v [Value]>,
    has_enum: bool,
    format: Option<&'v str>,
    /// Keys that apply to one type only (the Google value rules drop them elsewhere), with that type.
    typed: [bool; 4],
    /// Keys other than `anyOf`, `description`, `title` and `default` (all an untyped node may hold).
    typing: bool,
}

/// The groups of keys the Google value rules keep only on nodes of one type: object, array, number (or integer),
/// string.
const GROUPS: [&str; 4] = ["object", "array", "number", "string"];

impl Look<'_> {
    /// The root rule: an object root where the rule set asks for one, none of the keys a shaped root may not keep.
    fn root(&self, root: &Map<String, Value>) -> bool {
        let shaped: &[&str] = match self.rules.root {
            Root::Any => return true,
            Root::Object => &[],
            Root::Shaped(keys) => keys,
            // A root rule this look does not know.
            _ => return false,
        };
        // The node pass refuses `anyOf` at the root and every other combinator anywhere.
        root.iter().all(|(key, value)| {
            !shaped.contains(&key.as_str()) && (key != "type" || value.as_str() == Some("object"))
        }) && root.iter().any(|(key, _)| key == "type")
    }

    /// Whether the schema object `map`, `depth` containers deep, and everything below it pass through unchanged.
    fn node(&mut self, map: &Map<String, Value>, depth: usize, root: bool) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes || depth > self.max_depth {
            return false;
        }
        let rules = self.rules;
        let mut node = Node::default();
        for (key, value) in map {
            if self.keep.is_some_and(|keep| !keep.keeps(key, value))
                || rules.forbidden.contains(&key.as_str())
            {
                return false;
            }
            let bytes = match (key.as_str(), value) {
                ("type", Value::String(name)) => {
                    let known = TYPE_NAMES.contains(&name.as_str());
                    if !known || (rules.forbid_null_type && name == "null") {
                        return false;
                    }
                    node.ty = Some(name);
                    node.typing = true;
                    text_bytes(name)
                }
                ("description" | "title" | "default", Value::String(text)) => text_bytes(text),
                ("properties", Value::Object(properties)) => {
                    node.properties = Some(properties);
                    node.typed[0] = true;
                    node.typing = true;
                    properties.keys().map(String::len).sum()
                }
                ("required", Value::Array(names)) => {
                    if !distinct_strings(names) {
                        return false;
                    }
                    node.required = Some(names);
                    node.typed[0] = true;
                    node.typing = true;
                    list_bytes(names)
                }
                ("enum", Value::Array(values)) => {
                    if values.is_empty() || !values.iter().all(Value::is_string) {
                        return false;
                    }
                    node.has_enum = true;
                    node.typing = true;
                    list_bytes(values)
                }
                ("items", Value::Object(items)) => {
                    node.items = Some(items);
                    node.typed[1] = true;
                    node.typing = true;
                    0
                }
                ("anyOf", Value::Array(branches)) => {
                    if root || branches.is_empty() {
                        return false;
                    }
                    node.any_of = Some(branches);
                    0
                }
                ("default", Value::Null | Value::Bool(_) | Value::Number(_)) => SCALAR_BYTES,
                ("minimum" | "maximum", Value::Number(_)) => {
                    node.typed[2] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("exclusiveMinimum" | "exclusiveMaximum", Value::Number(_)) => {
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("minItems" | "maxItems", count) if count.is_u64() => {
                    node.typed[1] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("minLength" | "maxLength", count) if count.is_u64() => {
                    node.typed[3] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("format", Value::String(format)) => {
                    node.format = Some(format);
                    node.typing = true;
                    text_bytes(format)
                }
                _ => return false,
            };
            // Every member is counted, as if each were a literal the walk charges with its key.
            self.literal_bytes = self
                .literal_bytes
                .saturating_add(key.len().saturating_add(bytes));
        }
        if self.literal_bytes > self.max_literal_bytes || !self.rewrites_nothing(&node) {
            return false;
        }
        // Children: each property and each `anyOf` branch two containers deeper, the items one.
        if let Some(properties) = node.properties {
            for child in properties.values() {
                let Value::Object(child) = child else {
                    return false;
                };
                if !self.node(child, depth + 2, false) {
                    return false;
                }
            }
        }
        if let Some(items) = node.items
            && !self.node(items, depth + 1, false)
        {
            return false;
        }
        for branch in node.any_of.into_iter().flatten() {
            let Value::Object(branch) = branch else {
                return false;
            };
            if !self.node(branch, depth + 2, false) {
                return false;
            }
        }
        true
    }

    /// Whether none of the rule set's rewrites and checks applies to a node of these keys.
    fn rewrites_nothing(&self, node: &Node<'_>) -> bool {
        let rules = self.rules;
        let Some(ty) = node.ty else {
            // An untyped node: only annotations, perhaps a union, where no type is required (none is inferred).
            return !node.typing && !rules.require_type;
        };
        if node.any_of.is_some()
            && (rules.collapse_nullable_any_of || rules.merge_combinators || rules.isolate_any_of)
        {
            return false;
        }
        // Empty `properties` added or removed, default `items` added.
        let properties_kept = match rules.empty_properties {
            EmptyProperties::Add => ty != "object" || node.properties.is_some(),
            EmptyProperties::Remove => node.properties.is_none_or(|p| !p.is_empty()),
            EmptyProperties::Never => true,
            _ => false,
        };
        let items_kept =
            rules.default_items == DefaultItems::None || ty != "array" || node.items.is_some();
        // `required` names only declared properties, where the rule set filters it (and is not emptied).
        let required_kept = !rules.filter_required
            || node.required.is_none_or(|names| {
                !names.is_empty()
                    && names.iter().all(|name| {
                        name.as_str()
                            .is_some_and(|n| node.properties.is_some_and(|p| p.contains_key(n)))
                    })
            });
        properties_kept
            && items_kept
            && required_kept
            && (!rules.google_values || google_kept(node, ty))
    }
}

/// The Google value rules: a string `enum` only on a string node, a `format` only where they keep it, and each
/// keyword that applies to one type only on a node of that type.
fn google_kept(node: &Node<'_>, ty: &str) -> bool {
    let format_kept = match node.format {
        None => true,
        Some(format) => matches!(
            (ty, format),
            ("string", "date-time")
                | ("integer", "int32" | "int64")
                | ("number", "float" | "double")
        ),
    };
    let applies = GROUPS
        .iter()
        .zip(node.typed)
        .all(|(of, present)| !present || ty == *of || (*of == "number" && ty == "integer"));
    format_kept && applies && (!node.has_enum || ty == "string")
}

/// An upper bound of the literal charge of a number, boolean or null.
const SCALAR_BYTES: usize = 32;

/// An upper bound of the compact JSON length of a string: every byte escaped as `\u00XX`, and the quotes.
fn text_bytes(text: &str) -> usize {
    text.len().saturating_mul(6).saturating_add(2)
}

/// An upper bound of the compact JSON length of a list of strings (the look accepts no other lists).
fn list_bytes(values: &[Value]) -> usize {
    values
        .iter()
        .filter_map(Value::as_str)
        .map(|text| text_bytes(text).saturating_add(1))
        .fold(2, usize::saturating_add)
}

/// Whether `names` are strings, none repeated (compared pairwise: the look accepts only short lists).
fn distinct_strings(names: &[Value]) -> bool {
    names.len() <= 64
        && names.iter().enumerate().all(|(i, name)| {
            name.as_str()
                .is_some_and(|n| names[..i].iter().all(|earlier| earlier.as_str() != Some(n)))
        })
}

#[cfg(test)]
// The tests print how many schemas the look found, beside their verdict.
#[allow(clippy::print_stderr)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use llmshim_benches::testdata;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
    use serde_json::{Map, Value, json};

    use llmshim_core::RuleSet;
    use llmshim_core::rules::{DefaultItems, EmptyProperties, Root};
    use llmshim_core::walk::Hooks;

    use super::{report, unchanged};
    use crate::schema::{Budget, Keywords, Nullable, Options, Target, pipeline};

    /// The options the look is asked with: every built-in target, without and with strict (made effective as the
    /// normalizer makes it), under both keyword profiles.
    fn all_options() -> Vec<Options> {
        let mut all = Vec::new();
        for target in Target::BUILTIN {
            for strict in [false, true] {
                for keywords in [Keywords::Current, Keywords::Conservative] {
                    let effective = strict && target.rules().rules().strict.is_some();
                    all.push(
                        Options::for_target(target)
                            .with_strict(effective)
                            .with_keywords(keywords),
                    );
                }
            }
            // The other nullability policies, which act on type arrays and `nullable` only.
            for nullable in [Nullable::Marker, Nullable::Remove] {
                all.push(Options::for_target(target).with_nullable(nullable));
            }
            // Small budgets, which a look that counts less than the walk would pass.
            for budget in [
                Budget::default().with_max_literal_bytes(40),
                Budget::default().with_max_nodes(3),
                Budget::default().with_max_depth(2),
            ] {
                all.push(Options::for_target(target).with_budget(budget));
            }
        }
        all
    }

    /// Where the look says `input` stays as it is under `options`, the walk's output (bytes, key order included) and
    /// report must be exactly that; returns whether the look said so.
    fn agrees(options: &Options, input: &Value) -> Result<bool, String> {
        if !unchanged(options, input) {
            return Ok(false);
        }
        let (out, walked) = pipeline::normalize_uncached(options, input);
        let (a, b) = (serde_json::to_string(&out), serde_json::to_string(input));
        if a.ok() != b.ok() || walked != report() {
            return Err(format!(
                "{} strict {} {:?}: the look says unchanged, the walk gives {out} with {walked:?} for {input}",
                options.target.name(),
                options.strict,
                options.keywords
            ));
        }
        Ok(true)
    }

    /// Every schema of the shared corpus: MCP tools' input and output schemas (tools and variants), the generated
    /// schemas and the SchemaStore schemas.
    fn corpus() -> Vec<Value> {
        let mut out = Vec::new();
        for file in testdata::mcp_tool_files() {
            let value = testdata::read_json(&file).expect("MCP corpus files parse");
            let tools = value["tools"].as_array().into_iter().flatten();
            let variants = value["variants"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| &v["tool"]);
            for tool in tools.chain(variants) {
                for key in ["inputSchema", "outputSchema"] {
                    out.extend(tool.get(key).cloned());
                }
            }
        }
        let root = testdata::root().expect("the caller checked the data with `require`");
        for (file, member) in [
            ("pydantic.json", "schemas"),
            ("zod.json", "schemas"),
            ("zod4.json", "schemas"),
            ("zod4.json", "schemas_draft7"),
        ] {
            let value = testdata::read_json(root.join("generated").join(file))
                .expect("generated corpus files parse");
            out.extend(
                value[member]
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.values().cloned()),
            );
        }
        for entry in testdata::schemastore_entries() {
            out.push(testdata::read_json(&entry.schema).expect("SchemaStore schemas parse"));
        }
        out
    }

    #[test]
    fn the_look_agrees_with_the_walk_on_the_whole_corpus() {
        if testdata::require("the unchanged look over the corpus").is_none() {
            return;
        }
        let schemas = corpus();
        let mut problems = Vec::new();
        for options in all_options() {
            let mut hits = 0;
            for input in &schemas {
                match agrees(&options, input) {
                    Ok(hit) => hits += usize::from(hit),
                    Err(problem) => problems.push(problem),
                }
            }
            eprintln!(
                "unchanged look: {} strict {} {:?}: {hits} of {} schemas",
                options.target.name(),
                options.strict,
                options.keywords,
                schemas.len()
            );
            // The look must find the common tool shapes on every target without hooks of its own, without strict and
            // within the default budget.
            let hooks = options.target.rules().hooks() != llmshim_core::walk::Hooks::NONE;
            if !options.strict && !hooks && options.budget == Budget::default() {
                assert!(hits > 100, "{}: {hits} hits", options.target.name());
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_look_refuses_what_a_pass_would_change() {
        // Two targets chosen by their rules: one that adds empty `properties` and `items` and shapes its root (Chat),
        // one with the Google value rules and tail.
        let with_rules = |wanted: fn(&RuleSet) -> bool| {
            Target::BUILTIN
                .into_iter()
                .find(|t| t.rules().hooks() == Hooks::NONE && wanted(t.rules().rules()))
                .map(Options::for_target)
                .expect("a built-in target has these rules")
        };
        let chat = with_rules(|r| {
            r.empty_properties == EmptyProperties::Add
                && r.default_items == DefaultItems::Empty
                && matches!(r.root, Root::Shaped(_))
        });
        let google = with_rules(|r| r.google_values && r.isolate_any_of);
        let simple = json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}, "required": ["a"]});
        assert!(unchanged(&chat, &simple));
        assert!(unchanged(&google, &simple));
        for (options, input) in [
            // Strict closes objects; diagnostics are recorded by the walk.
            (chat.clone().with_strict(true), simple.clone()),
            (chat.clone().with_diagnostics(true), simple.clone()),
            // `properties: {}` is added on Chat, an empty one removed on Google.
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": "object"}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
            ),
            // Default items, a type array, a reference, a root that is not an object.
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": "array"}}}),
            ),
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}),
            ),
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
            ),
            (chat.clone(), json!({"type": "string"})),
            // Google: a default stripped, a `required` naming nothing declared, a bound of another type, a union.
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string", "minimum": 1}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}),
            ),
        ] {
            assert!(!unchanged(&options, &input), "{input}");
            assert!(agrees(&options, &input).is_ok());
        }
    }

    /// A value for one keyword: mostly what the look accepts, sometimes a value it must refuse or a pass changes.
    fn keyword(inner: &BoxedStrategy<Value>) -> impl Strategy<Value = (String, Value)> + use<> {
        let name = prop::sample::select(vec!["a", "b", "c", "id", "type", "x_y"]);
        let scalar = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..300).prop_map(Value::from),
            Just(json!(1.5)),
            Just(json!(-1.0)),
            "[a-z \\n\"]{0,6}".prop_map(Value::String),
        ];
        let type_name = prop::sample::select(vec![
            "object", "string", "integer", "number", "boolean", "array", "null", "int",
        ]);
        prop_oneof![
            6 => type_name.prop_map(|t| ("type".to_owned(), json!(t))),
            1 => Just(("type".to_owned(), json!(["string", "null"]))),
            4 => prop::collection::vec((name.clone(), inner.clone()), 0..4).prop_map(|members| {
                ("properties".to_owned(), Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
            }),
            3 => prop::collection::vec(name.clone(), 0..4)
                .prop_map(|names| ("required".to_owned(), json!(names))),
            2 => "[a-z (keyword:]{0,12}".prop_map(|t| ("description".to_owned(), json!(t))),
            1 => "[a-z]{0,6}".prop_map(|t| ("title".to_owned(), json!(t))),
            2 => prop::collection::vec(prop_oneof![4 => "[a-z]{0,3}".prop_map(Value::String), 1 => scalar.clone()], 0..4)
                .prop_map(|values| ("enum".to_owned(), Value::Array(values))),
            2 => inner.clone().prop_map(|items| ("items".to_owned(), items)),
            2 => prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|branches| ("anyOf".to_owned(), Value::Array(branches))),
            2 => scalar.clone().prop_map(|v| ("default".to_owned(), v)),
            3 => (prop::sample::select(vec![
                "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                "minItems", "maxItems", "multipleOf",
            ]), scalar.clone())
                .prop_map(|(k, v)| (k.to_owned(), v)),
            1 => prop::sample::select(vec!["date-time", "int32", "double", "email", "uri", "enum"])
                .prop_map(|f| ("format".to_owned(), json!(f))),
            1 => prop::sample::select(vec!["const", "additionalProperties", "pattern", "nullable", "$ref", "oneOf", "x_of"])
                .prop_flat_map(move |k| scalar.clone().prop_map(move |v| (k.to_owned(), v))),
        ]
    }

    /// A schema object of a few keywords, any of them.
    fn node(inner: &BoxedStrategy<Value>) -> impl Strategy<Value = Value> + use<> {
        prop::collection::vec(keyword(inner), 0..6)
            .prop_map(|members| Value::Object(members.into_iter().collect()))
    }

    /// A typed schema object of the shapes the look accepts, with keywords that suit its type and now and then one
    /// that does not (or a value a pass changes).
    fn typed(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
        let suited = |ty: &'static str| -> Vec<(&'static str, Value)> {
            let mut keys = vec![("description", json!("text")), ("title", json!("T"))];
            match ty {
                "string" => keys.extend([
                    ("enum", json!(["a", "b"])),
                    ("format", json!("date-time")),
                    ("minLength", json!(1)),
                    ("maxLength", json!(9)),
                    ("default", json!("a")),
                ]),
                "integer" | "number" => keys.extend([
                    ("minimum", json!(0)),
                    ("maximum", json!(9.5)),
                    (
                        "format",
                        json!(if ty == "integer" { "int64" } else { "double" }),
                    ),
                    ("exclusiveMinimum", json!(0)),
                    ("default", json!(3)),
                ]),
                "array" => keys.extend([("minItems", json!(1)), ("maxItems", json!(3))]),
                _ => keys.push(("default", Value::Null)),
            }
            keys
        };
        let ty = prop::sample::select(vec![
            "object", "string", "integer", "number", "boolean", "array", "null",
        ]);
        let extra = prop::option::weighted(0.2, keyword(&inner));
        let names = prop::sample::select(vec!["a", "b", "c", "id"]);
        let properties = prop::collection::vec((names.clone(), inner.clone()), 0..4);
        let required = prop::collection::vec(names, 0..3);
        (
            ty,
            prop::collection::vec(any::<bool>(), 8),
            properties,
            required,
            inner,
            extra,
        )
            .prop_map(move |(ty, picks, properties, required, items, extra)| {
                let mut map = Map::new();
                map.insert("type".to_owned(), json!(ty));
                for ((key, value), pick) in suited(ty).into_iter().zip(picks.iter().copied()) {
                    if pick {
                        map.insert(key.to_owned(), value);
                    }
                }
                if ty == "object" && picks.get(7).copied().unwrap_or(true) {
                    let properties: Map<String, Value> = properties
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect();
                    let mut names: Vec<&str> = Vec::new();
                    for name in required {
                        if properties.contains_key(name) && !names.contains(&name) {
                            names.push(name);
                        }
                    }
                    if !names.is_empty() || picks.first().copied().unwrap_or(false) {
                        map.insert("required".to_owned(), json!(names));
                    }
                    map.insert("properties".to_owned(), Value::Object(properties));
                }
                if ty == "array" && picks.get(6).copied().unwrap_or(true) {
                    map.insert("items".to_owned(), items);
                }
                if let Some((key, value)) = extra {
                    map.insert(key, value);
                }
                Value::Object(map)
            })
    }

    /// A schema close to the shapes the look accepts: mostly typed nodes, now and then a union or any node.
    fn schema() -> BoxedStrategy<Value> {
        let leaf = prop_oneof![
            Just(json!({"type": "string"})),
            Just(json!({"type": "integer", "minimum": 0})),
            Just(json!({"type": "string", "enum": ["a", "b"]})),
            Just(json!({"type": "boolean", "description": "d"})),
            Just(json!({"type": "null"})),
            Just(json!(true)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            let inner = inner.boxed();
            prop_oneof![
                8 => typed(inner.clone()),
                1 => prop::collection::vec(inner.clone(), 1..3)
                    .prop_map(|branches| json!({"anyOf": branches, "description": "u"})),
                1 => node(&inner),
            ]
        })
        .boxed()
    }

    /// A document: an object root, most often.
    fn document() -> impl Strategy<Value = Value> {
        prop_oneof![
            4 => (prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), schema()), 1..4), any::<bool>())
                .prop_map(|(properties, require)| {
                    let properties: Map<String, Value> =
                        properties.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                    let names: Vec<&String> = properties.keys().collect();
                    let mut root = json!({"type": "object", "properties": properties.clone()});
                    if require && let Value::Object(map) = &mut root {
                        map.insert("required".to_owned(), json!(names));
                    }
                    root
                }),
            1 => schema(),
        ]
    }

    #[test]
    fn the_look_agrees_with_the_walk_on_generated_schemas() {
        let cases = std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(256);
        let seed = std::env::var("PROPTEST_RNG_SEED")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(16);
        let config = Config {
            cases,
            rng_seed: RngSeed::Fixed(seed),
            failure_persistence: None,
            ..Config::default()
        };
        let options = all_options();
        let hits = AtomicUsize::new(0);
        let mut runner = TestRunner::new(config);
        let result = runner.run(&document(), |input| {
            for options in &options {
                if agrees(options, &input).map_err(TestCaseError::fail)? {
                    hits.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(())
        });
        let hits = hits.into_inner();
        eprintln!("unchanged look: {hits} hits over {cases} generated schemas, seed {seed}");
        if let Err(err) = result {
            panic!("{err}");
        }
        // The generator must reach the look's accepted shapes, or the property says nothing.
        assert!(hits * 4 >= cases as usize, "{hits} hits in {cases} cases");
    }
}
