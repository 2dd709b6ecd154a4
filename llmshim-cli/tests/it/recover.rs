//! `llmshim recover` and the batch api `recover`: the collected provider bodies of `llmshim/tests/rejections/real`
//! read back to their tool and degraded by one step, an unrecognised body with exit status 1, and usage errors.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::support::{keys, llmshim};

/// Every collected body with its target, request and hand-read answer.
fn entries() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../llmshim/tests/rejections/real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.file_stem().unwrap().to_string_lossy().into_owned(), doc)
        })
        .collect()
}

/// A file holding `text` in the system's temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("llmshim-recover-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The rejection JSON `J` of a hand-read answer (the message aside).
fn expected_rejection(expect: &Value) -> Value {
    json!({"site": expect["site"], "tool": expect["tool"], "declaration": expect["declaration"],
           "pointer": expect["pointer"], "keyword": expect["keyword"]})
}

fn without_message(rejection: &Value) -> Value {
    let mut r = rejection.clone();
    if let Some(map) = r.as_object_mut() {
        map.remove("message");
    }
    r
}

#[test]
fn every_collected_body_recovers_through_the_command() {
    let entries = entries();
    assert!(entries.len() >= 40);
    for (id, doc) in entries {
        let target = doc["target"].as_str().unwrap();
        let body = TempFile::new(&format!("{id}.body"), doc["body"].as_str().unwrap());
        let request = serde_json::to_string(&doc["request"]).unwrap();
        let out = llmshim(
            &["recover", "--target", target, "--error", body.path()],
            &request,
            &[],
        );
        let answer = out.json();
        let keys = keys(&answer);
        assert_eq!(keys, ["output", "rejection", "step"], "{id}");
        if doc["expect"].is_null() {
            assert_eq!(out.code, 1, "{id}: not recognised");
            assert_eq!(answer["rejection"], Value::Null, "{id}");
            assert_eq!(answer["step"], Value::Null, "{id}");
            assert_eq!(
                answer["output"], doc["request"],
                "{id}: the request is unchanged"
            );
        } else {
            assert_eq!(out.code, 0, "{id}: {}", out.stderr);
            assert_eq!(
                without_message(&answer["rejection"]),
                expected_rejection(&doc["expect"]),
                "{id}"
            );
            assert!(
                answer["rejection"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty()),
                "{id}"
            );
            assert!(
                ["keyword", "strict", "node", "fallback"]
                    .contains(&answer["step"].as_str().unwrap_or_default()),
                "{id}: {}",
                answer["step"]
            );
            assert_ne!(
                answer["output"], doc["request"],
                "{id}: the request changed"
            );
        }
    }
}

#[test]
fn an_unrecognised_body_leaves_the_request_and_exits_with_one() {
    let request = json!({"model": "m", "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]});
    let body = TempFile::new(
        "unrecognised",
        "upstream connect error or disconnect/reset before headers",
    );
    let out = llmshim(
        &[
            "recover",
            "--target",
            "chat",
            "--error",
            body.path(),
            "--pretty",
        ],
        &request.to_string(),
        &[],
    );
    assert_eq!(out.code, 1);
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        answer,
        json!({"output": request, "rejection": null, "step": null})
    );
    assert!(out.stdout.contains("\n  \"output\""), "indented");
}

#[test]
fn the_body_may_come_from_standard_input_when_the_request_is_a_file() {
    let request = TempFile::new(
        "request.json",
        &json!({"tools": [{"name": "t", "input_schema": {"type": "object", "properties": {"a": {"type": "string"}}}}]})
            .to_string(),
    );
    let body = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.input_schema: Field required"}}"#;
    let out = llmshim(
        &[
            "recover",
            "--target",
            "anthropic",
            "--error",
            "-",
            request.path(),
        ],
        body,
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer = out.json();
    assert_eq!(answer["step"], "fallback");
    assert_eq!(answer["rejection"]["tool"], 0);
    assert_eq!(
        answer["output"]["tools"][0]["input_schema"],
        json!({"type": "object", "properties": {}})
    );
    let both = llmshim(
        &["recover", "--target", "anthropic", "--error", "-"],
        body,
        &[],
    );
    assert_eq!(both.code, 2);
    assert!(
        both.stderr.contains("standard input can be read only once"),
        "{}",
        both.stderr
    );
    let missing = llmshim(
        &["recover", "--target", "anthropic", request.path()],
        "",
        &[],
    );
    assert_eq!(missing.code, 2, "--error is required");
}

#[test]
fn the_batch_api_recover_answers_like_the_command() {
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for (id, doc) in entries() {
        lines.push(
            json!({"name": id, "api": "recover", "target": doc["target"], "input": {"request": doc["request"], "error": doc["body"]}})
                .to_string(),
        );
        expected.push(doc["expect"].clone());
    }
    lines.push(r#"{"api": "recover", "target": "chat", "input": {"request": {}}}"#.to_owned());
    let out = llmshim(&["batch"], &(lines.join("\n") + "\n"), &[]);
    assert_eq!(out.code, 2, "the last line is an error");
    let answers = out.json_lines();
    assert_eq!(answers.len(), lines.len());
    for (answer, expect) in answers.iter().zip(&expected) {
        if expect.is_null() {
            assert_eq!(answer["rejection"], Value::Null);
        } else {
            assert_eq!(
                without_message(&answer["rejection"]),
                expected_rejection(expect)
            );
            assert!(answer["step"].is_string());
        }
    }
    let last = answers.last().unwrap();
    assert!(
        last["error"]
            .as_str()
            .unwrap()
            .contains("api recover takes"),
        "{last}"
    );
}
