//! Running a parsed command line: reading the input, calling the facade, writing the answer and the exit status.

mod check;
mod explain;
mod recover;
mod validate;

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::path::Path;

use clap::Parser;
use llmshim::schema::{Normalizer, Options, Target};

use crate::api::Api;
use crate::args::{BatchArgs, Cli, Command, OptionArgs, TargetArgs};
use crate::batch::{BatchError, Runner};
use crate::console::Console;
use crate::error::CliError;
use crate::input::{display_name, is_stdin, open_lines, read_document};
use crate::json;
use crate::report::{fallback_note, write_json};

/// The exit status of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// 0: success, fallbacks included.
    Success,
    /// 1: `validate` found the instance invalid, `check` reported a fallback for some target, or `recover` did not
    /// recognise the error body.
    Failure,
    /// 2: a usage error, unreadable or invalid input, a `validate` schema that does not compile, or a batch line
    /// error.
    Error,
}

impl Status {
    /// The numeric exit status.
    pub const fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failure => 1,
            Status::Error => 2,
        }
    }
}

/// The three standard streams of a run, so that the library can be driven from tests.
#[allow(
    missing_debug_implementations,
    reason = "trait objects of the standard streams have no Debug"
)]
pub struct Io<'a> {
    /// Standard input.
    pub stdin: &'a mut dyn BufRead,
    /// Standard output: answers.
    pub stdout: &'a mut dyn Write,
    /// Standard error: diagnostics.
    pub stderr: &'a mut dyn Write,
}

/// Parses `args` (the program name first) and runs the command as if standard output were a pipe; returns the exit
/// status code.
///
/// Help and version go to `io.stdout` with status 0; usage errors go to `io.stderr` with status 2.
/// [`main_on`] runs for a terminal instead.
///
/// ```
/// use llmshim_cli::run::{main_with, Io};
///
/// let mut stdin = &br#"{"type": "object", "properties": {"a": {"type": ["string", "null"]}}}"#[..];
/// let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
/// let mut io = Io { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr };
/// let code = main_with(["llmshim", "normalize", "--target", "cca"], &mut io);
/// assert_eq!(code, 0);
/// assert_eq!(
///     String::from_utf8(stdout).unwrap(),
///     "{\"output\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}},\
///      \"report\":{\"changed\":true,\"used_fallback\":false,\"strict\":false,\"bypassed\":false,\"narrowed\":false}}\n"
/// );
///
/// let mut io = Io { stdin: &mut &b""[..], stdout: &mut Vec::new(), stderr: &mut Vec::new() };
/// assert_eq!(main_with(["llmshim", "normalize", "--target", "gemini"], &mut io), 2);
/// ```
pub fn main_with<I, T>(args: I, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    main_on(args, io, Console::Pipe)
}

/// [`main_with`] for standard output connected to `console`: `explain` colours its text and `check` prints a table
/// on a terminal. The binary passes `Console::detect(stdout.is_terminal())`.
///
/// ```
/// use llmshim_cli::console::Console;
/// use llmshim_cli::run::{main_on, Io};
///
/// let mut stdin = &br#"{"type": "object", "properties": {}}"#[..];
/// let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
/// let mut io = Io { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr };
/// let code = main_on(["llmshim", "check", "--target", "mcp"], &mut io, Console::Terminal { color: false });
/// assert_eq!(code, 0);
/// assert_eq!(String::from_utf8(stdout).unwrap(), "target  result     details\nmcp     unchanged\n");
/// ```
pub fn main_on<I, T>(args: I, io: &mut Io<'_>, console: Console) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match Cli::try_parse_from(args) {
        Ok(cli) => run_on(&cli.command, io, console).code(),
        Err(err) => {
            let text = err.render().to_string();
            let stream: &mut dyn Write = if err.use_stderr() {
                &mut *io.stderr
            } else {
                &mut *io.stdout
            };
            // The status is what matters when the message cannot be written.
            let _ = stream.write_all(text.as_bytes());
            u8::try_from(err.exit_code()).unwrap_or(2)
        }
    }
}

/// Runs one subcommand as if standard output were a pipe; errors are written to `io.stderr` as
/// `llmshim: error: <message>` and give status 2.
pub fn run(command: &Command, io: &mut Io<'_>) -> Status {
    run_on(command, io, Console::Pipe)
}

/// [`run`] for standard output connected to `console`.
pub fn run_on(command: &Command, io: &mut Io<'_>, console: Console) -> Status {
    let result = match command {
        Command::Normalize(args) => single(Api::Normalize, args, io),
        Command::Tools(args) => single(Api::Tools, args, io),
        Command::Output(args) => single(Api::Output, args, io),
        Command::McpTool(args) => {
            let options = args.options.options(Target::Mcp);
            one(
                Api::McpTool,
                &args.options,
                &options,
                args.file.as_deref(),
                io,
            )
        }
        Command::Explain(args) => explain::run(args, io, console),
        Command::Check(args) => check::run(args, io, console),
        Command::Validate(args) => validate::run(args, io),
        Command::Recover(args) => recover::run(args, io),
        Command::Batch(args) => batch(args, io),
    };
    // A failed flush is reported like any other write failure.
    let result =
        result.and_then(|status| io.stdout.flush().map(|()| status).map_err(CliError::Write));
    result.unwrap_or_else(|err| {
        // A reader that went away (`llmshim batch … | head`) needs no message.
        if !matches!(&err, CliError::Write(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            // The status is what matters when the message cannot be written.
            let _ = writeln!(io.stderr, "llmshim: error: {err}");
        }
        Status::Error
    })
}

/// `normalize`, `tools` and `output`: one target, one document, one answer.
fn single(api: Api, args: &TargetArgs, io: &mut Io<'_>) -> Result<Status, CliError> {
    let options = args.options.options(args.target);
    one(api, &args.options, &options, args.file.as_deref(), io)
}

/// Reads one document, runs `api` on it with `options` and writes the answer; a fallback is noted on stderr.
fn one(
    api: Api,
    flags: &OptionArgs,
    options: &Options,
    file: Option<&Path>,
    io: &mut Io<'_>,
) -> Result<Status, CliError> {
    let input = read_document(file, io.stdin)?;
    let outcome = api.run(&Normalizer::new(flags.env()), options, input);
    if let Some(note) = fallback_note(&outcome.report) {
        let _ = writeln!(io.stderr, "{note}");
    }
    let answer = outcome.into_json(options.diagnostics);
    let written = write_json(io.stdout, &answer, flags.pretty);
    json::dismantle(answer);
    written?;
    Ok(Status::Success)
}

/// `batch`: every line answered; status 2 when some line was an error.
fn batch(args: &BatchArgs, io: &mut Io<'_>) -> Result<Status, CliError> {
    let runner = Runner::from_process();
    let file = args.file.as_deref();
    let result = match file {
        Some(path) if !is_stdin(file) => runner.run(&mut open_lines(path)?, io.stdout, io.stderr),
        _ => runner.run(io.stdin, io.stdout, io.stderr),
    };
    let summary = result.map_err(|err| match err {
        BatchError::Read(source) => CliError::Unreadable {
            name: display_name(file),
            source,
        },
        BatchError::Write(source) => CliError::Write(source),
    })?;
    if summary.errors > 0 {
        let _ = writeln!(
            io.stderr,
            "llmshim: {} of {} batch lines were errors",
            summary.errors, summary.lines
        );
        Ok(Status::Error)
    } else {
        Ok(Status::Success)
    }
}
