//! The `explain` text: the resulting schema (or a diff from the input), then one sentence per change in document
//! order, then why the result is a fallback or not strict, when it is.
//!
//! Each change line is `<pointer>: <what happened>. Why: <the rule's reason> (<rule id>)`, with the root written
//! `(root)`. `explain --format tsv` keeps the older tab-separated lines ([`crate::report::write_explain`]).
//!
//! ```
//! use llmshim::schema::{Normalizer, Options, Target};
//! use llmshim_cli::console::Paint;
//! use llmshim_cli::explain::{write_text, Form};
//! use serde_json::json;
//!
//! let input = json!({"type": "object", "properties": {"email": {"type": "string", "format": "email"}}});
//! let mut output = input.clone();
//! let options = Options::for_target(Target::Google).with_diagnostics(true);
//! let report = Normalizer::default().normalize_with(&options, &mut output);
//! let mut text = Vec::new();
//! write_text(&mut text, &input, &output, &report, Form::Schema, Paint::new(false)).unwrap();
//! let text = String::from_utf8(text).unwrap();
//! assert!(text.starts_with("{\n  \"type\": \"object\",\n"));
//! assert!(text.contains(
//!     "\n/properties/email/format: moved `format` into the node's description, which now reads \"(format: email)\". \
//!      Why: Gemini rejects other formats. (google.format-lift)\n"
//! ));
//! ```

pub mod order;
pub mod sentence;

use std::io::{self, Write};

use llmshim::schema::Normalization;
use serde_json::Value;

use crate::console::Paint;
use crate::diff::{Line, unified};

/// How the schema part of the text is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// The resulting schema, indented by two spaces.
    Schema,
    /// A unified diff from the input to the resulting schema, both indented by two spaces.
    Diff,
}

/// How a pointer is shown at the start of a line: the root `""` as `(root)`.
pub fn show_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// Writes the text of `explain` for `input` normalized into `output` with `report` (diagnostics on, so that it
/// lists every change).
///
/// # Errors
///
/// The writer's error.
pub fn write_text(
    out: &mut dyn Write,
    input: &Value,
    output: &Value,
    report: &Normalization,
    form: Form,
    paint: Paint,
) -> io::Result<()> {
    match form {
        Form::Schema => {
            crate::json::write_painted(out, output, paint)?;
            out.write_all(b"\n")?;
        }
        Form::Diff => write_diff(out, input, output, paint)?,
    }
    out.write_all(b"\n")?;
    for change in order::document_order(&report.changes, input, output) {
        writeln!(
            out,
            "{}: {}. {}",
            paint.pointer(show_pointer(&change.pointer)),
            sentence::what(change, input, output),
            paint.reason(&sentence::why(change))
        )?;
    }
    if report.bypassed {
        writeln!(
            out,
            "{}: normalization was bypassed (--bypass or LLMSHIM_NO_SCHEMA_NORMALIZATION), so the schema is sent as \
             it is.",
            paint.pointer(show_pointer(""))
        )?;
    } else if report.changes.is_empty() && report.fallback_reason.is_none() {
        let text = if report.changed {
            "the schema changed, but no change was recorded."
        } else {
            "nothing to change: the target takes this schema as it is."
        };
        writeln!(out, "{}: {text}", paint.pointer(show_pointer("")))?;
    }
    if let Some(reason) = &report.fallback_reason {
        let what = if report.used_fallback {
            format!(
                "{} ({}: {}), so the whole schema was replaced by the fallback above, an object without properties.",
                paint.bad("the schema cannot be made acceptable here"),
                reason.kind,
                reason.message
            )
        } else {
            format!(
                "{} ({}: {}), so the schema above is the target's non-strict form.",
                paint.bad("strict mode was given up here"),
                reason.kind,
                reason.message
            )
        };
        writeln!(
            out,
            "{}: {what}",
            paint.pointer(show_pointer(&reason.pointer))
        )?;
    }
    Ok(())
}

/// The most bytes of indented text `--diff` compares per side; a document nested thousands of levels deep indents
/// into gigabytes.
pub const DIFF_LIMIT: usize = 64 << 20;

/// `value` indented by two spaces, or `None` when the text passes [`DIFF_LIMIT`].
fn pretty_within_limit(value: &Value) -> Option<String> {
    let mut sink = sentence::Bounded::new(DIFF_LIMIT);
    crate::json::write(&mut sink, value, true).ok()?;
    String::from_utf8(sink.into_bytes()).ok()
}

/// Writes the unified diff from `input` to `output`, both pretty-printed, with removed lines red and added lines
/// green when `paint` is on; nothing when they print the same, and one line instead when either side's text passes
/// [`DIFF_LIMIT`].
fn write_diff(out: &mut dyn Write, input: &Value, output: &Value, paint: Paint) -> io::Result<()> {
    let (Some(before), Some(after)) = (pretty_within_limit(input), pretty_within_limit(output))
    else {
        return writeln!(
            out,
            "(no diff: the indented input or output passes {} MiB)",
            DIFF_LIMIT >> 20
        );
    };
    for line in unified(&before, &after, "input", "output", 3) {
        let text = line.to_string();
        let shown = match line {
            Line::File(_) | Line::Hunk(_) => paint.heading(&text),
            Line::Removed(_) => paint.removed(&text),
            Line::Added(_) => paint.added(&text),
            Line::Same(_) => text,
        };
        writeln!(out, "{shown}")?;
    }
    Ok(())
}
