//! Step W20: lookaround removal, the OpenAI dialect check, kept patterns held to their engine's subset, and
//! `patternProperties` keys.

use llmshim_core::keep::KeepSet;
use llmshim_core::pattern_subset::{Offence, PatternSubset};
use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value};

use crate::pattern::{has_lookaround, openai_accepts, strip_lookarounds};

/// W20: with `strip_lookarounds`, cleans `pattern` and queues the original, and removes `patternProperties`
/// entries whose key has a lookaround; with the rule set's OpenAI dialect check, lifts a pattern (or
/// `patternProperties` entries) that OpenAI's engine would reject. Removed entries are lifted as one
/// `patternProperties` fragment.
///
/// A `pattern` that a keep-list in effect keeps only within a [`PatternSubset`] (the strict keep-list under strict,
/// the rule set's own, and for a structured-output schema with output bounds the strict one) is then lifted when it
/// uses a construct the subset leaves out (`target.pattern-subset`); one the scanner cannot read (a trailing lone
/// `\`, unbalanced parentheses, a class left open) is lifted before the other rules read it.
#[derive(Clone, Copy, Debug)]
pub struct Patterns<'r> {
    rules: &'r RuleSet,
}

impl<'r> Patterns<'r> {
    /// The pattern rules of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        Patterns { rules }
    }
}

/// The rule id of a kept pattern lifted because its engine leaves out a construct it uses.
const SUBSET: &str = "target.pattern-subset";

/// The subset a `pattern` is kept within under `settings`, when a keep-list in effect keeps it under one: the strict
/// keep-list's under strict, the rule set's own, and the strict keep-list's for a structured-output schema on a rule
/// set with output bounds. Several combine into what any of them leaves out.
fn kept_pattern_subset(rules: &RuleSet, settings: &Settings) -> Option<PatternSubset> {
    let keywords = settings.keywords;
    let strict_keep = rules.strict_keep(keywords);
    let strict = settings.strict.then(|| strict_keep.pattern()).flatten();
    let own = rules.keep_set(keywords).and_then(KeepSet::pattern);
    let output = (rules.output_bounds && settings.structured_output)
        .then(|| strict_keep.pattern())
        .flatten();
    [strict, own, output]
        .into_iter()
        .flatten()
        .reduce(PatternSubset::union)
}

impl Pass for Patterns<'_> {
    fn name(&self) -> &'static str {
        "patterns"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(
            settings.strip_lookarounds
                || self.rules.openai_patterns
                || kept_pattern_subset(self.rules, settings).is_some(),
            Hooks::ENTER,
        )
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let original = match json::member(map, "pattern") {
            Some(Value::String(p)) => Some(p.clone()),
            _ => None,
        };
        // Worked out only for a node with a pattern: most nodes have none.
        let subset = original
            .as_ref()
            .and_then(|_| kept_pattern_subset(self.rules, cx.settings()));
        if let (Some(_), Some(original)) = (subset, &original)
            && PatternSubset::new().offence(original) == Some(Offence::Malformed)
        {
            json::remove(map, "pattern");
            cx.queue_lift("pattern", Value::String(original.clone()), SUBSET);
        } else if let Some(original) = &original {
            let mut current = original.clone();
            if cx.settings().strip_lookarounds {
                let cleaned = strip_lookarounds(original)
                    .map_err(|e| cx.fail(FallbackKind::Regex, e.to_string()))?;
                if cleaned != *original {
                    json::set(map, "pattern", Value::String(cleaned.clone()));
                    cx.queue_lift(
                        "pattern",
                        Value::String(original.clone()),
                        "responses.lookaround",
                    );
                    cx.record(
                        "responses.lookaround",
                        ChangeKind::Rewritten,
                        Some("pattern"),
                    );
                    current = cleaned;
                }
            }
            if self.rules.openai_patterns && !openai_accepts(&current) {
                json::remove(map, "pattern");
                cx.queue_lift(
                    "pattern",
                    Value::String(original.clone()),
                    "openai.pattern-dialect",
                );
            } else if let Some(subset) = subset
                && json::has(map, "pattern")
                && !subset.admits(&current)
            {
                json::remove(map, "pattern");
                cx.queue_lift("pattern", Value::String(original.clone()), SUBSET);
            }
        }
        // `patternProperties` keys: a key with a lookaround is not rewritten under `strip_lookarounds` (that would
        // change which names match) but removed, and a key the OpenAI engine rejects is removed; the removed
        // entries are lifted together.
        let strip = cx.settings().strip_lookarounds;
        if (strip || self.rules.openai_patterns)
            && let Some(Value::Object(entries)) = json::member_mut(map, "patternProperties")
        {
            let mut lookaround = false;
            let offending: Vec<String> = entries
                .keys()
                .filter(|k| {
                    if strip && has_lookaround(k) {
                        lookaround = true;
                        return true;
                    }
                    self.rules.openai_patterns && !openai_accepts(k)
                })
                .cloned()
                .collect();
            if !offending.is_empty() {
                let mut removed = Map::new();
                for key in offending {
                    if let Some(v) = json::remove(entries, &key) {
                        removed.insert(key, v);
                    }
                }
                if entries.is_empty() {
                    json::remove(map, "patternProperties");
                }
                let rule = if lookaround {
                    "responses.lookaround"
                } else {
                    "openai.pattern-dialect"
                };
                cx.queue_lift("patternProperties", Value::Object(removed), rule);
            }
        }
        Ok(Flow::Continue)
    }
}
