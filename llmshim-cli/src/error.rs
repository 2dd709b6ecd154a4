//! The command's error: what went wrong before a result could be written, and the exit status it maps to.

use std::fmt;
use std::io;

/// An error that ends a subcommand with exit status 2.
#[derive(Debug)]
#[non_exhaustive]
pub enum CliError {
    /// The arguments cannot be used together, or a value is out of range.
    Usage(String),
    /// An input file or standard input cannot be read.
    Unreadable {
        /// The file's name, or `<stdin>`.
        name: String,
        /// The reading error.
        source: io::Error,
    },
    /// An input is not valid JSON.
    InvalidJson {
        /// The file's name, or `<stdin>`.
        name: String,
        /// The parser's error.
        source: crate::json::ParseError,
    },
    /// The schema given to `validate` does not compile.
    Compile(llmshim::schema::validate::Error),
    /// Writing the result failed.
    Write(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::Unreadable { name, source } => write!(f, "cannot read {name}: {source}"),
            CliError::InvalidJson { name, source } => {
                write!(f, "{name} is not valid JSON: {source}")
            }
            CliError::Compile(source) => write!(f, "the schema does not compile: {source}"),
            CliError::Write(source) => write!(f, "cannot write the result: {source}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Usage(_) => None,
            CliError::Unreadable { source, .. } | CliError::Write(source) => Some(source),
            CliError::InvalidJson { source, .. } => Some(source),
            CliError::Compile(source) => Some(source),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> Self {
        CliError::Write(err)
    }
}
