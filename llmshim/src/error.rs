//! The facade's error, for the few operations that have no sensible fallback.

/// An llmshim error; normalization itself never fails, it reports.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A target name that is not the command-line name of a built-in target.
    #[error("unknown target {name:?} (expected {expected})", expected = crate::schema::Target::names_sentence())]
    UnknownTarget {
        /// The name given.
        name: String,
    },
    /// A resolver-only operation failed.
    #[error(transparent)]
    Resolve(#[from] llmshim_resolve::Error),
    /// A validator could not be compiled.
    #[error(transparent)]
    Validate(#[from] llmshim_validate::Error),
}

/// The coarse class of an [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A name or value given by the caller is not recognized.
    Usage,
    /// Reference resolution failed.
    Resolve,
    /// Validator compilation failed.
    Validate,
}

impl Error {
    /// The coarse class of the error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownTarget { .. } => ErrorKind::Usage,
            Error::Resolve(_) => ErrorKind::Resolve,
            Error::Validate(_) => ErrorKind::Validate,
        }
    }
}
