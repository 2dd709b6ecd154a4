//! The integration tests of `llmshim-resolve`, one module per topic.
#![allow(
    clippy::print_stderr,
    reason = "corpus tests report their counts on stderr"
)]

mod adversarial;
mod api;
mod golden;
mod schemastore;
mod suite;
mod support;
