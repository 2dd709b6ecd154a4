//! Assembling the native tools array: every pending tool written back in order, declarations gathered.

use llmshim_core::envelope::Layout;
use llmshim_core::rules::Envelope;
use serde_json::{Map, Value};

use crate::tools::classify::Kind;
use crate::tools::envelope::{build, build_from_mcp, edit_declaration, edit_tool, strict_value};
use crate::tools::normalize::Pending;
use crate::tools::report::{ToolReport, ToolsReport};

/// Writes every pending tool into the native array: a tool in the envelope's shape is edited in place, one of
/// another shape (a raw MCP tool included) is rebuilt (for declarations: gathered into one new element where the
/// first of them stood), and every other element keeps its place. Returns whether anything changed.
pub(crate) fn assemble(
    tools: Option<&mut Vec<Value>>,
    envelope: &Envelope,
    pending: &mut [Pending],
    out: &mut ToolsReport,
    body: Option<&'static str>,
) -> bool {
    let Some(tools) = tools else {
        return false;
    };
    let before = std::mem::take(tools);
    out.tools.reserve(pending.len());
    let mut changed = false;
    let mut gathered: Vec<Value> = match envelope.layout {
        Layout::Declarations { .. } => Vec::with_capacity(pending.len()),
        Layout::Tool(_) => Vec::new(),
    };
    let mut gathered_at: Option<usize> = None;
    let mut result: Vec<Value> = Vec::with_capacity(before.len());
    // `pending` is in tool order, so each tool's entries are the next run of the same index.
    let mut next = 0;
    for (index, mut tool) in before.into_iter().enumerate() {
        let start = next;
        while pending.get(next).is_some_and(|p| p.index == index) {
            next += 1;
        }
        let mine = pending.get_mut(start..next).unwrap_or_default();
        // A tool with pending entries has the kind its first entry recorded when it was classified; one without
        // (anything else, or declarations of which none is an object) stays as it is whatever its kind.
        let kind = mine.first().map_or(Kind::Other, |p| p.kind);
        let shape = match kind {
            Kind::Other => {
                result.push(tool);
                continue;
            }
            Kind::Mcp => {
                let Some(p) = mine.first_mut() else {
                    result.push(tool);
                    continue;
                };
                let strict = strict_value(envelope, p);
                record(out, &tool, p, strict, body, envelope);
                match envelope.layout {
                    Layout::Declarations { declaration, .. } => {
                        gathered_at.get_or_insert(result.len());
                        gathered.push(build_from_mcp(tool, declaration, p, envelope, strict));
                    }
                    Layout::Tool(native) => {
                        result.push(build_from_mcp(tool, native, p, envelope, strict));
                    }
                }
                changed = true;
                continue;
            }
            Kind::Declarations => {
                for p in mine {
                    let strict = strict_value(envelope, p);
                    changed |= edit_declaration(&mut tool, p, envelope, strict);
                    record(out, &tool, p, strict, body, envelope);
                }
                result.push(tool);
                continue;
            }
            Kind::Function(shape) => shape,
        };
        let Some(p) = mine.first_mut() else {
            result.push(tool);
            continue;
        };
        let strict = strict_value(envelope, p);
        match envelope.layout {
            Layout::Declarations { declaration, .. } => {
                record(out, &tool, p, strict, body, envelope);
                gathered_at.get_or_insert(result.len());
                gathered.push(build(tool, shape, declaration, p, envelope, strict));
                changed = true;
            }
            Layout::Tool(native) if native == shape => {
                changed |= edit_tool(&mut tool, shape, p, envelope, strict);
                record(out, &tool, p, strict, body, envelope);
                result.push(tool);
            }
            Layout::Tool(native) => {
                record(out, &tool, p, strict, body, envelope);
                result.push(build(tool, shape, native, p, envelope, strict));
                changed = true;
            }
        }
    }
    if let (Some(at), Layout::Declarations { list, .. }) = (gathered_at, envelope.layout) {
        let mut element = Map::new();
        element.insert(list.to_owned(), Value::Array(gathered));
        result.insert(at.min(result.len()), Value::Object(element));
    }
    *tools = result;
    changed
}

/// Moves the tool's report into `out`; nothing reads it from `p` afterwards.
fn record(
    out: &mut ToolsReport,
    tool: &Value,
    p: &mut Pending,
    strict: Option<bool>,
    body: Option<&'static str>,
    envelope: &Envelope,
) {
    let function = match p.declaration {
        Some(_) => envelope.function(tool, p.declaration),
        None => Some(tool),
    };
    let name = function
        .and_then(|f| p.shape.fields(f))
        .and_then(|f| llmshim_core::json::member(f, "name"));
    out.tools.push(ToolReport {
        index: p.index,
        name: name.and_then(Value::as_str).map(str::to_owned),
        normalization: std::mem::take(&mut p.report),
        strict,
        place: p.place(body, envelope),
    });
}
