//! Step W21: the nullability policy.

use serde_json::Value;

use crate::json;
use crate::report::{ChangeKind, FallbackReason};
use crate::rules::Nullable;
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W21: under `Marker` or `Remove`, `type: [X, "null"]` becomes `type: X` (with `nullable: true` under `Marker`)
/// and nulls leave the `enum`; `Remove` then deletes every `nullable`. Strict mode behaves as `Preserve`.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct NullablePolicy;

impl Pass for NullablePolicy {
    fn name(&self) -> &'static str {
        "nullable-policy"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(
            !settings.strict && settings.nullable != Nullable::Preserve,
            Hooks::ENTER,
        )
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let policy = if cx.settings().strict {
            Nullable::Preserve
        } else {
            cx.settings().nullable
        };
        if policy == Nullable::Preserve {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let single = match json::member(map, "type") {
            Some(Value::Array(types)) => {
                let live: Vec<&Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .collect();
                let has_null = live.len() < types.len();
                match live.as_slice() {
                    [only] if has_null => Some((*only).clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(only) = single {
            json::set(map, "type", only);
            if let Some(Value::Array(values)) = json::member_mut(map, "enum") {
                values.retain(|v| !v.is_null());
            }
            if policy == Nullable::Marker {
                json::set(map, "nullable", Value::Bool(true));
                cx.record("walk.nullable-marker", ChangeKind::Rewritten, Some("type"));
            } else {
                cx.record("walk.nullable-remove", ChangeKind::Rewritten, Some("type"));
            }
        }
        if policy == Nullable::Remove && json::remove(map, "nullable").is_some() {
            cx.record(
                "walk.nullable-remove",
                ChangeKind::Dropped,
                Some("nullable"),
            );
        }
        Ok(Flow::Continue)
    }
}
