//! The built-in targets: each is rule-set data behind the same `TargetRules` interface a custom target implements.

use llmshim_core::{RuleSet, TargetRules};

/// A built-in target: an id and its rule set, nothing else (no hooks).
#[derive(Debug)]
pub struct Builtin {
    id: &'static str,
    rules: RuleSet,
}

impl Builtin {
    pub(crate) const fn new(id: &'static str, rules: &RuleSet) -> Self {
        Builtin { id, rules: *rules }
    }
}

impl TargetRules for Builtin {
    fn id(&self) -> &str {
        self.id
    }

    fn rules(&self) -> &RuleSet {
        &self.rules
    }
}
