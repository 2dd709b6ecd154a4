//! Normalizing each function tool's schema on its own: one bad tool falls back alone.

use llmshim_core::envelope::{Layout, StrictKey, ToolShape};
use llmshim_core::rules::Envelope;
use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{FallbackKind, FallbackReason, Normalization, json};
use serde_json::Value;

use crate::schema::pipeline::fallback;
use llmshim_cache::Hit;

use crate::schema::{Closable, Kept, Normalizer, Options};
use crate::tools::classify::{Kind, MCP_SHAPE, classify};
use crate::tools::report::Place;

/// What every tool of one request is normalized with: the caller's options, and whether normalization is bypassed
/// (by the options or the environment read once for the request).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<'a> {
    pub(crate) options: &'a Options,
    pub(crate) bypassed: bool,
}

/// One function tool on its way through: where it came from, its normalized schema and its report.
#[derive(Debug)]
pub(crate) struct Pending {
    /// What the tool is, as [`classify`] found it before its schema was taken out; assembly reads it from here
    /// instead of classifying the tool again.
    pub(crate) kind: Kind,
    /// The shape the tool had in the input (a declaration's shape for a declaration).
    pub(crate) shape: ToolShape,
    /// The tool's index in `tools`.
    pub(crate) index: usize,
    /// The declaration's index inside its element, for a declaration edited in place.
    pub(crate) declaration: Option<usize>,
    /// Strict was requested for the tool.
    pub(crate) requested: bool,
    /// The tool has a schema key.
    pub(crate) has_schema: bool,
    /// The key the schema was read from: the shape's schema key, or an alternate (a Gemini declaration's other
    /// dialect); the translated schema is written under the shape's schema key in its place.
    pub(crate) key: &'static str,
    /// The schema was moved out of the tool (its slot holds `null` until assembly puts the result back), so
    /// whether the tool changed is the report's `changed`, not a comparison with the slot.
    pub(crate) taken: bool,
    /// The schema before normalization, kept only where the Anthropic request budget may normalize it again.
    pub(crate) original: Option<Value>,
    /// The memo entry of the normalization, kept only where the Anthropic request budget may normalize the
    /// schema again: its counters are remembered with the entry.
    pub(crate) hit: Option<Hit<Options>>,
    /// `hit` is not applied yet: `schema` is still the input, and [`Pending::settle`] applies the hit unless the
    /// budget normalized the input another way first.
    pub(crate) deferred: bool,
    /// Without a memo, the strict look's verdict on the schema, whose output is not built yet: `schema` is still the
    /// input, and [`Pending::settle`] builds the output unless the budget normalized the input another way first.
    /// Until then `report` says only that strict is kept; the verdict carries the budget's counters.
    pub(crate) closable: Option<Closable>,
    /// The normalized schema (the input while a hit is deferred), until assembly moves it into the tool.
    pub(crate) schema: Option<Value>,
    /// The schema's report, until assembly moves it into the tools report.
    pub(crate) report: Normalization,
}

impl Pending {
    /// Applies a deferred memo hit to the schema, or builds the strict look's output from it, which is then the
    /// normalized schema; nothing otherwise.
    pub(crate) fn settle(&mut self) {
        if std::mem::take(&mut self.deferred)
            && let (Some(hit), Some(schema)) = (&self.hit, self.schema.as_mut())
        {
            hit.apply(schema);
        }
        if let (Some(found), Some(schema)) = (self.closable.take(), self.schema.as_mut()) {
            self.report = found.normalize(schema);
        }
    }

    /// Where the schema stood in the input request; `body` is the wrapper member the request body sat in, if any.
    pub(crate) fn place(&self, body: Option<&'static str>, envelope: &Envelope) -> Place {
        let declaration = match (self.declaration, envelope.layout) {
            (Some(d), Layout::Declarations { list, .. }) => Some((list, d)),
            _ => None,
        };
        Place {
            body,
            index: self.index,
            declaration,
            holder: self.shape.holder,
            key: self.key,
        }
    }
}

/// The report of a schema replaced by the fallback because it does not describe an object: tool parameters must.
///
/// `changed` is always true: an input equal to the fallback normalizes to an object and never gets here.
pub(crate) fn not_object() -> Normalization {
    Normalization::fell_back(
        FallbackReason::new(
            FallbackKind::NotObject,
            "",
            "tool parameters must describe an object",
        ),
        true,
    )
}

impl Normalizer {
    /// Raw MCP tools become canonical chat tools after the MCP tool normalization (what `prepare_request` does);
    /// returns each converted tool's report.
    pub(crate) fn normalize_mcp_tools(
        &self,
        options: &Options,
        tools: Option<&mut Vec<Value>>,
        changed: &mut bool,
    ) -> Vec<(usize, Normalization)> {
        let mut out = Vec::new();
        let Some(tools) = tools else {
            return out;
        };
        for (index, tool) in tools.iter_mut().enumerate() {
            if !llmshim_mcp::is_mcp_tool(tool) {
                continue;
            }
            let normalization = self.normalize_mcp_tool_with(options, tool);
            *tool = llmshim_mcp::into_chat_tool(std::mem::take(tool));
            *changed = true;
            out.push((index, normalization));
        }
        out
    }

    /// Normalizes every function tool (and every declaration) of `tools`: whether strict is requested, the schema
    /// normalized with it, and a result that does not describe an object replaced by the fallback.
    pub(crate) fn normalize_tools(
        &self,
        run: Run<'_>,
        envelope: &Envelope,
        tools: &mut [Value],
    ) -> Vec<Pending> {
        // One entry per function tool, so a tool count is the usual size (a pending tool is large to move).
        let mut pending = Vec::with_capacity(tools.len());
        for (index, tool) in tools.iter_mut().enumerate() {
            match classify(tool, envelope) {
                Kind::Other => {}
                Kind::Mcp => {
                    // A raw MCP tool carries no strictness of its own (its `strict` is not a field of MCP, and the
                    // chat tool it stands for has none): the caller's applies.
                    let requested = run.options.strict;
                    let mut p = self.normalize_moved(run, MCP_SHAPE, tool, requested);
                    p.kind = Kind::Mcp;
                    p.requested = requested;
                    p.index = index;
                    pending.push(p);
                }
                Kind::Declarations => {
                    let Some(decls) = envelope.declarations(tool) else {
                        continue;
                    };
                    let shape = envelope.function_shape();
                    for (d, decl) in decls.iter().enumerate() {
                        if !decl.is_object() {
                            continue;
                        }
                        let mut p = self.normalize_one(run, shape, decl, false);
                        // A declaration's schema was copied, not moved: its entry is edited in place.
                        p.kind = Kind::Declarations;
                        p.index = index;
                        p.declaration = Some(d);
                        pending.push(p);
                    }
                }
                Kind::Function(shape) => {
                    // A tool in the shape of an envelope that never carries `strict` has no strictness of its
                    // own to read (an MCP tool's `strict` is not a field of MCP).
                    let own = if envelope.strict == StrictKey::Never
                        && envelope.layout == Layout::Tool(shape)
                    {
                        None
                    } else {
                        shape.strict(tool)
                    };
                    let requested = own.unwrap_or(run.options.strict);
                    let mut p = self.normalize_moved(run, shape, tool, requested);
                    p.kind = Kind::Function(shape);
                    p.requested = requested;
                    p.index = index;
                    pending.push(p);
                }
            }
        }
        pending
    }

    /// [`Normalizer::normalize_one`] for a tool whose schema assembly puts back or moves into a rebuilt tool: the
    /// schema is moved out of the tool instead of copied (a schema too deep to walk stays where it is).
    ///
    /// The depth is measured here only where nothing after it would: under bypass (the schema is not normalized,
    /// but still falls back). Otherwise the normalization measures it first itself (the memo's fingerprint stops
    /// at its own depth limit, and the copy the Anthropic request budget keeps is made only within the depth) and
    /// falls back with the same reason, so a walk over every node is spared.
    fn normalize_moved(
        &self,
        run: Run<'_>,
        shape: ToolShape,
        tool: &mut Value,
        requested: bool,
    ) -> Pending {
        // The schema's key and slot are found once; without a slot, the tool is read as it is.
        let slot = shape.fields_mut(tool).and_then(|fields| {
            let key = shape.schema_key(fields)?;
            Some((key, json::member_mut(fields, key)?))
        });
        let Some((key, slot)) =
            slot.filter(|(_, s)| !run.bypassed || json::depth_within(s, HARD_MAX_DEPTH).is_some())
        else {
            return self.normalize_one(run, shape, tool, requested);
        };
        let schema = Some(std::mem::take(slot));
        let mut p = self.normalize_schema(run, shape, schema, requested);
        p.taken = true;
        p.key = key;
        p
    }

    fn normalize_one(
        &self,
        run: Run<'_>,
        shape: ToolShape,
        tool: &Value,
        requested: bool,
    ) -> Pending {
        let schema = shape.schema(tool);
        let key = schema_key(shape, tool);
        if schema.is_some_and(|s| json::depth_within(s, HARD_MAX_DEPTH).is_none()) {
            // Too deep to copy, compare or drop recursively: it falls back without being touched (even under
            // bypass, since no provider accepts such a schema), and the placeholder original is never read as one.
            let report = Normalization::fell_back(
                FallbackReason::new(
                    FallbackKind::BudgetDepth,
                    "",
                    format!("the schema is nested deeper than {HARD_MAX_DEPTH} levels"),
                ),
                true,
            );
            return Pending {
                kind: Kind::Other,
                shape,
                index: 0,
                declaration: None,
                requested,
                has_schema: true,
                key,
                taken: false,
                original: None,
                hit: None,
                deferred: false,
                closable: None,
                schema: Some(fallback()),
                report,
            };
        }
        let mut p = self.normalize_schema(run, shape, schema.cloned(), requested);
        p.key = key;
        p
    }

    /// Normalizes a tool's schema (or its absence) into a pending tool; the schema is within the walker's depth.
    fn normalize_schema(
        &self,
        run: Run<'_>,
        shape: ToolShape,
        mut schema: Option<Value>,
        requested: bool,
    ) -> Pending {
        let options = run.options;
        let mut report = Normalization::default();
        let has_schema = schema.is_some();
        let mut original = None;
        let mut hit = None;
        let mut deferred = false;
        let mut closable = None;
        if let Some(s) = schema.as_mut() {
            let options = options.clone().with_strict(requested);
            if budgeted(&options, requested) {
                match self.normalize_keeping(&options, s) {
                    Kept::Done(r, o, stored) => (report, original, hit) = (r, o, stored),
                    Kept::Deferred(found) => {
                        report = found.report().clone();
                        hit = Some(found);
                        deferred = true;
                    }
                    Kept::Closable(found) => {
                        // What the budget reads of the report: strict kept. The output (an object, as the look
                        // required of the input's root) and its report are built at settling.
                        report = Normalization::produced(true).with_strict(true);
                        closable = Some(found);
                    }
                }
            } else {
                report = self.normalize_with(&options, s);
            }
            // A deferred hit's output is what the schema becomes, so it is the one to test.
            let output = match &hit {
                Some(found) if deferred => found.output(),
                _ => &*s,
            };
            let object = output
                .as_object()
                .and_then(|m| json::member(m, "type"))
                .and_then(Value::as_str)
                == Some("object");
            if !run.bypassed && !object {
                // The fallback replaces whatever the normalization gave, so a deferred hit is never applied.
                (hit, deferred) = (None, false);
                json::dismantle(std::mem::replace(s, fallback()));
                report = not_object();
            }
        } else if run.bypassed {
            report = Normalization::bypassed();
        }
        Pending {
            kind: Kind::Other,
            shape,
            index: 0,
            declaration: None,
            requested,
            has_schema,
            key: shape.schema,
            taken: false,
            original,
            hit,
            deferred,
            closable,
            schema,
            report,
        }
    }
}

/// Whether the Anthropic request budget may normalize a tool again, so its schema is kept before normalization.
fn budgeted(options: &Options, requested: bool) -> bool {
    requested
        && options
            .target
            .rules()
            .rules()
            .strict
            .is_some_and(|s| s.anthropic_budget.is_some())
}

/// The key `tool`, of `shape`, holds its schema under: the shape's schema key, or an alternate it has instead.
fn schema_key(shape: ToolShape, tool: &Value) -> &'static str {
    shape
        .fields(tool)
        .and_then(|f| shape.schema_key(f))
        .unwrap_or(shape.schema)
}
