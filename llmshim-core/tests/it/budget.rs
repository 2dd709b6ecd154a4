//! Budgets: the worked charges that need no `$ref`, the meter and the builders.

use llmshim_core::walk::Settings;
use llmshim_core::{Budget, FallbackKind, Meter};
use serde_json::json;

use crate::support::run_standard;

/// Settings with default budgets except the ones `budget` changes.
fn settings(budget: Budget) -> Settings {
    Settings::new(budget)
}

#[test]
fn a_string_schema_costs_twelve_literal_bytes() {
    let walked = run_standard(
        &mut json!({"type": "string"}),
        &settings(Budget::default().with_max_literal_bytes(12)),
    )
    .expect("12 bytes fit a limit of 12");
    assert_eq!(walked.literal_bytes, 12);
    assert_eq!(walked.nodes, 1);

    let err = run_standard(
        &mut json!({"type": "string"}),
        &settings(Budget::default().with_max_literal_bytes(11)),
    )
    .expect_err("12 bytes exceed a limit of 11");
    assert_eq!(err.kind, FallbackKind::BudgetLiteral);
    assert_eq!(err.pointer, "");
}

#[test]
fn a_snake_case_combinator_is_charged_as_a_literal_subtree_and_then_walked() {
    let walked = run_standard(
        &mut json!({"any_of": [{"type": "string"}]}),
        &settings(Budget::default().with_max_literal_bytes(37)),
    )
    .expect("37 bytes fit a limit of 37");
    assert_eq!(walked.literal_bytes, 37);
    assert_eq!(walked.nodes, 2);

    let err = run_standard(
        &mut json!({"any_of": [{"type": "string"}]}),
        &settings(Budget::default().with_max_literal_bytes(36)),
    )
    .expect_err("37 bytes exceed a limit of 36");
    assert_eq!(err.kind, FallbackKind::BudgetLiteral);
    assert_eq!(err.pointer, "/anyOf/0");
}

#[test]
fn the_literal_charge_counts_keys_before_renames() {
    let walked =
        run_standard(&mut json!({"min_length": 1}), &settings(Budget::default())).expect("walks");
    assert_eq!(walked.literal_bytes, "min_length".len() + 1);
}

#[test]
fn children_and_definitions_are_not_literals() {
    let mut schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "$defs": {"S": {"type": "string", "description": "never charged"}},
        "definitions": {"T": {"type": "string"}}
    });
    let walked = run_standard(&mut schema, &settings(Budget::default())).expect("walks");
    // The root's `type` costs 4 + 8 bytes and the property's `type` 4 + 8 more.
    assert_eq!(walked.literal_bytes, 12 + 12);
    assert_eq!(walked.nodes, 2);
}

#[test]
fn an_object_with_three_string_properties_costs_four_visits() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}
    });
    let walked = run_standard(
        &mut schema.clone(),
        &settings(Budget::default().with_max_nodes(4)),
    )
    .expect("4 visits fit a limit of 4");
    assert_eq!(walked.nodes, 4);

    let err = run_standard(
        &mut schema.clone(),
        &settings(Budget::default().with_max_nodes(3)),
    )
    .expect_err("4 visits exceed a limit of 3");
    assert_eq!(err.kind, FallbackKind::BudgetNodes);
    assert_eq!(err.pointer, "/properties/c");
}

#[test]
fn a_chain_of_three_properties_needs_max_depth_three() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {
            "type": "object",
            "properties": {"b": {
                "type": "object",
                "properties": {"c": {"type": "string"}}
            }}
        }}
    });
    run_standard(
        &mut schema.clone(),
        &settings(Budget::default().with_max_depth(3)),
    )
    .expect("depth 3 fits a limit of 3");

    let err = run_standard(
        &mut schema.clone(),
        &settings(Budget::default().with_max_depth(2)),
    )
    .expect_err("depth 3 exceeds a limit of 2");
    assert_eq!(err.kind, FallbackKind::BudgetDepth);
    assert_eq!(err.pointer, "/properties/a/properties/b/properties/c");
}

#[test]
fn the_default_budget_matches_the_contract() {
    let budget = Budget::default();
    assert_eq!(budget.max_depth, 96);
    assert_eq!(budget.max_nodes, 32_768);
    assert_eq!(budget.max_literal_bytes, 8 * 1024 * 1024);
    assert_eq!(
        (
            Budget::DEFAULT_MAX_DEPTH,
            Budget::DEFAULT_MAX_NODES,
            Budget::DEFAULT_MAX_LITERAL_BYTES
        ),
        (96, 32_768, 8_388_608)
    );
    let custom = Budget::default()
        .with_max_depth(1)
        .with_max_nodes(2)
        .with_max_literal_bytes(3);
    assert_eq!(
        (custom.max_depth, custom.max_nodes, custom.max_literal_bytes),
        (1, 2, 3)
    );
}

#[test]
fn the_meter_fails_only_above_each_limit() {
    let budget = Budget::default()
        .with_max_depth(1)
        .with_max_nodes(2)
        .with_max_literal_bytes(10);
    let mut meter = Meter::new(budget);
    assert_eq!(meter.budget(), budget);
    meter.visit(0, "").expect("first visit");
    meter
        .visit(1, "/a")
        .expect("depth 1 is within a limit of 1");
    assert_eq!(meter.nodes(), 2);
    let err = meter.visit(0, "/b").expect_err("a third visit");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BudgetNodes, "/b")
    );

    let meter = Meter::new(budget);
    meter.check_depth(1, "/a").expect("depth 1");
    let err = meter.check_depth(2, "/a/b").expect_err("depth 2");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BudgetDepth, "/a/b")
    );
    assert_eq!(meter.nodes(), 0);

    let mut meter = Meter::new(budget);
    meter.charge_literal(6, "").expect("6 bytes");
    meter.charge_literal(4, "/x").expect("10 bytes");
    assert_eq!(meter.literal_bytes(), 10);
    let err = meter.charge_literal(1, "/y").expect_err("11 bytes");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BudgetLiteral, "/y")
    );
}

#[test]
fn the_meter_checks_nodes_before_depth() {
    let mut meter = Meter::new(Budget::default().with_max_depth(0).with_max_nodes(0));
    let err = meter.visit(5, "/deep").expect_err("over both limits");
    assert_eq!(err.kind, FallbackKind::BudgetNodes);
}

#[test]
fn the_meter_saturates_instead_of_overflowing() {
    let mut meter = Meter::new(Budget::default().with_max_literal_bytes(usize::MAX));
    meter.charge_literal(usize::MAX, "").expect("at the limit");
    meter
        .charge_literal(usize::MAX, "")
        .expect("still at the limit");
    assert_eq!(meter.literal_bytes(), usize::MAX);
}
