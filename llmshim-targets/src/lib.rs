//! Provider rule sets for llmshim: OpenAI Chat and Responses, Anthropic, Google Gemini, Cloud Code Assist and MCP.
//!
//! Each built-in target is [`RuleSet`](llmshim_core::RuleSet) data behind the same
//! [`TargetRules`] interface a custom target implements; the passes in [`passes`] apply
//! any rule set inside the one walk that `llmshim` composes. No schema logic is copied per provider: the six
//! built-ins differ only in data.
//!
//! # Examples
//!
//! ```
//! use llmshim_core::TargetRules;
//! use llmshim_core::rules::Envelope;
//!
//! assert_eq!(llmshim_targets::GOOGLE.id(), "google");
//! assert!(llmshim_targets::GOOGLE.rules().strict.is_none());
//! assert_eq!(llmshim_targets::OPENAI_RESPONSES.rules().envelope, Envelope::Flat);
//! assert_eq!(llmshim_targets::BUILTIN.len(), 6);
//! ```
//!
//! # Should I use this crate?
//!
//! Depend on it when your custom target starts from a built-in rule set (copy its `rules()` and change a field),
//! or when you compose your own walk. To normalize schemas, depend on `llmshim`.

mod anthropic;
mod builtin;
mod cloud_code_assist;
mod google;
mod mcp;
mod openai_chat;
mod openai_responses;
pub mod passes;
pub mod pattern;

pub use builtin::Builtin;
use llmshim_core::TargetRules;

/// OpenAI Chat Completions.
pub static OPENAI_CHAT: Builtin = Builtin::new("openai-chat", openai_chat::RULES);
/// OpenAI Responses.
pub static OPENAI_RESPONSES: Builtin = Builtin::new("openai-responses", openai_responses::RULES);
/// Anthropic Messages.
pub static ANTHROPIC: Builtin = Builtin::new("anthropic", anthropic::RULES);
/// Google Gemini.
pub static GOOGLE: Builtin = Builtin::new("google", google::RULES);
/// Google Cloud Code Assist.
pub static CLOUD_CODE_ASSIST: Builtin = Builtin::new("cloud-code-assist", cloud_code_assist::RULES);
/// MCP registries.
pub static MCP: Builtin = Builtin::new("mcp", mcp::RULES);

/// The six built-in targets, in the order of the contract (Chat, Responses, Anthropic, Google, CCA, MCP).
pub static BUILTIN: [&'static dyn TargetRules; 6] = [
    &OPENAI_CHAT,
    &OPENAI_RESPONSES,
    &ANTHROPIC,
    &GOOGLE,
    &CLOUD_CODE_ASSIST,
    &MCP,
];
