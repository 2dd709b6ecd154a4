//! The `check` table for a terminal: one row per target saying what normalization did to the schema there.
//!
//! ```
//! use llmshim::schema::{Normalizer, Options, Target};
//! use llmshim_cli::console::Paint;
//! use llmshim_cli::table::{write_table, Verdict};
//! use serde_json::json;
//!
//! let mut rows = Vec::new();
//! for target in [Target::Mcp, Target::Google] {
//!     let mut schema = json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}});
//!     let options = Options::for_target(target).with_diagnostics(true);
//!     let report = Normalizer::default().normalize_with(&options, &mut schema);
//!     rows.push((target.to_string(), Verdict::of(&report)));
//! }
//! let mut text = Vec::new();
//! write_table(&mut text, &rows, Paint::new(false)).unwrap();
//! assert_eq!(
//!     String::from_utf8(text).unwrap(),
//!     "target  result     details\nmcp     unchanged\ngoogle  rewritten  1 change\n"
//! );
//! ```

use std::io::{self, Write};

use llmshim::schema::{ChangeKind, FallbackReason, Normalization, Outcome};

use crate::console::Paint;
use crate::explain::show_pointer;

/// What normalization did to the schema for one target, from its report (diagnostics on, so that changes count).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Nothing changed.
    Unchanged,
    /// Changed without loss of strictness and without narrowing.
    Rewritten {
        /// The number of changes.
        changes: usize,
    },
    /// Changed, and some change accepts fewer values than the original (a change of kind `narrowed`).
    Narrowed {
        /// The number of changes.
        changes: usize,
        /// How many of them narrow.
        narrowed: usize,
    },
    /// Strict was requested but could not be kept; the schema is the target's non-strict form.
    Demoted {
        /// Why strict was given up.
        reason: FallbackReason,
        /// The number of changes.
        changes: usize,
    },
    /// The schema was replaced by the fallback.
    Fallback {
        /// Why (the library always gives a reason; a hand-built report may not).
        reason: Option<FallbackReason>,
    },
    /// Normalization was bypassed.
    Bypassed,
}

impl Verdict {
    /// The verdict of `report`: its outcome (a bypass, a fallback, a strict demotion, a rewrite or nothing), with a
    /// rewrite that narrows told apart.
    ///
    /// Whether a rewrite narrows is the report's `narrowed` flag (set with diagnostics off too); the number of
    /// narrowing changes comes from the recorded changes of kind `narrowed`.
    pub fn of(report: &Normalization) -> Self {
        let changes = report.changes.len();
        let narrowed = report
            .changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Narrowed)
            .count();
        match report.outcome() {
            Outcome::Bypassed => Verdict::Bypassed,
            Outcome::FellBack(reason) => Verdict::Fallback {
                reason: reason.cloned(),
            },
            Outcome::Demoted(reason) => Verdict::Demoted {
                reason: reason.clone(),
                changes,
            },
            Outcome::Rewritten if report.narrowed => Verdict::Narrowed { changes, narrowed },
            Outcome::Rewritten => Verdict::Rewritten { changes },
            _ => Verdict::Unchanged,
        }
    }

    /// The word in the result column.
    pub const fn word(&self) -> &'static str {
        match self {
            Verdict::Unchanged => "unchanged",
            Verdict::Rewritten { .. } => "rewritten",
            Verdict::Narrowed { .. } => "narrowed",
            Verdict::Demoted { .. } => "demoted",
            Verdict::Fallback { .. } => "fallback",
            Verdict::Bypassed => "bypassed",
        }
    }

    /// The details column.
    pub fn details(&self) -> String {
        let count = |n: usize| {
            if n == 1 {
                "1 change".to_owned()
            } else {
                format!("{n} changes")
            }
        };
        let why = |r: &FallbackReason| {
            format!("{} at {}: {}", r.kind, show_pointer(&r.pointer), r.message)
        };
        match self {
            Verdict::Unchanged => String::new(),
            // A constraint widened below `not` narrows without a change of kind `narrowed`.
            Verdict::Rewritten { changes }
            | Verdict::Narrowed {
                changes,
                narrowed: 0,
            } => count(*changes),
            Verdict::Narrowed { changes, narrowed } => {
                format!("{}, {narrowed} narrowing", count(*changes))
            }
            Verdict::Demoted { reason, changes } => format!("{}; {}", why(reason), count(*changes)),
            Verdict::Fallback {
                reason: Some(reason),
            } => why(reason),
            Verdict::Fallback { reason: None } => "no reason was recorded".to_owned(),
            Verdict::Bypassed => "normalization was bypassed".to_owned(),
        }
    }

    /// The result word in its colour.
    fn painted(&self, text: &str, paint: Paint) -> String {
        match self {
            Verdict::Unchanged => paint.good(text),
            Verdict::Rewritten { .. } | Verdict::Narrowed { .. } | Verdict::Bypassed => {
                paint.notice(text)
            }
            Verdict::Demoted { .. } | Verdict::Fallback { .. } => paint.bad(text),
        }
    }
}

/// Writes the table: a header, then one row per `(target name, verdict)`, columns aligned, with the result word
/// coloured when `paint` is on.
///
/// # Errors
///
/// The writer's error.
pub fn write_table(
    out: &mut dyn Write,
    rows: &[(String, Verdict)],
    paint: Paint,
) -> io::Result<()> {
    let width =
        |header: &str, cells: &mut dyn Iterator<Item = usize>| cells.fold(header.len(), usize::max);
    let names = width(
        "target",
        &mut rows.iter().map(|(name, _)| name.chars().count()),
    );
    let words = width("result", &mut rows.iter().map(|(_, v)| v.word().len()));
    let header = format!("{:names$}  {:words$}  details", "target", "result");
    writeln!(out, "{}", paint.heading(&header))?;
    for (name, verdict) in rows {
        let word = format!("{:words$}", verdict.word());
        let line = format!(
            "{name:names$}  {}  {}",
            verdict.painted(&word, paint),
            verdict.details()
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
