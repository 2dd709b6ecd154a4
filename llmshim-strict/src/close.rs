//! Step W26, strict part: every object is closed, every property required, and optional means nullable.

use std::collections::HashSet;

use llmshim_core::walk::{Hooks, Settings};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, NodeCtx, Pass, json};
use serde_json::{Map, Value};

use crate::null::admits_null;

/// W26, strict part: closes every node whose `type` is the string `"object"`, when strict is effective.
///
/// In `leave`, after the children were walked and after the rule set's empty-`properties` step:
/// 1. a missing `properties` is appended as `{}`; a `properties` that is not an object, or an originally required
///    name that is not one of its keys, fails `strict_unsupported` at the node (a `required` that is not an array
///    of strings fails `invalid_schema`, as W24 does);
/// 2. each property that was not originally required and does not already admit null ([`crate::admits_null`]) is
///    wrapped as `{"anyOf": [<schema without its description>, {"type": "null"}], "description": …}`, the
///    description key only when the schema had one (`strict.nullable-optional`, rewritten); a kept reference is
///    wrapped too and marked, and finishing the walk drops the alternative when its definition admits null;
/// 3. `required` becomes every property name in declared order, in place or appended;
/// 4. `additionalProperties` becomes `false`, in place or appended (`strict.close-object`, rewritten, recorded
///    once per node whenever steps 1, 3 or 4 changed it); a non-empty schema it replaces is recorded as dropped
///    (`strict.close-object`, dropped, at `<object>/additionalProperties`).
///
/// The "originally required" names are read from `required` in `leave`: no step between W24 and W26 edits the
/// node's own `required`. Without strict, or on any other node, the pass does nothing. Closing is idempotent.
///
/// The root of a `$ref` target ([`NodeCtx::intermediate`]) is left open: the referencing node's siblings are merged
/// over it and the merged node, walked again, is closed with its final `properties` and `required`.
///
/// The change `strict.nullable-optional` is recorded at `<object>/properties/<name>`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CloseObjects;

/// The rule id of wrapping an optional property.
pub(crate) const NULLABLE_OPTIONAL: &str = "strict.nullable-optional";

/// The rule id of closing an object.
pub(crate) const CLOSE_OBJECT: &str = "strict.close-object";

impl Pass for CloseObjects {
    fn name(&self) -> &'static str {
        "strict-close-objects"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(settings.strict, Hooks::LEAVE)
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        // An intermediate root (a `$ref` target) is closed after its siblings are merged over it: closing it now
        // would require its own properties even when sibling `properties` replace them.
        if !cx.settings().strict || cx.intermediate() {
            return Ok(());
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        if json::member(map, "type").and_then(Value::as_str) != Some("object") {
            return Ok(());
        }
        close(map, cx)
    }
}

/// `required` lists longer than this are put in a hash set to look names up; shorter ones are scanned.
const SCAN: usize = 16;

/// Closing one object node: `properties` added, optional properties made nullable, every property required,
/// `additionalProperties: false` (`strict.nullable-optional`, `strict.close-object`).
///
/// The node is read first and written only where it changes: an object that is already closed, the common case
/// on a second pass, costs no copy of its names.
fn close(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    let (wrap, required_kept) = {
        let required = originally_required(map, cx)?;
        let properties = match json::member(map, "properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => return Err(not_an_object(cx)),
        };
        // Step 1 (check): every originally required name is a property.
        if let Some(missing) = required
            .iter()
            .find(|name| !properties.is_some_and(|p| json::has(p, name)))
        {
            return Err(cx.fail(
                FallbackKind::StrictUnsupported,
                format!("required name {missing:?} is not a property"),
            ));
        }
        let Some(properties) = properties else {
            // No properties and nothing required: step 1 adds them, and no property is wrapped.
            return finish(map, &[], false, true, cx);
        };
        // Step 2 (which): the places of optional properties that do not admit null. A short `required` list is
        // scanned: cheaper than hashing every name into a set (the common case by far).
        let set: Option<HashSet<&str>> =
            (required.len() > SCAN).then(|| required.iter().copied().collect());
        let is_required = |name: &str| match &set {
            Some(set) => set.contains(name),
            None => required.contains(&name),
        };
        let wrap: Vec<usize> = properties
            .iter()
            .enumerate()
            .filter(|(_, (name, schema))| !is_required(name) && !admits_null(schema))
            .map(|(at, _)| at)
            .collect();
        // Step 3 (check): `required` already names every property in declared order.
        let kept = match json::member(map, "required") {
            Some(Value::Array(names)) => {
                names.len() == properties.len()
                    && names
                        .iter()
                        .zip(properties.keys())
                        .all(|(n, k)| n.as_str() == Some(k))
            }
            _ => false,
        };
        (wrap, kept)
    };
    finish(map, &wrap, required_kept, false, cx)
}

/// Writes the closing of one object node: `properties` added when `add_properties`, the properties at the places
/// in `wrap` made nullable, `required` set to every property name unless `required_kept`, and
/// `additionalProperties: false`.
fn finish(
    map: &mut Map<String, Value>,
    wrap: &[usize],
    required_kept: bool,
    add_properties: bool,
    cx: &mut NodeCtx<'_>,
) -> Result<(), FallbackReason> {
    let mut changed = false;
    if add_properties {
        map.insert("properties".to_owned(), Value::Object(Map::new()));
        changed = true;
    }
    let Some(Value::Object(properties)) = json::member_mut(map, "properties") else {
        return Err(not_an_object(cx));
    };
    // The wrapped names are kept only to be recorded, which only diagnostics do.
    let diagnostics = cx.settings().diagnostics;
    let mut wrapped: Vec<String> = Vec::with_capacity(if diagnostics { wrap.len() } else { 0 });
    let mut places = wrap.iter().copied().peekable();
    for (at, (name, schema)) in properties.iter_mut().enumerate() {
        if places.peek() != Some(&at) {
            continue;
        }
        places.next();
        wrap_nullable(schema);
        // A kept reference's definition may admit null by itself, which only the finished walk knows: the site
        // is marked so that the alternative is dropped again then.
        if let Some(site) = schema.get_mut("anyOf").and_then(|b| b.get_mut(0))
            && llmshim_core::defs::site_name(site).is_some()
        {
            llmshim_core::defs::mark_optional(site);
        }
        if diagnostics {
            wrapped.push(name.clone());
        }
    }
    let names = (!required_kept)
        .then(|| Value::Array(properties.keys().cloned().map(Value::String).collect()));
    for name in &wrapped {
        cx.record_at(
            NULLABLE_OPTIONAL,
            ChangeKind::Rewritten,
            &["properties", name],
        );
    }

    // Step 3: every name is required, in declared order.
    if let Some(names) = names {
        json::set(map, "required", names);
        changed = true;
    }

    // Step 4: the object is closed. A schema it held is dropped on purpose (strict providers take only closed
    // objects) and recorded as dropped at `<node>/additionalProperties`, so the report says what went.
    let previous = json::member(map, "additionalProperties");
    if previous != Some(&Value::Bool(false)) {
        let schema_dropped = previous.is_some_and(|v| v.as_object().is_some_and(|s| !s.is_empty()));
        json::set(map, "additionalProperties", Value::Bool(false));
        changed = true;
        if schema_dropped {
            cx.record(
                CLOSE_OBJECT,
                ChangeKind::Dropped,
                Some("additionalProperties"),
            );
        }
    }
    if changed {
        cx.record(CLOSE_OBJECT, ChangeKind::Rewritten, None);
    }
    Ok(())
}

/// The failure of a `properties` that is not an object.
#[cold]
fn not_an_object(cx: &NodeCtx<'_>) -> FallbackReason {
    cx.fail(
        FallbackKind::StrictUnsupported,
        "properties must be an object under strict",
    )
}

/// The names of `required` as read at W24: absent means none; anything but an array of strings is invalid.
fn originally_required<'m>(
    map: &'m Map<String, Value>,
    cx: &NodeCtx<'_>,
) -> Result<Vec<&'m str>, FallbackReason> {
    let Some(required) = json::member(map, "required") else {
        return Ok(Vec::new());
    };
    let names = required.as_array().and_then(|entries| {
        entries
            .iter()
            .map(Value::as_str)
            .collect::<Option<Vec<&str>>>()
    });
    names.ok_or_else(|| {
        cx.fail(
            FallbackKind::InvalidSchema,
            "required must be an array of strings",
        )
    })
}

/// Replaces `schema` by `{"anyOf": [schema without description, {"type": "null"}], "description": …}`, the
/// description key only when the schema had one: the wrapper [`CloseObjects`] gives an optional property that does
/// not admit null (`strict.nullable-optional`).
///
/// ```
/// use serde_json::json;
///
/// let mut schema = json!({"type": "string", "description": "City"});
/// llmshim_strict::wrap_nullable(&mut schema);
/// assert_eq!(
///     schema,
///     json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "City"})
/// );
/// ```
pub fn wrap_nullable(schema: &mut Value) {
    let mut inner = std::mem::take(schema);
    let description = inner
        .as_object_mut()
        .and_then(|map| json::remove(map, "description"));
    // The wrapper is a copy of a prepared one whose placeholders are then filled: copying a map costs no hashing
    // of its keys, building one hashes each.
    let [bare, described] = wrappers();
    let mut wrapper = if description.is_some() {
        described.clone()
    } else {
        bare.clone()
    };
    let mut slots = wrapper.values_mut();
    if let Some(first) = slots.next().and_then(|b| b.as_array_mut()?.first_mut()) {
        *first = inner;
    }
    if let (Some(slot), Some(description)) = (slots.next(), description) {
        *slot = description;
    }
    *schema = Value::Object(wrapper);
}

/// The two wrappers [`wrap_nullable`] copies, without and with a description: `{"anyOf": [null, {"type":
/// "null"}]}` and the same with `"description": null` after it; the first `null` stands for the wrapped schema.
fn wrappers() -> &'static [Map<String, Value>; 2] {
    static WRAPPERS: std::sync::OnceLock<[Map<String, Value>; 2]> = std::sync::OnceLock::new();
    WRAPPERS.get_or_init(|| {
        let mut null = Map::new();
        null.insert("type".to_owned(), Value::String("null".to_owned()));
        let mut bare = Map::new();
        bare.insert(
            "anyOf".to_owned(),
            Value::Array(vec![Value::Null, Value::Object(null)]),
        );
        let mut described = bare.clone();
        described.insert("description".to_owned(), Value::Null);
        [bare, described]
    })
}
