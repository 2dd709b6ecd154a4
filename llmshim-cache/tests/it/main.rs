//! The integration tests of llmshim-cache, one module per topic of the memo.

mod concurrency;
mod eviction;
mod fingerprint;
mod hits;
mod keys;
mod properties;
mod stats;
mod support;
