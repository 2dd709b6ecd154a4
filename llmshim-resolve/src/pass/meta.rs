//! Step W8: definitions and meta keywords leave the output.

use llmshim_core::json;
use llmshim_core::rules::SchemaUri;
use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackReason};
use serde_json::Value;

use crate::draft::Draft;

/// W8: removes `$defs` and `definitions`; sets or removes `$schema`; removes `$id`, `$anchor` and `$comment`.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    schema_uri: Option<SchemaUri>,
    drop_identifiers: bool,
    plain_id: bool,
}

impl Meta {
    /// Normalization's W8 for a rule set's `$schema` handling, in a document of `draft`.
    pub fn normalize(schema_uri: SchemaUri, draft: Draft) -> Self {
        Meta {
            schema_uri: Some(schema_uri),
            drop_identifiers: true,
            plain_id: draft.uses_plain_id(),
        }
    }

    /// The resolver-only variant: definitions and identifiers go, `$schema`, `$anchor` and `$comment` stay.
    pub(crate) fn dereference(draft: Draft) -> Self {
        Meta {
            schema_uri: None,
            drop_identifiers: false,
            plain_id: draft.uses_plain_id(),
        }
    }
}

impl Pass for Meta {
    fn name(&self) -> &'static str {
        "meta"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        // Every key this pass handles starts with `$`, or is `definitions` or draft-04 `id`; one pass over the keys
        // spares most nodes the hashed lookups below.
        if !map
            .keys()
            .any(|key| key.starts_with('$') || key == "definitions" || key == "id")
        {
            return Ok(Flow::Continue);
        }
        for key in ["$defs", "definitions"] {
            if json::remove(map, key).is_some() {
                cx.record("resolve.drop-definitions", ChangeKind::Dropped, Some(key));
            }
        }
        match self.schema_uri {
            Some(SchemaUri::Set2020) if map.contains_key("$schema") => {
                let uri = Value::String(Draft::Draft202012.uri().to_owned());
                if map.get("$schema") != Some(&uri) {
                    json::set(map, "$schema", uri);
                    cx.record("resolve.schema-uri", ChangeKind::Rewritten, Some("$schema"));
                }
            }
            Some(SchemaUri::Remove) if json::remove(map, "$schema").is_some() => {
                cx.record("resolve.schema-uri", ChangeKind::Dropped, Some("$schema"));
            }
            _ => {}
        }
        if self.drop_identifiers {
            for key in ["$id", "$anchor", "$comment"] {
                if json::remove(map, key).is_some() {
                    cx.record("resolve.drop-meta", ChangeKind::Dropped, Some(key));
                }
            }
        } else {
            json::remove(map, "$id");
            if self.plain_id && matches!(map.get("id"), Some(Value::String(_))) {
                json::remove(map, "id");
            }
        }
        Ok(Flow::Continue)
    }
}
