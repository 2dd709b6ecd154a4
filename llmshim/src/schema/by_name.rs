//! Options by their snake-case names: one option set from a JSON value, as the command line's batch lines and the
//! Python package's keyword arguments spell them.

use serde_json::Value;

use super::Options;
use llmshim_core::{Keywords, Nullable, Recursion};

/// The snake-case names [`Options::set`] accepts, in the order of the `Options` fields.
pub const OPTION_NAMES: [&str; 12] = [
    "strict",
    "nullable",
    "rewrite_one_of",
    "strip_lookarounds",
    "bypass",
    "max_depth",
    "max_nodes",
    "max_literal_bytes",
    "diagnostics",
    "structured_output",
    "keywords",
    "recursion",
];

/// Why [`Options::set`] refused an option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// The name is none of [`OPTION_NAMES`].
    #[error("unknown option {name:?} (expected one of {})", OPTION_NAMES.join(", "))]
    UnknownName {
        /// The name given.
        name: String,
    },
    /// The value has the wrong JSON type, or names no value of the option.
    #[error("option {name:?} must be {expected}")]
    BadValue {
        /// The option's name.
        name: String,
        /// What the option takes, in words.
        expected: &'static str,
    },
}

/// What a text option takes, in the words of [`OptionError::BadValue`].
const NULLABLE: &str = "\"preserve\", \"marker\" or \"remove\"";
const KEYWORDS: &str = "\"current\" or \"conservative\"";
const RECURSION: &str = "\"fallback\", \"keep-refs\", \"keep-refs:optional-only\", \"unroll\" or \"unroll:<N>\" with N >= 1";

impl Options {
    /// Sets the option named `name` (one of [`OPTION_NAMES`]) from `value`: a boolean for a flag, a non-negative
    /// integer for a budget, a name for `nullable` and `keywords` (any ASCII case) and a mode text for `recursion`
    /// (as its `FromStr` reads it). The options are unchanged when it fails.
    ///
    /// # Errors
    ///
    /// [`OptionError::UnknownName`] for a name that is not an option, [`OptionError::BadValue`] for a value of the
    /// wrong type or one that names nothing.
    ///
    /// ```
    /// use llmshim::schema::{Keywords, Nullable, OptionError, Options, Target};
    /// use serde_json::json;
    ///
    /// let mut options = Options::for_target(Target::OpenAiChat);
    /// options.set("nullable", &json!("Preserve"))?;
    /// options.set("max_nodes", &json!(10))?;
    /// options.set("keywords", &json!("conservative"))?;
    /// assert_eq!((options.nullable, options.budget.max_nodes), (Nullable::Preserve, 10));
    /// assert_eq!(options.keywords, Keywords::Conservative);
    /// assert!(matches!(options.set("recursion", &json!(true)), Err(OptionError::BadValue { .. })));
    /// assert!(matches!(options.set("maxDepth", &json!(1)), Err(OptionError::UnknownName { .. })));
    /// # Ok::<(), OptionError>(())
    /// ```
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), OptionError> {
        let bad = |expected| OptionError::BadValue {
            name: name.to_owned(),
            expected,
        };
        let flag = || value.as_bool().ok_or_else(|| bad("a boolean"));
        let count = || {
            value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad("a non-negative integer"))
        };
        let text = |expected| value.as_str().ok_or_else(|| bad(expected));
        match name {
            "strict" => self.strict = flag()?,
            "nullable" => {
                self.nullable = text(NULLABLE)?
                    .parse::<Nullable>()
                    .map_err(|_| bad(NULLABLE))?;
            }
            "rewrite_one_of" => self.rewrite_one_of = flag()?,
            "strip_lookarounds" => self.strip_lookarounds = flag()?,
            "bypass" => self.bypass = flag()?,
            "max_depth" => self.budget.max_depth = count()?,
            "max_nodes" => self.budget.max_nodes = count()?,
            "max_literal_bytes" => self.budget.max_literal_bytes = count()?,
            "diagnostics" => self.diagnostics = flag()?,
            "structured_output" => self.structured_output = flag()?,
            "keywords" => {
                self.keywords = text(KEYWORDS)?
                    .to_ascii_lowercase()
                    .parse::<Keywords>()
                    .map_err(|_| bad(KEYWORDS))?;
            }
            "recursion" => {
                let mode = text(RECURSION)?
                    .parse::<Recursion>()
                    .map_err(|_| bad(RECURSION))?;
                self.recursion = Some(mode);
            }
            _ => {
                return Err(OptionError::UnknownName {
                    name: name.to_owned(),
                });
            }
        }
        Ok(())
    }
}
