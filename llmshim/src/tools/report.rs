//! `ToolsReport`: one report per function tool and a summary for the request.

use llmshim_core::pointer::push_token;
use llmshim_core::{Change, Normalization};

/// What happened to one function tool.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolReport {
    /// The tool's index in the input `tools` array.
    pub index: usize,
    /// The tool's name, when it has a string one.
    pub name: Option<String>,
    /// Where its schema stood in the input, for example `/tools/2/function/parameters`.
    pub pointer: String,
    /// The schema's normalization report.
    pub normalization: Normalization,
    /// The `strict` value sent, if any.
    pub strict: Option<bool>,
}

/// The report of a whole request's tools.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolsReport {
    /// Every function tool, in input order.
    pub tools: Vec<ToolReport>,
    /// The request-level summary: `changed` (the request differs), `used_fallback` (some tool fell back), `narrowed`
    /// (some tool was narrowed), `strict` (some tool is sent with `strict: true`), `bypassed`, the first reason and
    /// every change, pointers prefixed by the schema's location.
    pub summary: Normalization,
}

impl ToolsReport {
    /// Fills the summary from the tool reports; `changed` and `bypassed` are the caller's.
    pub(crate) fn summarize(&mut self, changed: bool, bypassed: bool) {
        let mut summary = Normalization::default();
        summary.changed = changed;
        summary.bypassed = bypassed;
        summary.used_fallback = self.tools.iter().any(|t| t.normalization.used_fallback);
        summary.narrowed = self.tools.iter().any(|t| t.normalization.narrowed);
        summary.strict = self.tools.iter().any(|t| t.strict == Some(true));
        let first = self
            .tools
            .iter()
            .find(|t| t.normalization.used_fallback)
            .or_else(|| {
                self.tools
                    .iter()
                    .find(|t| t.normalization.fallback_reason.is_some())
            });
        summary.fallback_reason = first.and_then(|t| {
            t.normalization.fallback_reason.clone().map(|mut r| {
                r.pointer = prefixed(&t.pointer, &r.pointer);
                r
            })
        });
        summary.changes =
            self.tools
                .iter()
                .flat_map(|t| {
                    t.normalization.changes.iter().map(|c| {
                        Change::new(prefixed(&t.pointer, &c.pointer), c.rule.clone(), c.kind)
                    })
                })
                .collect();
        self.summary = summary;
    }
}

/// `inner` (a pointer inside a schema) placed under `outer` (the schema's location).
fn prefixed(outer: &str, inner: &str) -> String {
    let mut p = String::with_capacity(outer.len() + inner.len());
    p.push_str(outer);
    p.push_str(inner);
    p
}

/// The pointer of `tokens` under `/tools/<index>`.
pub(crate) fn schema_pointer(index: usize, tokens: &[&str]) -> String {
    use std::fmt::Write as _;
    let mut p = String::with_capacity(48);
    // An index is digits only, so it needs no escaping.
    let _ = write!(p, "/tools/{index}");
    for t in tokens {
        push_token(&mut p, t);
    }
    p
}
