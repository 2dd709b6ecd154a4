//! The llmshim memo: a bounded, process-local cache of normalized schemas.
//!
//! **Status: not yet implemented.** This crate is a documented placeholder in the workspace layout; the memo arrives with the issue "The memo cache (llmshim-cache)".
//! Nothing in it is presented as working, and it exports no items yet.
//!
//! # Should I use this crate?
//!
//! Not yet. Depend on `llmshim` once the facade is complete.
