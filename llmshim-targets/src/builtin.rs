//! The built-in targets: each is rule-set data behind the same `TargetRules` interface a custom target implements.

use llmshim_core::walk::{Hooks, NodeCtx};
use llmshim_core::{FallbackReason, RuleSet, TargetRules};
use serde_json::{Map, Value};

/// A target hook, run on every visited schema object (see [`TargetRules::enter`] and [`TargetRules::leave`]).
pub(crate) type Hook = fn(&mut Value, &mut NodeCtx<'_>) -> Result<(), FallbackReason>;

/// Whether a target's `enter` hook acts on a schema object (see [`TargetRules::enter_acts`]).
pub(crate) type Acts = fn(&Map<String, Value>) -> bool;

/// A built-in target: an id, its rule set and, for a target whose rules are not all rule-set data, its hooks.
#[derive(Debug)]
pub struct Builtin {
    id: &'static str,
    rules: RuleSet,
    /// The `enter` hook and the test of the nodes it acts on.
    enter: Option<(Hook, Acts)>,
}

impl Builtin {
    pub(crate) const fn new(id: &'static str, rules: &RuleSet) -> Self {
        Builtin {
            id,
            rules: *rules,
            enter: None,
        }
    }

    /// Sets the hook run at the target's `enter` step, with the test of the schema objects it acts on
    /// ([`TargetRules::enter_acts`]).
    pub(crate) const fn with_enter(mut self, hook: Hook, acts: Acts) -> Self {
        self.enter = Some((hook, acts));
        self
    }
}

impl TargetRules for Builtin {
    fn id(&self) -> &str {
        self.id
    }

    fn rules(&self) -> &RuleSet {
        &self.rules
    }

    fn hooks(&self) -> Hooks {
        // A built-in target has no `leave` hook.
        Hooks::when(self.enter.is_some(), Hooks::ENTER)
    }

    fn enter_acts(&self, node: &Map<String, Value>) -> bool {
        // No hook acts on no node.
        self.enter.is_some_and(|(_, acts)| acts(node))
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        match self.enter {
            Some((hook, _)) => hook(node, cx),
            None => Ok(()),
        }
    }
}
