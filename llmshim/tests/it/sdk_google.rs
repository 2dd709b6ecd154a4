//! The Vercel AI SDK's Google fixtures (`convertJSONSchemaToOpenAPISchema`) compared with our Google output.
//!
//! `../shared/testdata/sdk-fixtures/vercel-ai-google-openapi-schema.json` holds the inputs and expected values
//! of every assertion of the SDK's test file (its `how` says: `toEqual` and `toMatchInlineSnapshot` compare the
//! exact output, `toThrow` means the call must fail, `toBeUndefined` means no schema is returned). Each case is
//! normalized for `Target::Google` (non-strict defaults, fixed empty environment, no memo) and classified here,
//! by index and upstream test name, exactly once:
//!
//! - **equal**: our output equals the SDK's expected value (value equality; where the bytes differ only in key
//!   order, the case is listed in [`ORDER_BY_DESIGN`]: we keep the input's key order);
//! - **contract**: the outputs differ and ours is the contract's answer, written out here from the contract
//!   (never copied from our output) with the contract rule named in the assertion message; the test also
//!   asserts that the SDK's value is different, so a difference that disappears must be reclassified;
//! - **throws**: the SDK throws; normalization never fails, so ours is the fallback with
//!   the named kind and pointer;
//! - **undefined**: the SDK returns no schema for an object without properties; ours keeps `{"type":"object"}`
//!   and the Google tool envelope then omits `parameters`, which is the
//!   SDK's effect one layer up.
//!
//! No case is a library bug.

use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalization, Normalizer, Options, Target};
use llmshim_benches::testdata;
use serde_json::{Value, json};

const FIXTURE: &str = "sdk-fixtures/vercel-ai-google-openapi-schema.json";

/// Cases whose expected value equals ours except for key order: we keep the input's order,
/// while the SDK rebuilds objects (it writes `required` first, `nullable` before `type`, or `type` before the `enum`
/// a `const` became, where we write the `enum` at the `const`'s place and append the inferred `type`).
const ORDER_BY_DESIGN: &[usize] = &[10, 14, 28];

/// How one fixture case relates to our Google output.
enum Class {
    /// Ours equals the SDK's expected value.
    Equal,
    /// Ours differs and is the contract's answer: exactly this output, for the rule named.
    Contract(&'static str, Value),
    /// Ours differs and is the contract's answer: the fallback, with this kind at this pointer, for the rule named.
    ContractFallback(&'static str, FallbackKind, &'static str),
    /// The SDK throws; ours is the fallback with this kind at this pointer.
    Throws(FallbackKind, &'static str),
    /// The SDK throws; ours is this value, for the reason given, without a fallback.
    ThrowsAnswered(&'static str, Value),
    /// The SDK returns no schema; ours is `{"type":"object"}` and the declaration omits `parameters`.
    Undefined,
}

fn normalizer() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

fn google(input: &Value) -> (Value, Normalization) {
    let mut value = input.clone();
    let report = normalizer().normalize_with(&Options::for_target(Target::Google), &mut value);
    (value, report)
}

fn bytes(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value serializes")
}

/// The classification of every case, by index and upstream test name.
fn classes() -> Vec<(usize, &'static str, Class)> {
    use Class::{Contract, ContractFallback, Equal, Throws, ThrowsAnswered, Undefined};
    use FallbackKind::{TargetUnsupported, UnresolvedRef};
    vec![
        (0, "should remove additionalProperties and $schema", Equal),
        (
            1,
            "should inline direct references to root-level $defs",
            Equal,
        ),
        (
            2,
            "should inline a root reference before checking for an empty object",
            Equal,
        ),
        (
            3,
            "should inline nested references between root-level definitions",
            Equal,
        ),
        (
            4,
            "should inline references to legacy root-level definitions",
            Equal,
        ),
        (
            5,
            "should reject unsupported or missing references",
            Throws(UnresolvedRef, ""),
        ),
        (
            6,
            "should reject unsupported or missing references",
            Throws(UnresolvedRef, ""),
        ),
        (
            7,
            "should reject recursive references",
            ThrowsAnswered(
                "Google unrolls a recursive reference three times, and the optional property that recurses is \
                 omitted below that depth (recursion modes); the SDK throws",
                json!({"type": "object", "properties": {"node": {"type": "object", "properties": {"child": {
                    "type": "object", "properties": {"child": {
                        "type": "object", "description": "(recursive child: omitted below depth 3)"}}}}}}}),
            ),
        ),
        (
            8,
            "should remove additionalProperties object from nested object schemas",
            Equal,
        ),
        (9, "should handle nested objects and arrays", Equal),
        (
            10,
            "should convert \"const\" to \"enum\" with a single value",
            Equal,
        ),
        (
            11,
            "should handle allOf, anyOf, and oneOf",
            Contract(
                "an `allOf` of two entries stays (W14 merges a single entry only), and Google needs a type on every \
                 node and forbids `allOf` (S5 and S7; GEM-11), so the optional `allOfProp` is omitted \
                 (target.omit-property); the SDK passes `allOf` and `oneOf` through, which Gemini rejects",
                json!({"type": "object", "properties": {
                    "anyOfProp": {"anyOf": [{"type": "string"}, {"type": "number"}]},
                    "oneOfProp": {"type": "boolean", "nullable": true}
                }, "description": "(omitted allOfProp: target_unsupported)"}),
            ),
        ),
        (
            12,
            "should convert \"format: date-time\" to \"format: date-time\"",
            Equal,
        ),
        (13, "should handle required properties", Equal),
        (
            14,
            "should convert deeply nested \"const\" to \"enum\"",
            Equal,
        ),
        (
            15,
            "should correctly convert a complex schema with nested const and anyOf",
            Equal,
        ),
        (
            16,
            "should handle null type correctly",
            Contract(
                "a node that is only `type: \"null\"` cannot be written on Google (S6; GEM-2), so the optional \
                 property is omitted (target.omit-property); the SDK keeps it",
                json!({"type": "object", "properties": {
                    "nullableField": {"type": "string", "nullable": true}
                }, "description": "(omitted explicitNullField: target_unsupported)"}),
            ),
        ),
        (
            17,
            "should handle descriptions",
            Contract(
                "Google keeps only the formats of its list, so `email` is lifted (GEM-5)",
                json!({"type": "object", "description": "A user object", "properties": {
                    "id": {"type": "number", "description": "The user ID"},
                    "name": {"type": "string", "description": "The user's full name"},
                    "email": {"type": "string", "description": "The user's email address (format: email)"}
                }, "required": ["id", "name"]}),
            ),
        ),
        (
            18,
            "should return undefined for empty object schemas at root level",
            Undefined,
        ),
        (
            19,
            "should return undefined for empty object schemas at root level",
            Undefined,
        ),
        (
            20,
            "should preserve nested empty object schemas to avoid breaking required array validation",
            Equal,
        ),
        (
            21,
            "should preserve nested empty object schemas without descriptions",
            Equal,
        ),
        (22, "should handle non-empty object schemas", Equal),
        (23, "should convert string enum properties", Equal),
        (
            24,
            "should infer the type of an untyped string enum",
            ContractFallback(
                "the Google root must be `type: \"object\"` (the root rule `Object`, S18; GEM-12); the \
                 SDK returns a string root",
                TargetUnsupported,
                "",
            ),
        ),
        (
            25,
            "should convert non-string enum values to the Google enum format",
            Contract(
                "`const: null` infers `type: \"null\"`, which Google forbids (S6), so the optional property is \
                 omitted (target.omit-property); the SDK keeps it",
                json!({"type": "object", "properties": {
                    "numberValue": {"type": "number", "description": "(const: 15)"},
                    "integerValue": {"type": "integer", "description": "(enum: [1,2])"},
                    "booleanValue": {"type": "boolean", "description": "(const: true)"}
                }, "description": "(omitted nullValue: target_unsupported)"}),
            ),
        ),
        (
            26,
            "should convert nullable type-array and untyped primitive enums",
            Contract(
                "`null` leaves the `enum` of a `[T, \"null\"]` node, a non-string `enum` is lifted instead of \
                 stringified, and an integer literal infers `integer`",
                json!({"type": "object", "properties": {
                    "nullableString": {"type": "string", "enum": ["a", "b"], "nullable": true},
                    "nullableNumber": {"type": "number", "nullable": true, "description": "(enum: [1,2])"},
                    "nullableBoolean": {"type": "boolean", "nullable": true, "description": "(enum: [true])"},
                    "untypedNumber": {"type": "integer", "description": "(enum: [1,2])"},
                    "untypedBoolean": {"type": "boolean", "description": "(enum: [true,false])"}
                }}),
            ),
        ),
        (
            27,
            "should reject enum values with mixed types",
            Throws(TargetUnsupported, ""),
        ),
        (28, "should convert nullable string enum", Equal),
        (
            29,
            "should handle type arrays with multiple non-null types plus null",
            Contract(
                "the split puts `nullable: true` on every branch and leaves `anyOf` alone (worked \
                 example T3; GEM-3); the SDK's `anyOf` with a sibling `nullable` is what Gemini rejects",
                json!({"type": "object", "properties": {"multiTypeField": {"anyOf": [
                    {"type": "string", "nullable": true},
                    {"type": "number", "nullable": true}
                ]}}}),
            ),
        ),
        (
            30,
            "should convert type arrays without null to anyOf",
            Equal,
        ),
    ]
}

/// Whether `out` is the fallback for `kind` at `pointer`; the problem, naming `rule`, when it is not.
fn fallback_problem(
    rule: &str,
    kind: FallbackKind,
    pointer: &str,
    out: &Value,
    report: &Normalization,
) -> Option<String> {
    let reason = report
        .fallback_reason
        .as_ref()
        .map(|r| (r.kind, r.pointer.as_str()));
    let fell_back = report.used_fallback
        && bytes(out) == r#"{"type":"object","properties":{}}"#
        && reason == Some((kind, pointer));
    (!fell_back).then(|| {
        format!(
            "{rule}: expected the fallback for {} at {pointer:?}, got {} ({})",
            kind.as_str(),
            bytes(out),
            report.to_json(true)
        )
    })
}

/// Judges one case and returns the problems found.
fn judge(at: usize, case: &Value, class: &Class) -> Vec<String> {
    let input = &case["args"][0];
    let matcher = case["matcher"].as_str().unwrap_or_default();
    let expected = case.get("expected").unwrap_or(&Value::Null);
    let (out, report) = google(input);
    let mut problems = Vec::new();
    let mut fail = |what: String| problems.push(format!("case {at}: {what}"));
    let exact = matches!(matcher, "toEqual" | "toMatchInlineSnapshot");
    match class {
        Class::Equal => {
            if !exact {
                fail(format!("classified equal, but the matcher is {matcher}"));
            } else if out != *expected || report.used_fallback {
                fail(format!(
                    "expected the SDK's value {}\n      got {} ({})",
                    bytes(expected),
                    bytes(&out),
                    report.to_json(false)
                ));
            } else if (bytes(&out) != bytes(expected)) != ORDER_BY_DESIGN.contains(&at) {
                fail(format!(
                    "key order: ours {}, the SDK's {}; ORDER_BY_DESIGN must list exactly the cases whose bytes \
                     differ",
                    bytes(&out),
                    bytes(expected)
                ));
            }
        }
        Class::Contract(rule, answer) => {
            if !exact {
                fail(format!("classified contract, but the matcher is {matcher}"));
            } else if out == *expected {
                fail("ours now equals the SDK's value: classify the case as equal".to_owned());
            } else if bytes(&out) != bytes(answer) || report.used_fallback {
                fail(format!(
                    "{rule}:\n      expected {}\n      got {} ({})",
                    bytes(answer),
                    bytes(&out),
                    report.to_json(false)
                ));
            }
        }
        Class::ContractFallback(rule, kind, pointer) => {
            if matcher == "toThrow" {
                fail(format!(
                    "the matcher {matcher} does not fit the classification"
                ));
            }
            if let Some(problem) = fallback_problem(rule, *kind, pointer, &out, &report) {
                fail(problem);
            }
        }
        Class::Throws(kind, pointer) => {
            if matcher != "toThrow" {
                fail(format!("classified throws, but the matcher is {matcher}"));
            }
            let rule = "the SDK throws; normalization never fails and falls back instead";
            if let Some(problem) = fallback_problem(rule, *kind, pointer, &out, &report) {
                fail(problem);
            }
        }
        Class::ThrowsAnswered(rule, answer) => {
            if matcher != "toThrow" {
                fail(format!("classified throws, but the matcher is {matcher}"));
            }
            if bytes(&out) != bytes(answer) || report.used_fallback {
                fail(format!(
                    "{rule}:\n      expected {}\n      got {} ({})",
                    bytes(answer),
                    bytes(&out),
                    report.to_json(false)
                ));
            }
        }
        Class::Undefined => {
            if matcher != "toBeUndefined" {
                fail(format!(
                    "classified undefined, but the matcher is {matcher}"
                ));
            }
            if bytes(&out) != r#"{"type":"object"}"# || report.used_fallback {
                fail(format!(
                    "an object without properties stays `{{\"type\":\"object\"}}` on Google, \
                     got {}",
                    bytes(&out)
                ));
            }
            let mut request = json!({"tools": [{"type": "function", "function": {"name": "t", "parameters": input}}]});
            let _ = normalizer()
                .normalize_native_tools(&Options::for_target(Target::Google), &mut request);
            let declaration = json!({"tools": [{"functionDeclarations": [{"name": "t"}]}]});
            if request != declaration {
                fail(format!(
                    "the Google declaration omits `parameters` for an object without properties (\
                     D6), got {}",
                    bytes(&request)
                ));
            }
        }
    }
    problems
}

#[test]
fn every_vercel_google_fixture_is_equal_or_the_contract_answer() {
    let Some(root) =
        testdata::require("every_vercel_google_fixture_is_equal_or_the_contract_answer")
    else {
        return;
    };
    let fixture = testdata::read_json(root.join(FIXTURE)).expect("the fixture parses");
    let cases = fixture["cases"].as_array().expect("a cases array");
    let classes = classes();
    assert_eq!(
        cases.len(),
        classes.len(),
        "every case is classified exactly once; the fixture has {} cases",
        cases.len()
    );
    let mut problems = Vec::new();
    let mut counts = [0_usize; 5];
    for (at, (index, name, class)) in classes.iter().enumerate() {
        assert_eq!(at, *index, "the classification is in fixture order");
        let case = &cases[at];
        assert_eq!(
            case["test"].as_str(),
            Some(*name),
            "case {at} is the upstream test named here"
        );
        counts[match class {
            Class::Equal => 0,
            Class::Contract(..) | Class::ContractFallback(..) => 1,
            Class::Throws(..) => 2,
            Class::Undefined => 3,
            Class::ThrowsAnswered(..) => 4,
        }] += 1;
        problems.extend(judge(at, case, class));
    }
    eprintln!(
        "suite: vercel google fixtures: {} cases: {} equal ({} in another key order by design), {} differ with the \
         contract's answer, {} toThrow mapped to a fallback, {} toThrow answered without one, {} toBeUndefined \
         mapped to an omitted `parameters`, 0 bugs",
        cases.len(),
        counts[0],
        ORDER_BY_DESIGN.len(),
        counts[1],
        counts[2],
        counts[4],
        counts[3]
    );
    assert!(
        problems.is_empty(),
        "{} fixture cases disagree with their classification:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Removes one property from a fixture input, so that the rest of the case can be judged on its own.
fn without(input: &Value, property: &str) -> Value {
    let mut input = input.clone();
    input["properties"]
        .as_object_mut()
        .expect("the case has properties")
        .shift_remove(property);
    input
}

#[test]
fn the_rest_of_each_falling_back_fixture_follows_the_contract() {
    let Some(root) =
        testdata::require("the_rest_of_each_falling_back_fixture_follows_the_contract")
    else {
        return;
    };
    let fixture = testdata::read_json(root.join(FIXTURE)).expect("the fixture parses");
    let case = |at: usize| fixture["cases"][at]["args"][0].clone();

    // Case 11 without its two-entry `allOf`: `oneOf` becomes `anyOf` (W13), and an `anyOf` of one live branch plus
    // `null` collapses into that branch plus the marker (GEM-2).
    let (out, _) = google(&without(&case(11), "allOfProp"));
    assert_eq!(
        bytes(&out),
        bytes(&json!({"type": "object", "properties": {
            "anyOfProp": {"anyOf": [{"type": "string"}, {"type": "number"}]},
            "oneOfProp": {"type": "boolean", "nullable": true}
        }})),
        "walk.one-of-to-any-of and google.collapse-nullable: oneOf becomes anyOf, then a nullable anyOf collapses"
    );

    // Case 16 without the `type: "null"` property: `[T, "null"]` becomes `T` plus the marker (`walk.nullable-marker`),
    // where the SDK writes a one-branch `anyOf` beside `nullable`, which Gemini rejects (GEM-3).
    let (out, _) = google(&without(&case(16), "explicitNullField"));
    assert_eq!(
        bytes(&out),
        bytes(
            &json!({"type": "object", "properties": {"nullableField": {"type": "string", "nullable": true}}})
        ),
        "walk.nullable-marker: [T, null] becomes T plus nullable"
    );

    // Case 25 without `const: null`: non-string `const` and `enum` values are lifted into the description, not
    // stringified into a `format: "enum"` (GEM-4).
    let (out, _) = google(&without(&case(25), "nullValue"));
    assert_eq!(
        bytes(&out),
        bytes(&json!({"type": "object", "properties": {
            "numberValue": {"type": "number", "description": "(const: 15)"},
            "integerValue": {"type": "integer", "description": "(enum: [1,2])"},
            "booleanValue": {"type": "boolean", "description": "(const: true)"}
        }})),
        "target.keyword and google.enum-lift: non-string const and enum values are lifted"
    );
}
