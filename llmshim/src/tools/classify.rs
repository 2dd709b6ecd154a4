//! Classifying one element of a request's `tools`: which function shape it has, if any.

use llmshim_core::envelope::{Layout, ToolShape};
use llmshim_core::json;
use llmshim_core::rules::Envelope;
use serde_json::Value;

/// What one element of `tools` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A raw MCP tool (an object with an `inputSchema` key) on a target whose envelope does not read MCP tools: it is
    /// written straight into the target's shape, as the canonical chat tool converted from it would be.
    Mcp,
    /// A function tool of this shape.
    Function(ToolShape),
    /// An element holding the target's declarations, each edited in place.
    Declarations,
    /// Anything else (provider built-in tools, custom grammars): passed through unchanged.
    Other,
}

/// The schema key of a raw MCP tool, where its schema stood in the input before the conversion to a chat tool.
pub(crate) const MCP_SCHEMA: &str = "inputSchema";

/// The shape of a raw MCP tool: its fields and its schema in the tool itself.
pub(crate) const MCP_SHAPE: ToolShape = ToolShape::new(MCP_SCHEMA);

/// The kind of `tool` for a target with `envelope`: a raw MCP tool first (whatever else it holds), unless the envelope
/// reads MCP tools as they are; then the shapes every target reads, in order; then the envelope's own shape
/// (MCP tools on MCP, declaration entries on Gemini), which other targets pass through.
pub(crate) fn classify(tool: &Value, envelope: &Envelope) -> Kind {
    let Some(map) = tool.as_object() else {
        return Kind::Other;
    };
    if json::has(map, MCP_SCHEMA) && !reads_mcp_tools(envelope) {
        return Kind::Mcp;
    }
    if let Some(shape) = llmshim_targets::INPUT_SHAPES
        .iter()
        .find(|shape| shape.matches(tool))
    {
        return Kind::Function(*shape);
    }
    match envelope.layout {
        Layout::Tool(shape) if shape.matches(tool) => Kind::Function(shape),
        Layout::Declarations { .. } if envelope.native(tool) => Kind::Declarations,
        Layout::Tool(_) | Layout::Declarations { .. } => Kind::Other,
    }
}

/// Whether raw MCP tools reach this envelope as they are, instead of being converted to chat tools first: the
/// envelope's own tools are MCP tools.
pub(crate) fn reads_mcp_tools(envelope: &Envelope) -> bool {
    envelope.layout == Layout::Tool(MCP_SHAPE)
}
