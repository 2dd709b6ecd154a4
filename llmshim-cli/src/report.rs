//! Writing answers: one JSON document per line (compact or indented by two spaces) and the tab-separated `explain`
//! lines of `--format tsv`.

use std::io::{self, Write};

use llmshim::schema::Normalization;
use serde_json::Value;

/// Writes `value` followed by a newline: compact, or indented by two spaces when `pretty`; nested to any depth.
///
/// # Errors
///
/// The writer's error.
///
/// ```
/// use llmshim_cli::report::write_json;
/// use serde_json::json;
///
/// let mut out = Vec::new();
/// write_json(&mut out, &json!({"a": [1]}), false).unwrap();
/// write_json(&mut out, &json!({"a": [1]}), true).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"a\":[1]}\n{\n  \"a\": [\n    1\n  ]\n}\n");
/// ```
pub fn write_json(out: &mut dyn Write, value: &Value, pretty: bool) -> io::Result<()> {
    crate::json::write(out, value, pretty)?;
    out.write_all(b"\n")
}

/// Writes the tab-separated `explain` lines for `report` (`explain --format tsv`): the four flags, one line per change
/// in the order performed, then the reason.
///
/// # Errors
///
/// The writer's error.
///
/// ```
/// use llmshim::schema::{Normalizer, Options, Target};
/// use llmshim_cli::report::write_explain;
/// use serde_json::json;
///
/// let mut schema = json!({"type": "object", "properties": {"a": {"$ref": "#/missing"}}, "required": ["a"]});
/// let options = Options::for_target(Target::OpenAiChat).with_diagnostics(true);
/// let report = Normalizer::default().normalize_with(&options, &mut schema);
/// let mut out = Vec::new();
/// write_explain(&mut out, &report).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("changed=true used_fallback=true strict=false bypassed=false\n"));
/// assert!(text.contains("reason\tunresolved_ref\t/properties/a\t"));
/// ```
pub fn write_explain(out: &mut dyn Write, report: &Normalization) -> io::Result<()> {
    writeln!(
        out,
        "changed={} used_fallback={} strict={} bypassed={}",
        report.changed, report.used_fallback, report.strict, report.bypassed
    )?;
    for change in &report.changes {
        writeln!(out, "{}\t{}\t{}", change.kind, change.rule, change.pointer)?;
    }
    if let Some(reason) = &report.fallback_reason {
        writeln!(
            out,
            "reason\t{}\t{}\t{}",
            reason.kind, reason.pointer, reason.message
        )?;
    }
    Ok(())
}

/// The one-line stderr note for a report that fell back, or `None`.
pub fn fallback_note(report: &Normalization) -> Option<String> {
    let reason = report
        .fallback_reason
        .as_ref()
        .filter(|_| report.used_fallback)?;
    Some(format!(
        "llmshim: warning: fell back to {{\"type\":\"object\",\"properties\":{{}}}}: {} at {:?}: {}",
        reason.kind, reason.pointer, reason.message
    ))
}
