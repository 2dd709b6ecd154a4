//! Local JSON Schema instance validation for llmshim.
//!
//! **Status: not yet implemented.** This crate is a documented placeholder in the workspace layout; the validator arrives with the issue "Local instance validation and output contracts (llmshim-validate)".
//! Nothing in it is presented as working, and it exports no items yet.
//!
//! # Should I use this crate?
//!
//! Not yet. Depend on `llmshim` once the facade is complete.
