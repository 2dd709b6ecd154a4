//! The error of compiling a schema into a validator.

use llmshim_core::{FallbackKind, FallbackReason};

/// Why a schema could not be compiled.
///
/// ```
/// use llmshim_validate::{compile, Error};
/// use serde_json::json;
///
/// let err = compile(&json!({"minLength": -1})).unwrap_err();
/// assert_eq!(err.pointer(), "/minLength");
/// assert!(matches!(err, Error::Invalid { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The schema is deeper than 96 levels, has more than 32,768 values, or more than 8 MiB of key and string
    /// bytes.
    #[error("json schema exceeds validation limits")]
    Limits,
    /// A keyword has a value the schema checks reject, or a reference cannot be resolved locally.
    #[error("invalid schema at {pointer:?}: {message}")]
    Invalid {
        /// Where the problem is, as a JSON Pointer into the document that holds it.
        pointer: String,
        /// Lowercase human text.
        message: String,
    },
}

impl Error {
    /// The JSON Pointer of the problem; the root (`""`) for [`Error::Limits`].
    pub fn pointer(&self) -> &str {
        match self {
            Error::Limits => "",
            Error::Invalid { pointer, .. } => pointer,
        }
    }

    pub(crate) fn invalid(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl From<Error> for FallbackReason {
    /// Every compile error is a `compile` fallback at the error's pointer.
    fn from(err: Error) -> Self {
        let message = match &err {
            Error::Limits => err.to_string(),
            Error::Invalid { message, .. } => message.clone(),
        };
        FallbackReason::new(FallbackKind::Compile, err.pointer(), message)
    }
}
