//! A bounded, process-local memo that remembers normalized schemas by their options and exact input.
//!
//! A [`Memo`] maps an effective-options key plus the exact content of an input schema to the output and report
//! that an earlier normalization produced.
//! It never serves a wrong result: a hash match is accepted only when the stored key equals the key and the stored
//! input is *identical* to the input (object key order and the `f64` bit pattern of every number included), so a
//! hash collision can only cost a miss.
//! It is bounded by [`Limits`] on entries and estimated owned bytes, evicts the least recently used entry by a
//! logical clock, and keeps only its lookups and inserts under a lock; fingerprinting, estimating, cloning and the
//! normalization itself run outside it.
//!
//! The key type is generic: the facade uses its effective `Options`, and anyone memoizing their own pipeline uses
//! whatever decides their result besides the input.
//!
//! # Examples
//!
//! The caller drives the memo: look up, and on a miss compute, then insert.
//!
//! ```
//! use llmshim_cache::{Limits, Lookup, Memo};
//! use llmshim_core::Normalization;
//! use serde_json::{Value, json};
//!
//! // A stand-in for a real normalizer: it adds `"additionalProperties": false` to an object schema.
//! fn close(schema: &mut Value) -> Normalization {
//!     let mut report = Normalization::default();
//!     if let Some(map) = schema.as_object_mut() {
//!         if !map.contains_key("additionalProperties") {
//!             map.insert("additionalProperties".into(), false.into());
//!             report.changed = true;
//!         }
//!     }
//!     report
//! }
//!
//! // The key is what decides the result besides the input; here, the name of a target.
//! let memo: Memo<&str> = Memo::new(Limits::default());
//! let original = json!({"type": "object", "properties": {"a": {"type": "string"}}});
//!
//! let mut results = Vec::new();
//! for _ in 0..3 {
//!     let mut schema = original.clone();
//!     let report = match memo.lookup(&"anthropic", &schema) {
//!         Lookup::Hit(hit) => {
//!             hit.apply(&mut schema);
//!             hit.report().clone()
//!         }
//!         Lookup::Miss(fingerprint) => {
//!             let input = schema.clone();
//!             let report = close(&mut schema);
//!             memo.insert(fingerprint, "anthropic", input, schema.clone(), report.clone());
//!             report
//!         }
//!         // The input is beyond the bounded key work: compute without the memo, and never insert.
//!         Lookup::Unkeyed => close(&mut schema),
//!     };
//!     results.push((schema, report));
//! }
//!
//! // Built once, served twice, and every result equals the first.
//! assert!(results.iter().all(|result| *result == results[0]));
//! assert_eq!(results[0].0["additionalProperties"], json!(false));
//! let stats = memo.stats();
//! assert_eq!((stats.misses, stats.inserts, stats.hits), (1, 1, 2));
//! ```
//!
//! # Should I use this crate?
//!
//! Most users should not: `llmshim` already holds a process-wide memo and consults it on every normalization.
//! Depend on this crate to give a `llmshim` normalizer a memo of its own with other [`Limits`], or to memoize a
//! pipeline of your own that maps a JSON value and a key to a JSON value and a report.

mod entry;
mod fingerprint;
mod hit;
mod limits;
mod memo;
mod patch;
mod random_state;
mod stats;

pub use fingerprint::Fingerprint;
pub use hit::Hit;
pub use limits::Limits;
pub use memo::{Lookup, Memo};
pub use random_state::{MemoHasher, RandomState};
pub use stats::Stats;
