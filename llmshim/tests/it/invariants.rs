//! Property tests over generated schemas: for every target, strict and not, normalization never panics, is
//! idempotent, gives the same bytes and report with and without the memo, and returns either the fallback or a
//! schema that passes its checks, holds no `$ref`, and keeps every surviving literal as it was.
//!
//! The generator writes the schemas tool authors write: nested objects with snake-case and keyword-like property
//! names, `$ref`s into `$defs` (cycles and `$ref` siblings included), combinators in both spellings, type arrays,
//! patterns with lookarounds, and `default`, `enum`, `examples` and `const` values that look like schemas.
//! Case counts are small by default (64) and raised through `PROPTEST_CASES`; failures are kept in
//! `llmshim/proptest-regressions/invariants.txt`, which is committed. The default run uses a fixed seed, so
//! `cargo test` checks the same cases every time; `cargo xtask props` runs 10,000 cases on a fresh seed and records
//! the run in RELIABILITY.md from the `props: ` lines printed here.
//! Violations found so far are fixed and kept as regression tests below; a shared memo is also exercised from several
//! threads with mixed targets and options against the uncached results.

use std::sync::Arc;
use std::thread;

use llmshim::cache::{Limits, Memo};
use llmshim::schema::{Env, EnvFlags, Normalization, Normalizer, Options, Target, check_with};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed, TestRunner};
use serde_json::{Map, Value, json};

/// The definition names the generated `$ref`s point at; a generated schema defines some of them.
const DEFINITIONS: [&str; 3] = ["Node", "Item", "Tag"];

/// The literal keywords whose values are data, never schemas.
const LITERALS: [&str; 4] = ["default", "enum", "examples", "const"];

/// The seed of the default run, so that `cargo test` checks the same cases every time; `cargo xtask props` sets
/// `PROPTEST_RNG_SEED` to a fresh seed and records it.
const DEFAULT_SEED: u64 = 20_261_201;

/// 64 cases by default, or `PROPTEST_CASES`; the seed is [`DEFAULT_SEED`] or `PROPTEST_RNG_SEED`; failures persist
/// next to the crate's manifest and are replayed first.
pub(crate) fn config() -> ProptestConfig {
    fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
    }
    ProptestConfig {
        cases: env("PROPTEST_CASES").unwrap_or(64),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(DEFAULT_SEED)),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/invariants.txt"
        )))),
        ..ProptestConfig::default()
    }
}

/// Runs the property `test` over `strategy` with [`config`] and prints one `props: ` line on stderr with the case
/// count and seed (which `cargo xtask props` collects); panics with proptest's report on a failure.
pub(crate) fn run_property<S: Strategy>(
    name: &str,
    strategy: &S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let config = config();
    let (cases, seed) = (config.cases, config.rng_seed);
    let started = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    let result = runner.run(strategy, test);
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(()) => eprintln!("props: {name}: {cases} cases passed, seed {seed}, {seconds:.1} s"),
        Err(err) => {
            eprintln!("props: {name}: FAILED after {seconds:.1} s, seed {seed}: {err}");
            panic!("{name}: {err}");
        }
    }
}

// The generator.

/// A data value, often shaped like a schema or named like a keyword, for `default`, `enum`, `examples` and `const`.
fn literal() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(|n| json!(n)),
        prop::sample::select(vec![0.5, -0.0, 1.0, 1e21]).prop_map(|f| json!(f)),
        "[a-z_]{0,6}".prop_map(Value::String),
        prop::sample::select(vec![
            json!({"type": "string"}),
            json!({"$ref": "#/$defs/Node"}),
            json!({"any_of": [{"type": "null"}], "one_of": [true]}),
            json!({"properties": {"a": {"all_of": []}}, "required": null}),
            json!({"default": {"$defs": {"X": {}}}, "enum": [], "additional_properties": false}),
            json!(["anyOf", {"allOf": [{"type": "x"}]}, {"min_items": 1}]),
            json!({"$id": "https://example.test/x", "$anchor": "a", "nullable": true}),
            json!({"type": ["string", "null"], "pattern": "(?=a)"}),
        ]),
    ]
}

/// A `pattern`, sometimes with lookarounds or in a dialect some targets reject.
fn pattern() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        "^[a-z]+$",
        "\\d{3}-\\d{4}",
        "^(?=.*[A-Z])\\w{8,}$",
        "(?<!x)y",
        "^(?!foo)bar",
        "^\\p{L}+$",
        "a{2,}",
    ])
    .prop_map(|p| Value::String(p.to_owned()))
}

/// One keyword beside a leaf's `type`, in camel or snake case.
fn extra() -> impl Strategy<Value = (String, Value)> {
    let text = "[A-Za-z ()]{0,10}".prop_map(Value::String);
    prop_oneof![
        text.clone().prop_map(|t| ("description".to_owned(), t)),
        text.prop_map(|t| ("title".to_owned(), t)),
        prop::sample::select(vec!["date-time", "email", "uri", "int32", "uuid"])
            .prop_map(|f| ("format".to_owned(), json!(f))),
        pattern().prop_map(|p| ("pattern".to_owned(), p)),
        (0u64..4).prop_map(|n| ("minLength".to_owned(), json!(n))),
        (0u64..4).prop_map(|n| ("min_length".to_owned(), json!(n))),
        (-5i64..5).prop_map(|n| ("maximum".to_owned(), json!(n))),
        (-5i64..5).prop_map(|n| ("exclusive_minimum".to_owned(), json!(n))),
        literal().prop_map(|v| ("default".to_owned(), v)),
        prop::collection::vec(literal(), 0..3)
            .prop_map(|v| ("examples".to_owned(), Value::Array(v))),
        prop::collection::vec(literal(), 1..4).prop_map(|v| ("enum".to_owned(), Value::Array(v))),
        literal().prop_map(|v| ("const".to_owned(), v)),
        any::<bool>().prop_map(|b| ("nullable".to_owned(), json!(b))),
        literal().prop_map(|v| ("x-vendor".to_owned(), v)),
        lift_list_keyword(),
    ]
}

/// One of the other keywords of the contract's lift list, with a plausible value (the loss invariant checks each).
fn lift_list_keyword() -> impl Strategy<Value = (String, Value)> {
    prop::sample::select(vec![
        ("minimum", json!(1)),
        ("exclusiveMaximum", json!(9.5)),
        ("multipleOf", json!(2)),
        ("maxLength", json!(8)),
        ("max_items", json!(3)),
        ("minItems", json!(2)),
        ("uniqueItems", json!(true)),
        ("minProperties", json!(1)),
        ("max_properties", json!(4)),
        ("contentEncoding", json!("base64")),
        ("contentMediaType", json!("text/plain")),
        ("readOnly", json!(true)),
        ("writeOnly", json!(false)),
        ("contains", json!({"type": "string"})),
        ("minContains", json!(1)),
        ("maxContains", json!(2)),
        ("dependentRequired", json!({"name": ["user_id"]})),
        (
            "dependentSchemas",
            json!({"name": {"required": ["user_id"]}}),
        ),
        (
            "patternProperties",
            json!({"^x_": {"type": "string"}, "(?<!y)z": {"type": "integer"}}),
        ),
        ("propertyNames", json!({"maxLength": 12})),
    ])
    .prop_map(|(k, v)| (k.to_owned(), v))
}

/// A `type`: a name, or an array of names.
fn type_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(vec!["string", "integer", "number", "boolean", "null"]).prop_map(|t| json!(t)),
        1 => prop::sample::select(vec![
            json!(["string", "null"]),
            json!(["integer", "string"]),
            json!(["number", "null"]),
            json!(["object", "null"]),
        ]),
    ]
}

/// A reference: mostly into `$defs`, sometimes to the root, to a missing definition, or with a sibling.
fn reference() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop::sample::select(DEFINITIONS.to_vec()).prop_map(|d| json!({"$ref": format!("#/$defs/{d}")})),
        1 => prop::sample::select(DEFINITIONS.to_vec())
            .prop_map(|d| json!({"$ref": format!("#/$defs/{d}"), "description": "see the definition"})),
        1 => Just(json!({"$ref": "#"})),
        1 => Just(json!({"$ref": "#/$defs/Missing"})),
    ]
}

/// A schema without subschemas.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        12 => (type_value(), prop::collection::vec(extra(), 0..4)).prop_map(|(ty, extras)| {
            let mut node = Map::new();
            node.insert("type".to_owned(), ty);
            for (key, value) in extras {
                node.insert(key, value);
            }
            Value::Object(node)
        }),
        5 => reference(),
        2 => prop::collection::vec(extra(), 0..3).prop_map(|extras| Value::Object(extras.into_iter().collect())),
        1 => any::<bool>().prop_map(Value::Bool),
    ]
}

/// A property name: plain, snake case, or spelled like a keyword (names are data and never renamed).
fn property_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "name",
        "user_id",
        "created_at",
        "type",
        "default",
        "enum",
        "$ref",
        "properties",
        "any_of",
        "items",
    ])
    .prop_map(str::to_owned)
}

/// An object schema over `inner` members, sometimes also a `$ref` whose target its keys are merged over.
fn object(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (
        prop::collection::vec((property_name(), inner.clone()), 0..4),
        prop::collection::vec(any::<bool>(), 4),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(prop_oneof![any::<bool>().prop_map(Value::Bool), inner]),
        any::<bool>(),
        prop::option::weighted(0.15, prop::sample::select(DEFINITIONS.to_vec())),
    )
        .prop_map(
            |(members, picks, typed, unknown_required, additional, snake, sibling_of)| {
                let mut properties = Map::new();
                for (name, member) in members {
                    properties.entry(name).or_insert(member);
                }
                let mut required: Vec<Value> = properties
                    .keys()
                    .zip(picks)
                    .filter(|(_, pick)| *pick)
                    .map(|(name, _)| json!(name))
                    .collect();
                if unknown_required {
                    required.push(json!("not_declared"));
                }
                let mut node = Map::new();
                if typed {
                    node.insert("type".to_owned(), json!("object"));
                }
                node.insert("properties".to_owned(), Value::Object(properties));
                node.insert("required".to_owned(), Value::Array(required));
                if let Some(target) = sibling_of {
                    node.insert("$ref".to_owned(), json!(format!("#/$defs/{target}")));
                }
                if let Some(additional) = additional {
                    let key = if snake {
                        "additional_properties"
                    } else {
                        "additionalProperties"
                    };
                    node.insert(key.to_owned(), additional);
                }
                Value::Object(node)
            },
        )
}

/// An array schema over `inner` items: `items`, a tuple, or untyped `items`.
fn array(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        (inner.clone(), prop::option::of(0u64..3)).prop_map(|(items, min)| {
            let mut node = json!({"type": "array", "items": items});
            if let Some(min) = min {
                node["min_items"] = json!(min);
            }
            node
        }),
        prop::collection::vec(inner.clone(), 1..3)
            .prop_map(|entries| json!({"type": "array", "prefixItems": entries, "items": false})),
        inner.prop_map(|items| json!({"items": items})),
    ]
}

/// A combinator in camel or snake case over one to three `inner` branches, sometimes with siblings.
fn combinator(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec![
            "anyOf", "oneOf", "allOf", "any_of", "one_of", "all_of",
        ]),
        prop::collection::vec(inner, 1..4),
        prop::option::of(prop::sample::select(vec!["object", "string"])),
        prop::option::of("[a-z ]{1,8}"),
    )
        .prop_map(|(keyword, branches, ty, description)| {
            let mut node = Map::new();
            if let Some(ty) = ty {
                node.insert("type".to_owned(), json!(ty));
            }
            if let Some(description) = description {
                node.insert("description".to_owned(), json!(description));
            }
            node.insert(keyword.to_owned(), Value::Array(branches));
            Value::Object(node)
        })
}

/// `not` or `if`/`then`/`else` over `inner`.
fn conditional(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        inner
            .clone()
            .prop_map(|n| json!({"type": "string", "not": n})),
        (inner.clone(), inner.clone(), inner)
            .prop_map(|(i, t, e)| json!({"type": "object", "if": i, "then": t, "else": e})),
    ]
}

/// A schema tree over the leaves.
fn schema() -> BoxedStrategy<Value> {
    leaf()
        .prop_recursive(4, 40, 4, |inner| {
            prop_oneof![
                3 => object(inner.clone()),
                2 => array(inner.clone()),
                2 => combinator(inner.clone()),
                1 => conditional(inner),
            ]
        })
        .boxed()
}

/// A document: an object root (or any schema, sometimes) with some of [`DEFINITIONS`] defined in `$defs`.
pub(crate) fn document() -> impl Strategy<Value = Value> {
    (
        prop_oneof![4 => object(schema()), 1 => schema()],
        prop::collection::vec(prop::option::weighted(0.85, schema()), DEFINITIONS.len()),
    )
        .prop_map(|(root, definitions)| {
            let mut defs = Map::new();
            for (name, definition) in DEFINITIONS.iter().zip(definitions) {
                if let Some(definition) = definition {
                    defs.insert((*name).to_owned(), definition);
                }
            }
            match root {
                Value::Object(mut map) if !defs.is_empty() => {
                    map.insert("$defs".to_owned(), Value::Object(defs));
                    Value::Object(map)
                }
                other => other,
            }
        })
}

// The invariants.

/// A normalizer with fixed flags and no memo.
fn uncached() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

/// A normalizer with fixed flags and a memo of its own.
fn cached() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default()))
        .with_memo(Arc::new(Memo::new(Limits::default())))
}

/// Normalizes a copy of `input` with `normalizer` and returns the output and the report.
fn run(normalizer: &Normalizer, options: &Options, input: &Value) -> (Value, Normalization) {
    let mut value = input.clone();
    let report = normalizer.normalize_with(options, &mut value);
    (value, report)
}

/// Calls `visit` on every node at a schema position of `schema`: the root, map-child values, single children and
/// array-child entries, never inside a literal.
fn schema_nodes<'a>(schema: &'a Value, visit: &mut dyn FnMut(&'a Map<String, Value>)) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let Value::Object(map) = node else {
            continue;
        };
        visit(map);
        for (key, value) in map {
            match key.as_str() {
                "properties" | "patternProperties" | "dependentSchemas" | "$defs"
                | "definitions" => {
                    if let Value::Object(members) = value {
                        stack.extend(members.values());
                    }
                }
                "items"
                | "contains"
                | "additionalProperties"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else" => stack.push(value),
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    if let Value::Array(entries) = value {
                        stack.extend(entries);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Every value held by a literal keyword anywhere in `input`, per keyword; `enum` contributes its elements too.
fn literal_values(input: &Value) -> Vec<(&'static str, Value)> {
    let mut found = Vec::new();
    let mut stack = vec![input];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    if let Some(keyword) = LITERALS.iter().find(|k| **k == key) {
                        found.push((*keyword, member.clone()));
                        if let Value::Array(elements) = member {
                            found.extend(elements.iter().map(|e| ("enum element", e.clone())));
                        }
                    }
                    stack.push(member);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

/// Checks every invariant of one input for one target and strict flag.
fn check_one(input: &Value, target: Target, strict: bool) -> Result<(), TestCaseError> {
    let options = Options::for_target(target).with_strict(strict);
    let name = format!("{} strict={strict}", target.name());
    let (out, report) = run(&uncached(), &options, input);
    let out_text = serde_json::to_string(&out).expect("serializes");

    // Cached equals uncached: a miss and then a hit on a memo of its own give the same bytes and report.
    let memo = cached();
    for attempt in ["miss", "hit"] {
        let (cached_out, cached_report) = run(&memo, &options, input);
        prop_assert_eq!(
            serde_json::to_string(&cached_out).expect("serializes"),
            out_text.clone(),
            "{}: cached output ({})",
            name,
            attempt
        );
        prop_assert_eq!(
            &cached_report,
            &report,
            "{}: cached report ({})",
            name,
            attempt
        );
    }

    if report.used_fallback {
        prop_assert_eq!(
            &out,
            &json!({"type": "object", "properties": {}}),
            "{}: the fallback",
            name
        );
        return Ok(());
    }

    // The output passes the target's check with the strict flag the report gives.
    let effective = options.clone().with_strict(report.strict);
    let problems = check_with(&effective, &out);
    prop_assert!(
        problems.is_empty(),
        "{}: {} fails its check: {:?}",
        name,
        out,
        problems
    );
    if report.strict {
        let strict_problems = crate::support::strict_problems(&effective, &out);
        prop_assert!(
            strict_problems.is_empty(),
            "{}: {} fails strict: {:?}",
            name,
            out,
            strict_problems
        );
    }

    // Anthropic, Code Assist and MCP outputs are 2020-12 schemas.
    if matches!(
        target,
        Target::Anthropic | Target::CloudCodeAssist | Target::Mcp
    ) {
        prop_assert!(
            jsonschema::draft202012::meta::is_valid(&out),
            "{}: {} is not a 2020-12 schema",
            name,
            out
        );
    }

    // No `$ref` or `$defs` survives at a schema position but a kept recursive reference where the target keeps
    // them, and every surviving literal is one the input held.
    let kept = options.recursion_for(report.strict).keeps_refs();
    let misplaced = llmshim_benches::refs::reference_problems(&out, kept);
    prop_assert!(
        misplaced.is_empty(),
        "{}: {:?} in {} from {}",
        name,
        misplaced,
        out,
        input
    );
    let known = literal_values(input);
    let mut problem = None;
    schema_nodes(&out, &mut |node| {
        for keyword in ["default", "examples", "const"] {
            if let Some(value) = node.get(keyword)
                && !known.iter().any(|(k, v)| *k == keyword && v == value)
                && problem.is_none()
            {
                problem = Some(format!("{keyword} was rewritten to {value}"));
            }
        }
        // An `enum` may lose `null` (nullable policy) or be built from `const`/`enum` values (root merge), but every
        // element must come from the input.
        if let Some(Value::Array(elements)) = node.get("enum") {
            for element in elements {
                let from_input = known
                    .iter()
                    .any(|(k, v)| matches!(*k, "enum element" | "const") && v == element);
                if !from_input && problem.is_none() {
                    problem = Some(format!("enum element {element} is not from the input"));
                }
            }
        }
    });
    prop_assert!(
        problem.is_none(),
        "{}: {} from {}",
        name,
        problem.unwrap_or_default(),
        input
    );

    // Idempotence: the output normalized again, in the mode it came out in, is unchanged, byte for byte. (A demoted
    // output is a non-strict schema; under strict again it may narrow where its first strict pass could not.)
    let produced = options
        .clone()
        .with_strict(options.strict && report.strict)
        .with_diagnostics(true);
    let (again, again_report) = run(&uncached(), &produced, &out);
    prop_assert!(
        !again_report.changed,
        "{}: normalizing {} again changed it: {:?}",
        name,
        out,
        again_report
    );
    prop_assert_eq!(
        serde_json::to_string(&again).expect("serializes"),
        out_text,
        "{}: idempotence",
        name
    );
    Ok(())
}

#[test]
fn every_target_keeps_every_invariant() {
    run_property("every_target_keeps_every_invariant", &document(), |input| {
        for target in Target::BUILTIN {
            for strict in [false, true] {
                check_one(&input, target, strict)?;
            }
        }
        Ok(())
    });
}

#[test]
fn the_generator_writes_references_cycles_and_keyword_like_literals() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    // A deterministic sample of the generator must contain every feature the invariants are meant to exercise.
    let mut runner = TestRunner::deterministic();
    let strategy = document();
    let mut seen = [false; 6];
    for _ in 0..200 {
        let input = strategy.new_tree(&mut runner).expect("a value").current();
        let text = input.to_string();
        seen[0] |= text.contains("\"$ref\":\"#/$defs/");
        seen[1] |= input.get("$defs").is_some();
        seen[2] |= text.contains("any_of") || text.contains("one_of") || text.contains("all_of");
        seen[3] |= text.contains("(?=") || text.contains("(?<!") || text.contains("(?!");
        seen[4] |= text.contains("[\"string\",\"null\"]");
        seen[5] |= LITERALS
            .iter()
            .any(|k| text.contains(&format!("\"{k}\":{{\"$ref\"")));
    }
    assert_eq!(
        seen, [true; 6],
        "refs, $defs, snake-case combinators, lookarounds, type arrays, schema-like literals"
    );
}

/// Found by the property test, fixed: a type or keys that W28 gives a node after W22 ran left the Google value rules
/// to a second pass (and an inapplicable keyword in the output Gemini would reject).
const LATE_VALUE_RULES: [(Target, &str); 3] = [
    // The CCA merge appends the branch's `items` to a node that keeps its own `type: "object"`.
    (
        Target::CloudCodeAssist,
        r#"{"type":"object","anyOf":[{"type":"array","items":{"type":"string"}}]}"#,
    ),
    // `anyOf` isolation gives the untyped branch `type: "object"` beside its `maximum`.
    (
        Target::Google,
        r#"{"type":"object","properties":{"a":{"type":"object","anyOf":[{"maximum":0}]}}}"#,
    ),
    // The nullable-`anyOf` collapse appends the live branch's `format` to an object node.
    (
        Target::Google,
        r#"{"type":"object","properties":{"a":{"type":"object","anyOf":[{"type":"null"},{"type":"string","format":"date-time"}]}}}"#,
    ),
];

/// Normalizes the JSON `text` for `target` with strict: the result must keep strict, and normalizing it again must
/// change nothing. Returns the result.
fn strict_fixed_point(text: &str, target: Target) -> Value {
    let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
    let options = Options::for_target(target).with_strict(true);
    let (out, report) = run(&uncached(), &options, &input);
    assert!(
        report.strict && report.fallback_reason.is_none(),
        "{text}: {report:?}"
    );
    let (again, again_report) = run(&uncached(), &options, &out);
    assert!(
        again_report.strict && !again_report.changed,
        "{text}: {again_report:?}"
    );
    assert_eq!(again, out);
    out
}

/// A fuzz finding, fixed: under strict, a `$ref` target used to be closed (`required` = its own properties) before
/// the referencing node's sibling `properties` replaced its own, so the first pass demoted and a second succeeded.
const STRICT_REF_SIBLING: &str = r##"{"$ref":"#/$defs/A","$defs":{"A":{"type":"object","properties":{"x":{"type":"string"}}}},"properties":{"y":{"type":"string"}}}"##;

#[test]
fn a_strict_ref_target_is_closed_after_its_siblings_are_merged() {
    // Siblings win: the sibling `properties` replace the target's, and the merged node is closed.
    assert_eq!(
        strict_fixed_point(STRICT_REF_SIBLING, Target::OpenAiChat),
        serde_json::json!({
            "type": "object",
            "properties": {"y": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            "required": ["y"],
            "additionalProperties": false
        })
    );
}

/// Found by the property test, fixed: a target key that a `$ref` sibling replaces used to be walked before the merge
/// threw it away, so strict failed (and demoted) on content that was not in the result, and a second pass succeeded.
const STRICT_REF_REPLACED: &str = r##"{"$ref":"#/$defs/A","$defs":{"A":{"properties":{"p":{"type":"object","properties":{},"required":["x"]}}}},"properties":{"q":{"type":"string"}}}"##;

#[test]
fn a_ref_target_key_that_a_sibling_replaces_is_not_walked() {
    assert_eq!(
        strict_fixed_point(STRICT_REF_REPLACED, Target::OpenAiChat),
        serde_json::json!({
            "type": "object",
            "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            "required": ["q"],
            "additionalProperties": false
        })
    );
}

#[test]
fn the_value_rules_run_again_on_keys_the_google_tail_moves() {
    let expected = [
        // The CCA merge appends the branch's `items`, which does not apply to the node's own `type: "object"`.
        json!({"type": "object"}),
        // Isolation types the branch as an object, so its `maximum` no longer applies.
        json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "object"}]}}}),
        // The collapse appends a `format` Gemini does not take on an object; it is lifted.
        json!({"type": "object", "properties": {"a": {
            "type": "object", "nullable": true, "description": "(format: date-time)"
        }}}),
    ];
    for ((target, text), expected) in LATE_VALUE_RULES.into_iter().zip(expected) {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        let options = Options::for_target(target).with_diagnostics(true);
        let (out, report) = run(&uncached(), &options, &input);
        assert!(!report.used_fallback, "{text}: {report:?}");
        assert_eq!(out, expected, "{text} on {}", target.name());
        let (again, again_report) = run(&uncached(), &options, &out);
        assert!(!again_report.changed, "{text}: {again_report:?}");
        assert_eq!(again, out);
    }
}

/// Found by the property test, fixed: the type array of a `$ref` target was split before the siblings were merged,
/// so sibling `properties` and `required` sat beside the `anyOf` wrapper and strict demoted, while a second pass split
/// the merged node and passed.
const SPLIT_REF_TARGET: &str = r##"{"properties":{},"required":["not_declared"],"$ref":"#/$defs/Tag","$defs":{"Tag":{"type":["string","null"]}}}"##;

#[test]
fn a_ref_target_type_array_is_split_after_the_merge() {
    let out = strict_fixed_point(SPLIT_REF_TARGET, Target::Mcp);
    assert!(out.get("anyOf").is_some(), "{out}");
}

/// Found by the property test, fixed: the entry of a one-entry `allOf` was walked alone, so under strict its
/// mixed-kind `enum` failed type inference although the typed node it merges into needs none; the first pass demoted
/// and a second pass, on the merged keys, kept strict.
const STRICT_INFERENCE_IN_ENTRY: &str = r#"{"type":"array","prefixItems":[{"type":"object","allOf":[{"enum":[null,false]}]}],"items":false}"#;

#[test]
fn a_one_entry_all_of_is_typed_after_its_keys_are_merged() {
    strict_fixed_point(STRICT_INFERENCE_IN_ENTRY, Target::Mcp);
}

/// A property-test finding, fixed: a root `$ref` target was shaped (its `anyOf` branch merged into it) and its
/// children walked before the referencing node's sibling `properties` replaced the shaped ones, so under strict a
/// property the merge throws away failed and the first pass demoted; a target's root now leaves unwalked every child
/// keyword a sibling replaces.
const STRICT_SHAPED_REF_TARGET: &str = r##"{"properties":{},"required":[],"$ref":"#/$defs/Node","$defs":{"Node":{"anyOf":[{"type":"object","properties":{"name":{"$ref":"#/$defs/Tag"}},"required":[]}]},"Tag":{"properties":{},"required":["not_declared"]}}}"##;

#[test]
fn a_shaped_ref_target_does_not_walk_what_its_siblings_replace() {
    strict_fixed_point(STRICT_SHAPED_REF_TARGET, Target::OpenAiChat);
}

/// The same in another resource: the target's own `properties`, which the sibling replaces, held an object that
/// strict cannot close; the target is in another base, so the sibling's value cannot stand in its place.
const STRICT_CROSS_RESOURCE_TARGET: &str = r#"{"$id":"https://ex.test/root.json","type":"object","properties":{"p":{"$ref":"other.json","properties":{}}},"$defs":{"o":{"$id":"other.json","type":"object","properties":{"bad":{"type":"object","required":["zz"]}}}}}"#;

#[test]
fn a_target_in_another_resource_does_not_walk_what_its_siblings_replace() {
    let out = strict_fixed_point(STRICT_CROSS_RESOURCE_TARGET, Target::OpenAiChat);
    assert_eq!(
        out["properties"]["p"]["anyOf"][0],
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn a_shared_memo_under_concurrency_gives_the_uncached_results() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    // Generated documents under mixed targets and options, each computed once without a memo.
    let mut runner = TestRunner::deterministic();
    let strategy = document();
    let inputs: Vec<Value> = (0..24)
        .map(|_| strategy.new_tree(&mut runner).expect("a value").current())
        .collect();
    let mut jobs = Vec::new();
    for input in &inputs {
        for target in Target::BUILTIN {
            for (strict, diagnostics) in [(false, false), (true, false), (true, true)] {
                let options = Options::for_target(target)
                    .with_strict(strict)
                    .with_diagnostics(diagnostics);
                let (out, report) = run(&uncached(), &options, input);
                let text = serde_json::to_string(&out).expect("serializes");
                jobs.push((input, options, text, report));
            }
        }
    }
    // Four threads share one small memo, so entries are evicted and replaced while others read them.
    let memo = Arc::new(Memo::new(Limits::default().with_max_entries(64)));
    thread::scope(|scope| {
        for worker in 0..4 {
            let (jobs, memo) = (&jobs, Arc::clone(&memo));
            scope.spawn(move || {
                let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(memo);
                for round in 0..3 {
                    for i in 0..jobs.len() {
                        // Each worker walks the jobs in its own order.
                        let (input, options, text, report) =
                            &jobs[(i * (2 * worker + 1) + round) % jobs.len()];
                        let (out, got) = run(&normalizer, options, input);
                        assert_eq!(&serde_json::to_string(&out).expect("serializes"), text);
                        assert_eq!(&got, report);
                    }
                }
            });
        }
    });
    let stats = memo.stats();
    assert!(stats.hits > 0 && stats.evictions > 0, "{stats:?}");
}

/// Checks every invariant of [`every_target_keeps_every_invariant`] on the JSON `text`, for every built-in target,
/// strict off and on.
fn every_invariant_holds(text: &str) {
    let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
    for target in Target::BUILTIN {
        for strict in [false, true] {
            if let Err(failure) = check_one(&input, target, strict) {
                panic!("{text} on {} strict={strict}: {failure}", target.name());
            }
        }
    }
}

/// Normalizes the JSON `text` for `target` without strict: normalizing the output again must change nothing, byte
/// for byte. Returns the output.
fn fixed_point(text: &str, target: Target) -> Value {
    let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
    let options = Options::for_target(target).with_diagnostics(true);
    let (out, report) = run(&uncached(), &options, &input);
    assert!(!report.used_fallback, "{text}: {report:?}");
    let (again, again_report) = run(&uncached(), &options, &out);
    assert!(!again_report.changed, "{text}: {out} then {again_report:?}");
    assert_eq!(
        serde_json::to_string(&again).expect("serializes"),
        serde_json::to_string(&out).expect("serializes")
    );
    out
}

/// Found by the property test (seed 1796166033339067023, which ran for more than 13 minutes), fixed: under
/// Anthropic strict the cycle of `Node` is unrolled, and the test whether its target admits `{}` (for the recursion
/// stub) read `Node` again for each of its two `allOf` entries at every level down to its depth limit, 2^32 paths.
const A_TARGET_NAMING_ITSELF_TWICE: &str = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/Item"}},"$defs":{"Node":{"type":"object","allOf":[{"$ref":"#/$defs/Node"},{"$ref":"#/$defs/Node"}]},"Item":{"type":"array","items":{"$ref":"#/$defs/Node","description":"see the definition"}}}}"##;

#[test]
fn a_target_naming_itself_twice_normalizes_at_once() {
    let started = std::time::Instant::now();
    every_invariant_holds(A_TARGET_NAMING_ITSELF_TWICE);
    // Each of the 14 configurations takes about a millisecond; a minute leaves room for a loaded machine and a debug
    // build, and is far below the hours the repeated reading took.
    assert!(
        started.elapsed() < std::time::Duration::from_mins(1),
        "{:?}",
        started.elapsed()
    );
}

/// Found by the property test (seed 1796098830914597642), fixed: a kept definition first met through a `$ref`
/// target's one-entry snake-case `all_of` was walked as part of that target, an intermediate result, so type
/// inference left it untyped; a second pass, meeting it from a bare reference, typed it.
const DEFINITION_IN_INTERMEDIATE_ROOT: &str = r##"{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Tag"}},"required":[]}},"required":[],"$defs":{"Node":{"properties":{},"required":[],"additionalProperties":{"items":{"$ref":"#/$defs/Node"}}},"Tag":{"all_of":[{"$ref":"#/$defs/Node"}]}}}"##;

#[test]
fn a_definition_met_in_a_merged_target_is_walked_as_a_final_node() {
    let out = fixed_point(DEFINITION_IN_INTERMEDIATE_ROOT, Target::OpenAiChat);
    assert_eq!(
        out["$defs"]["Node"],
        json!({"properties": {}, "required": [], "additionalProperties": {"items": {"$ref": "#/$defs/Node"}}, "type": "object"})
    );
    assert_eq!(
        out["properties"]["name"]["properties"]["name"],
        json!({"$ref": "#/$defs/Node"})
    );
    every_invariant_holds(DEFINITION_IN_INTERMEDIATE_ROOT);
}

/// Found by the property test (seed 1796098830914597642), fixed: `Node` and `Item` lie on a cycle in the input, but
/// `Node`'s sibling `properties` replace the ones of `Item` that lead back, so the walk of the definitions made no
/// cycle of sites. The definitions were kept, then copied into their sites, the two entries of an `allOf` the walk
/// had left unmerged since they were references; a second pass merged them. Such targets are now unrolled by
/// walking again, which merges the entries in the first pass.
const FINITE_DEFINITIONS_IN_AN_ALL_OF: &str = r##"{"properties":{"name":{"type":"array","prefixItems":[{"type":"string","not":{"$ref":"#/$defs/Item"}}],"items":false}},"required":[],"$defs":{"Node":{"properties":{},"required":[],"$ref":"#/$defs/Item"},"Item":{"properties":{"name":{"allOf":[{"$ref":"#/$defs/Node"},{"$ref":"#/$defs/Node"}]}},"required":[]}}}"##;

#[test]
fn definitions_whose_walk_makes_no_cycle_are_expanded_where_they_are_met() {
    let out = fixed_point(FINITE_DEFINITIONS_IN_AN_ALL_OF, Target::OpenAiChat);
    assert_eq!(
        out["properties"]["name"]["prefixItems"][0]["not"],
        json!({"properties": {"name": {"type": "object", "properties": {}}}, "required": []})
    );
    assert!(out.get("$defs").is_none(), "{out}");
    every_invariant_holds(FINITE_DEFINITIONS_IN_AN_ALL_OF);
}

/// Found by the property test (google-json, seed 1796114626753956877), fixed: an object `const` beside a one-kind
/// `enum` kept the branch untyped, a target that lifts the `const` then left the `enum` alone, and a second pass
/// typed the branch from it. The `enum` types the branch on the first pass, and every target reaches its fixed
/// point at once.
#[test]
fn an_enum_beside_an_object_const_types_its_node_on_the_first_pass() {
    let input = json!({"type": "object", "properties": {"name": {"anyOf": [
        {"const": {"type": "string"}, "enum": [0]}
    ]}}, "required": []});
    for target in Target::BUILTIN {
        let options = Options::for_target(target).with_diagnostics(true);
        let (out, report) = run(&uncached(), &options, &input);
        let (again, again_report) = run(&uncached(), &options, &out);
        assert!(!again_report.changed, "{}: {out} -> {again}", target.name());
        if !report.used_fallback {
            assert!(
                out.to_string().contains(r#""type":"integer""#),
                "{}: {out}",
                target.name()
            );
        }
    }
}

/// Found by the property test (chat, seed 2552269157) on a first fix of the open `allOf` merge: both entries name
/// `Tag`, whose walk omits the unresolved `name` three levels down. Refusing to merge because another entry declares
/// the outer `name` left the `allOf` on chat with its parts omitted, and a second pass, which omits nothing, merged
/// it. Entries that lost the same part merge on the first pass; where another entry still declares what one lost (or
/// requires a property one omitted), the node fails and the narrowing removes the optional part around it, which a
/// second pass does not bring back.
#[test]
fn an_open_all_of_whose_entries_lost_parts_reaches_its_fixed_point_at_once() {
    let alike = r##"{"properties":{"name":{"properties":{"name":{"allOf":[{"$ref":"#/$defs/Tag"},{"$ref":"#/$defs/Tag"}]}},"required":[]}},"required":[],"$defs":{"Tag":{"properties":{"name":{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Missing"}},"required":[]}},"required":[]}},"required":[]}}}"##;
    let unlike = r##"{"type":"object","properties":{"p":{"allOf":[{"properties":{"name":{"properties":{"x":{"$ref":"#/$defs/Missing"}}}}},{"properties":{"name":{"properties":{"x":{"type":"integer"}}}}}]}}}"##;
    let required = r##"{"type":"object","properties":{"p":{"allOf":[{"properties":{"name":{"$ref":"#/$defs/Missing"}}},{"properties":{"name":{"type":"integer"}},"required":["name"]}]}}}"##;
    for text in [alike, unlike, required] {
        every_invariant_holds(text);
    }
    for target in [Target::OpenAiChat, Target::Anthropic, Target::Mcp] {
        let out = fixed_point(alike, target);
        assert!(
            !out.to_string().contains("allOf"),
            "{}: {out}",
            target.name()
        );
        // The other two lose `p`, whose merge would let the second entry alone bind `name`.
        for text in [unlike, required] {
            let out = fixed_point(text, target);
            assert!(
                out["properties"].get("p").is_none(),
                "{}: {out}",
                target.name()
            );
        }
    }
}

/// Found by the property test (mcp strict, seed 9001): the root, typed `object`, has one `anyOf` branch, a reference
/// to the recursive `Tag`, typed `string`. The check that such a root admits nothing (`root.rs`, where root unions
/// are kept) saw the kept site, untyped, and passed; strict omitted the union branch that held the cycle, so the
/// definition was then copied into its site, and a second pass saw the `string` branch and fell back. The check now
/// reads a kept site as its walked definition, so the first pass falls back too, whether the reference stays or not.
#[test]
fn a_root_union_branch_naming_a_definition_typed_otherwise_fails_on_the_first_pass() {
    const ROOT_BRANCH_TO_A_STRING_DEFINITION: &str = r##"{"type":"object","anyOf":[{"$ref":"#/$defs/Tag"}],"$defs":{"Item":{"type":"array","prefixItems":[{"properties":{"name":{"$ref":"#/$defs/Tag"}},"required":[]}],"items":false},"Tag":{"type":"string","anyOf":[{"allOf":[{"$ref":"#/$defs/Item"},{"type":"string"}]},{"properties":{},"required":[]}]}}}"##;
    every_invariant_holds(ROOT_BRANCH_TO_A_STRING_DEFINITION);
    let input: Value = serde_json::from_str(ROOT_BRANCH_TO_A_STRING_DEFINITION).expect("JSON");
    for strict in [false, true] {
        let options = Options::for_target(Target::Mcp).with_strict(strict);
        let (out, report) = run(&uncached(), &options, &input);
        let reason = report.fallback_reason.as_ref().map(|r| r.message.as_str());
        assert_eq!(
            reason,
            Some("no root anyOf branch can be an object"),
            "strict={strict}: {out}"
        );
    }
}

/// Found by the property test (mcp, seed 1797005): the root, typed `object`, is a reference to `Item`, a `string`
/// whose snake-case `all_of` names `Tag`, a union of `Item` alone. The walk keeps `Item`'s site in the root's union
/// and makes `Item`'s definition only a site of `Tag` (the one-entry `allOf` merged into the node it names), so the
/// root check above, which read a site's definition one step, saw an untyped definition and passed; the output
/// then named `Tag` directly, a `string`, and a second pass fell back. The check now follows a definition that only
/// names another, so the first pass falls back too.
#[test]
fn a_root_union_branch_naming_a_definition_through_another_fails_on_the_first_pass() {
    const THROUGH_AN_ALIAS: &str = r##"{"type":"object","properties":{},"required":[],"$ref":"#/$defs/Item","$defs":{"Item":{"type":"string","all_of":[{"$ref":"#/$defs/Tag"}]},"Tag":{"anyOf":[{"$ref":"#/$defs/Item"}]}}}"##;
    every_invariant_holds(THROUGH_AN_ALIAS);
    let input: Value = serde_json::from_str(THROUGH_AN_ALIAS).expect("JSON");
    let options = Options::for_target(Target::Mcp);
    let (out, report) = run(&uncached(), &options, &input);
    let reason = report.fallback_reason.as_ref().map(|r| r.message.as_str());
    assert_eq!(
        reason,
        Some("no root anyOf branch can be an object"),
        "{out}"
    );
}
