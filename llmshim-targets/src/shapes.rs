//! The function-tool shapes every target reads, whatever its own envelope.

use llmshim_core::envelope::ToolShape;
use llmshim_core::rules::Envelope;

/// The tool shapes the translation recognises on every target, in the order they are tried (the first match wins):
/// the canonical chat tool, the flat function tool, and the tool that names its schema `input_schema`. A target's
/// own shape (MCP tools on MCP, declaration entries on Gemini) is recognised on that target as well.
pub const INPUT_SHAPES: [ToolShape; 3] = [
    Envelope::CHAT.function_shape(),
    crate::openai_responses::ENVELOPE.function_shape(),
    crate::anthropic::ENVELOPE.function_shape(),
];
