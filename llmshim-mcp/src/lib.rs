//! Recognize MCP tool definitions, normalize their `inputSchema` with a normalizer you hand in, and turn them into chat tools.
//!
//! An MCP tool (`name`, `title`, `description`, `inputSchema`, `outputSchema`, `annotations`, `_meta`, `icons`) is
//! recognized by its `inputSchema` key ([`is_mcp_tool`]) and read through the borrowed view [`Tool`].
//! [`normalize_tool`] ingests a tool: it runs the given schema normalizer on `inputSchema` and replaces a
//! result that does not describe an object by the fallback `{"type":"object","properties":{}}`.
//! [`to_chat_tool`] converts a raw tool: it builds the canonical chat tool
//! `{"type":"function","function":{"name","description","parameters"}}`.
//! This crate never normalizes a schema by itself: the normalizer is a function argument, so it needs no edge to the
//! facade.
//!
//! # Examples
//!
//! ```
//! use llmshim_core::{FallbackKind, Normalization};
//! use llmshim_mcp::{Tool, is_mcp_tool, normalize_tool, to_chat_tool};
//! use serde_json::json;
//!
//! let mut tool = json!({
//!     "name": "echo",
//!     "title": "Echo",
//!     "inputSchema": {"type": "string"},
//!     "annotations": {"readOnlyHint": true}
//! });
//! assert!(is_mcp_tool(&tool));
//! assert_eq!(Tool::from_value(&tool)?.name, Some("echo"));
//!
//! // A normalizer that changes nothing; the facade hands in the real one.
//! let report = normalize_tool(&mut tool, |_schema| Normalization::default());
//! assert!(report.used_fallback);
//! assert_eq!(report.fallback_reason.map(|reason| reason.kind), Some(FallbackKind::NotObject));
//! assert_eq!(tool["inputSchema"], json!({"type": "object", "properties": {}}));
//! assert_eq!(tool["annotations"], json!({"readOnlyHint": true}));
//!
//! // The tool has no `description`, so its `title` stands in.
//! assert_eq!(
//!     to_chat_tool(&tool),
//!     json!({
//!         "type": "function",
//!         "function": {
//!             "name": "echo",
//!             "description": "Echo",
//!             "parameters": {"type": "object", "properties": {}}
//!         }
//!     })
//! );
//! # Ok::<(), llmshim_mcp::Error>(())
//! ```
//!
//! # Should I use this crate?
//!
//! Most users want `llmshim`: its `schema::normalize_mcp_tool` wires this crate to the real normalizer, and
//! `tools::prepare_request` converts raw MCP tools inside a request.
//! Use this crate directly only when you bring your own schema normalizer, or when you need to recognize and read
//! MCP tool definitions without the rest of llmshim.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]

mod chat;
mod error;
mod normalize;
mod tool;

pub use chat::{into_chat_tool, to_chat_tool};
pub use error::Error;
pub use normalize::normalize_tool;
pub use tool::{Tool, is_mcp_tool};
