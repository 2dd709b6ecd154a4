//! Local JSON Schema instance validation: compile a schema once, validate many instances, never fetch anything.
//!
//! `llmshim-validate` implements JSON Schema 2020-12, 2019-09, draft-07, draft-06 and draft-04 (chosen by
//! `$schema` or [`Options::draft`]): references (`$ref`, `$dynamicRef`, `$recursiveRef`, anchors) resolve inside
//! the document and caller-supplied [`Resources`] only, `pattern` runs on fancy-regex after an ECMA-262
//! translation with a backtracking limit, the common formats are asserted, and instances nested deeper than a
//! fixed limit are rejected instead of overflowing the stack. Errors carry the instance and schema JSON Pointers.
//!
//! # Examples
//!
//! ```
//! use llmshim_validate::{compile, compile_with, errors, Options, Resources};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "email": {"type": "string", "format": "email"},
//!         "age": {"$ref": "#/$defs/age"}
//!     },
//!     "required": ["email"],
//!     "$defs": {"age": {"type": "integer", "minimum": 0}}
//! });
//! let validator = compile(&schema)?;
//! assert!(validator.is_valid(&json!({"email": "ada@example.com", "age": 36})));
//! assert_eq!(
//!     errors(&validator, &json!({"email": "nope", "age": -1})),
//!     [
//!         "/email: is not a valid email (/properties/email/format)",
//!         "/age: must be >= 0 (/properties/age/$ref/minimum)",
//!     ]
//! );
//!
//! // Other documents are supplied by the caller; nothing is fetched.
//! let resources = Resources::new().with("https://example.test/name.json", json!({"type": "string"}));
//! let remote = compile_with(&json!({"$ref": "https://example.test/name.json"}), &resources, &Options::default())?;
//! assert!(!remote.is_valid(&json!(42)));
//! assert!(compile(&json!({"$ref": "https://example.test/name.json"})).is_err());
//! # Ok::<(), llmshim_validate::Error>(())
//! ```
//!
//! # Should I use this crate?
//!
//! Use it directly to validate tool inputs or model outputs against their original schemas without the rest of
//! llmshim; it depends on `llmshim-core`, `llmshim-resolve`, `serde_json`, `fancy-regex` and `hashbrown`. Most
//! users reach it as `llmshim::schema::validate`, which adds the output `Contract`.

mod check;
mod compile;
mod content;
mod error;
mod eval;
mod format;
mod limits;
mod node;
mod number;
mod options;
mod regex;
mod restore;
mod validator;

pub use check::{check, pattern_compiles};
pub use error::Error;
pub use llmshim_resolve::{Draft, Resources};
pub use options::Options;
pub use restore::restore_optional_omissions;
pub use validator::{ValidationError, Validator};

use serde_json::Value;

/// Compiles `schema` with no pre-registered resources and the default [`Options`].
///
/// # Errors
///
/// [`Error::Limits`] when the schema exceeds the fixed limits, [`Error::Invalid`] when a keyword has a value the
/// checks of compiling reject or a reference does not resolve locally.
pub fn compile(schema: &Value) -> Result<Validator, Error> {
    compile_with(schema, &Resources::new(), &Options::default())
}

/// Compiles `schema`, resolving references against the document and `resources` only.
///
/// # Errors
///
/// As [`compile`]; a reference to a document that is neither the schema nor in `resources` is
/// [`Error::Invalid`] with the message "external schema retrieval is disabled".
pub fn compile_with(
    schema: &Value,
    resources: &Resources,
    options: &Options,
) -> Result<Validator, Error> {
    compile::build(schema, resources, options)
}

/// Validates `value` and returns at most `max_errors` lines `<instance pointer>: <message> (<schema pointer>)`.
///
/// The list is empty exactly when `value` is valid.
///
/// ```
/// use llmshim_validate::{compile, errors};
/// use serde_json::json;
///
/// let validator = compile(&json!({"type": "array", "items": {"type": "string"}}))?;
/// assert_eq!(errors(&validator, &json!(["a", 1])), ["/1: expected string, got integer (/items/type)"]);
/// assert!(errors(&validator, &json!(["a"])).is_empty());
/// # Ok::<(), llmshim_validate::Error>(())
/// ```
pub fn errors(validator: &Validator, value: &Value) -> Vec<String> {
    match validator.validate(value) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}
