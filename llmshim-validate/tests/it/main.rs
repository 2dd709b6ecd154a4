//! The integration tests of `llmshim-validate`, one module per topic.
#![allow(
    clippy::print_stderr,
    reason = "corpus tests report their counts on stderr"
)]

mod budget;
mod check;
mod compile;
mod depth;
mod drafts;
mod formats;
mod messages;
mod regex;
mod restore;
mod schemastore;
mod suite;
