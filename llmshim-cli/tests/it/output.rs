//! `llmshim output`: output schemas, the `response` wrapper and the `wrapped` key after `report`.

use serde_json::json;

use crate::support::{example, keys, llmshim, run, targets};

#[test]
fn a_non_object_output_is_wrapped() {
    let input = r##"{"$defs": {"Item": {"type": "string"}}, "type": "array", "items": {"$ref": "#/$defs/Item"}}"##;
    let out = llmshim(
        &[
            "output",
            "--target",
            "responses",
            "--strict",
            "--diagnostics",
        ],
        input,
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer = out.json();
    let keys = keys(&answer);
    assert_eq!(keys, ["output", "report", "wrapped"]);
    assert_eq!(
        answer["output"],
        json!({
            "type": "object",
            "properties": {"response": {"type": "array", "items": {"type": "string"}}},
            "required": ["response"],
            "additionalProperties": false
        })
    );
    assert_eq!(answer["wrapped"], true);
    assert_eq!(answer["report"]["strict"], true);
    let rules: Vec<&str> = answer["report"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"output.wrap"), "{rules:?}");
}

#[test]
fn an_object_output_is_not_wrapped() {
    for target in targets() {
        let out = run(&[
            "output",
            "--target",
            target,
            &example("pydantic-order.json"),
        ]);
        assert_eq!(out.code, 0, "{target}: {}", out.stderr);
        let answer = out.json();
        assert_eq!(answer["wrapped"], false, "{target}");
        assert_eq!(answer["report"]["used_fallback"], false, "{target}");
        assert!(
            answer["output"]["properties"].get("customer_id").is_some(),
            "{target}"
        );
    }
}
