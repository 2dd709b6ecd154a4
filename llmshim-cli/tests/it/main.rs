//! The integration tests of the `llmshim` command, one module per topic.
#![allow(
    clippy::print_stderr,
    reason = "the corpus test reports its throughput on stderr"
)]
#![allow(clippy::unwrap_used, reason = "tests fail loudly on unexpected values")]

mod batch;
mod check;
mod corpus;
mod deep;
mod diff;
mod explain;
mod golden;
mod json;
mod line;
mod mcp_tool;
mod normalize;
mod options;
mod output;
mod recover;
mod support;
mod tools;
mod usage;
mod validate;
