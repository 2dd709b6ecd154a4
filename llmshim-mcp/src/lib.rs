//! MCP tool definitions for llmshim: recognition, ingestion and conversion to chat tools.
//!
//! **Status: not yet implemented.** This crate is a documented placeholder in the workspace layout; MCP ingestion arrives with the issue "MCP ingestion, native tool translation and output schemas".
//! Nothing in it is presented as working, and it exports no items yet.
//!
//! # Should I use this crate?
//!
//! Not yet. Depend on `llmshim` once the facade is complete.
