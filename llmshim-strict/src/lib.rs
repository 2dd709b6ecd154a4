//! Strict-mode enforcement for llmshim: closed objects, all-required properties and optional-as-nullable.
//!
//! OpenAI Structured Outputs and Anthropic strict tools accept a narrow subset of JSON Schema.
//! This crate contributes two walker passes and the checks that run on a finished schema:
//!
//! - [`KeepList`] (step W19, in `enter`): under strict only the keys of the strict profile's keep-list survive (the
//!   keys of [`KEEP`], and under the current keyword profile the constraints the provider enforces, each under its
//!   condition); human constraints on the lift list are queued for the node's description, everything else is
//!   dropped (`strict.keyword`).
//! - [`CloseObjects`] (step W26, in `leave`): every `type: "object"` node gets `properties`, optional properties
//!   become nullable alternatives (`strict.nullable-optional`), `required` lists every property in declared order
//!   and `additionalProperties` is `false` (`strict.close-object`); [`close_object`] is that closing on one object
//!   node, for callers that build a strict schema without the walk.
//! - [`check`] and [`check_with`]: the strict acceptance check of a finished schema.
//! - [`fits`]: the OpenAI strict limits ([`LimitCounts`] counts them node by node for a caller that walks a schema
//!   itself), [`optional_count`] and [`union_count`] (both in one walk:
//!   [`budget_counts`]): the Anthropic request budget's counters, and [`admits_null`].
//!
//! Both passes do nothing unless `Settings::strict` (effective strict) is set; the keep-list pass reads the strict
//! profile's keep-lists, the closing pass no target data. The
//! type-array split (W23) and tuple flattening (W16) are core mechanisms and live in `llmshim-core`.
//!
//! # Examples
//!
//! The optional `units` becomes nullable, its `default` is lifted, and the
//! object is closed. The walker flushes the lift queue after the `enter` passes; the pipeline flushes it at W22.
//!
//! ```
//! use llmshim_core::rules::OpenAiLimits;
//! use llmshim_core::walk::{self, Settings, steps};
//! use llmshim_core::{Budget, Pass};
//! use llmshim_strict::{CloseObjects, KeepList, check, fits, union_count};
//! use serde_json::json;
//!
//! let passes: [&dyn Pass; 5] =
//!     [&steps::Shape::keep_booleans(), &steps::Literals, &steps::SnakeCase, &KeepList::default(), &CloseObjects];
//! let settings = Settings::new(Budget::default()).with_strict(true);
//!
//! let mut schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "description": "City name"},
//!         "units": {"type": "string", "enum": ["c", "f"], "default": "c"}
//!     },
//!     "required": ["city"]
//! });
//! walk::walk(&mut schema, &passes, &settings, "https://llmshim.invalid/schema".into())?;
//! assert_eq!(
//!     serde_json::to_string(&schema)?,
//!     r#"{"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"anyOf":[{"type":"string","enum":["c","f"]},{"type":"null"}],"description":"(default: \"c\")"}},"required":["city","units"],"additionalProperties":false}"#
//! );
//! assert!(check(&schema).is_empty());
//! assert_eq!(fits(&schema, &OpenAiLimits::OPENAI), Ok(()));
//! assert_eq!(union_count(&schema), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Should I use this crate?
//!
//! Usually not: `llmshim` applies strict enforcement when `Options::strict` is set and demotes a schema that cannot
//! be made strict. Depend on this crate directly to compose your own walk with the strict passes, or to run the
//! strict check, the OpenAI limits or the Anthropic counters on schemas you produced yourself.

mod check;
mod close;
mod counters;
mod distribute;
mod keep_list;
mod limits;
mod null;

pub use check::{check, check_with};
pub use close::{CloseObjects, Closing, Unclosable, close_object, wrap_nullable};
pub use counters::{budget_counts, optional_count, union_count};
pub use keep_list::{KEEP, KeepList, is_kept};
pub use limits::{LimitCounts, fits};
pub use null::admits_null;
