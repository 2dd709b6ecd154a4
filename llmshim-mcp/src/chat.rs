//! Converting a raw MCP tool into the canonical chat tool.

use llmshim_core::json;
use serde_json::{Map, Value};

use crate::tool::{DESCRIPTION, INPUT_SCHEMA, NAME, TITLE};

/// The key of a prompt-cache marker, the one non-MCP field a chat tool carries over.
const CACHE_CONTROL: &str = "cache_control";

/// Builds the canonical chat tool for an MCP tool, copying the values it needs.
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

/// [`to_chat_tool`] for a tool the caller gives up: the values are moved instead of copied, and the dropped fields are
/// freed without recursion (they may nest arbitrarily deep).
///
/// ```
/// use llmshim_mcp::{into_chat_tool, to_chat_tool};
/// use serde_json::json;
///
/// let tool = json!({"name": "ping", "title": "Ping", "inputSchema": {"type": "object"}, "annotations": {}});
/// assert_eq!(into_chat_tool(tool.clone()), to_chat_tool(&tool));
/// ```
pub fn into_chat_tool(tool: Value) -> Value {
    let Value::Object(mut source) = tool else {
        json::dismantle(tool);
        return to_chat_tool(&Value::Null);
    };
    if reusable(&source) {
        // The tool's own map becomes the function object: every other member is dropped in place and the schema
        // moves to the end under its new key, so no map is built and no kept key is allocated again.
        source.retain(|key, value| {
            let keep = matches!(key.as_str(), NAME | DESCRIPTION | INPUT_SCHEMA);
            if !keep {
                json::dismantle(std::mem::take(value));
            }
            keep
        });
        let schema = source.shift_remove(INPUT_SCHEMA).unwrap_or(Value::Null);
        source.insert("parameters".to_owned(), schema);
        let mut chat = Map::with_capacity(2);
        chat.insert("type".to_owned(), Value::String("function".to_owned()));
        chat.insert("function".to_owned(), Value::Object(source));
        return Value::Object(chat);
    }
    let (mut name, mut description, mut title, mut schema, mut cache_control) =
        (None, None, None, None, None);
    for (key, value) in source {
        match key.as_str() {
            NAME => name = Some(value),
            DESCRIPTION => description = Some(value),
            TITLE => title = Some(value),
            INPUT_SCHEMA => schema = Some(value),
            CACHE_CONTROL => cache_control = Some(value),
            _ => json::dismantle(value),
        }
    }
    let mut function = Map::with_capacity(3);
    function.insert(NAME.to_owned(), name.unwrap_or(Value::Null));
    match (description, title) {
        (Some(description), title) => {
            function.insert(DESCRIPTION.to_owned(), description);
            if let Some(title) = title {
                json::dismantle(title);
            }
        }
        (None, Some(title)) => {
            function.insert(DESCRIPTION.to_owned(), title);
        }
        (None, None) => {}
    }
    function.insert("parameters".to_owned(), schema.unwrap_or(Value::Null));
    let mut chat = Map::with_capacity(3);
    chat.insert("type".to_owned(), Value::String("function".to_owned()));
    chat.insert("function".to_owned(), Value::Object(function));
    if let Some(cache_control) = cache_control {
        chat.insert(CACHE_CONTROL.to_owned(), cache_control);
    }
    Value::Object(chat)
}

/// Whether the tool's own map, with every member but `name`, `description` and `inputSchema` dropped, is already
/// the function object's members in order: `name`, perhaps `description`, then `inputSchema`, and nothing that
/// goes elsewhere (a `title` standing in for an absent description, a `cache_control` for the chat tool).
fn reusable(source: &Map<String, Value>) -> bool {
    let mut stage = 0u8;
    let (mut has_name, mut has_description, mut has_title) = (false, false, false);
    for key in source.keys() {
        let next = match key.as_str() {
            NAME => {
                has_name = true;
                1
            }
            DESCRIPTION => {
                has_description = true;
                2
            }
            INPUT_SCHEMA => 3,
            TITLE => {
                has_title = true;
                continue;
            }
            CACHE_CONTROL => return false,
            _ => continue,
        };
        if next <= stage {
            return false;
        }
        stage = next;
    }
    stage == 3 && has_name && (has_description || !has_title)
}
