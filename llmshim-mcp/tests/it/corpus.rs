//! Tests over the real MCP tool corpus `mcp-tools/*.json`: every tool is recognized, read and converted.

use llmshim_benches::testdata::{mcp_tool_files, read_json, require};
use llmshim_mcp::{Tool, into_chat_tool, is_mcp_tool, normalize_tool, to_chat_tool};
use serde_json::{Map, Value, json};

use crate::support::{bypass, fallback, untouched};

/// What the corpus test counted.
#[derive(Debug, Default)]
struct Counts {
    files: usize,
    tools: usize,
    variants: usize,
    with_title: usize,
    null_description: usize,
    with_output_schema: usize,
    with_annotations: usize,
    not_object_roots: usize,
}

/// Checks one corpus tool and adds it to `counts`; `label` names it in failure messages.
fn check_tool(tool: &Value, label: &str, counts: &mut Counts) {
    assert!(is_mcp_tool(tool), "{label}: not recognized");
    let view = Tool::from_value(tool).unwrap_or_else(|err| panic!("{label}: {err}"));
    let name = view.name.unwrap_or_else(|| panic!("{label}: no name"));
    counts.with_title += usize::from(view.title.is_some());
    counts.null_description += usize::from(view.description == Some(&Value::Null));
    counts.with_output_schema += usize::from(view.output_schema.is_some());
    counts.with_annotations += usize::from(view.annotations.is_some());

    let chat = to_chat_tool(tool);
    // The moving variant builds the same bytes.
    assert_eq!(
        into_chat_tool(tool.clone()).to_string(),
        chat.to_string(),
        "{label}"
    );
    assert_eq!(chat["type"], "function", "{label}");
    let function = chat["function"]
        .as_object()
        .unwrap_or_else(|| panic!("{label}: no function object"));
    assert_eq!(function.get("name"), Some(&json!(name)), "{label}");
    assert_eq!(
        function.get("description"),
        view.description_or_title(),
        "{label}"
    );
    assert!(
        function.get("parameters") == Some(view.input_schema),
        "{label}: parameters differ from inputSchema"
    );
    let keys: Vec<&str> = function.keys().map(String::as_str).collect();
    let expected: &[&str] = if view.description_or_title().is_some() {
        &["name", "description", "parameters"]
    } else {
        &["name", "parameters"]
    };
    assert_eq!(keys, expected, "{label}");
    assert_eq!(
        chat.get("cache_control"),
        tool.get("cache_control"),
        "{label}"
    );

    // Under bypass the tool stays as it is; with a normalizer that changes nothing only `inputSchema` may change.
    let mut bypassed = tool.clone();
    normalize_tool(&mut bypassed, bypass);
    assert!(bypassed == *tool, "{label}: bypass touched the tool");
    let mut ingested = tool.clone();
    let report = normalize_tool(&mut ingested, untouched);
    counts.not_object_roots += usize::from(report.used_fallback);
    let root_is_object = tool["inputSchema"]["type"] == "object";
    assert_eq!(report.used_fallback, !root_is_object, "{label}");
    if report.used_fallback {
        assert_eq!(ingested["inputSchema"], fallback(), "{label}");
    }
    let without_schema = |value: &Value| -> Map<String, Value> {
        let mut map = value.as_object().cloned().unwrap_or_default();
        map.shift_remove("inputSchema");
        map
    };
    assert!(
        without_schema(&ingested) == without_schema(tool),
        "{label}: a field other than inputSchema changed"
    );
}

#[test]
fn every_corpus_tool_is_recognized_read_and_converted() {
    let Some(_) = require("llmshim-mcp corpus") else {
        return;
    };
    let mut counts = Counts::default();
    for path in mcp_tool_files() {
        let file = read_json(&path).unwrap_or_else(|err| panic!("{err}"));
        let stem = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        counts.files += 1;
        let tools = file["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{stem}: no tools array"));
        for (index, tool) in tools.iter().enumerate() {
            counts.tools += 1;
            check_tool(tool, &format!("{stem}/tools/{index}"), &mut counts);
        }
        for (index, variant) in file["variants"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            counts.variants += 1;
            let tool = variant.get("tool").unwrap_or(variant);
            check_tool(tool, &format!("{stem}/variants/{index}"), &mut counts);
        }
    }
    eprintln!(
        "llmshim-mcp corpus: {} files, {} tools, {} variants; {} with title, {} with a null description, \
         {} with outputSchema, {} with annotations, {} whose inputSchema root is not an object",
        counts.files,
        counts.tools,
        counts.variants,
        counts.with_title,
        counts.null_description,
        counts.with_output_schema,
        counts.with_annotations,
        counts.not_object_roots
    );
    assert!(counts.files >= 60, "{counts:?}");
    assert!(counts.tools >= 700, "{counts:?}");
}
