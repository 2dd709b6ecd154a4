//! Steps W2 and W4: boolean schemas and values that are not schemas at all.

use serde_json::Value;

use crate::report::{FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W2 and W4: a boolean schema is kept (ending the visit) or rejected; any other non-object fails `invalid_schema`.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    reject_booleans: bool,
    lenient: bool,
}

impl Shape {
    /// Booleans are kept unless strict is effective.
    pub const fn keep_booleans() -> Self {
        Shape {
            reject_booleans: false,
            lenient: false,
        }
    }

    /// Booleans are always rejected.
    pub const fn reject_booleans() -> Self {
        Shape {
            reject_booleans: true,
            lenient: false,
        }
    }

    /// Every non-object value is kept as it is and ends the visit (the resolver-only API).
    pub const fn lenient() -> Self {
        Shape {
            reject_booleans: false,
            lenient: true,
        }
    }
}

impl Pass for Shape {
    fn name(&self) -> &'static str {
        "shape"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        match node {
            Value::Object(_) => Ok(Flow::Continue),
            _ if self.lenient => Ok(Flow::Done),
            Value::Bool(_) if self.reject_booleans || cx.settings().strict => Err(cx.fail(
                FallbackKind::BooleanSchema,
                "boolean subschemas are not accepted here",
            )),
            Value::Bool(_) => Ok(Flow::Done),
            _ => Err(cx.fail(
                FallbackKind::InvalidSchema,
                "a schema must be an object or a boolean",
            )),
        }
    }
}
