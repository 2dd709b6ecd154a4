//! Strict-mode enforcement for llmshim: closed objects, all-required properties and optional-as-nullable.
//!
//! **Status: not yet implemented.** This crate is a documented placeholder in the workspace layout; strict enforcement arrives with the issue "Strict enforcement (llmshim-strict)".
//! Nothing in it is presented as working, and it exports no items yet.
//!
//! # Should I use this crate?
//!
//! Not yet. Depend on `llmshim` once the facade is complete.
