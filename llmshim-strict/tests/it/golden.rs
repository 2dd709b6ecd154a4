//! The worked strict examples that the strict passes produce alone, compared byte for byte.

use llmshim_core::{ChangeKind, FallbackKind};
use llmshim_strict::check;
use serde_json::{Value, json};

use crate::support::{changes, kinds, run, run_with_split, strict_settings, text};

/// Walks `input` strictly, asserts the compact output and that it passes the strict check, and returns it.
fn golden(mut input: Value, expected: &str) -> Value {
    run(&mut input, &strict_settings(false)).expect("the strict walk succeeds");
    assert_eq!(text(&input), expected);
    assert_eq!(check(&input), []);
    input
}

#[test]
fn k1_optional_becomes_nullable() {
    golden(
        json!({"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]}),
        r#"{"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"anyOf":[{"type":"string","enum":["c","f"]},{"type":"null"}],"description":"(default: \"c\")"}},"required":["city","units"],"additionalProperties":false}"#,
    );
}

#[test]
fn k1_records_the_lift_the_wrap_and_the_close_in_order() {
    let mut schema = json!({"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]});
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");
    assert_eq!(
        changes(&walked),
        [
            (
                "/properties/units/default".to_owned(),
                "strict.keyword".to_owned(),
                ChangeKind::Lifted
            ),
            (
                "/properties/units".to_owned(),
                "strict.nullable-optional".to_owned(),
                ChangeKind::Rewritten
            ),
            (
                String::new(),
                "strict.close-object".to_owned(),
                ChangeKind::Rewritten
            ),
        ]
    );
}

#[test]
fn k2_split_with_lifted_bounds() {
    // The split is core's mechanism (W23); the stand-in shows that the bounds were lifted at W19, before it.
    let mut schema = json!({"type":"object","properties":{"v":{"type":["string","integer"],"description":"either","maxLength":3,"minimum":0}},"required":["v"]});
    run_with_split(&mut schema, &strict_settings(false)).expect("walks");
    assert_eq!(
        text(&schema),
        r#"{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}],"description":"either (maxLength: 3) (minimum: 0)"}},"required":["v"],"additionalProperties":false}"#
    );
    assert_eq!(check(&schema), []);
}

#[test]
fn k3_the_referenced_object_inlined_is_closed() {
    // The reference example with the `$ref` target written in place: reference expansion is not a strict step.
    golden(
        json!({"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["y"]}},"required":["p"]}),
        r#"{"type":"object","properties":{"p":{"type":"object","properties":{"x":{"anyOf":[{"type":"number"},{"type":"null"}]},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}},"required":["p"],"additionalProperties":false}"#,
    );
}

#[test]
fn k4_null_already_admitted_and_a_schema_valued_additional_properties_closed() {
    let mut schema = json!({"type":"object","properties":{"note":{"type":["string","null"]}},"additionalProperties":{"type":"string"}});
    run_with_split(&mut schema, &strict_settings(false)).expect("walks");
    assert_eq!(
        text(&schema),
        r#"{"type":"object","properties":{"note":{"anyOf":[{"type":"string"},{"type":"null"}]}},"additionalProperties":false,"required":["note"]}"#
    );
    assert_eq!(check(&schema), []);
}

#[test]
fn k4_without_the_split_the_type_array_is_not_wrapped_again() {
    // Closing alone: the type array already admits null, so only `required` and `additionalProperties` change.
    let mut input = json!({"type":"object","properties":{"note":{"type":["string","null"]}},"additionalProperties":{"type":"string"}});
    run(&mut input, &strict_settings(false)).expect("the strict walk succeeds");
    assert_eq!(
        text(&input),
        r#"{"type":"object","properties":{"note":{"type":["string","null"]}},"additionalProperties":false,"required":["note"]}"#
    );
    // The strict check accepts no type array: the split (W23, in the pipeline) is what makes this output strict.
    assert_eq!(
        kinds(&check(&input)),
        [(
            FallbackKind::TargetUnsupported,
            "/properties/note".to_owned()
        )]
    );
}

#[test]
fn k5_duplicate_marker_and_leading_whitespace() {
    golden(
        json!({"type":"object","properties":{"n":{"type":"integer","description":"  Retries (default: 3)","default":5,"maximum":9}},"required":["n"]}),
        r#"{"type":"object","properties":{"n":{"type":"integer","description":"Retries (default: 3) (maximum: 9)"}},"required":["n"],"additionalProperties":false}"#,
    );
}

#[test]
fn k5_records_both_lifts_although_the_marker_appends_nothing() {
    let mut schema = json!({"type":"object","properties":{"n":{"type":"integer","description":"  Retries (default: 3)","default":5,"maximum":9}},"required":["n"]});
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");
    assert_eq!(
        changes(&walked),
        [
            (
                "/properties/n/default".to_owned(),
                "strict.keyword".to_owned(),
                ChangeKind::Lifted
            ),
            (
                "/properties/n/maximum".to_owned(),
                "strict.keyword".to_owned(),
                ChangeKind::Lifted
            ),
            (
                String::new(),
                "strict.close-object".to_owned(),
                ChangeKind::Rewritten
            ),
        ]
    );
}

#[test]
fn p_d_a_single_optional_string() {
    // The schema part of the pipeline example where strict is demoted.
    golden(
        json!({"type":"object","properties":{"a":{"type":"string"}}}),
        r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a"],"additionalProperties":false}"#,
    );
}

#[test]
fn every_worked_output_is_a_fixed_point() {
    let inputs = [
        json!({"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]}),
        json!({"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["y"]}},"required":["p"]}),
        json!({"type":"object","properties":{"n":{"type":"integer","description":"  Retries (default: 3)","default":5,"maximum":9}},"required":["n"]}),
    ];
    for mut schema in inputs {
        run(&mut schema, &strict_settings(false)).expect("walks");
        let once = text(&schema);
        let walked = run(&mut schema, &strict_settings(true)).expect("walks again");
        assert_eq!(text(&schema), once);
        assert_eq!(changes(&walked), []);
    }
}

#[test]
fn k6_an_array_without_items_walks_but_fails_the_check() {
    // The walk leaves `xs` alone; the strict check after the walk is what demotes it.
    let mut schema =
        json!({"type":"object","properties":{"xs":{"type":"array"}},"required":["xs"]});
    run(&mut schema, &strict_settings(false)).expect("walks");
    assert_eq!(
        text(&schema),
        r#"{"type":"object","properties":{"xs":{"type":"array"}},"required":["xs"],"additionalProperties":false}"#
    );
    let found = check(&schema);
    assert_eq!(
        found
            .iter()
            .map(|r| (r.kind, r.pointer.as_str()))
            .collect::<Vec<_>>(),
        [(FallbackKind::StrictUnsupported, "/properties/xs")]
    );
}

#[test]
fn k7_a_boolean_property_fails_the_strict_walk() {
    let mut schema = json!({"type":"object","properties":{"free":true}});
    let reason = run(&mut schema, &strict_settings(false)).expect_err("fails");
    assert_eq!(
        (reason.kind, reason.pointer.as_str()),
        (FallbackKind::BooleanSchema, "/properties/free")
    );
}
