//! Recognizing an MCP tool and reading it through a borrowed, typed view.

use serde_json::{Map, Value};

use crate::error::Error;

/// The key of a tool's name.
pub(crate) const NAME: &str = "name";
/// The key of a tool's human-readable title.
pub(crate) const TITLE: &str = "title";
/// The key of a tool's description.
pub(crate) const DESCRIPTION: &str = "description";
/// The key of a tool's parameter schema; its presence makes a value an MCP tool.
pub(crate) const INPUT_SCHEMA: &str = "inputSchema";
/// The key of a tool's result schema.
pub(crate) const OUTPUT_SCHEMA: &str = "outputSchema";
/// The key of a tool's behaviour hints.
pub(crate) const ANNOTATIONS: &str = "annotations";

/// Returns whether `tool` is an MCP tool: an object with an `inputSchema` key, whatever its value.
///
/// ```
/// use llmshim_mcp::is_mcp_tool;
/// use serde_json::json;
///
/// assert!(is_mcp_tool(&json!({"name": "ping", "inputSchema": {"type": "object"}})));
/// assert!(is_mcp_tool(&json!({"inputSchema": null})));
/// assert!(!is_mcp_tool(&json!({"type": "function", "function": {"name": "ping"}})));
/// assert!(!is_mcp_tool(&json!([{"inputSchema": {}}])));
/// ```
pub fn is_mcp_tool(tool: &Value) -> bool {
    tool.as_object()
        .is_some_and(|map| map.contains_key(INPUT_SCHEMA))
}

/// A borrowed, typed view of an MCP tool definition.
///
/// Built by [`Tool::from_value`]; every field borrows from the tool's JSON value, so building a view copies nothing.
/// Fields the view does not name (`_meta`, `icons`, vendor extensions) stay readable on the value itself.
///
/// ```
/// use llmshim_mcp::Tool;
/// use serde_json::json;
///
/// let value = json!({"name": "search", "description": null, "inputSchema": {"type": "object"}, "annotations": null});
/// let tool = Tool::from_value(&value)?;
/// assert_eq!(tool.name, Some("search"));
/// assert_eq!(tool.description, Some(&json!(null)));
/// assert_eq!(tool.title, None);
/// assert_eq!(tool.input_schema, &json!({"type": "object"}));
/// assert_eq!(tool.annotations, None);
/// # Ok::<(), llmshim_mcp::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tool<'a> {
    /// The tool's `name`, or `None` when the tool has no `name` key.
    pub name: Option<&'a str>,
    /// The tool's `title`: `None` when the key is absent, otherwise a string or `null`.
    pub title: Option<&'a Value>,
    /// The tool's `description`: `None` when the key is absent, otherwise a string or `null`.
    ///
    /// Absent and `null` differ: a `null` description is still copied into a chat tool, and only an absent one lets
    /// the `title` stand in (see [`Tool::description_or_title`]).
    pub description: Option<&'a Value>,
    /// The tool's `inputSchema`, whatever its value; normalization decides what a non-object schema becomes.
    pub input_schema: &'a Value,
    /// The tool's `outputSchema`, whatever its value, or `None` when the key is absent.
    pub output_schema: Option<&'a Value>,
    /// The tool's `annotations` object, or `None` when the key is absent or `null`.
    pub annotations: Option<&'a Map<String, Value>>,
}

impl<'a> Tool<'a> {
    /// Reads `tool` as an MCP tool.
    ///
    /// # Errors
    ///
    /// Returns [`Error::NotObject`] when `tool` is not an object, [`Error::MissingInputSchema`] when it has no
    /// `inputSchema` key, and [`Error::InvalidField`], with the field's pointer, when `name` is not a string, when
    /// `title` or `description` is neither a string nor `null`, or when `annotations` is neither an object nor
    /// `null`.
    pub fn from_value(tool: &'a Value) -> Result<Self, Error> {
        let map = tool.as_object().ok_or(Error::NotObject)?;
        let input_schema = map.get(INPUT_SCHEMA).ok_or(Error::MissingInputSchema)?;
        let name = match map.get(NAME) {
            None => None,
            Some(Value::String(name)) => Some(name.as_str()),
            Some(other) => return Err(Error::invalid_field(NAME, "a string", other)),
        };
        let annotations = match map.get(ANNOTATIONS) {
            None | Some(Value::Null) => None,
            Some(Value::Object(annotations)) => Some(annotations),
            Some(other) => {
                return Err(Error::invalid_field(
                    ANNOTATIONS,
                    "an object or null",
                    other,
                ));
            }
        };
        Ok(Tool {
            name,
            title: text(map, TITLE)?,
            description: text(map, DESCRIPTION)?,
            input_schema,
            output_schema: map.get(OUTPUT_SCHEMA),
            annotations,
        })
    }

    /// The description a chat tool receives: the `description` when the key is present, even when it
    /// is `null`; otherwise the `title`, even when it is `null`; `None` when the tool has neither key.
    ///
    /// ```
    /// use llmshim_mcp::Tool;
    /// use serde_json::json;
    ///
    /// let value = json!({"title": "Search", "inputSchema": {}});
    /// assert_eq!(Tool::from_value(&value)?.description_or_title(), Some(&json!("Search")));
    /// let value = json!({"title": "Search", "description": null, "inputSchema": {}});
    /// assert_eq!(Tool::from_value(&value)?.description_or_title(), Some(&json!(null)));
    /// # Ok::<(), llmshim_mcp::Error>(())
    /// ```
    pub fn description_or_title(&self) -> Option<&'a Value> {
        self.description.or(self.title)
    }
}

/// Reads a text field that may be absent, a string or `null`.
fn text<'a>(map: &'a Map<String, Value>, key: &'static str) -> Result<Option<&'a Value>, Error> {
    match map.get(key) {
        None => Ok(None),
        Some(value @ (Value::String(_) | Value::Null)) => Ok(Some(value)),
        Some(other) => Err(Error::invalid_field(key, "a string or null", other)),
    }
}
