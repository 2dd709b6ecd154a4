//! Steps W12 and W24: `required: null` is dropped, and any other `required` must be an array of strings.

use serde_json::Value;

use crate::json;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W12: removes `required: null` on every target (rule `walk.required-null`).
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct RequiredNull;

impl Pass for RequiredNull {
    fn name(&self) -> &'static str {
        "required-null"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if let Some(map) = node.as_object_mut()
            && json::member(map, "required").is_some_and(Value::is_null)
        {
            json::remove(map, "required");
            cx.record("walk.required-null", ChangeKind::Dropped, Some("required"));
        }
        Ok(Flow::Continue)
    }
}

/// W24: a present `required` must be an array of strings, else `invalid_schema`.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct RequiredStrings;

impl Pass for RequiredStrings {
    fn name(&self) -> &'static str {
        "required-strings"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        match node.as_object().and_then(|m| json::member(m, "required")) {
            None => Ok(Flow::Continue),
            Some(Value::Array(names)) if names.iter().all(Value::is_string) => Ok(Flow::Continue),
            Some(_) => Err(cx.fail(
                FallbackKind::InvalidSchema,
                "required must be an array of strings",
            )),
        }
    }
}
