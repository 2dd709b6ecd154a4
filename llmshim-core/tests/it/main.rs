//! The integration tests of `llmshim-core`, one module per topic.

mod budget;
mod check;
mod json;
mod keyword;
mod lift;
mod pointer;
mod report;
mod support;
mod walk;
