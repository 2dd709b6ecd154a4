//! The cross-target matrix of the provider facts, one test per row, for the six non-strict columns.
//!
//! Each test feeds a representative schema (usually a property of an object root, so that root rules do not
//! interfere; the root itself only for root rows) through a normalizer with fixed, empty environment flags and
//! no memo, for chat, resp, anth, google, cca and mcp in that order, and asserts the column's outcome exactly:
//! the output bytes (key order included), the report's flags and, with diagnostics on, the list of changes as
//! `kind rule pointer` strings. A kept schema must come back byte for byte with no change recorded; a fallback
//! must be exactly `{"type":"object","properties":{}}` with the named kind and pointer. Every output that is
//! not the fallback must also pass the target's structural check.
//!
//! Where a provider fact and our rules disagree, our rules win, and the row's test says so in a comment.

use llmshim::schema::{
    Env, EnvFlags, FallbackKind, Normalization, Normalizer, Options, Target, check_with,
};
use serde_json::{Value, json};

use FallbackKind::{BooleanSchema, ExternalRef, InvalidSchema, RefCycle, TargetUnsupported};

/// The six non-strict columns of the matrix, in its order.
const COLUMNS: [Target; 6] = [
    Target::OpenAiChat,
    Target::OpenAiResponses,
    Target::Anthropic,
    Target::Google,
    Target::CloudCodeAssist,
    Target::Mcp,
];

/// What one column does with a row's representative schema.
enum Col {
    /// The schema passes unchanged: same bytes, `changed: false`, no change recorded.
    Keep,
    /// The schema becomes exactly this value, with exactly these changes (`kind rule pointer`, in order).
    To(Value, &'static [&'static str]),
    /// The schema is replaced by the fallback for this reason kind, at this pointer.
    Fallback(FallbackKind, &'static str),
}

fn keep() -> Col {
    Col::Keep
}

fn to(value: Value, changes: &'static [&'static str]) -> Col {
    Col::To(value, changes)
}

fn fallback(kind: FallbackKind, pointer: &'static str) -> Col {
    Col::Fallback(kind, pointer)
}

fn normalize(target: Target, input: &Value) -> (Value, Normalization) {
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let options = Options::for_target(target).with_diagnostics(true);
    let mut value = input.clone();
    let report = normalizer.normalize_with(&options, &mut value);
    (value, report)
}

fn change_lines(report: &Normalization) -> Vec<String> {
    report
        .changes
        .iter()
        .map(|c| format!("{} {} {}", c.kind.as_str(), c.rule, c.pointer))
        .collect()
}

/// Byte-level comparison, so that key order counts.
fn bytes(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value serializes")
}

/// Checks one column's outcome and returns the problems found, each naming the row and the target.
fn judge(row: &str, target: Target, input: &Value, col: &Col) -> Vec<String> {
    let (out, report) = normalize(target, input);
    let mut problems = Vec::new();
    let mut fail = |what: String| problems.push(format!("{row} [{}]: {what}", target.name()));
    let changes = change_lines(&report);
    match col {
        Col::Keep => {
            if bytes(&out) != bytes(input) || report.changed || report.used_fallback {
                fail(format!(
                    "expected keep, got {} with report {}",
                    bytes(&out),
                    report.to_json(true)
                ));
            } else if !changes.is_empty() {
                fail(format!("expected no change recorded, got {changes:?}"));
            }
        }
        Col::To(expected, expected_changes) => {
            if bytes(&out) != bytes(expected) {
                fail(format!(
                    "expected {}\n      got {}\n   report {}",
                    bytes(expected),
                    bytes(&out),
                    report.to_json(true)
                ));
            } else if report.used_fallback || !report.changed || report.strict || report.bypassed {
                fail(format!("unexpected report {}", report.to_json(true)));
            } else if changes != *expected_changes {
                fail(format!(
                    "expected changes {expected_changes:?}\n      got {changes:?}"
                ));
            }
        }
        Col::Fallback(kind, pointer) => {
            let reason = report
                .fallback_reason
                .as_ref()
                .map(|r| (r.kind, r.pointer.as_str()));
            if bytes(&out) != r#"{"type":"object","properties":{}}"#
                || !report.used_fallback
                || reason != Some((*kind, *pointer))
            {
                fail(format!(
                    "expected the fallback for {} at {pointer:?}, got {} with report {}",
                    kind.as_str(),
                    bytes(&out),
                    report.to_json(true)
                ));
            } else if !report.changes.is_empty() {
                fail(format!("a fallback records no changes, got {changes:?}"));
            }
        }
    }
    if !matches!(col, Col::Fallback(..)) && !report.used_fallback {
        let violations = check_with(&Options::for_target(target), &out);
        if !violations.is_empty() {
            fail(format!(
                "the output fails the structural check: {violations:?}"
            ));
        }
    }
    problems
}

/// Runs one representative schema through the six columns and asserts every outcome.
fn row(name: &str, input: &Value, cols: [Col; 6]) {
    let problems: Vec<String> = COLUMNS
        .iter()
        .zip(cols)
        .flat_map(|(target, col)| judge(name, *target, input, &col))
        .collect();
    assert!(
        problems.is_empty(),
        "matrix row {name}:\n{}",
        problems.join("\n")
    );
}

/// Wraps one property schema as the only property of an object root.
fn prop(schema: Value) -> Value {
    let mut properties = serde_json::Map::new();
    properties.insert("a".to_owned(), schema);
    let mut root = serde_json::Map::new();
    root.insert("type".to_owned(), Value::from("object"));
    root.insert("properties".to_owned(), Value::Object(properties));
    Value::Object(root)
}

/// Row "`type` (one name)": keep everywhere.
#[test]
fn row_type_one_name() {
    let input = json!({"type": "object", "properties": {
        "s": {"type": "string"}, "i": {"type": "integer"}, "n": {"type": "number"},
        "b": {"type": "boolean"}, "l": {"type": "array", "items": {"type": "string"}},
        "o": {"type": "object", "properties": {"x": {"type": "string"}}}
    }});
    row(
        "type (one name)",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`type:[T,"null"]`": keep, keep, keep, T+null, T, keep.
#[test]
fn row_type_array_with_null() {
    let input = prop(json!({"type": ["string", "null"], "enum": ["x", null], "description": "d"}));
    row(
        "type:[T,\"null\"]",
        &input,
        [
            keep(),
            keep(),
            keep(),
            // GEM-2: `X` plus the marker, and `null` leaves `enum`.
            to(
                prop(
                    json!({"type": "string", "enum": ["x"], "description": "d", "nullable": true}),
                ),
                &["rewritten walk.nullable-marker /properties/a/type"],
            ),
            // CCA-1: `X` without a marker.
            to(
                prop(json!({"type": "string", "enum": ["x"], "description": "d"})),
                &["rewritten walk.nullable-remove /properties/a/type"],
            ),
            keep(),
        ],
    );
}

/// Row "`type` with ≥2 non-null names": keep, keep, keep, split, F, keep.
#[test]
fn row_type_with_two_or_more_non_null_names() {
    let input =
        prop(json!({"type": ["string", "integer", "null"], "description": "d", "minLength": 2}));
    row(
        "type with >=2 non-null names",
        &input,
        [
            keep(),
            keep(),
            keep(),
            // `walk.split-type-array` on Google: every branch gets the saved description, then the marker, then its own
            // lifts.
            to(
                prop(json!({"anyOf": [
                    {"type": "string", "description": "d (minLength: 2)", "nullable": true},
                    {"type": "integer", "description": "d (minLength: 2)", "nullable": true}
                ]})),
                &[
                    "lifted target.keyword /properties/a/minLength",
                    "rewritten walk.split-type-array /properties/a/type",
                ],
            ),
            // CCA-2: two non-null types fall back (S4 under `Remove`).
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );
}

/// Row "node without `type` or `anyOf`": keep, keep, keep, infer or F, infer or F, keep.
///
/// W17 infers a type in instance positions on every target, so the non-Google columns also infer when
/// `properties`, `const` or `enum` says what the type is; the matrix's "keep" covers the node with nothing to
/// infer from, which stays untyped there. Only Google and CCA infer `array` from `items`.
#[test]
fn row_node_without_type_or_any_of() {
    let nothing = prop(json!({"description": "anything"}));
    row(
        "node without type or anyOf (nothing to infer)",
        &nothing,
        [
            keep(),
            keep(),
            keep(),
            fallback(TargetUnsupported, "/properties/a"),
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );

    let inferable = json!({"type": "object", "properties": {
        "o": {"properties": {"x": {"type": "string"}}},
        "c": {"const": 3},
        "e": {"enum": ["x", "y"]},
        "l": {"items": {"type": "string"}}
    }});
    let general = json!({"type": "object", "properties": {
        "o": {"properties": {"x": {"type": "string"}}, "type": "object"},
        "c": {"const": 3, "type": "integer"},
        "e": {"enum": ["x", "y"], "type": "string"},
        "l": {"items": {"type": "string"}}
    }});
    let general_changes: &[&str] = &[
        "added walk.infer-type /properties/o/type",
        "added walk.infer-type /properties/c/type",
        "added walk.infer-type /properties/e/type",
    ];
    let google = json!({"type": "object", "properties": {
        "o": {"properties": {"x": {"type": "string"}}, "type": "object"},
        "c": {"type": "integer", "description": "(const: 3)"},
        "e": {"enum": ["x", "y"], "type": "string"},
        "l": {"items": {"type": "string"}, "type": "array"}
    }});
    let google_changes: &[&str] = &[
        "added walk.infer-type /properties/o/type",
        "added walk.infer-type /properties/c/type",
        "lifted target.keyword /properties/c/const",
        "added walk.infer-type /properties/e/type",
        "added walk.infer-type /properties/l/type",
    ];
    row(
        "node without type or anyOf (inferable)",
        &inferable,
        [
            to(general.clone(), general_changes),
            to(general.clone(), general_changes),
            to(general.clone(), general_changes),
            to(google.clone(), google_changes),
            to(google, google_changes),
            to(general, general_changes),
        ],
    );
}

/// Row "`type:"null"` alone": keep, keep, keep, F, F, keep.
#[test]
fn row_type_null_alone() {
    row(
        "type:\"null\" alone",
        &prop(json!({"type": "null"})),
        [
            keep(),
            keep(),
            keep(),
            fallback(TargetUnsupported, "/properties/a"),
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );
}

/// Row "`anyOf:[T,{type:null}]`": keep, keep, keep, T+null, T, keep.
#[test]
fn row_any_of_type_and_null() {
    let input = prop(json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"}));
    row(
        "anyOf:[T,{type:null}]",
        &input,
        [
            keep(),
            keep(),
            keep(),
            // `google.collapse-nullable`: the live branch's keys are appended after the node's own (the node wins).
            to(
                prop(json!({"description": "d", "type": "string", "nullable": true})),
                &["rewritten google.collapse-nullable /properties/a/anyOf"],
            ),
            to(
                prop(json!({"description": "d", "type": "string"})),
                &["rewritten google.collapse-nullable /properties/a/anyOf"],
            ),
            keep(),
        ],
    );
}

/// Row "`nullable`": keep, keep, keep, keep, drop, keep.
#[test]
fn row_nullable() {
    let input = json!({"type": "object", "properties": {
        "t": {"type": "string", "nullable": true},
        "f": {"type": "string", "nullable": false}
    }});
    row(
        "nullable",
        &input,
        [
            keep(),
            keep(),
            keep(),
            // `Marker` keeps a user's marker, `false` included.
            keep(),
            to(
                json!({"type": "object", "properties": {"t": {"type": "string"}, "f": {"type": "string"}}}),
                &[
                    "dropped walk.nullable-remove /properties/t/nullable",
                    "dropped walk.nullable-remove /properties/f/nullable",
                ],
            ),
            keep(),
        ],
    );
}

/// Row "`enum` of strings": keep everywhere (GEM-4 keeps a string `enum` on a string node).
#[test]
fn row_enum_of_strings() {
    row(
        "enum of strings",
        &prop(json!({"type": "string", "enum": ["x", "y"]})),
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`enum` with non-strings": keep, keep, keep, lift, lift, keep.
///
/// GEM-4 would lift such an `enum` "after all other lifts"; our lift queue sorts every fragment of one visit by
/// keyword, `enum` included, for one deterministic order: `(enum: …)` comes before `(multipleOf: …)`.
/// An untyped mixed `enum` stays untyped (W17), which Google and CCA then reject (S5); that is the row
/// "node without `type`", so the representative is typed.
#[test]
fn row_enum_with_non_strings() {
    let input = prop(json!({"type": "integer", "enum": [1, 2], "multipleOf": 1}));
    let lifted = prop(json!({"type": "integer", "description": "(enum: [1,2]) (multipleOf: 1)"}));
    let lifts_changes: &[&str] = &[
        "lifted google.enum-lift /properties/a/enum",
        "lifted target.keyword /properties/a/multipleOf",
    ];
    row(
        "enum with non-strings",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "`enum: []`": F everywhere (`invalid_schema`, W17).
#[test]
fn row_enum_empty() {
    let f = || fallback(InvalidSchema, "/properties/a");
    row(
        "enum: []",
        &prop(json!({"type": "string", "enum": []})),
        [f(), f(), f(), f(), f(), f()],
    );
}

/// Row "`const`": keep, keep, keep, enum, enum, keep (a string `const` on a string node is a one-value `enum` on
/// Google and Code Assist, `google.const-to-enum`; row "`const` not a string" shows the lift).
#[test]
fn row_const() {
    let one_value = prop(json!({"type": "string", "enum": ["x"]}));
    let changes: &[&str] = &["rewritten google.const-to-enum /properties/a/const"];
    row(
        "const",
        &prop(json!({"type": "string", "const": "x"})),
        [
            keep(),
            keep(),
            keep(),
            to(one_value.clone(), changes),
            to(one_value, changes),
            keep(),
        ],
    );
}

/// Row "`const` not a string": keep, keep, keep, lift, lift, keep.
#[test]
fn row_const_not_a_string() {
    let lifted = prop(json!({"type": "integer", "description": "(const: 3)"}));
    let lift_changes: &[&str] = &["lifted target.keyword /properties/a/const"];
    row(
        "const not a string",
        &prop(json!({"type": "integer", "const": 3})),
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lift_changes),
            to(lifted, lift_changes),
            keep(),
        ],
    );
}

/// Row "`properties`": keep everywhere outside strict.
#[test]
fn row_properties() {
    let input = prop(
        json!({"type": "object", "properties": {"z": {"type": "string"}, "y": {"type": "integer"}}}),
    );
    row(
        "properties",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "object without `properties`": +{}, +{}, +{}, noempty, noempty, +{}.
#[test]
fn row_object_without_properties() {
    let input = json!({"type": "object", "properties": {
        "absent": {"type": "object"},
        "empty": {"type": "object", "properties": {}}
    }});
    let added = json!({"type": "object", "properties": {
        "absent": {"type": "object", "properties": {}},
        "empty": {"type": "object", "properties": {}}
    }});
    let added_changes: &[&str] = &["added walk.empty-properties /properties/absent/properties"];
    // GEM-7: nothing is added, and an empty map is removed.
    let google = json!({"type": "object", "properties": {
        "absent": {"type": "object"},
        "empty": {"type": "object"}
    }});
    let removed_changes: &[&str] =
        &["dropped google.drop-empty-properties /properties/empty/properties"];
    row(
        "object without properties",
        &input,
        [
            to(added.clone(), added_changes),
            to(added.clone(), added_changes),
            to(added.clone(), added_changes),
            to(google.clone(), removed_changes),
            to(google, removed_changes),
            to(added, added_changes),
        ],
    );
}

/// Row "`required` (valid)": keep everywhere outside strict.
#[test]
fn row_required_valid() {
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b", "a"]});
    row(
        "required (valid)",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`required` names a missing property": keep, keep, keep, prune, prune, keep.
#[test]
fn row_required_names_a_missing_property() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "o": {"type": "object", "required": ["ghost"]}
    }, "required": ["a", "ghost"]});
    // GEM-6: unknown names go, and an emptied `required` goes too.
    let pruned = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "o": {"type": "object"}
    }, "required": ["a"]});
    let pruned_changes: &[&str] = &[
        "dropped google.filter-required /properties/o/required",
        "dropped google.filter-required /required",
    ];
    let added = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "o": {"type": "object", "required": ["ghost"], "properties": {}}
    }, "required": ["a", "ghost"]});
    let added_changes: &[&str] = &["added walk.empty-properties /properties/o/properties"];
    row(
        "required names a missing property",
        &input,
        [
            to(added.clone(), added_changes),
            to(added.clone(), added_changes),
            to(added.clone(), added_changes),
            to(pruned.clone(), pruned_changes),
            to(pruned, pruned_changes),
            to(added, added_changes),
        ],
    );
}

/// Row "`required: null`": drop everywhere (W12, `walk.required-null`).
#[test]
fn row_required_null() {
    let input =
        prop(json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": null}));
    let out = prop(json!({"type": "object", "properties": {"x": {"type": "string"}}}));
    let drop_changes: &[&str] = &["dropped walk.required-null /properties/a/required"];
    row(
        "required: null",
        &input,
        [
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out, drop_changes),
        ],
    );
}

/// Row "`additionalProperties: false`": keep, keep, keep, drop, drop, keep.
#[test]
fn row_additional_properties_false() {
    let input = prop(
        json!({"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false}),
    );
    let dropped = prop(json!({"type": "object", "properties": {"x": {"type": "string"}}}));
    let drop_changes: &[&str] = &["dropped target.keyword /properties/a/additionalProperties"];
    row(
        "additionalProperties: false",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "`additionalProperties` true or a schema": keep, keep, keep, drop, drop, keep.
#[test]
fn row_additional_properties_true_or_a_schema() {
    let input = json!({"type": "object", "properties": {
        "t": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": true},
        "s": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    }});
    let dropped = json!({"type": "object", "properties": {
        "t": {"type": "object", "properties": {"x": {"type": "string"}}},
        "s": {"type": "object", "properties": {"x": {"type": "string"}}}
    }});
    let drop_changes: &[&str] = &[
        "dropped target.keyword /properties/t/additionalProperties",
        "dropped target.keyword /properties/s/additionalProperties",
    ];
    row(
        "additionalProperties true or a schema",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "`patternProperties`, `propertyNames`, `minProperties`/`maxProperties`, `dependentRequired`/
/// `dependentSchemas`": keep, keep, keep, lift, lift, keep.
#[test]
fn row_pattern_properties_property_names_property_counts_dependents() {
    let input = prop(json!({
        "type": "object",
        "properties": {"b": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "propertyNames": {"maxLength": 8},
        "minProperties": 1,
        "maxProperties": 3,
        "dependentRequired": {"b": ["c"]},
        "dependentSchemas": {"b": {"required": ["c"]}}
    }));
    let lifted = prop(json!({
        "type": "object",
        "properties": {"b": {"type": "string"}},
        "description": "(dependentRequired: {\"b\":[\"c\"]}) (dependentSchemas: {\"b\":{\"required\":[\"c\"]}}) \
                        (maxProperties: 3) (minProperties: 1) (patternProperties: {\"^x-\":{\"type\":\"string\"}}) \
                        (propertyNames: {\"maxLength\":8})"
    }));
    let lifts_changes: &[&str] = &[
        "lifted target.keyword /properties/a/dependentRequired",
        "lifted target.keyword /properties/a/dependentSchemas",
        "lifted target.keyword /properties/a/maxProperties",
        "lifted target.keyword /properties/a/minProperties",
        "lifted target.keyword /properties/a/patternProperties",
        "lifted target.keyword /properties/a/propertyNames",
    ];
    row(
        "patternProperties, propertyNames, min/maxProperties, dependentRequired/dependentSchemas",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "`unevaluatedProperties`/`unevaluatedItems`": keep, keep, keep, drop, drop, keep.
///
/// The representative uses schema values: a boolean value is the row "boolean subschema", which Responses
/// rejects (W2).
#[test]
fn row_unevaluated_properties_and_items() {
    let input = json!({"type": "object", "properties": {
        "o": {"type": "object", "properties": {"b": {"type": "string"}}, "unevaluatedProperties": {"type": "string"}},
        "l": {"type": "array", "items": {"type": "string"}, "unevaluatedItems": {"type": "integer"}}
    }});
    let dropped = json!({"type": "object", "properties": {
        "o": {"type": "object", "properties": {"b": {"type": "string"}}},
        "l": {"type": "array", "items": {"type": "string"}}
    }});
    let drop_changes: &[&str] = &[
        "dropped target.keyword /properties/o/unevaluatedProperties",
        "dropped target.keyword /properties/l/unevaluatedItems",
    ];
    row(
        "unevaluatedProperties/unevaluatedItems",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "draft-04/06/07 forms (`dependencies`, array `items`, `additionalItems`, boolean exclusive bounds, `id`)":
/// upgraded everywhere, then the upgraded form's row applies (Google and CCA lift `exclusiveMinimum` and
/// `dependentRequired` and flatten the tuple; Mcp sets the 2020-12 `$schema`).
#[test]
fn row_draft_04_06_07_forms() {
    let input = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "http://example.test/s.json",
        "type": "object",
        "properties": {
            "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "exclusiveMaximum": false},
            "t": {"type": "array", "items": [{"type": "string"}, {"type": "string"}], "additionalItems": false},
            "o": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "dependencies": {"a": ["b"]}}
        }
    });
    let upgraded = json!({"type": "object", "properties": {
        "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 9},
        "t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": false},
        "o": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "dependentRequired": {"a": ["b"]}}
    }});
    let upgrades_changes: &[&str] = &[
        "upgraded upgrade.id /$id",
        "dropped resolve.schema-uri /$schema",
        "dropped resolve.drop-meta /$id",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMinimum",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMaximum",
        "upgraded upgrade.tuple /properties/t/prefixItems",
        "upgraded upgrade.dependencies /properties/o/dependencies",
    ];
    // `google.flatten-tuple`: equal entries and a `false` tail become `items`; the tuple and the tail are lifted.
    let google = json!({"type": "object", "properties": {
        "n": {"type": "number", "maximum": 9, "description": "(exclusiveMinimum: 0)"},
        "t": {"type": "array", "items": {"type": "string"},
              "description": "(items: false) (prefixItems: [{\"type\":\"string\"},{\"type\":\"string\"}])"},
        "o": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
              "description": "(dependentRequired: {\"a\":[\"b\"]})"}
    }});
    let google_changes: &[&str] = &[
        "upgraded upgrade.id /$id",
        "dropped resolve.schema-uri /$schema",
        "dropped resolve.drop-meta /$id",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMinimum",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMaximum",
        "lifted target.keyword /properties/n/exclusiveMinimum",
        "upgraded upgrade.tuple /properties/t/prefixItems",
        "relaxed google.flatten-tuple /properties/t/prefixItems",
        "lifted google.flatten-tuple /properties/t/items",
        "lifted google.flatten-tuple /properties/t/prefixItems",
        "upgraded upgrade.dependencies /properties/o/dependencies",
        "lifted target.keyword /properties/o/dependentRequired",
    ];
    let mut mcp = upgraded.clone();
    let mut with_uri = serde_json::Map::new();
    with_uri.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    with_uri.extend(mcp.as_object().expect("an object").clone());
    mcp = Value::Object(with_uri);
    let mcp_changes: &[&str] = &[
        "upgraded upgrade.id /$id",
        "rewritten resolve.schema-uri /$schema",
        "dropped resolve.drop-meta /$id",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMinimum",
        "upgraded upgrade.exclusive-bound /properties/n/exclusiveMaximum",
        "upgraded upgrade.tuple /properties/t/prefixItems",
        "upgraded upgrade.dependencies /properties/o/dependencies",
    ];
    row(
        "draft-04/06/07 forms",
        &input,
        [
            to(upgraded.clone(), upgrades_changes),
            // A boolean tuple tail is no boolean subschema for Responses (W2, W25; RSP-3).
            to(upgraded.clone(), upgrades_changes),
            to(upgraded, upgrades_changes),
            to(google.clone(), google_changes),
            to(google, google_changes),
            to(mcp, mcp_changes),
        ],
    );
}

/// Row "`items` (one schema)": keep everywhere.
#[test]
fn row_items_one_schema() {
    row(
        "items (one schema)",
        &prop(json!({"type": "array", "items": {"type": "integer"}})),
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "array without `items`": items{}, items{}, items{}, items:str, items:str, keep.
#[test]
fn row_array_without_items() {
    let empty = prop(json!({"type": "array", "items": {}}));
    let empty_changes: &[&str] = &["added target.array-items /properties/a/items"];
    // `google.array-items`: narrowed to strings.
    let string = prop(json!({"type": "array", "items": {"type": "string"}}));
    let string_changes: &[&str] = &["narrowed google.array-items /properties/a/items"];
    row(
        "array without items",
        &prop(json!({"type": "array"})),
        [
            to(empty.clone(), empty_changes),
            to(empty.clone(), empty_changes),
            to(empty, empty_changes),
            to(string.clone(), string_changes),
            to(string, string_changes),
            keep(),
        ],
    );
}

/// Row "`prefixItems`": keep + items{}, keep + items{}, keep + items{}, tuple, tuple + cm, keep.
#[test]
fn row_prefix_items() {
    let equal =
        prop(json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]}));
    let with_tail = prop(
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": {}}),
    );
    let tail_changes: &[&str] = &["added target.array-items /properties/a/items"];
    let flat = prop(json!({"type": "array", "items": {"type": "string"},
        "description": "(prefixItems: [{\"type\":\"string\"},{\"type\":\"string\"}])"}));
    let flat_changes: &[&str] = &[
        "relaxed google.flatten-tuple /properties/a/prefixItems",
        "lifted google.flatten-tuple /properties/a/prefixItems",
    ];
    row(
        "prefixItems (equal entries)",
        &equal,
        [
            to(with_tail.clone(), tail_changes),
            to(with_tail.clone(), tail_changes),
            to(with_tail, tail_changes),
            to(flat.clone(), flat_changes),
            to(flat, flat_changes),
            keep(),
        ],
    );

    let mixed =
        prop(json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}));
    let mixed_tail = prop(
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {}}),
    );
    row(
        "prefixItems (different entries)",
        &mixed,
        [
            to(mixed_tail.clone(), tail_changes),
            to(mixed_tail.clone(), tail_changes),
            to(mixed_tail, tail_changes),
            // The `anyOf` of the distinct entries stands alone, so GEM-3 has nothing to move.
            to(
                prop(
                    json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "description": "(prefixItems: [{\"type\":\"string\"},{\"type\":\"integer\"}])"}),
                ),
                flat_changes,
            ),
            // CCA-3 cannot merge branches of different types: "a heterogeneous tuple" falls back.
            fallback(TargetUnsupported, "/properties/a/items"),
            keep(),
        ],
    );
}

/// Row "`minItems`/`maxItems`": keep everywhere outside strict.
#[test]
fn row_min_items_max_items() {
    row(
        "minItems/maxItems",
        &prop(json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3})),
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`minLength`/`maxLength`, `pattern` (portable), `format` off the list": keep, keep, keep, lift, lift,
/// keep.
#[test]
fn row_string_lengths_portable_pattern_and_format_off_the_list() {
    let input = prop(
        json!({"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^[a-z]+$", "format": "email"}),
    );
    let lifted = prop(json!({"type": "string",
        "description": "(format: email) (maxLength: 9) (minLength: 1) (pattern: ^[a-z]+$)"}));
    let lifts_changes: &[&str] = &[
        "lifted google.format-lift /properties/a/format",
        "lifted target.keyword /properties/a/maxLength",
        "lifted target.keyword /properties/a/minLength",
        "lifted target.keyword /properties/a/pattern",
    ];
    row(
        "minLength/maxLength, pattern (portable), format off the list",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "`pattern` with lookaround": keep¹, look, keep, lift, lift, keep.
///
/// Footnote 1 (Python `re` rejects variable-width lookbehind) is one of the constructs of `openai.pattern-dialect`:
/// such a pattern is lifted on Chat and, after lookaround removal, leaves a clean pattern on Responses.
#[test]
fn row_pattern_with_lookaround() {
    let input = prop(json!({"type": "string", "pattern": "^(?!tmp)[a-z]+$"}));
    let lifted = prop(json!({"type": "string", "description": "(pattern: ^(?!tmp)[a-z]+$)"}));
    let lift_changes: &[&str] = &["lifted target.keyword /properties/a/pattern"];
    row(
        "pattern with lookaround",
        &input,
        [
            keep(),
            to(
                prop(
                    json!({"type": "string", "pattern": "^[a-z]+$", "description": "(pattern: ^(?!tmp)[a-z]+$)"}),
                ),
                &[
                    "rewritten responses.lookaround /properties/a/pattern",
                    "lifted responses.lookaround /properties/a/pattern",
                ],
            ),
            keep(),
            to(lifted.clone(), lift_changes),
            to(lifted, lift_changes),
            keep(),
        ],
    );

    let variable = prop(json!({"type": "string", "pattern": "^(?<=a+)b$"}));
    let lifted = prop(json!({"type": "string", "description": "(pattern: ^(?<=a+)b$)"}));
    row(
        "pattern with variable-width lookbehind (footnote 1)",
        &variable,
        [
            to(
                lifted.clone(),
                &["lifted openai.pattern-dialect /properties/a/pattern"],
            ),
            to(
                prop(
                    json!({"type": "string", "pattern": "^b$", "description": "(pattern: ^(?<=a+)b$)"}),
                ),
                &[
                    "rewritten responses.lookaround /properties/a/pattern",
                    "lifted responses.lookaround /properties/a/pattern",
                ],
            ),
            keep(),
            to(lifted.clone(), lift_changes),
            to(lifted, lift_changes),
            keep(),
        ],
    );
}

/// Row "`pattern` with `\p{}`/`\P{}`/backreference": rx, rx, keep, lift, lift, keep.
#[test]
fn row_pattern_with_unicode_property_or_backreference() {
    let input = json!({"type": "object", "properties": {
        "u": {"type": "string", "pattern": "^\\p{Lu}+$"},
        "b": {"type": "string", "pattern": "(a)\\1"}
    }});
    let lifted = json!({"type": "object", "properties": {
        "u": {"type": "string", "description": "(pattern: ^\\p{Lu}+$)"},
        "b": {"type": "string", "description": "(pattern: (a)\\1)"}
    }});
    let dialect_changes: &[&str] = &[
        "lifted openai.pattern-dialect /properties/u/pattern",
        "lifted openai.pattern-dialect /properties/b/pattern",
    ];
    let keep_list_changes: &[&str] = &[
        "lifted target.keyword /properties/u/pattern",
        "lifted target.keyword /properties/b/pattern",
    ];
    row(
        "pattern with \\p{}/\\P{}/backreference",
        &input,
        [
            to(lifted.clone(), dialect_changes),
            to(lifted.clone(), dialect_changes),
            keep(),
            to(lifted.clone(), keep_list_changes),
            to(lifted, keep_list_changes),
            keep(),
        ],
    );
}

/// Row "`format` on the target's list": keep everywhere outside strict (GEM-5's list on Google and CCA).
#[test]
fn row_format_on_the_target_list() {
    let input = json!({"type": "object", "properties": {
        "s": {"type": "string", "format": "date-time"},
        "e": {"type": "string", "enum": ["a", "b"], "format": "enum"},
        "i": {"type": "integer", "format": "int64"},
        "n": {"type": "number", "format": "double"}
    }});
    row(
        "format on the target's list",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );

    // `format: "enum"` survives only beside a non-empty string `enum`.
    let bare = prop(json!({"type": "string", "format": "enum"}));
    let lifted = prop(json!({"type": "string", "description": "(format: enum)"}));
    let lift_changes: &[&str] = &["lifted google.format-lift /properties/a/format"];
    row(
        "format enum without an enum",
        &bare,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lift_changes),
            to(lifted, lift_changes),
            keep(),
        ],
    );
}

/// Row "`minimum`/`maximum`": keep everywhere outside strict.
#[test]
fn row_minimum_maximum() {
    row(
        "minimum/maximum",
        &prop(json!({"type": "number", "minimum": 0, "maximum": 9.5})),
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`exclusiveMinimum`/`exclusiveMaximum` (numbers), `multipleOf`, `uniqueItems`, `contains`/`minContains`/
/// `maxContains`": keep, keep, keep, lift, lift, keep.
#[test]
fn row_exclusive_bounds_multiple_of_unique_items_contains() {
    let input = json!({"type": "object", "properties": {
        "n": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 9, "multipleOf": 0.5},
        "l": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "contains": {"const": "x"},
              "minContains": 1, "maxContains": 2}
    }});
    let lifted = json!({"type": "object", "properties": {
        "n": {"type": "number", "description": "(exclusiveMaximum: 9) (exclusiveMinimum: 0) (multipleOf: 0.5)"},
        "l": {"type": "array", "items": {"type": "string"},
              "description": "(contains: {\"const\":\"x\"}) (maxContains: 2) (minContains: 1) (uniqueItems: true)"}
    }});
    let lifts_changes: &[&str] = &[
        "lifted target.keyword /properties/n/exclusiveMaximum",
        "lifted target.keyword /properties/n/exclusiveMinimum",
        "lifted target.keyword /properties/n/multipleOf",
        "lifted target.keyword /properties/l/contains",
        "lifted target.keyword /properties/l/maxContains",
        "lifted target.keyword /properties/l/minContains",
        "lifted target.keyword /properties/l/uniqueItems",
    ];
    row(
        "exclusive bounds, multipleOf, uniqueItems, contains",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "`anyOf` below the root": keep, keep, keep, dist, cm, keep.
#[test]
fn row_any_of_below_the_root() {
    let mixed = prop(json!({
        "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}],
        "description": "d",
        "minimum": 0
    }));
    row(
        "anyOf below the root (mixed branches)",
        &mixed,
        [
            keep(),
            keep(),
            keep(),
            // GEM-3: the description goes into every branch; `minimum` applies only to the
            // integer branch, which keeps its own value and gets the parent's lifted.
            to(
                prop(json!({"anyOf": [
                    {"type": "string", "description": "d"},
                    {"type": "integer", "minimum": 1, "description": "d (minimum: 0)"}
                ]})),
                &["rewritten google.isolate-any-of /properties/a/anyOf"],
            ),
            // CCA-3: branches of different types cannot merge.
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );

    let objects = prop(json!({
        "anyOf": [
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x", "y"]}
        ],
        "description": "d"
    }));
    row(
        "anyOf below the root (object branches)",
        &objects,
        [
            keep(),
            keep(),
            keep(),
            to(
                prop(json!({"anyOf": [
                    {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "description": "d"},
                    {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
                     "required": ["x", "y"], "description": "d"}
                ]})),
                &["rewritten google.isolate-any-of /properties/a/anyOf"],
            ),
            // CCA-3: properties united, `required` intersected in the first branch's order and
            // last among the merged keys, which follow the node's own `description`.
            to(
                prop(json!({"description": "d", "type": "object",
                    "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x"]})),
                &["rewritten cca.merge-combinator /properties/a/anyOf"],
            ),
            keep(),
        ],
    );

    // Two gaps of the contract, asserted as it reads today (FIXME: the contract decides whether they should stay
    // fallbacks). First, `google.collapse-nullable` collapses an `anyOf` only with a single live branch, so an `anyOf`
    // of two live branches plus `null` keeps its null branch, which S6 forbids on Google.
    let two_live_and_null =
        prop(json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}));
    row(
        "anyOf below the root (two live branches and null)",
        &two_live_and_null,
        [
            keep(),
            keep(),
            keep(),
            fallback(TargetUnsupported, "/properties/a/anyOf/2"),
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );
    // Second, `google.isolate-any-of` gives an untyped branch the parent's `description`, also when the branch is
    // itself a pure `anyOf` node (here the wrapper of a split type array), which S8 then rejects.
    let nested = prop(
        json!({"description": "d", "anyOf": [{"type": ["string", "integer"]}, {"type": "boolean"}]}),
    );
    row(
        "anyOf below the root (a branch that is itself an anyOf)",
        &nested,
        [
            keep(),
            keep(),
            keep(),
            fallback(TargetUnsupported, "/properties/a/anyOf/0"),
            // CCA-3 cannot merge a first branch whose `type` is an array.
            fallback(TargetUnsupported, "/properties/a"),
            keep(),
        ],
    );
}

/// Row "`oneOf` below the root": keep, any, keep, any + dist, any + cm, keep.
#[test]
fn row_one_of_below_the_root() {
    let input = prop(json!({"oneOf": [
        {"type": "object", "properties": {"x": {"type": "string"}}},
        {"type": "object", "properties": {"y": {"type": "integer"}}}
    ]}));
    let any = prop(json!({"anyOf": [
        {"type": "object", "properties": {"x": {"type": "string"}}},
        {"type": "object", "properties": {"y": {"type": "integer"}}}
    ]}));
    // Exclusivity is not provable here (no shared `const` tag), so the rewrite is relaxed; the
    // change is located at the renamed key.
    let any_changes: &[&str] = &["relaxed walk.one-of-to-any-of /properties/a/anyOf"];
    row(
        "oneOf below the root",
        &input,
        [
            keep(),
            to(any.clone(), any_changes),
            keep(),
            to(any, any_changes),
            to(
                prop(
                    json!({"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}}),
                ),
                // The intersection of the branches' `required` lists is empty, so the filter removes it again.
                &[
                    "relaxed walk.one-of-to-any-of /properties/a/anyOf",
                    "rewritten cca.merge-combinator /properties/a/anyOf",
                    "dropped google.filter-required /properties/a/required",
                ],
            ),
            keep(),
        ],
    );
}

/// Row "`anyOf` and `oneOf` on one node": keep, `allOf` pair, keep, F, cm, keep.
#[test]
fn row_any_of_and_one_of_on_one_node() {
    let input = prop(json!({
        "anyOf": [{"type": "string", "minLength": 1}, {"type": "string", "maxLength": 5}],
        "oneOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^b"}]
    }));
    row(
        "anyOf and oneOf on one node",
        &input,
        [
            keep(),
            // `walk.one-of-to-any-of` with both present: both removed, two `anyOf` wrappers appended to a new `allOf`.
            to(
                prop(json!({"allOf": [
                    {"anyOf": [{"type": "string", "minLength": 1}, {"type": "string", "maxLength": 5}]},
                    {"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^b"}]}
                ]})),
                &["relaxed walk.one-of-to-any-of /properties/a/allOf"],
            ),
            keep(),
            // The pair is an untyped `allOf` node: S5 (types required) reports it first, S7 would too.
            fallback(TargetUnsupported, "/properties/a"),
            // CCA-3: every wrapper merges into one string schema, then the pair merges; descriptions are joined
            // with single spaces.
            to(
                prop(json!({"type": "string",
                    "description": "(minLength: 1) (maxLength: 5) (pattern: ^a) (pattern: ^b)"})),
                &[
                    "relaxed walk.one-of-to-any-of /properties/a/allOf",
                    "lifted target.keyword /properties/a/allOf/0/anyOf/0/minLength",
                    "lifted target.keyword /properties/a/allOf/0/anyOf/1/maxLength",
                    "rewritten cca.merge-combinator /properties/a/allOf/0/anyOf",
                    "lifted target.keyword /properties/a/allOf/1/anyOf/0/pattern",
                    "lifted target.keyword /properties/a/allOf/1/anyOf/1/pattern",
                    "rewritten cca.merge-combinator /properties/a/allOf/1/anyOf",
                    "rewritten cca.merge-combinator /properties/a/allOf",
                ],
            ),
            keep(),
        ],
    );
}

/// Row "`allOf`": m1/keep, m1/keep, m1/keep, m1, cm, m1/keep; amended: an `allOf` of plain object schemas is
/// merged into its node on every target (`walk.merge-all-of`), and only one that does not qualify keeps the row's
/// Part I outcome.
#[test]
fn row_all_of() {
    let input = json!({"type": "object", "properties": {
        "one": {"allOf": [{"type": "string", "minLength": 1}]},
        "two": {"allOf": [
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]}
        ]},
        "three": {"allOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}
    }});
    let two = json!({"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "required": ["x", "y"]});
    let merged = json!({"type": "object", "properties": {
        "one": {"type": "string", "minLength": 1},
        "two": two,
        "three": {"allOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}
    }});
    let changes: &[&str] = &[
        "rewritten walk.merge-all-of /properties/one/allOf",
        "rewritten walk.merge-all-of /properties/two/allOf",
    ];
    row(
        "allOf",
        &input,
        [
            to(merged.clone(), changes),
            to(merged.clone(), changes),
            to(merged.clone(), changes),
            // The string entries stay, and Google forbids `allOf` (S7); the untyped node fails S5 first.
            fallback(TargetUnsupported, "/properties/three"),
            // CCA-3 merges what stays.
            to(
                json!({"type": "object", "properties": {
                    "one": {"type": "string", "description": "(minLength: 1)"},
                    "two": two,
                    "three": {"type": "string", "description": "(maxLength: 3)"}
                }}),
                &[
                    "lifted target.keyword /properties/one/minLength",
                    "rewritten walk.merge-all-of /properties/one/allOf",
                    "rewritten walk.merge-all-of /properties/two/allOf",
                    "lifted target.keyword /properties/three/allOf/1/maxLength",
                    "rewritten cca.merge-combinator /properties/three/allOf",
                ],
            ),
            to(merged, changes),
        ],
    );
}

/// Row "`not`, `if`/`then`/`else` below the root": keep, keep, keep, lift, lift, keep.
#[test]
fn row_not_if_then_else_below_the_root() {
    let input = prop(
        json!({"type": "string", "not": {"const": "x"}, "if": {"minLength": 3},
        "then": {"maxLength": 9}, "else": {"maxLength": 2}}),
    );
    let lifted = prop(json!({"type": "string", "description":
        "(else: {\"maxLength\":2}) (if: {\"minLength\":3}) (not: {\"const\":\"x\"}) (then: {\"maxLength\":9})"}));
    let lifts_changes: &[&str] = &[
        "lifted target.keyword /properties/a/else",
        "lifted target.keyword /properties/a/if",
        "lifted target.keyword /properties/a/not",
        "lifted target.keyword /properties/a/then",
    ];
    row(
        "not, if/then/else below the root",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "root combinator, `enum` root or non-object root": root, root, root⁴, F, cm or F, keep if
/// `type:"object"`, else F.
///
/// For mcp the matrix says a non-object root falls back; the MCP rule set has the root rule `Any`, where
/// only the tool-level object check of MCP ingestion applies (in `normalize_mcp_tool`, not in `normalize_with`), and
/// our rules win: `normalize_with` keeps a non-object root on Mcp.
#[test]
fn row_root_combinator_enum_root_or_non_object_root() {
    let root_fail = || fallback(TargetUnsupported, "");

    // OAI-1b: a root `oneOf` of objects is merged (`root.merge-alternatives`).
    let union = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "number"}}, "required": ["kind", "x"]},
        {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}
    ]});
    let branches = r#"[{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"number"}},"required":["kind","x"]},{"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"]}]"#;
    let merged = |keyword: &str| {
        json!({"type": "object", "properties": {"kind": {"type": "string", "enum": ["a", "b"]}, "x": {"type": "number"}},
            "required": ["kind"], "description": format!("({keyword}: {branches})")})
    };
    // The branch walks stand for the root, so their changes are located where the merged keys land.
    let merged_changes: &[&str] = &[
        "added walk.infer-type /properties/kind/type",
        "added walk.infer-type /properties/kind/type",
        "relaxed root.merge-alternatives /oneOf",
        "lifted root.merge-alternatives /oneOf",
    ];
    row(
        "root oneOf of objects",
        &union,
        [
            to(merged("oneOf"), merged_changes),
            // Responses rewrites `oneOf` first (W13 before W15), so the lifted combinator is named `anyOf`; the
            // distinct `const` tags make exclusivity provable, so that rewrite is `rewritten`.
            to(
                merged("anyOf"),
                &[
                    "rewritten walk.one-of-to-any-of /anyOf",
                    "added walk.infer-type /properties/kind/type",
                    "added walk.infer-type /properties/kind/type",
                    "relaxed root.merge-alternatives /anyOf",
                    "lifted root.merge-alternatives /anyOf",
                ],
            ),
            to(merged("oneOf"), merged_changes),
            root_fail(),
            // The `kind` properties differ between the branches, so CCA-3 cannot merge them.
            root_fail(),
            to(
                json!({"oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "a", "type": "string"}, "x": {"type": "number"}},
                     "required": ["kind", "x"]},
                    {"type": "object", "properties": {"kind": {"const": "b", "type": "string"}}, "required": ["kind"]}
                ]}),
                &[
                    "added walk.infer-type /oneOf/0/properties/kind/type",
                    "added walk.infer-type /oneOf/1/properties/kind/type",
                ],
            ),
        ],
    );

    // OAI-1a: a root combinator of `required` lists is lifted under its own name (`root.required-only`).
    let alternatives = json!({"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
        "anyOf": [{"required": ["id"]}, {"required": ["name"]}]});
    let lifted = json!({"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
        "description": "(anyOf: [{\"required\":[\"id\"]},{\"required\":[\"name\"]}])"});
    let lifted_changes: &[&str] = &["lifted root.required-only /anyOf"];
    row(
        "root anyOf of required lists",
        &alternatives,
        [
            to(lifted.clone(), lifted_changes),
            to(lifted.clone(), lifted_changes),
            to(lifted, lifted_changes),
            // GEM-12: any root combinator falls back on Google.
            root_fail(),
            // CCA-3: the untyped first branch cannot be merged.
            root_fail(),
            keep(),
        ],
    );

    // A root of two `allOf` entries: OAI-1(c) fell back and CCA merged it; amended, plain object entries are merged
    // into the root on every target.
    let all = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"b": {"type": "string"}}}
    ]});
    let all_merged = || {
        to(
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}),
            &["rewritten walk.merge-all-of /allOf"],
        )
    };
    row(
        "root allOf of two entries",
        &all,
        [
            all_merged(),
            all_merged(),
            all_merged(),
            all_merged(),
            all_merged(),
            all_merged(),
        ],
    );

    // A root `allOf` whose entries are not plain objects still falls back where root shaping refuses it.
    let mixed = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "not": {"required": ["a"]}}
    ]});
    let not_merged = || {
        json!({"type": "object", "properties": {"a": {"type": "string"}},
            "description": "(not: {\"required\":[\"a\"]})"})
    };
    let not_merged_changes: &[&str] = &[
        "lifted target.keyword /allOf/1/not",
        "rewritten walk.merge-all-of /allOf",
    ];
    row(
        "root allOf of entries that cannot be merged",
        &mixed,
        [
            root_fail(),
            root_fail(),
            root_fail(),
            // Google and CCA lift `not`, which leaves a plain object entry to merge.
            to(not_merged(), not_merged_changes),
            to(not_merged(), not_merged_changes),
            to(
                json!({"allOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}},
                    {"type": "object", "not": {"required": ["a"]}, "properties": {}}
                ]}),
                &["added walk.empty-properties /allOf/1/properties"],
            ),
        ],
    );

    // A root `not`: Chat and Responses list it among the shaped keys; Anthropic keeps it (ANT-1).
    let not = json!({"type": "object", "properties": {"a": {"type": "string"}}, "not": {"properties": {"a": {"const": "x"}}}});
    let not_lifted = json!({"type": "object", "properties": {"a": {"type": "string"}},
        "description": "(not: {\"properties\":{\"a\":{\"const\":\"x\"}}})"});
    let not_lifted_changes: &[&str] = &["lifted target.keyword /not"];
    row(
        "root not",
        &not,
        [
            root_fail(),
            root_fail(),
            keep(),
            to(not_lifted.clone(), not_lifted_changes),
            to(not_lifted, not_lifted_changes),
            keep(),
        ],
    );

    // An `enum` root and a non-object root.
    row(
        "root enum",
        &json!({"enum": ["a", "b"]}),
        [
            root_fail(),
            root_fail(),
            root_fail(),
            root_fail(),
            root_fail(),
            to(
                json!({"enum": ["a", "b"], "type": "string"}),
                &["added walk.infer-type /type"],
            ),
        ],
    );
    row(
        "non-object root",
        &json!({"type": "string"}),
        [
            root_fail(),
            root_fail(),
            root_fail(),
            root_fail(),
            root_fail(),
            keep(),
        ],
    );
}

/// Row "local `$ref`, `$defs`, `definitions`": inline everywhere.
#[test]
fn row_local_ref_defs_definitions() {
    let input = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/S"}, "b": {"$ref": "#/definitions/T", "description": "b"}},
        "$defs": {"S": {"type": "string", "minLength": 1}},
        "definitions": {"T": {"type": "integer"}}
    });
    let inlined = json!({"type": "object", "properties": {
        "a": {"type": "string", "minLength": 1},
        "b": {"type": "integer", "description": "b"}
    }});
    let inlined_changes: &[&str] = &[
        "dropped resolve.drop-definitions /$defs",
        "dropped resolve.drop-definitions /definitions",
        "rewritten resolve.inline-ref /properties/a/$ref",
        "rewritten resolve.inline-ref /properties/b/$ref",
    ];
    let google = json!({"type": "object", "properties": {
        "a": {"type": "string", "description": "(minLength: 1)"},
        "b": {"type": "integer", "description": "b"}
    }});
    let google_changes: &[&str] = &[
        "dropped resolve.drop-definitions /$defs",
        "dropped resolve.drop-definitions /definitions",
        "lifted target.keyword /properties/a/minLength",
        "rewritten resolve.inline-ref /properties/a/$ref",
        "rewritten resolve.inline-ref /properties/b/$ref",
    ];
    row(
        "local $ref, $defs, definitions",
        &input,
        [
            to(inlined.clone(), inlined_changes),
            to(inlined.clone(), inlined_changes),
            to(inlined.clone(), inlined_changes),
            to(google.clone(), google_changes),
            to(google, google_changes),
            to(inlined, inlined_changes),
        ],
    );
}

/// Row "recursive or external `$ref`": F everywhere (a cycle or an unknown resource cannot be inlined).
#[test]
fn row_recursive_or_external_ref() {
    let cycle = || fallback(RefCycle, "/properties/next/properties/next");
    row(
        "recursive $ref",
        &json!({"type": "object", "properties": {"next": {"$ref": "#"}}}),
        [cycle(), cycle(), cycle(), cycle(), cycle(), cycle()],
    );
    let external = || fallback(ExternalRef, "/properties/a");
    row(
        "external $ref",
        &prop(json!({"$ref": "https://example.test/a.json"})),
        [
            external(),
            external(),
            external(),
            external(),
            external(),
            external(),
        ],
    );
}

/// Row "`$schema`": drop, drop, drop, drop, drop, uri.
#[test]
fn row_schema_keyword() {
    let input = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"a": {"type": "string"}}});
    let dropped = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let drop_changes: &[&str] = &["dropped resolve.schema-uri /$schema"];
    row(
        "$schema",
        &input,
        [
            to(dropped.clone(), drop_changes),
            to(dropped.clone(), drop_changes),
            to(dropped.clone(), drop_changes),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            to(
                json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                    "properties": {"a": {"type": "string"}}}),
                &["rewritten resolve.schema-uri /$schema"],
            ),
        ],
    );
}

/// Row "`$id`, `$anchor`, `$comment`": drop everywhere.
#[test]
fn row_id_anchor_comment() {
    let input = json!({"$id": "https://example.test/root.json", "$comment": "c", "type": "object",
        "properties": {"a": {"$anchor": "A", "$comment": "x", "type": "string"}}});
    let out = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let drop_changes: &[&str] = &[
        "dropped resolve.drop-meta /$id",
        "dropped resolve.drop-meta /$comment",
        "dropped resolve.drop-meta /properties/a/$anchor",
        "dropped resolve.drop-meta /properties/a/$comment",
    ];
    row(
        "$id, $anchor, $comment",
        &input,
        [
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out.clone(), drop_changes),
            to(out, drop_changes),
        ],
    );
}

/// Row "`$dynamicRef`/`$dynamicAnchor`": keep, keep, keep, drop, drop, keep.
#[test]
fn row_dynamic_ref_dynamic_anchor() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "string"}}, "$dynamicAnchor": "node"},
        "c": {"type": "string", "$dynamicRef": "#node"}
    }});
    let dropped = json!({"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "string"}}},
        "c": {"type": "string"}
    }});
    let drop_changes: &[&str] = &[
        "dropped target.keyword /properties/a/$dynamicAnchor",
        "dropped target.keyword /properties/c/$dynamicRef",
    ];
    row(
        "$dynamicRef/$dynamicAnchor",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "`title`, `description`": keep everywhere.
#[test]
fn row_title_description() {
    let input = json!({"type": "object", "title": "Root", "description": "r",
        "properties": {"a": {"type": "string", "title": "A", "description": "d"}}});
    row(
        "title, description",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "`default`, `examples`, `readOnly`/`writeOnly`, `contentEncoding`/`contentMediaType`": keep, keep, keep,
/// lift, lift, keep.
#[test]
fn row_default_examples_read_write_only_content() {
    let input = prop(
        json!({"type": "string", "default": "x", "examples": ["y"], "readOnly": true,
        "writeOnly": false, "contentEncoding": "base64", "contentMediaType": "image/png"}),
    );
    let lifted = prop(json!({"type": "string", "description":
        "(contentEncoding: \"base64\") (contentMediaType: \"image/png\") (default: \"x\") (examples: [\"y\"]) \
         (readOnly: true) (writeOnly: false)"}));
    let lifts_changes: &[&str] = &[
        "lifted target.keyword /properties/a/contentEncoding",
        "lifted target.keyword /properties/a/contentMediaType",
        "lifted target.keyword /properties/a/default",
        "lifted target.keyword /properties/a/examples",
        "lifted target.keyword /properties/a/readOnly",
        "lifted target.keyword /properties/a/writeOnly",
    ];
    row(
        "default, examples, readOnly/writeOnly, contentEncoding/contentMediaType",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(lifted.clone(), lifts_changes),
            to(lifted, lifts_changes),
            keep(),
        ],
    );
}

/// Row "`deprecated`, `x-*`, other unknown keywords": keep, keep, keep, drop, drop, keep.
#[test]
fn row_deprecated_extensions_unknown_keywords() {
    let input =
        prop(json!({"type": "string", "deprecated": true, "x-ui": {"w": 1}, "frobnicate": 3}));
    let dropped = prop(json!({"type": "string"}));
    let drop_changes: &[&str] = &[
        "dropped target.keyword /properties/a/deprecated",
        "dropped target.keyword /properties/a/x-ui",
        "dropped target.keyword /properties/a/frobnicate",
    ];
    row(
        "deprecated, x-*, other unknown keywords",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "`propertyOrdering`": keep everywhere outside strict (on the Google keep-list, object nodes only).
#[test]
fn row_property_ordering() {
    let input = prop(
        json!({"type": "object", "properties": {"y": {"type": "string"}, "x": {"type": "string"}},
        "propertyOrdering": ["y", "x"]}),
    );
    row(
        "propertyOrdering",
        &input,
        [keep(), keep(), keep(), keep(), keep(), keep()],
    );
}

/// Row "keyword that does not apply to the node's type": keep, keep, keep, drop, drop, keep (GEM-10).
#[test]
fn row_keyword_that_does_not_apply_to_the_node_type() {
    let input = prop(
        json!({"type": "string", "minimum": 1, "items": {"type": "string"},
        "properties": {"z": {"type": "string"}}, "required": ["z"], "minItems": 1, "propertyOrdering": ["z"]}),
    );
    let dropped = prop(json!({"type": "string"}));
    let drop_changes: &[&str] = &[
        "dropped google.type-applicability /properties/a/properties",
        "dropped google.type-applicability /properties/a/required",
        "dropped google.type-applicability /properties/a/propertyOrdering",
        "dropped google.type-applicability /properties/a/items",
        "dropped google.type-applicability /properties/a/minItems",
        "dropped google.type-applicability /properties/a/minimum",
    ];
    row(
        "keyword that does not apply to the node's type",
        &input,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}

/// Row "boolean subschema (`true`/`false`)": keep, F, keep, F, F, keep.
#[test]
fn row_boolean_subschema() {
    let input = json!({"type": "object", "properties": {
        "t": true,
        "l": {"type": "array", "items": false}
    }});
    let boolean = || fallback(BooleanSchema, "/properties/t");
    row(
        "boolean subschema",
        &input,
        [keep(), boolean(), keep(), boolean(), boolean(), keep()],
    );

    // A boolean `additionalProperties` never reaches W2 (W25; RSP-3): Responses keeps it, Google and
    // CCA drop it with the keep-list.
    let closed = prop(
        json!({"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false}),
    );
    let dropped = prop(json!({"type": "object", "properties": {"x": {"type": "string"}}}));
    let drop_changes: &[&str] = &["dropped target.keyword /properties/a/additionalProperties"];
    row(
        "boolean additionalProperties",
        &closed,
        [
            keep(),
            keep(),
            keep(),
            to(dropped.clone(), drop_changes),
            to(dropped, drop_changes),
            keep(),
        ],
    );
}
