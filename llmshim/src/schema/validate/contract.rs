//! `Contract`: the original schema's validator, the wire schema, and the repair message for one retry.

use std::fmt;

use llmshim_validate::{Error, Validator, compile, errors, restore_optional_omissions};
use serde_json::Value;

use crate::schema::{Normalizer, Options, OutputSchema, Target};

/// An output contract: what to send (`wire`) and how to check what comes back (against the original schema).
///
/// ```
/// use llmshim::schema::Target;
/// use llmshim::schema::validate::Contract;
/// use serde_json::json;
///
/// let original = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]});
/// let contract = Contract::new(Target::OpenAiChat, &original, true)?;
/// assert!(contract.wire().normalization.strict);
/// assert_eq!(contract.check(&json!({"n": 2})), Ok(json!({"n": 2})));
/// let violations = contract.check(&json!({"n": 0})).unwrap_err();
/// assert_eq!(
///     contract.repair_message(&violations),
///     "The previous response did not satisfy the required output schema: /n: must be >= 1 (/properties/n/minimum). \
///      Reply again with output that satisfies the schema."
/// );
/// # Ok::<(), llmshim::schema::validate::Error>(())
/// ```
#[derive(Debug)]
pub struct Contract {
    validator: Validator,
    resolved: Value,
    wire: OutputSchema,
}

/// The error lines of a model output that does not satisfy the original schema, in the validator's format.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violations {
    /// One line per violation: `<instance pointer>: <message> (<schema pointer>)`.
    pub lines: Vec<String>,
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lines.join("; "))
    }
}

impl std::error::Error for Violations {}

impl Contract {
    /// Compiles `original` (failing on an invalid or oversized schema before anything is sent), keeps it resolved
    /// for MCP (references inlined, nothing stripped), and prepares the wire schema for `target`.
    ///
    /// # Errors
    ///
    /// The validator's compile error for `original`.
    pub fn new(target: Target, original: &Value, strict: bool) -> Result<Contract, Error> {
        Contract::with_normalizer(&Normalizer::default(), target, original, strict)
    }

    /// As [`Contract::new`], normalizing with `normalizer`.
    ///
    /// # Errors
    ///
    /// The validator's compile error for `original`.
    pub fn with_normalizer(
        normalizer: &Normalizer,
        target: Target,
        original: &Value,
        strict: bool,
    ) -> Result<Contract, Error> {
        let validator = compile(original)?;
        let mut resolved = original.clone();
        normalizer.normalize_with(&Options::for_target(Target::Mcp), &mut resolved);
        let wire = normalizer
            .normalize_output_with(&Options::for_target(target).with_strict(strict), original);
        Ok(Contract {
            validator,
            resolved,
            wire,
        })
    }

    /// The output schema to send.
    pub fn wire(&self) -> &OutputSchema {
        &self.wire
    }

    /// Checks a model's output: removes the `response` wrapper, restores optional properties that strict mode made
    /// `null`, and validates against the original schema; `Ok` carries the unwrapped, restored value.
    ///
    /// # Errors
    ///
    /// The violations, at most the validator's `max_errors`.
    pub fn check(&self, model_value: &Value) -> Result<Value, Violations> {
        let Some(mut value) = self.wire.unwrap(model_value) else {
            return Err(Violations {
                lines: vec![": missing required property \"response\" (/required)".to_owned()],
            });
        };
        if self.wire.normalization.strict {
            restore_optional_omissions(&self.resolved, &mut value);
        }
        let lines = errors(&self.validator, &value);
        if lines.is_empty() {
            Ok(value)
        } else {
            Err(Violations { lines })
        }
    }

    /// The message for one repair call.
    pub fn repair_message(&self, violations: &Violations) -> String {
        format!(
            "The previous response did not satisfy the required output schema: {violations}. Reply again with output \
             that satisfies the schema."
        )
    }
}
