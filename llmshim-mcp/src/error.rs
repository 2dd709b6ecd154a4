//! The error of reading a value as an MCP tool, with the pointer of the offending field.

use llmshim_core::{FallbackKind, FallbackReason};
use serde_json::Value;

/// Why a value could not be read as an MCP tool by [`Tool::from_value`](crate::Tool::from_value).
///
/// ```
/// use llmshim_mcp::{Error, Tool};
/// use serde_json::json;
///
/// let value = json!({"name": 7, "inputSchema": {"type": "object"}});
/// let err = Tool::from_value(&value).unwrap_err();
/// assert_eq!(err.pointer(), "/name");
/// assert_eq!(err.to_string(), "tool field \"/name\" must be a string, found a number");
/// assert!(matches!(err, Error::InvalidField { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The value is not a JSON object; the pointer is the tool itself, `""`.
    #[error("tool is not an object")]
    NotObject,
    /// The object has no `inputSchema` key, so it is not an MCP tool; the pointer is the tool itself, `""`.
    #[error("tool has no inputSchema")]
    MissingInputSchema,
    /// A field the view reads has a value of the wrong kind.
    #[error("tool field {pointer:?} must be {expected}, found {found}")]
    InvalidField {
        /// The JSON Pointer of the field, for example `/name`.
        pointer: String,
        /// What the field must be, for example `a string`.
        expected: &'static str,
        /// The kind of value found, for example `a number`.
        found: &'static str,
    },
}

impl Error {
    /// The JSON Pointer (RFC 6901) of the offending value, relative to the tool; `""` is the tool itself.
    pub fn pointer(&self) -> &str {
        match self {
            Error::NotObject | Error::MissingInputSchema => "",
            Error::InvalidField { pointer, .. } => pointer,
        }
    }

    /// An [`Error::InvalidField`] for the top-level `key` whose value `found` is not `expected`.
    pub(crate) fn invalid_field(key: &'static str, expected: &'static str, found: &Value) -> Self {
        // The known field names contain neither `~` nor `/`, so they need no escaping.
        Error::InvalidField {
            pointer: format!("/{key}"),
            expected,
            found: kind_name(found),
        }
    }
}

impl From<Error> for FallbackReason {
    /// A tool that is not an object falls under `not_object`; every other error is an `invalid_schema`.
    fn from(err: Error) -> Self {
        let kind = match err {
            Error::NotObject => FallbackKind::NotObject,
            Error::MissingInputSchema | Error::InvalidField { .. } => FallbackKind::InvalidSchema,
        };
        FallbackReason::new(kind, err.pointer(), err.to_string())
    }
}

/// The kind of a JSON value with its article, for messages.
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
