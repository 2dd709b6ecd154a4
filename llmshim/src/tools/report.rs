//! `ToolsReport`: one report per function tool and a summary for the request.

use llmshim_core::envelope::ToolShape;
use llmshim_core::pointer::push_token;
use llmshim_core::{Change, Normalization};
use std::fmt;

/// What happened to one function tool.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolReport {
    /// The tool's index in the input `tools` array.
    pub index: usize,
    /// The tool's name, when it has a string one.
    pub name: Option<String>,
    /// The schema's normalization report.
    pub normalization: Normalization,
    /// The `strict` value sent, if any.
    pub strict: Option<bool>,
    /// Where its schema stood in the input; [`ToolReport::pointer`] writes it out.
    pub(crate) place: Place,
}

impl ToolReport {
    /// Where the tool's schema stood in the input, as a JSON Pointer, for example `/tools/2/function/parameters`.
    ///
    /// The report keeps the pointer's parts, names borrowed from the target's envelope, and writes the text anew
    /// on each call, so a request whose reports are never read builds no pointer.
    pub fn pointer(&self) -> String {
        self.place.pointer()
    }
}

#[expect(
    clippy::missing_fields_in_debug,
    reason = "the place is shown as the pointer it spells"
)]
impl fmt::Debug for ToolReport {
    /// Shows the pointer as its text, not as the parts the report keeps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolReport")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("pointer", &self.pointer())
            .field("normalization", &self.normalization)
            .field("strict", &self.strict)
            .finish()
    }
}

/// The parts of a tool schema's pointer: all of them but the indices are names from the target's envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// The wrapper member the request body sat in, when the input was already wrapped.
    pub(crate) body: Option<&'static str>,
    /// The tool's index in `tools`.
    pub(crate) index: usize,
    /// For a declaration: the list member that holds it and its index there.
    pub(crate) declaration: Option<(&'static str, usize)>,
    /// The member of the tool (or declaration) that holds its fields, if any.
    pub(crate) holder: Option<&'static str>,
    /// The key the schema was read from.
    pub(crate) key: &'static str,
}

impl Place {
    /// The JSON Pointer the parts spell.
    pub(crate) fn pointer(&self) -> String {
        let mut p = String::with_capacity(48);
        if let Some(body) = self.body {
            push_token(&mut p, body);
        }
        p.push_str("/tools/");
        push_index(&mut p, self.index);
        if let Some((list, d)) = self.declaration {
            push_token(&mut p, list);
            p.push('/');
            push_index(&mut p, d);
        }
        // The holder and the key are spelled as the envelope spells a schema's tokens inside a tool of its shape.
        let mut shape = ToolShape::new(self.key);
        shape.holder = self.holder;
        shape.push_schema_tokens(&mut p);
        p
    }
}

/// Appends `index` in decimal: an index is digits only, so it needs no escaping.
fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write as _;
    let _ = write!(pointer, "{index}");
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
                r.pointer = prefixed(&t.pointer(), &r.pointer);
                r
            })
        });
        // A tool's pointer is written once, and only for a tool with changes.
        for t in &self.tools {
            if t.normalization.changes.is_empty() {
                continue;
            }
            let outer = t.pointer();
            summary.changes.extend(
                t.normalization
                    .changes
                    .iter()
                    .map(|c| Change::new(prefixed(&outer, &c.pointer), c.rule.clone(), c.kind)),
            );
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> Place {
        Place {
            body: None,
            index: 12,
            declaration: None,
            holder: Some("function"),
            key: "parameters",
        }
    }

    #[test]
    fn a_place_spells_every_part_in_order() {
        assert_eq!(place().pointer(), "/tools/12/function/parameters");
        let declared = Place {
            body: Some("request"),
            declaration: Some(("functionDeclarations", 3)),
            holder: None,
            key: "parametersJsonSchema",
            ..place()
        };
        assert_eq!(
            declared.pointer(),
            "/request/tools/12/functionDeclarations/3/parametersJsonSchema"
        );
    }

    #[test]
    fn a_tool_report_debugs_its_pointer_as_text() {
        let report = ToolReport {
            index: 12,
            name: Some("f".to_owned()),
            normalization: Normalization::default(),
            strict: None,
            place: place(),
        };
        let shown = format!("{report:?}");
        assert!(
            shown.contains(r#"pointer: "/tools/12/function/parameters""#),
            "{shown}"
        );
    }
}
