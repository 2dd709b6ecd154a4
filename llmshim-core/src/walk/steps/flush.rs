//! The end of step W22: the lift queue is written into the description in byte-wise keyword order.

use serde_json::Value;

use crate::report::FallbackReason;
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// Flushes the visit's lift queue; listed right after the W22 passes.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct FlushLifts;

impl Pass for FlushLifts {
    fn name(&self) -> &'static str {
        "flush-lifts"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        cx.flush_lifts(node);
        Ok(Flow::Continue)
    }
}
