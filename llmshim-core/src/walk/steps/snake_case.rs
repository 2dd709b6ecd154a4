//! Step W6: the 14 snake-case spellings become camel case, and snake case wins.

use serde_json::Value;

use crate::json;
use crate::keyword::SNAKE_CASE;
use crate::report::{ChangeKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W6: renames `any_of` to `anyOf` and the 13 others in place; a camel-case key already present is removed.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct SnakeCase;

impl Pass for SnakeCase {
    fn name(&self) -> &'static str {
        "snake-case"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        // Every snake-case spelling has an underscore; most nodes have no such key, and one pass over the keys is
        // cheaper than fourteen hashed lookups.
        if !map.keys().any(|key| key.contains('_')) {
            return Ok(Flow::Continue);
        }
        for (snake, camel) in SNAKE_CASE {
            if json::rename_in_place(map, snake, camel) {
                cx.record("walk.snake-case", ChangeKind::Rewritten, Some(camel));
            }
        }
        Ok(Flow::Continue)
    }
}
