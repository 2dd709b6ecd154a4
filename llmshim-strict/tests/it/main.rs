//! The integration tests of `llmshim-strict`, one module per topic.

mod check;
mod close;
mod counters;
mod golden;
mod keep_list;
mod limits;
mod null;
mod off;
mod oracle;
mod props;
mod support;
