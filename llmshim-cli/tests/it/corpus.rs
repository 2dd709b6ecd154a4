//! The MCP tool corpus through `llmshim batch` for every target: one answer per line, no error lines, and the
//! throughput printed on stderr (`cargo xtask batch` measures it on a release build and records it in RELIABILITY.md).

use std::time::Instant;

use llmshim::schema::Target;
use llmshim_benches::testdata::{mcp_tool_files, require};
use llmshim_benches::workload::batch_lines;
use serde_json::Value;

use crate::support::llmshim;

/// How many batch lines the MCP corpus of the shared test data gives (63 files, 725 tools).
const LINES: usize = 11_316;

#[test]
fn every_mcp_tool_for_every_target() {
    let Some(_) = require("llmshim-cli corpus batch") else {
        return;
    };
    let lines = batch_lines(&Target::BUILTIN.map(|t| t.to_string())).unwrap_or_default();
    // The README publishes this count: per file, one `tools` line and one `normalize` line per tool schema and strict
    // flag for each of seven targets, and one `mcp_tool` line per tool.
    assert_eq!(
        lines.len(),
        LINES,
        "the MCP corpus gives {} batch lines, expected {LINES}: the test data is partial or another snapshot",
        lines.len()
    );
    let mut input = String::new();
    for line in &lines {
        input.push_str(&line.to_string());
        input.push('\n');
    }

    let started = Instant::now();
    let out = llmshim(&["batch"], &input, &[]);
    let elapsed = started.elapsed();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answers: Vec<Value> = out.json_lines();
    assert_eq!(answers.len(), lines.len());
    let mut fallbacks = 0usize;
    for (answer, line) in answers.iter().zip(&lines) {
        assert!(answer.get("error").is_none(), "{line}: {answer}");
        assert!(
            answer.get("output").is_some() && answer.get("report").is_some(),
            "{line}"
        );
        if answer["report"]["used_fallback"] == true {
            fallbacks += 1;
        }
    }
    let rate = f64::from(u32::try_from(lines.len()).unwrap()) / elapsed.as_secs_f64();
    eprintln!(
        "llmshim batch over the MCP corpus: {} lines ({} tool files, {} targets, {fallbacks} fallbacks) in {:.2} s, \
         {rate:.0} lines/s ({} build of the binary)",
        lines.len(),
        mcp_tool_files().len(),
        Target::BUILTIN.len(),
        elapsed.as_secs_f64(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    );
}
