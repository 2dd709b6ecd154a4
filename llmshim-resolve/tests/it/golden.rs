//! The hand-written worked examples of reference resolution and the budget charges that involve references.

use llmshim_benches::golden::{self, Case, Outcome};
use llmshim_core::Budget;
use llmshim_core::rules::SchemaUri;
use serde_json::{Value, json};

use crate::support::resolve_walk;

fn run(case: &Case) -> Outcome {
    let schema_uri = match case.target.as_deref() {
        Some("mcp") => SchemaUri::Set2020,
        _ => SchemaUri::Remove,
    };
    let mut budget = Budget::default();
    if let Some(n) = case
        .options
        .get("max_literal_bytes")
        .and_then(Value::as_u64)
    {
        budget = budget.with_max_literal_bytes(n as usize);
    }
    if let Some(n) = case.options.get("max_nodes").and_then(Value::as_u64) {
        budget = budget.with_max_nodes(n as usize);
    }
    if let Some(n) = case.options.get("max_depth").and_then(Value::as_u64) {
        budget = budget.with_max_depth(n as usize);
    }
    let (output, reason) = resolve_walk(&case.input, schema_uri, budget);
    // Messages are human text and not stable, so the report names kind and pointer only.
    let report = match reason {
        Some(r) => {
            json!({"used_fallback": true, "fallback_reason": {"kind": r.kind.as_str(), "pointer": r.pointer}})
        }
        None => json!({"used_fallback": false}),
    };
    Outcome::new(output).with_report(report)
}

#[test]
fn worked_examples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    match golden::check(&dir, run) {
        Ok(n) => assert!(n >= 10, "expected at least 10 golden cases, found {n}"),
        Err(report) => panic!("{report}"),
    }
}
