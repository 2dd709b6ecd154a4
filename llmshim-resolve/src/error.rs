//! The resolver's error: what failed, where (a JSON Pointer), and a message.

use std::fmt;

use llmshim_core::{FallbackKind, FallbackReason};

/// The coarse class of a resolution failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A reference reached again while it is being expanded.
    Cycle,
    /// A reference to a resource that is neither in the document nor registered (nothing is fetched).
    External,
    /// A pointer or anchor not found inside a known resource.
    Unresolved,
    /// A non-string `$ref`, a malformed percent-escape or a non-UTF-8 fragment.
    InvalidRef,
    /// An `$id` or reference that cannot be joined into an absolute URI.
    InvalidUri,
    /// Two different nodes registered under one URI.
    Duplicate,
    /// A depth, node or byte budget was exceeded.
    Budget,
    /// A keyword whose value has the wrong shape for the operation (for example a non-object `dependencies`).
    InvalidSchema,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Cycle => "reference cycle",
            ErrorKind::External => "external reference",
            ErrorKind::Unresolved => "unresolved reference",
            ErrorKind::InvalidRef => "invalid reference",
            ErrorKind::InvalidUri => "invalid uri",
            ErrorKind::Duplicate => "duplicate resource",
            ErrorKind::Budget => "budget exceeded",
            ErrorKind::InvalidSchema => "invalid schema",
        })
    }
}

/// A resolution failure with the JSON Pointer of the node where it happened.
///
/// ```
/// use llmshim_resolve::{dereference, ErrorKind, Options, Resources};
/// use serde_json::json;
///
/// let mut schema = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
/// let err = dereference(&mut schema, &Resources::new(), &Options::default()).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Cycle);
/// assert_eq!(err.pointer(), "/properties/next/properties/next");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at {pointer:?}: {message}")]
pub struct Error {
    kind: ErrorKind,
    fallback: FallbackKind,
    pointer: String,
    message: String,
}

impl Error {
    /// The coarse class of the failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The JSON Pointer of the node where it happened.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Lowercase human text; not stable.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<FallbackReason> for Error {
    fn from(reason: FallbackReason) -> Self {
        let kind = match reason.kind {
            FallbackKind::RefCycle => ErrorKind::Cycle,
            FallbackKind::ExternalRef => ErrorKind::External,
            FallbackKind::UnresolvedRef => ErrorKind::Unresolved,
            FallbackKind::InvalidRef => ErrorKind::InvalidRef,
            FallbackKind::InvalidUri => ErrorKind::InvalidUri,
            FallbackKind::DuplicateResource => ErrorKind::Duplicate,
            FallbackKind::BudgetDepth | FallbackKind::BudgetNodes | FallbackKind::BudgetLiteral => {
                ErrorKind::Budget
            }
            _ => ErrorKind::InvalidSchema,
        };
        Error {
            kind,
            fallback: reason.kind,
            pointer: reason.pointer,
            message: reason.message,
        }
    }
}

impl From<Error> for FallbackReason {
    fn from(err: Error) -> Self {
        FallbackReason::new(err.fallback, err.pointer, err.message)
    }
}
