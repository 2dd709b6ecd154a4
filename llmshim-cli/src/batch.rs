//! `llmshim batch`: JSON lines in, exactly one JSON line out per non-blank input line, in order.

pub mod env;
pub mod line;

use std::fmt;
use std::io::{self, BufRead, Write};

use llmshim::schema::{Env, EnvFlags, Normalizer};
use serde_json::{Map, Value};

use crate::batch::line::{LineError, parse_line};
use crate::json::dismantle;
use crate::report::write_json;

/// Runs batch lines with one normalizer per distinct environment, all sharing the process-wide memo.
///
/// ```
/// use llmshim::schema::EnvFlags;
/// use llmshim_cli::batch::Runner;
///
/// let input = concat!(
///     r#"{"api": "normalize", "target": "google", "input": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}}"#, "\n",
///     "\n",
///     "not json\n",
/// );
/// let (mut out, mut diag) = (Vec::new(), Vec::new());
/// let summary = Runner::new(EnvFlags::default()).run(&mut input.as_bytes(), &mut out, &mut diag).unwrap();
/// assert_eq!((summary.lines, summary.errors), (2, 1));
/// let out = String::from_utf8(out).unwrap();
/// let lines: Vec<&str> = out.lines().collect();
/// assert_eq!(
///     lines[0],
///     r#"{"output":{"type":"object","properties":{"a":{"type":"string","nullable":true}}},"report":{"changed":true,"used_fallback":false,"strict":false,"bypassed":false,"narrowed":false}}"#
/// );
/// assert!(lines[1].starts_with(r#"{"error":"the line is not valid JSON"#));
/// ```
#[derive(Debug)]
pub struct Runner {
    process: EnvFlags,
    normalizer: Normalizer,
}

/// Why a batch run stopped before the end of its input.
#[derive(Debug)]
#[non_exhaustive]
pub enum BatchError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing an answer failed.
    Write(io::Error),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Read(err) => write!(f, "cannot read the batch input: {err}"),
            BatchError::Write(err) => write!(f, "cannot write a batch answer: {err}"),
        }
    }
}

impl std::error::Error for BatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Read(err) | BatchError::Write(err) => Some(err),
        }
    }
}

/// What a batch run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Non-blank input lines, each answered by one output line.
    pub lines: usize,
    /// Lines answered with `{"error": …}`.
    pub errors: usize,
}

impl Runner {
    /// A runner whose lines start from the flags `process` (usually `Env::Process.read()`).
    pub fn new(process: EnvFlags) -> Self {
        Runner {
            process,
            normalizer: Normalizer::new(Env::Fixed(process)),
        }
    }

    /// A runner whose lines start from the process environment as it is now.
    pub fn from_process() -> Self {
        Runner::new(Env::Process.read())
    }

    /// The answer to one non-blank line: `{"output": …, "report": R}` (plus `"wrapped"` for api `output`).
    ///
    /// # Errors
    ///
    /// The [`LineError`] of [`parse_line`].
    pub fn answer(&self, text: &str) -> Result<Value, LineError> {
        let line = parse_line(text, self.process)?;
        let own;
        let normalizer = if line.env == self.process {
            &self.normalizer
        } else {
            own = Normalizer::new(Env::Fixed(line.env));
            &own
        };
        let diagnostics = line.options.diagnostics;
        Ok(line
            .api
            .run(normalizer, &line.options, line.input)
            .into_json(diagnostics))
    }

    /// Answers every non-blank line of `input` on `out`, one line each and flushed, and notes each line error on
    /// `diag` with its line number. Blank lines get no answer.
    ///
    /// # Errors
    ///
    /// [`BatchError`] when reading `input` or writing `out` fails; line errors are not errors of the run.
    pub fn run(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        diag: &mut dyn Write,
    ) -> Result<Summary, BatchError> {
        let mut summary = Summary::default();
        let mut buf = Vec::new();
        let mut number = 0usize;
        loop {
            buf.clear();
            if input
                .read_until(b'\n', &mut buf)
                .map_err(BatchError::Read)?
                == 0
            {
                break;
            }
            number += 1;
            let answer = match std::str::from_utf8(&buf) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => self.answer(text),
                Err(_) => Err(LineError::from("the line is not valid UTF-8".to_owned())),
            };
            summary.lines += 1;
            let value = answer.unwrap_or_else(|err| {
                summary.errors += 1;
                // A note that cannot be written must not stop the run; the answer line carries the error.
                let _ = writeln!(diag, "llmshim: batch line {number}: {err}");
                let mut map = Map::new();
                map.insert("error".to_owned(), Value::String(err.message));
                Value::Object(map)
            });
            let written = write_json(out, &value, false).and_then(|()| out.flush());
            dismantle(value);
            written.map_err(BatchError::Write)?;
        }
        Ok(summary)
    }
}
