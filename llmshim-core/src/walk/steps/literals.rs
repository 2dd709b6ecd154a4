//! Step W5: the literal charge, key bytes plus compact-JSON bytes of every literal keyword.

use serde_json::Value;

use crate::json;
use crate::keyword::{KeywordClass, class_of};
use crate::report::FallbackReason;
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W5: charges every literal key and its value against `max_literal_bytes`, before renames.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct Literals;

impl Pass for Literals {
    fn name(&self) -> &'static str {
        "literals"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object() else {
            return Ok(Flow::Continue);
        };
        let mut bytes = 0usize;
        for (key, value) in map {
            if class_of(key) == KeywordClass::Literal {
                bytes = bytes
                    .saturating_add(key.len())
                    .saturating_add(json::compact_len(value));
            }
        }
        if bytes > 0 {
            cx.charge_literal(bytes)?;
        }
        Ok(Flow::Continue)
    }
}
