//! `llmshim recover`: a provider's error body read back to the tool it rejects, which is degraded by one step.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::args::RecoverArgs;
use crate::error::CliError;
use crate::input::{display_name, is_stdin, read_document};
use crate::recover::{answer, recover};
use crate::report::write_json;
use crate::run::{Io, Status};

/// Reads the request and the body; status 1 when the body is not recognised.
pub(crate) fn run(args: &RecoverArgs, io: &mut Io<'_>) -> Result<Status, CliError> {
    if is_stdin(Some(&args.error)) && is_stdin(args.file.as_deref()) {
        return Err(CliError::Usage(
            "--error - needs the request in a FILE: standard input can be read only once"
                .to_owned(),
        ));
    }
    let body = read_text(&args.error, io)?;
    let mut request = read_document(args.file.as_deref(), io.stdin)?;
    let options = args.options.options(args.target);
    let recovery = recover(&options, &mut request, &body);
    let recognised = recovery.rejection.is_some();
    let answer = answer(request, &recovery);
    let written = write_json(io.stdout, &answer, args.options.pretty);
    // The request may be nested far deeper than a recursive drop can go.
    crate::json::dismantle(answer);
    written?;
    Ok(if recognised {
        Status::Success
    } else {
        Status::Failure
    })
}

/// The error body as text: bytes that are not UTF-8 become U+FFFD, since a body is read, not parsed.
fn read_text(path: &Path, io: &mut Io<'_>) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    let read = if is_stdin(Some(path)) {
        io.stdin.read_to_end(&mut bytes)
    } else {
        File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|source| CliError::Unreadable {
        name: display_name(Some(path)),
        source,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
