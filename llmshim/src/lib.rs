//! llmshim: make one JSON Schema work on every LLM provider.
//!
//! Agents and gateways hand the same tool definitions to OpenAI Chat and Responses, Anthropic, Google Gemini (in
//! either of its schema dialects), Google Cloud Code Assist and MCP registries, and each accepts a different subset
//! of JSON Schema. llmshim
//! rewrites a schema for its target with one option-driven walker: it resolves references, upgrades old drafts,
//! applies the target's rule set and enforces strict mode; a schema it cannot make acceptable falls back to
//! `{"type":"object","properties":{}}` on its own, so other tools of a request stay available.
//!
//! # Examples
//!
//! Tool schema normalization: every native adapter uses the same option-driven schema walker; the target selects
//! transport rules.
//!
//! ```
//! #![allow(unused)]
//! fn main() {
//! use llmshim::schema::{normalize_for, Target};
//!
//! let mut schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"name": {"type": ["string", "null"]}}
//! });
//! let report = normalize_for(Target::Google, &mut schema);
//! assert!(!report.used_fallback);
//! assert_eq!(schema["properties"]["name"]["nullable"], true);
//! }
//! ```
//!
//! Options choose strict mode, policies, budgets and diagnostics; the report says what happened.
//!
//! ```
//! use llmshim::schema::{Normalizer, Options, Target};
//! use serde_json::json;
//!
//! let mut schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "description": "City name"},
//!         "units": {"type": "string", "enum": ["c", "f"], "default": "c"}
//!     },
//!     "required": ["city"]
//! });
//! let options = Options::for_target(Target::OpenAiChat).with_strict(true);
//! let report = Normalizer::default().without_memo().normalize_with(&options, &mut schema);
//! assert!(report.strict);
//! assert_eq!(schema["required"], json!(["city", "units"]));
//! assert_eq!(schema["properties"]["units"]["description"], "(default: \"c\")");
//! ```
//!
//! Keep the original schema if your application validates tool inputs or model outputs: wire sanitization can
//! relax machine-enforced constraints, so validate against the original with [`schema::validate::compile`].
//!
//! # Escape hatches
//!
//! - `LLMSHIM_NO_SCHEMA_NORMALIZATION=1` bypasses schema rewriting and disables requested strict flags.
//! - `LLMSHIM_NO_STRICT=1` disables strict enforcement while retaining transport normalization.
//! - `LLMSHIM_NO_SCHEMA_CACHE=1` bypasses the memo without disabling normalization.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]

mod error;
pub mod rejection;
pub mod rules;
pub mod schema;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tools;

pub use error::{Error, ErrorKind};
#[doc(inline)]
pub use llmshim_cache as cache;
#[doc(inline)]
pub use llmshim_resolve as resolve;
#[doc(inline)]
pub use llmshim_targets as targets;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
