//! Steps W18 and W29: a target's own `enter` and `leave` hooks, run on every schema object.

use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{FallbackReason, TargetRules};
use serde_json::Value;

/// W18: calls [`TargetRules::enter`] on every schema object, after type inference.
#[derive(Clone, Copy, Debug)]
pub struct EnterHook<'t> {
    target: &'t dyn TargetRules,
}

impl<'t> EnterHook<'t> {
    /// The `enter` hook of `target`.
    pub fn new(target: &'t dyn TargetRules) -> Self {
        EnterHook { target }
    }
}

impl Pass for EnterHook<'_> {
    fn name(&self) -> &'static str {
        "target-enter-hook"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::when(self.target.hooks().enter, Hooks::ENTER)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if node.is_object() {
            self.target.enter(node, cx)?;
        }
        Ok(Flow::Continue)
    }
}

/// W29: calls [`TargetRules::leave`] on every schema object, after the Google-family tail.
///
/// It is a pass of its own because `leave` hooks run in list order: it must be listed after the W26 to W28 passes.
#[derive(Clone, Copy, Debug)]
pub struct LeaveHook<'t> {
    target: &'t dyn TargetRules,
}

impl<'t> LeaveHook<'t> {
    /// The `leave` hook of `target`.
    pub fn new(target: &'t dyn TargetRules) -> Self {
        LeaveHook { target }
    }
}

impl Pass for LeaveHook<'_> {
    fn name(&self) -> &'static str {
        "target-leave-hook"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::when(self.target.hooks().leave, Hooks::LEAVE)
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        if node.is_object() {
            self.target.leave(node, cx)?;
        }
        Ok(())
    }
}
