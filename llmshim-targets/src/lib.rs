//! Provider rule sets for llmshim: OpenAI Chat and Responses, Anthropic, Google Gemini, Cloud Code Assist and MCP.
//!
//! **Status: not yet implemented.** This crate is a documented placeholder in the workspace layout; the target rule sets arrive with the issue "Target rule sets and the normalize pipeline in the facade".
//! Nothing in it is presented as working, and it exports no items yet.
//!
//! # Should I use this crate?
//!
//! Not yet. Depend on `llmshim` once the facade is complete.
