//! Step W3: a node's `$id` (or draft-04 `id`) changes the base URI for it and its children.

use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{FallbackKind, FallbackReason, json};
use serde_json::Value;

use crate::draft::Draft;
use crate::uri;

/// W3: joins the node's string `$id` (in a draft-04/03 document, its `id` when `$id` is absent) against the inherited
/// base, dropping the fragment.
#[derive(Clone, Copy, Debug)]
pub struct BaseUri {
    draft: Draft,
}

impl BaseUri {
    /// The pass for a document of `draft`.
    pub fn new(draft: Draft) -> Self {
        BaseUri { draft }
    }
}

impl Pass for BaseUri {
    fn name(&self) -> &'static str {
        "base-uri"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object() else {
            return Ok(Flow::Continue);
        };
        let id = match json::member(map, "$id") {
            Some(Value::String(id)) => id,
            None if self.draft.uses_plain_id() => match json::member(map, "id") {
                Some(Value::String(id)) => id,
                _ => return Ok(Flow::Continue),
            },
            _ => return Ok(Flow::Continue),
        };
        let joined = uri::join(cx.base(), id).map_err(|m| cx.fail(FallbackKind::InvalidUri, m))?;
        let resource = uri::strip_fragment(&joined);
        if resource != &**cx.base() {
            cx.set_base(resource.into());
        }
        Ok(Flow::Continue)
    }
}
