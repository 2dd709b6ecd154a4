//! The integration tests of `llmshim-mcp`, one module per topic.
#![allow(
    clippy::print_stderr,
    reason = "the corpus test reports its counts on stderr"
)]

mod chat;
mod corpus;
mod normalize;
mod support;
mod tool;
