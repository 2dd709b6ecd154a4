//! An independent oracle: every corpus output validates against the JSON Schema 2020-12 meta-schema.
//!
//! Our own structural check is written against the contract; this test asks the `jsonschema`
//! crate instead. ANT-4 and CCA-4 require every output for Anthropic, Cloud Code Assist and MCP to
//! be a valid 2020-12 schema (Anthropic and a Claude model behind Cloud Code Assist validate `input_schema`
//! against the 2020-12 meta-schema; MCP-2 names 2020-12 the dialect); the Chat and Responses outputs are held
//! to the same bar. The outputs are those of the shared corpus run of `corpus.rs` (the fallback included), so
//! the same SchemaStore size limit applies.
//!
//! The meta-schema is always 2020-12 (`jsonschema::draft202012::meta`), whatever `$schema` says: the walker
//! removes `$schema` or sets it to 2020-12, and the providers judge by 2020-12 anyway.

use std::fmt::Write as _;

use llmshim::schema::Target;
use serde_json::{Value, json};

use crate::corpus::{self, TARGETS};

/// The targets whose outputs the oracle judges.
const JUDGED: [Target; 5] = [
    Target::Anthropic,
    Target::CloudCodeAssist,
    Target::Mcp,
    Target::OpenAiChat,
    Target::OpenAiResponses,
];

/// The first meta-schema violation of `schema`, as `<instance path>: <message>`, or `None` when it is valid.
fn meta_violation(schema: &Value) -> Option<String> {
    jsonschema::draft202012::meta::validate(schema)
        .err()
        .map(|error| format!("{}: {error}", error.instance_path()))
}

#[test]
fn the_oracle_rejects_what_2020_12_forbids() {
    // The oracle must be able to fail, and it must judge by 2020-12 whatever `$schema` says.
    assert_eq!(
        meta_violation(&json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        None
    );
    for bad in [
        json!({"type": "object", "properties": {"a": {"type": "text"}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}}),
        json!({"type": "object", "required": "a"}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}]}),
        json!({"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": true}}}),
    ] {
        assert!(meta_violation(&bad).is_some(), "2020-12 forbids {bad}");
    }
}

#[test]
fn every_output_is_a_valid_2020_12_schema() {
    let Some(corpus) = corpus::corpus("every_output_is_a_valid_2020_12_schema") else {
        return;
    };
    let mut judged = [0_usize; 6];
    let mut problems = Vec::new();
    for entry in &corpus.entries {
        for run in &entry.runs {
            if !JUDGED.contains(&run.target) {
                continue;
            }
            // A panic is reported by `corpus::corpus_never_panics`.
            let Ok((out, _)) = &run.first else {
                continue;
            };
            let column = TARGETS
                .iter()
                .position(|t| *t == run.target)
                .expect("a built-in target");
            judged[column] += 1;
            if let Some(violation) = meta_violation(out) {
                problems.push(format!(
                    "{} @ {}: {violation}",
                    entry.schema.id,
                    run.target.name()
                ));
            }
        }
    }
    let mut note = String::new();
    for (column, target) in TARGETS.iter().enumerate() {
        if JUDGED.contains(target) {
            let _ = writeln!(
                note,
                "oracle {:<9} outputs judged {:>5} against the 2020-12 meta-schema",
                target.name(),
                judged[column]
            );
        }
    }
    eprint!("{note}");
    assert!(
        judged.iter().sum::<usize>() > 0,
        "the oracle judged nothing"
    );
    assert!(
        problems.is_empty(),
        "{} outputs are not valid 2020-12 schemas:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
