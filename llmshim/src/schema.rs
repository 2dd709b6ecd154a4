//! The user's vocabulary: normalize a schema for a target, and read the report.
//!
//! ```
//! use llmshim::schema::{normalize_for, Target};
//!
//! let mut schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"name": {"type": ["string", "null"]}}
//! });
//! let report = normalize_for(Target::Google, &mut schema);
//! assert!(!report.used_fallback);
//! assert_eq!(schema["properties"]["name"]["nullable"], true);
//! ```

mod by_name;
mod edited;
pub mod env;
mod mcp;
mod normalizer;
mod options;
mod output;
pub(crate) mod pipeline;
mod target;
mod unchanged;
pub mod validate;

pub use by_name::{OPTION_NAMES, OptionError};
pub use env::{Env, EnvFlags};
#[doc(inline)]
pub use llmshim_core::{
    Budget, Change, ChangeKind, FallbackKind, FallbackReason, Keywords, Normalization, Nullable,
    Outcome, Recursion,
};
pub use mcp::normalize_mcp_tool;
pub(crate) use normalizer::Kept;
pub use normalizer::{Normalizer, SchemaMemo};
pub use options::Options;
pub use output::{OutputSchema, normalize_output_for};
pub use target::{BuiltinTarget, Custom, Target};
pub(crate) use unchanged::Closable;

use serde_json::Value;

/// Normalizes `schema` in place for `target` with the target's default options; never fails.
///
/// It is `normalize_with(&Options::for_target(target), schema)`.
pub fn normalize_for(target: Target, schema: &mut Value) -> Normalization {
    Normalizer::default().normalize_for(target, schema)
}

/// Normalizes `schema` in place with `options`; never fails: a schema that cannot be made acceptable becomes
/// `{"type":"object","properties":{}}` and the report says why.
///
/// The process environment is read on every call (`LLMSHIM_NO_SCHEMA_NORMALIZATION`, `LLMSHIM_NO_STRICT`,
/// `LLMSHIM_NO_SCHEMA_CACHE`) and the process-wide memo is used; see [`Normalizer`] to choose otherwise.
pub fn normalize_with(options: &Options, schema: &mut Value) -> Normalization {
    Normalizer::default().normalize_with(options, schema)
}

/// Every violation of the structural check that `schema` has for `target`, in document order; an
/// empty list means the target accepts the schema as it is. Nothing is rewritten: use it to lint schemas.
///
/// ```
/// use llmshim::schema::{check, FallbackKind, Target};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}});
/// let problems = check(Target::Google, &schema);
/// // Gemini needs a `type` (or `anyOf`) on every node and does not know `oneOf`.
/// assert_eq!(problems.len(), 2);
/// assert!(problems.iter().all(|p| p.kind == FallbackKind::TargetUnsupported && p.pointer == "/properties/a"));
/// assert!(check(Target::OpenAiChat, &schema).is_empty());
/// ```
pub fn check(target: Target, schema: &Value) -> Vec<FallbackReason> {
    check_with(&Options::for_target(target), schema)
}

/// As [`check`], with the strict flag, nullable policy, keyword profile and budget of `options`.
pub fn check_with(options: &Options, schema: &Value) -> Vec<FallbackReason> {
    let rules = options.target.rules().rules();
    let strict = options.strict && rules.strict.is_some();
    let check = llmshim_core::check::Options::new(rules)
        .with_strict(strict)
        .with_nullable(options.nullable)
        .with_keywords(options.keywords)
        .with_budget(&options.budget)
        .with_recursion(options.recursion_for(strict));
    llmshim_core::check::check(schema, &check)
}
