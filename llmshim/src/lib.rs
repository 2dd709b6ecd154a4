//! llmshim: make one JSON Schema work on every LLM provider.
//!
//! **Status: the facade is not yet implemented.** The normalize pipeline (`llmshim::schema::normalize_for` and
//! friends) arrives with the issue "Target rule sets and the normalize pipeline in the facade". Until then the working
//! parts of the workspace are the lower crates it will compose: `llmshim-core` (vocabulary, walker, lifting, budgets)
//! and `llmshim-resolve` (reference resolution and draft upgrades), both re-exported here as namespaces.
//!
//! # Examples
//!
//! ```
//! let mut schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"a": {"$ref": "#/$defs/A"}},
//!     "$defs": {"A": {"type": "string"}}
//! });
//! llmshim::resolve::dereference(
//!     &mut schema,
//!     &llmshim::resolve::Resources::new(),
//!     &llmshim::resolve::Options::default(),
//! )?;
//! assert_eq!(schema, serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}}));
//! # Ok::<(), llmshim::resolve::Error>(())
//! ```

#[doc(inline)]
pub use llmshim_resolve as resolve;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
