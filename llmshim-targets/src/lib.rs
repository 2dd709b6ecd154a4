//! Provider rule sets for llmshim: OpenAI Chat and Responses, Anthropic, Google Gemini (both of its schema dialects),
//! Cloud Code Assist and MCP.
//!
//! Each built-in target is [`RuleSet`](llmshim_core::RuleSet) data behind the same
//! [`TargetRules`](llmshim_core::TargetRules) interface a custom target implements; the passes in [`passes`] apply
//! any rule set inside the one walk that `llmshim` composes. No schema logic is copied per provider: the built-ins
//! differ in data, and the one whose rules are not all data (Gemini's JSON Schema dialect) adds a hook, as a custom
//! target may.
//!
//! # Examples
//!
//! ```
//! use llmshim_core::TargetRules;
//! use llmshim_core::envelope::StrictKey;
//!
//! assert_eq!(llmshim_targets::GOOGLE.id(), "google");
//! assert!(llmshim_targets::GOOGLE.rules().strict.is_none());
//! assert_eq!(llmshim_targets::OPENAI_RESPONSES.rules().envelope.strict, StrictKey::Always);
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
mod google_json_schema;
mod mcp;
mod openai_chat;
mod openai_responses;
pub mod passes;
pub mod pattern;
mod shapes;

pub use anthropic::ANTHROPIC;
pub use builtin::Builtin;
pub use cloud_code_assist::CLOUD_CODE_ASSIST;
pub use google::GOOGLE;
pub use google_json_schema::GOOGLE_JSON_SCHEMA;
pub use mcp::MCP;
pub use openai_chat::OPENAI_CHAT;
pub use openai_responses::OPENAI_RESPONSES;
pub use shapes::INPUT_SHAPES;
