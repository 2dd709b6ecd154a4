//! `normalize_mcp_tool`: an MCP tool's `inputSchema` normalized for a registry.

use llmshim_core::Normalization;
use serde_json::Value;

use crate::schema::{Normalizer, Options, Target};

/// Normalizes an MCP tool's `inputSchema` in place for MCP registries, with the process environment and memo.
///
/// A tool that is not an object or has no `inputSchema` is left alone (the report is all false). Unless bypassed, a
/// schema that does not describe an object is replaced by `{"type":"object","properties":{}}` with reason
/// `not_object`: MCP tool parameters must describe an object. No other field of the tool is touched.
///
/// ```
/// use llmshim::schema::normalize_mcp_tool;
/// use serde_json::json;
///
/// let mut tool = json!({"name": "echo", "inputSchema": {"properties": {"text": {"type": "string"}}}});
/// let report = normalize_mcp_tool(&mut tool);
/// assert!(!report.used_fallback);
/// assert_eq!(tool["inputSchema"]["type"], "object");
/// ```
pub fn normalize_mcp_tool(tool: &mut Value) -> Normalization {
    Normalizer::default().normalize_mcp_tool(tool)
}

impl Normalizer {
    /// [`normalize_mcp_tool`] with this normalizer's environment and memo.
    pub fn normalize_mcp_tool(&self, tool: &mut Value) -> Normalization {
        self.normalize_mcp_tool_with(&Options::for_target(Target::Mcp), tool)
    }

    /// [`normalize_mcp_tool`] with the caller's options; the target is always MCP.
    pub fn normalize_mcp_tool_with(&self, options: &Options, tool: &mut Value) -> Normalization {
        let mut options = options.clone();
        options.target = Target::Mcp;
        llmshim_mcp::normalize_tool(tool, |schema| self.normalize_with(&options, schema))
    }
}
