//! The built-in targets: each is rule-set data behind the same `TargetRules` interface a custom target implements.

use llmshim_core::walk::{Hooks, NodeCtx};
use llmshim_core::{FallbackReason, RuleSet, TargetRules};
use serde_json::Value;

/// A target hook, run on every visited schema object (see [`TargetRules::enter`] and [`TargetRules::leave`]).
pub(crate) type Hook = fn(&mut Value, &mut NodeCtx<'_>) -> Result<(), FallbackReason>;

/// A built-in target: an id, its rule set and, for a target whose rules are not all rule-set data, its hooks.
#[derive(Debug)]
pub struct Builtin {
    id: &'static str,
    rules: RuleSet,
    enter: Option<Hook>,
    enter_keys: Option<&'static [&'static str]>,
}

impl Builtin {
    pub(crate) const fn new(id: &'static str, rules: &RuleSet) -> Self {
        Builtin {
            id,
            rules: *rules,
            enter: None,
            enter_keys: None,
        }
    }

    /// Sets the hook run at the target's `enter` step.
    pub(crate) const fn with_enter(mut self, hook: Hook) -> Self {
        self.enter = Some(hook);
        self
    }

    /// Declares the keys whose presence on a schema object can make the `enter` hook act
    /// ([`TargetRules::enter_keys`]).
    pub(crate) const fn with_enter_keys(mut self, keys: &'static [&'static str]) -> Self {
        self.enter_keys = Some(keys);
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

    fn enter_keys(&self) -> Option<&[&str]> {
        match self.enter {
            // No hook acts on no node.
            None => Some(&[]),
            Some(_) => self.enter_keys,
        }
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        match self.enter {
            Some(hook) => hook(node, cx),
            None => Ok(()),
        }
    }
}
