//! The integration tests of the facade, one module per topic.
#![allow(
    clippy::print_stderr,
    reason = "corpus tests report their counts on stderr"
)]

mod adversarial;
mod contract;
mod corpus;
mod deep;
mod golden;
mod invariants;
mod keyword_counts;
mod loss;
mod memo;
mod narrowing_counts;
mod options_by_name;
mod oracle;
mod outcome;
mod output;
mod recursion;
mod rejection;
mod rules;
mod sdk_google;
mod soundness;
mod strict_corpus;
mod strict_fixtures;
mod support;
mod tools_corpus;
mod tools_golden;
mod tools_mcp;
