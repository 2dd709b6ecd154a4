//! Draft upgrades: `id` (W6), tuples (W9), `dependencies` (W10), boolean exclusive bounds (W11).

use llmshim_core::json;
use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason};
use serde_json::{Map, Value};

use crate::Upgrades;
use crate::draft::Draft;

/// The upgrade steps, switched by [`Upgrades`]; `Upgrade::id` is listed at W6 and `Upgrade::forms` at W9–W11.
#[derive(Clone, Copy, Debug)]
pub struct Upgrade {
    upgrades: Upgrades,
    stage: Stage,
    plain_id: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Id,
    Forms,
}

impl Upgrade {
    /// W6: in a draft-04/03 document, `id` becomes `$id` in place when `$id` is absent.
    pub fn id(upgrades: Upgrades, draft: Draft) -> Self {
        Upgrade {
            upgrades,
            stage: Stage::Id,
            plain_id: draft.uses_plain_id(),
        }
    }

    /// W9–W11: tuples, `dependencies` and boolean exclusive bounds.
    pub fn forms(upgrades: Upgrades) -> Self {
        Upgrade {
            upgrades,
            stage: Stage::Forms,
            plain_id: false,
        }
    }
}

impl Pass for Upgrade {
    fn name(&self) -> &'static str {
        "upgrade"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        // The identifier stage acts only where plain `id` is an identifier and its upgrade is on.
        Hooks::when(
            self.stage == Stage::Forms || (self.upgrades.id && self.plain_id),
            Hooks::ENTER,
        )
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        match self.stage {
            Stage::Id => {
                if self.upgrades.id
                    && self.plain_id
                    && !json::has(map, "$id")
                    && matches!(json::member(map, "id"), Some(Value::String(_)))
                {
                    json::rename_in_place(map, "id", "$id");
                    cx.record("upgrade.id", ChangeKind::Upgraded, Some("$id"));
                }
            }
            Stage::Forms => {
                // Every form upgraded here has one of these keys; one pass over the keys spares most nodes the
                // hashed lookups.
                let candidate = map.keys().any(|key| {
                    matches!(
                        key.as_str(),
                        "items"
                            | "additionalItems"
                            | "dependencies"
                            | "exclusiveMinimum"
                            | "exclusiveMaximum"
                    )
                });
                if !candidate {
                    return Ok(Flow::Continue);
                }
                if self.upgrades.tuples {
                    tuples(map, cx);
                }
                if self.upgrades.dependencies {
                    dependencies(map, cx)?;
                }
                if self.upgrades.exclusive_bounds {
                    exclusive_bounds(map, cx);
                }
            }
        }
        Ok(Flow::Continue)
    }
}

/// W9: an array `items` becomes `prefixItems` and `additionalItems` becomes `items`.
fn tuples(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) {
    if json::member(map, "items").is_some_and(Value::is_array) {
        json::remove(map, "prefixItems");
        json::rename_in_place(map, "items", "prefixItems");
        json::rename_in_place(map, "additionalItems", "items");
        cx.record("upgrade.tuple", ChangeKind::Upgraded, Some("prefixItems"));
    } else if json::remove(map, "additionalItems").is_some() {
        cx.record(
            "upgrade.drop-additional-items",
            ChangeKind::Dropped,
            Some("additionalItems"),
        );
    }
}

/// W10: array entries of `dependencies` go to `dependentRequired`, others to `dependentSchemas`.
fn dependencies(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    let Some(deps) = json::member(map, "dependencies") else {
        return Ok(());
    };
    let Some(deps) = deps.as_object() else {
        return Err(cx.fail(
            FallbackKind::InvalidSchema,
            "dependencies must be an object",
        ));
    };
    let mut required = Map::new();
    let mut schemas = Map::new();
    for (key, value) in deps {
        if value.is_array() {
            required.insert(key.clone(), value.clone());
        } else {
            schemas.insert(key.clone(), value.clone());
        }
    }
    for (name, entries) in [
        ("dependentRequired", required),
        ("dependentSchemas", schemas),
    ] {
        if entries.is_empty() {
            continue;
        }
        match map.get_mut(name) {
            Some(Value::Object(existing)) => {
                for (k, v) in entries {
                    json::set(existing, &k, v);
                }
            }
            Some(_) => {
                return Err(cx.fail(
                    FallbackKind::InvalidSchema,
                    format!("{name} must be an object"),
                ));
            }
            None => {
                map.insert(name.to_owned(), Value::Object(entries));
            }
        }
    }
    json::remove(map, "dependencies");
    cx.record(
        "upgrade.dependencies",
        ChangeKind::Upgraded,
        Some("dependencies"),
    );
    Ok(())
}

/// W11: a boolean `exclusiveMinimum`/`exclusiveMaximum` takes its bound's value or disappears.
fn exclusive_bounds(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) {
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        let Some(Value::Bool(flag)) = map.get(exclusive) else {
            continue;
        };
        let flag = *flag;
        match map.get(bound) {
            Some(Value::Number(n)) if flag => {
                let n = Value::Number(n.clone());
                json::set(map, exclusive, n);
                json::remove(map, bound);
            }
            _ => {
                json::remove(map, exclusive);
            }
        }
        cx.record(
            "upgrade.exclusive-bound",
            ChangeKind::Upgraded,
            Some(exclusive),
        );
    }
}
