//! MCP: `$schema` set to 2020-12, empty `properties` added, nothing stripped, strict without limits.

use llmshim_core::envelope::{Layout, ToolShape};
use llmshim_core::rules::{
    Booleans, EmptyProperties, Envelope, Policy, Root, SchemaUri, StrictProfile,
};
use llmshim_core::{Nullable, Recursion, RuleSet};

use crate::Builtin;

/// MCP registries.
pub static MCP: Builtin = Builtin::new("mcp", &RULES);

/// MCP tools, `{"name", "description", "inputSchema"}`, never a `strict` key.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Tool(ToolShape::new("inputSchema")));

/// The MCP rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, false, false))
    .with_booleans(Booleans::Keep)
    .with_schema_uri(SchemaUri::Set2020)
    .with_root(Root::Any)
    .with_empty_properties(EmptyProperties::Add)
    .with_strict(Some(StrictProfile::new(None, None)))
    .with_recursion(Recursion::KEEP_REFS, Recursion::KEEP_REFS)
    .with_envelope(ENVELOPE);
