//! Native tool translation: every accepted tool shape in, the target's native tools array out.
//!
//! The translation reads the target's [`Envelope`](llmshim_core::rules::Envelope) value and nothing else about the
//! target, so a custom target's envelope works the same way. It is cut by concern:
//! - `classify`: which shape one element of `tools` has;
//! - `normalize`: each function's schema normalized on its own, with its strict request;
//! - `budget`: the Anthropic request budget over the strict tools;
//! - `envelope`: one function written in the target's envelope, in place or rebuilt;
//! - `assemble`: the native array put together in order;
//! - `report`: the per-tool reports and the request summary.

mod assemble;
mod budget;
mod classify;
mod envelope;
mod normalize;
mod report;

use serde_json::Value;

pub use report::{ToolReport, ToolsReport};

use crate::schema::{Normalizer, Options, Target};

/// Translates `request.tools` into `options.target`'s native tools array, normalizing every tool's schema on its
/// own (one bad tool falls back alone), with the process environment and memo. See [`Normalizer`] for the variant
/// with a chosen environment and memo.
///
/// ```
/// use llmshim::schema::{Options, Target};
/// use llmshim::tools::normalize_native_tools;
/// use serde_json::json;
///
/// let mut request = json!({"tools": [
///     {"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}
/// ]});
/// let report = normalize_native_tools(&Options::for_target(Target::Google), &mut request);
/// assert_eq!(request, json!({"tools": [{"functionDeclarations": [{"name": "ping"}]}]}));
/// assert!(report.summary.changed);
/// ```
pub fn normalize_native_tools(options: &Options, request: &mut Value) -> ToolsReport {
    Normalizer::default().normalize_native_tools(options, request)
}

/// Converts every raw MCP tool (`name`, `description`, `inputSchema`) in `request.tools` into a canonical chat tool,
/// normalizing its `inputSchema` for MCP first; other tools are untouched.
pub fn prepare_request(request: &mut Value) -> ToolsReport {
    Normalizer::default().prepare_request(request)
}

impl Normalizer {
    /// [`normalize_native_tools`] with this normalizer's environment and memo.
    pub fn normalize_native_tools(&self, options: &Options, request: &mut Value) -> ToolsReport {
        // The environment is read once per request; every schema of the request sees the same flags.
        let flags = self.env().read();
        self.with_flags(flags).native_tools(options, request, flags)
    }

    /// The translation in three steps: every function normalized (raw MCP tools included), the Anthropic budget
    /// applied, the native array assembled; then the request wrapper.
    fn native_tools(
        &self,
        options: &Options,
        request: &mut Value,
        flags: crate::schema::EnvFlags,
    ) -> ToolsReport {
        let rules = options.target.rules().rules();
        let envelope = &rules.envelope;
        let bypassed = options.bypass || flags.no_schema_normalization;
        let mut changed = false;
        // The wrapper member the body already sits in, if any: the first token of every tool's pointer.
        let body = envelope.body_member(request);
        let mut report = ToolsReport::default();
        if let Some(tools) = envelope.tools_mut(request) {
            let run = normalize::Run { options, bypassed };
            // Raw MCP tools are translated by structure, as the canonical chat tool they stand for: their schema is
            // normalized once, for the target (which requires it to describe an object, as MCP ingestion would),
            // and assembly writes them straight into the target's shape.
            let mut pending = self.normalize_tools(run, envelope, tools);
            if let Some(budget) = rules.strict.and_then(|s| s.anthropic_budget) {
                self.apply_request_budget(
                    options,
                    budget::request_output_schema(request),
                    &mut pending,
                    budget,
                );
            }
            // Every memo hit the budget kept for later is applied now, before assembly reads the schemas.
            for p in &mut pending {
                p.settle();
            }
            changed |= assemble::assemble(
                envelope.tools_mut(request),
                envelope,
                &mut pending,
                &mut report,
                body,
            );
        }
        if let Some(wrapper) = envelope.wrapper {
            changed |= envelope::wrap(request, wrapper);
        }
        report.summarize(changed, bypassed);
        report
    }

    /// [`prepare_request`] with this normalizer's environment and memo.
    pub fn prepare_request(&self, request: &mut Value) -> ToolsReport {
        let mut changed = false;
        let pre = self.normalize_mcp_tools(
            &Options::for_target(Target::Mcp),
            request.get_mut("tools").and_then(Value::as_array_mut),
            &mut changed,
        );
        let mut report = ToolsReport::default();
        for (index, normalization) in pre {
            let name = request
                .get("tools")
                .and_then(|t| t.get(index))
                .and_then(|t| t.get("function"))
                .and_then(|f| f.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            report.tools.push(ToolReport {
                index,
                name,
                normalization,
                strict: None,
                place: report::Place {
                    body: None,
                    index,
                    declaration: None,
                    holder: None,
                    key: classify::MCP_SCHEMA,
                },
            });
        }
        let bypassed = self.env().read().no_schema_normalization;
        report.summarize(changed, bypassed);
        report
    }
}
