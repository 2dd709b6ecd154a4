//! The Anthropic request budget: strict tools beyond it are sent without strict.

use llmshim_core::rules::AnthropicBudget;
use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason};
use serde_json::Value;

use crate::schema::pipeline::fallback;
use crate::schema::{Normalizer, Options};
use crate::tools::normalize::{Pending, not_object};

/// The structured-output schema an Anthropic request already carries; it counts against the budget first.
pub(crate) fn request_output_schema(request: &Value) -> Option<&Value> {
    request
        .get("output_config")?
        .get("format")?
        .get("schema")
        .filter(|s| s.is_object())
}

impl Normalizer {
    /// Anthropic limits the strict tools of one request, and their optional and union-typed parameters together:
    /// in tool order, a strict tool that would pass a limit is normalized again without strict and reported with
    /// `provider_limit` and `anthropic.request-budget`; later tools are still tried.
    pub(crate) fn apply_request_budget(
        &self,
        options: &Options,
        output: Option<&Value>,
        pending: &mut [Pending],
        budget: AnthropicBudget,
    ) {
        let (mut tools, mut optional, mut unions) = (0usize, 0usize, 0usize);
        if let Some(schema) = output {
            (optional, unions) = llmshim_strict::budget_counts(schema);
        }
        for p in pending.iter_mut() {
            if !p.report.strict {
                continue;
            }
            let Some(schema) = &p.schema else {
                continue;
            };
            // The counters of a result with a memo entry are those of the entry's output, worked out once per entry,
            // and those of a strict look's verdict the ones it counted on the input; past the strict-tool limit the
            // tool is demoted whatever they say, so they are not counted there.
            let counts = || match (&p.hit, &p.closable) {
                (Some(hit), _) => {
                    unpack(hit.remembered(|output| pack(llmshim_strict::budget_counts(output))))
                }
                (None, Some(found)) => found.counts,
                (None, None) => llmshim_strict::budget_counts(schema),
            };
            let (o, u) = if tools + 1 > budget.max_strict_tools {
                (0, 0)
            } else {
                counts()
            };
            let over = if tools + 1 > budget.max_strict_tools {
                Some(format!(
                    "more than {} strict tools in one request",
                    budget.max_strict_tools
                ))
            } else if optional + o > budget.max_optional {
                Some(format!(
                    "more than {} optional parameters in one request ({})",
                    budget.max_optional,
                    optional + o
                ))
            } else if unions + u > budget.max_unions {
                Some(format!(
                    "more than {} union-typed parameters in one request ({})",
                    budget.max_unions,
                    unions + u
                ))
            } else {
                None
            };
            match over {
                None => {
                    tools += 1;
                    optional += o;
                    unions += u;
                }
                Some(message) => {
                    // Nothing reads the input after this: it is moved, not copied. Under a deferred hit or a strict
                    // look's verdict the schema is still the input, and the hit is dropped unapplied, the output
                    // never built.
                    // The strict entry's input is the one normalized again (the deferred schema, or the original
                    // kept beside the entry a miss stored), so the plain entry is found from it without a second
                    // fingerprint walk.
                    let strict_hit = p.hit.take();
                    let unbuilt = p.closable.take().is_some();
                    let input = if std::mem::take(&mut p.deferred) || unbuilt {
                        p.schema.take()
                    } else {
                        p.original.take()
                    };
                    let same = strict_hit.as_ref().filter(|_| input.is_some());
                    let mut schema = input.unwrap_or(Value::Null);
                    let mut report =
                        self.normalize_same(&options.clone().with_strict(false), &mut schema, same);
                    if !report.bypassed
                        && schema.get("type").and_then(Value::as_str) != Some("object")
                    {
                        schema = fallback();
                        report = not_object();
                    }
                    report = report.with_demotion(FallbackReason::new(
                        FallbackKind::ProviderLimit,
                        "",
                        message,
                    ));
                    if options.diagnostics {
                        report.changes.push(Change::new(
                            "",
                            "anthropic.request-budget",
                            ChangeKind::Relaxed,
                        ));
                    }
                    p.schema = Some(schema);
                    p.report = report;
                }
            }
        }
    }
}

/// The two budget counters in one word, for the memo entry to remember; a count beyond `u32::MAX` is kept as that,
/// which passes every budget as the count itself would.
fn pack((optional, unions): (usize, usize)) -> u64 {
    let half = |n: usize| u64::from(u32::try_from(n).unwrap_or(u32::MAX));
    (half(optional) << 32) | half(unions)
}

/// The two counters of a word made by [`pack`].
fn unpack(word: u64) -> (usize, usize) {
    let half = |n: u64| usize::try_from(n & u64::from(u32::MAX)).unwrap_or(usize::MAX);
    (half(word >> 32), half(word))
}
