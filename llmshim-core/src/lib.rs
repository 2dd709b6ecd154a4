//! The shared vocabulary of llmshim: keyword classes, JSON Pointers, the per-node walker, description lifting,
//! the structural check, budgets, rule-set data and the report types.
//!
//! Every other llmshim crate builds on this one. It performs no IO, holds no global state, knows no provider and
//! depends on no regex engine: everything a target is arrives as [`RuleSet`] data through [`TargetRules`].
//!
//! # Examples
//!
//! Walk a schema with the target-independent steps: boolean handling, the literal charge and the snake-case
//! spellings, under a budget.
//!
//! ```
//! use llmshim_core::walk::{self, steps, Settings};
//! use llmshim_core::{Budget, FallbackKind, Pass};
//! use serde_json::json;
//!
//! let passes: [&dyn Pass; 3] = [&steps::Shape::keep_booleans(), &steps::Literals, &steps::SnakeCase];
//! let settings = Settings::new(Budget::default());
//!
//! let mut schema = json!({"any_of": [{"type": "string"}], "default": {"any_of": "data, not a keyword"}});
//! walk::walk(&mut schema, &passes, &settings, "https://llmshim.invalid/schema".into())?;
//! assert_eq!(schema, json!({"anyOf": [{"type": "string"}], "default": {"any_of": "data, not a keyword"}}));
//!
//! // `{"type":"string"}` costs 12 literal bytes, so a budget of 11 refuses it.
//! let tight = Settings::new(Budget::default().with_max_literal_bytes(11));
//! let err = walk::walk(&mut json!({"type": "string"}), &passes, &tight, "https://llmshim.invalid/schema".into());
//! assert_eq!(err.unwrap_err().kind, FallbackKind::BudgetLiteral);
//! # Ok::<(), llmshim_core::FallbackReason>(())
//! ```
//!
//! # Should I use this crate?
//!
//! Depend on it directly when you define a custom target (implement [`TargetRules`]) or write your own walker
//! passes. To normalize schemas, depend on `llmshim`; to resolve references only, on `llmshim-resolve`.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]

pub mod budget;
pub mod check;
pub mod children;
pub mod defs;
pub mod envelope;
pub mod json;
pub mod keep;
pub mod keyword;
pub mod lift;
pub mod null;
pub mod pattern_subset;
pub mod pointer;
pub mod report;
pub mod rules;
pub mod target;
pub mod walk;

pub use budget::{Budget, Meter};
pub use keep::Keywords;
pub use keyword::{Keyword, KeywordClass};
pub use pointer::Pointer;
pub use report::{Change, ChangeKind, FallbackKind, FallbackReason, Normalization, Outcome};
pub use rules::{Envelope, Nullable, Policy, Recursion, RuleSet, StrictProfile};
pub use target::TargetRules;
pub use walk::{NodeCtx, Pass, walk};
