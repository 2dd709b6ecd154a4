//! The `llmshim` command's cases: documents nested 100,000 levels deep as text, run through `main_with` in process.

use llmshim_cli::run::{Io, main_with};

use crate::Run;
use crate::inputs::DEEP;

/// A schema nested `DEEP` levels through `items`, as JSON text.
pub(crate) fn deep_schema() -> String {
    format!(
        "{}{{\"type\":\"string\"}}{}",
        "{\"type\":\"array\",\"items\":".repeat(DEEP),
        "}".repeat(DEEP)
    )
}

/// A chat request whose one tool's `parameters` is `schema`, as JSON text.
pub(crate) fn tool_request(schema: &str) -> String {
    format!(
        "{{\"tools\":[{{\"type\":\"function\",\"function\":{{\"name\":\"f\",\"parameters\":{schema}}}}}]}}"
    )
}

/// A chat request whose `messages` member is nested `DEEP` arrays deep, with one shallow tool, as JSON text.
pub(crate) fn deep_messages_request() -> String {
    format!(
        "{{\"messages\":{}{},\"tools\":[{{\"type\":\"function\",\"function\":{{\"name\":\"f\",\"parameters\":{{\"type\":\"object\"}}}}}}]}}",
        "[".repeat(DEEP),
        "]".repeat(DEEP)
    )
}

/// Batch lines: `normalize`, `output` and `mcp_tool` on the deep schema, `tools` on the deep-messages request.
pub(crate) fn batch_lines() -> String {
    let schema = deep_schema();
    [
        format!("{{\"api\":\"normalize\",\"target\":\"google\",\"input\":{schema}}}"),
        format!("{{\"api\":\"output\",\"target\":\"google\",\"input\":{schema}}}"),
        format!("{{\"api\":\"mcp_tool\",\"input\":{{\"name\":\"x\",\"inputSchema\":{schema}}}}}"),
        format!(
            "{{\"api\":\"tools\",\"target\":\"google\",\"input\":{}}}",
            deep_messages_request()
        ),
    ]
    .join("\n")
}

impl Run {
    /// Runs `llmshim args…` in process with `stdin` as standard input, and records one outcome per answer line:
    /// `fallback <kind>`, `passed through` (no reason; the answer holds the input's deep member) or the exit status.
    pub(crate) fn command(&mut self, args: &[&str], stdin: &str) {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let mut input = stdin.as_bytes();
        let mut io = Io {
            stdin: &mut input,
            stdout: &mut stdout,
            stderr: &mut stderr,
        };
        let mut line = vec!["llmshim"];
        line.extend_from_slice(args);
        let code = self.time(|| main_with(line, &mut io));
        let text = String::from_utf8_lossy(&stdout);
        for line in text.lines() {
            self.outcome(answer_label(line, code));
        }
    }
}

/// The outcome of one answer line, read from its report (found by text: the answer may be too deep for `serde_json`).
fn answer_label(line: &str, code: u8) -> String {
    let report = line
        .find("\"report\":")
        .and_then(|start| {
            serde_json::Deserializer::from_str(&line[start + 9..])
                .into_iter::<serde_json::Value>()
                .next()
        })
        .and_then(Result::ok);
    match report {
        Some(report) => match report["fallback_reason"]["kind"].as_str() {
            Some(kind) => format!("fallback {kind}"),
            // The deep member in its place, or inside the Code Assist envelope's `request`.
            None if line.starts_with("{\"output\":{\"messages\":[[[[")
                || line.starts_with("{\"output\":{\"request\":{\"messages\":[[[[") =>
            {
                "passed through, deep messages kept".to_owned()
            }
            None => "ok".to_owned(),
        },
        None => format!("exit {code}: {}", line.chars().take(40).collect::<String>()),
    }
}
