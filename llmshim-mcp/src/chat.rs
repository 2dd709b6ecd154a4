//! Converting a raw MCP tool into the canonical chat tool of contract §8.2.

use serde_json::{Map, Value};

use crate::tool::{DESCRIPTION, INPUT_SCHEMA, NAME, TITLE};

/// The key of a prompt-cache marker, the one non-MCP field a chat tool carries over.
const CACHE_CONTROL: &str = "cache_control";

/// Builds the canonical chat tool for an MCP tool (contract §8.2), copying the values it needs.
///
/// The result is `{"type":"function","function":{"name":…,"description":…,"parameters":…}}`, followed by the tool's
/// top-level `cache_control` when it has one:
/// - `name` is the tool's `name`, or `null` when the tool has none;
/// - `description` is the tool's `description`, or its `title` when the tool has no `description` key, copied even
///   when `null`, and omitted when the tool has neither key;
/// - `parameters` is the tool's `inputSchema` as it is, so normalize it first with
///   [`normalize_tool`](crate::normalize_tool).
///
/// Every other field (`title` when a description exists, `outputSchema`, `annotations`, `_meta`, `icons`, vendor
/// extensions) is dropped.
/// The function is meant for values that [`is_mcp_tool`](crate::is_mcp_tool) accepts; for any other value, a missing
/// `name` or `inputSchema` becomes `null`.
///
/// ```
/// use llmshim_mcp::to_chat_tool;
/// use serde_json::json;
///
/// let tool = json!({
///     "name": "fetch",
///     "description": null,
///     "title": "Fetch",
///     "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}},
///     "annotations": {"openWorldHint": true},
///     "cache_control": {"type": "ephemeral"}
/// });
/// assert_eq!(
///     serde_json::to_string(&to_chat_tool(&tool))?,
///     r#"{"type":"function","function":{"name":"fetch","description":null,"parameters":{"type":"object","properties":{"url":{"type":"string"}}}},"cache_control":{"type":"ephemeral"}}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_chat_tool(tool: &Value) -> Value {
    let source = tool.as_object();
    let field = |key: &str| source.and_then(|map| map.get(key));
    let mut function = Map::new();
    function.insert(NAME.to_owned(), field(NAME).cloned().unwrap_or(Value::Null));
    if let Some(description) = field(DESCRIPTION).or_else(|| field(TITLE)) {
        function.insert(DESCRIPTION.to_owned(), description.clone());
    }
    function.insert(
        "parameters".to_owned(),
        field(INPUT_SCHEMA).cloned().unwrap_or(Value::Null),
    );
    let mut chat = Map::new();
    chat.insert("type".to_owned(), Value::String("function".to_owned()));
    chat.insert("function".to_owned(), Value::Object(function));
    if let Some(cache_control) = field(CACHE_CONTROL) {
        chat.insert(CACHE_CONTROL.to_owned(), cache_control.clone());
    }
    Value::Object(chat)
}
