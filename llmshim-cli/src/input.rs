//! Reading the input document from a file or from standard input (`-` or no argument).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use serde_json::Value;

use crate::error::CliError;

/// The name standard input goes by in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether `path` names standard input: no argument, or `-`.
pub fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// The name `path` goes by in messages.
pub fn display_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if !is_stdin(Some(p)) => p.display().to_string(),
        _ => STDIN_NAME.to_owned(),
    }
}

/// Reads one JSON document from `path`, or from `stdin` when [`is_stdin`] says so, nested to any depth.
///
/// # Errors
///
/// [`CliError::Unreadable`] when the file or standard input cannot be read, [`CliError::InvalidJson`] when the
/// text is not one JSON document.
pub fn read_document(path: Option<&Path>, stdin: &mut dyn Read) -> Result<Value, CliError> {
    let name = display_name(path);
    let mut text = String::new();
    let read = match path {
        Some(p) if !is_stdin(Some(p)) => {
            File::open(p).and_then(|mut f| f.read_to_string(&mut text))
        }
        _ => stdin.read_to_string(&mut text),
    };
    read.map_err(|source| CliError::Unreadable {
        name: name.clone(),
        source,
    })?;
    crate::json::from_str(&text).map_err(|source| CliError::InvalidJson { name, source })
}

/// Opens the file `path` for reading lines; the caller uses standard input instead when [`is_stdin`] says so.
///
/// # Errors
///
/// [`CliError::Unreadable`] when the file cannot be opened.
pub fn open_lines(path: &Path) -> Result<BufReader<File>, CliError> {
    File::open(path)
        .map(BufReader::new)
        .map_err(|source| CliError::Unreadable {
            name: path.display().to_string(),
            source,
        })
}
