//! Step W26, strict part: every object is closed, every property required, and optional means nullable.

use std::collections::HashSet;

use llmshim_core::walk::{Hooks, Settings};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, NodeCtx, Pass, json, keyword};
use serde_json::{Map, Value};

use crate::distribute;
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
/// An object node whose union carries it is not closed itself: where its only shape is an `anyOf` or `oneOf` of
/// closed objects its `type` is dropped, and where it declares `properties` of its own beside such a union they are
/// carried into every branch, closed there on both (`distribute`); where neither is sound, strict fails at the node.
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
        // A union branch strict closes from an open object is noted: a closed branch not noted was closed as
        // written, and admits none of its object's other names.
        if json::member(map, "additionalProperties") != Some(&Value::Bool(false))
            && is_union_branch(cx.pointer())
        {
            cx.note_closed_by_strict();
        }
        // Below a schema `additionalProperties`, which closing its object drops whole, the node is closed as any.
        if let Some(key) = distribute::union_key(map)
            && !below_additional_properties(cx.pointer())
        {
            let walked_at = drop_branches_of_other_types(map, key, cx, |_, _| true);
            return carry_into_branches(map, key, &walked_at, cx);
        }
        if let Some(key) = sole_union(map) {
            drop_branches_of_other_types(map, key, cx, |kept, cx| {
                union_carries_the_object(kept, cx) == Some(true)
            });
        }
        let carried = union_carries_the_object(map, cx);
        if carried.is_none() {
            // A kept reference among the branches whose definition is not walked yet: whether it is an object that
            // could carry this node is unknown, and closed empty the node would admit only `{}`.
            return Err(cx.fail(
                FallbackKind::StrictUnsupported,
                "an object whose union carries it has a branch behind a reference not yet walked",
            ));
        }
        if carried == Some(true) {
            // Closing this node as an empty object would admit only `{}` beside branches that each require their
            // own properties, so nothing at all; its union already says it is an object, each branch closed.
            for key in ["type", "properties", "required"] {
                json::remove(map, key);
            }
            // The empty `properties` the walk added for closing are gone with them: the report no longer says so.
            cx.retract_change("walk.empty-properties", "properties");
            cx.record(CLOSE_OBJECT, ChangeKind::Rewritten, Some("type"));
            return Ok(());
        }
        close(map, cx)
    }
}

/// The union key (`anyOf` or `oneOf`) of a node that holds one of them as an array and not the other.
fn sole_union(map: &Map<String, Value>) -> Option<&'static str> {
    let mut unions = ["anyOf", "oneOf"]
        .into_iter()
        .filter(|key| json::member(map, key).is_some());
    let key = unions.next()?;
    (unions.next().is_none() && json::member(map, key).is_some_and(Value::is_array)).then_some(key)
}

/// Removes the branches of the object node's union `key` that are typed otherwise (see [`typed_otherwise`]) where
/// the node's `type` was written, not given by the walk ([`NodeCtx::type_inferred`]): beside a written `object` such
/// a branch admits nothing, so the union admits the same values without it, and the object branches left can carry
/// the node (`strict.close-object`). Nothing is removed where no branch would be left, nor where `worth` (given the
/// node as it would be) says the removal does not let the union carry it: the node is then closed as before. A
/// removed branch's description that names a narrowing (a part omitted, a recursion cut, a `(type: any)`) joins the
/// node's, so the note does not go with it; the removal is recorded as rewritten at `<object>/<key>`.
///
/// Returns the index each branch left was walked at, where a branch was removed (empty otherwise): what the walk
/// noted of a branch (closed by strict, say) is found at that index.
fn drop_branches_of_other_types(
    map: &mut Map<String, Value>,
    key: &str,
    cx: &mut NodeCtx<'_>,
    worth: impl Fn(&Map<String, Value>, &NodeCtx<'_>) -> bool,
) -> Vec<usize> {
    let Some(Value::Array(branches)) = json::member(map, key) else {
        return Vec::new();
    };
    let dead: Vec<bool> = branches
        .iter()
        .map(|branch| typed_otherwise(branch, cx, 0))
        .collect();
    if !dead.contains(&true) || !dead.contains(&false) {
        return Vec::new();
    }
    // An inferred `type` (from `properties`, say) turns away values the input admitted: a branch of another type may
    // hold just those, so it stays, and the node is closed on its own names as before.
    if cx.type_inferred() {
        return Vec::new();
    }
    let mut kept = map.clone();
    let mut notes = Vec::new();
    if let Some(Value::Array(branches)) = json::member_mut(&mut kept, key) {
        let mut flags = dead.iter();
        branches.retain(|branch| {
            let gone = flags.next().copied().unwrap_or(false);
            if gone
                && let Some(Value::String(text)) = branch.get("description")
                && names_a_narrowing(text)
            {
                notes.push(text.trim().to_owned());
            }
            !gone
        });
    }
    if !worth(&kept, cx) {
        return Vec::new();
    }
    if !notes.is_empty() {
        let own = match json::member(&kept, "description") {
            Some(Value::String(text)) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            _ => None,
        };
        let text = own.into_iter().chain(notes).collect::<Vec<_>>().join(" ");
        json::set(&mut kept, "description", Value::String(text));
    }
    *map = kept;
    cx.record(CLOSE_OBJECT, ChangeKind::Rewritten, Some(key));
    dead.iter()
        .enumerate()
        .filter(|(_, gone)| !**gone)
        .map(|(i, _)| i)
        .collect()
}

/// Whether a description names a narrowing made below it: an omitted part, a recursion cut, a node typed from any
/// value (`walk.narrow-any`).
fn names_a_narrowing(text: &str) -> bool {
    text.contains("(omitted ") || text.contains("(recursive ") || text.contains("(type: any)")
}

/// Whether a walked union branch admits no object: its `type` (a name, or a list of names) names no `object`, or it
/// is a kept reference whose walked definition is such a branch. A branch without a type, or a reference whose
/// definition is not walked yet, may admit objects.
fn typed_otherwise(branch: &Value, cx: &NodeCtx<'_>, depth: usize) -> bool {
    if depth > CARRY_DEPTH {
        return false;
    }
    if let Some(name) = llmshim_core::defs::site_name(branch) {
        return cx
            .definition(name)
            .is_some_and(|definition| typed_otherwise(definition, cx, depth + 1));
    }
    match branch.get("type") {
        Some(Value::String(t)) => t != "object",
        Some(Value::Array(types)) => !types.iter().any(|t| t.as_str() == Some("object")),
        _ => false,
    }
}

/// Whether `pointer` passes through an `additionalProperties` schema (a token `additionalProperties` that is not a
/// name under a keyword of named schemas).
fn below_additional_properties(pointer: &str) -> bool {
    let mut previous = "";
    pointer.split('/').any(|token| {
        let found = token == "additionalProperties"
            && !matches!(
                previous,
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            );
        previous = token;
        found
    })
}

/// Whether `pointer` names a branch of an `anyOf` or a `oneOf`.
fn is_union_branch(pointer: &str) -> bool {
    let mut tokens = pointer.rsplit('/');
    tokens
        .next()
        .is_some_and(|index| index.bytes().all(|b| b.is_ascii_digit()))
        && tokens
            .next()
            .is_some_and(|key| key == "anyOf" || key == "oneOf")
}

/// Closes an object node that holds properties of its own beside an `anyOf` or `oneOf` (`key`): its shape is closed
/// on a copy, then carried into every branch of its union (`distribute`), and the node keeps its union and
/// annotations, recorded as `strict.close-object`, rewritten, at `<object>/properties`. Where the shape cannot be
/// carried soundly into a branch, strict is given up at the node (`strict_unsupported`). `walked_at` gives the index
/// each branch was walked at where branches of other types were removed before it (empty where none was).
fn carry_into_branches(
    map: &mut Map<String, Value>,
    key: &str,
    walked_at: &[usize],
    cx: &mut NodeCtx<'_>,
) -> Result<(), FallbackReason> {
    let mut shape = Map::new();
    for k in ["properties", "required"] {
        if let Some(value) = json::member(map, k) {
            shape.insert(k.to_owned(), value.clone());
        }
    }
    // A branch that only requires some of the node's names takes the node's shape closed with those names required
    // too: they stay as written there, the others nullable.
    let open = shape.clone();
    let close_with = |names: &[&str]| -> Result<Map<String, Value>, &'static str> {
        let mut shape = open.clone();
        let mut required = match json::member(&shape, "required") {
            Some(Value::Array(required)) => required.clone(),
            _ => Vec::new(),
        };
        for name in names {
            if !required.iter().any(|r| r.as_str() == Some(name)) {
                required.push(Value::String((*name).to_owned()));
            }
        }
        json::set(&mut shape, "required", Value::Array(required));
        close_object(&mut shape, |_| {}).map_err(|unclosable| match unclosable {
            Unclosable::NotAProperty(_) => {
                "a union branch requires a property its object does not declare"
            }
            _ => "an object beside a union of required names cannot be closed",
        })?;
        Ok(match json::remove(&mut shape, "properties") {
            Some(Value::Object(properties)) => properties,
            _ => Map::new(),
        })
    };
    let diagnostics = cx.settings().diagnostics;
    let mut wrapped = Vec::new();
    let closed = close_object(&mut shape, |name| {
        if diagnostics {
            wrapped.push(name.to_owned());
        }
    });
    if let Err(unclosable) = closed {
        let kind = match unclosable {
            Unclosable::RequiredNotStrings => FallbackKind::InvalidSchema,
            _ => FallbackKind::StrictUnsupported,
        };
        return Err(cx.fail(kind, unclosable.to_string()));
    }
    let properties = match json::remove(&mut shape, "properties") {
        Some(Value::Object(properties)) => properties,
        _ => Map::new(),
    };
    if let Err(why) =
        distribute::carry_into_branches(map, key, &properties, &close_with, walked_at, cx)
    {
        return Err(cx.fail(FallbackKind::StrictUnsupported, why));
    }
    for name in wrapped {
        cx.record_at(
            NULLABLE_OPTIONAL,
            ChangeKind::Rewritten,
            &["properties", &name],
        );
    }
    cx.record(CLOSE_OBJECT, ChangeKind::Rewritten, Some("properties"));
    Ok(())
}

/// Whether an object node declares nothing of its own shape (no `properties` but empty ones, no `required` but an
/// empty list, no `additionalProperties` nor any other object keyword) while its `anyOf` or `oneOf` branches each
/// carry an object ([`carries_an_object`]): the union carries the object, and the node's `type` and empty
/// `properties` and `required` are what remains to drop. `None` where that turns on a kept definition not yet walked.
fn union_carries_the_object(map: &Map<String, Value>, cx: &NodeCtx<'_>) -> Option<bool> {
    let mut union = None;
    for (key, value) in map {
        let shape_free = match (key.as_str(), value) {
            ("anyOf" | "oneOf", Value::Array(branches)) if union.is_none() => {
                union = Some(branches);
                true
            }
            ("properties", Value::Object(p)) => p.is_empty(),
            ("required", Value::Array(r)) => r.is_empty(),
            (key, _) => key == "type" || keyword::ANNOTATIONS.contains(&key),
        };
        if !shape_free {
            return Some(false);
        }
    }
    let Some(branches) = union.filter(|b| !b.is_empty()) else {
        return Some(false);
    };
    // Only a branch whose definition is still being walked leaves it open, and only where every other branch
    // carries an object (otherwise the node is closed as before).
    all_carry(branches, cx, 0)
}

/// Whether every one of `branches` carries an object ([`carries_an_object`] at `depth`): `Some(false)` at the first
/// that does not, `None` where none refuses but one turns on a kept definition not yet walked.
fn all_carry(branches: &[Value], cx: &NodeCtx<'_>, depth: usize) -> Option<bool> {
    let mut known = true;
    for branch in branches {
        match carries_an_object(branch, cx, depth) {
            Some(false) => return Some(false),
            Some(true) => {}
            None => known = false,
        }
    }
    known.then_some(true)
}

/// How deep [`carries_an_object`] follows unions and kept definitions.
const CARRY_DEPTH: usize = 8;

/// Whether a walked branch admits only objects, each closed by strict: an object schema with
/// `additionalProperties: false`, an untyped union (annotations besides) of such branches, or a kept reference
/// whose walked definition is one. `None` for a kept reference whose definition is not walked yet.
fn carries_an_object(branch: &Value, cx: &NodeCtx<'_>, depth: usize) -> Option<bool> {
    if depth > CARRY_DEPTH {
        return Some(false);
    }
    if let Some(name) = llmshim_core::defs::site_name(branch) {
        return cx
            .definition(name)
            .and_then(|definition| carries_an_object(definition, cx, depth + 1));
    }
    let Some(b) = branch.as_object() else {
        return Some(false);
    };
    if json::member(b, "type").and_then(Value::as_str) == Some("object") {
        return Some(json::member(b, "additionalProperties") == Some(&Value::Bool(false)));
    }
    let Some(union) = distribute::bare_union(b) else {
        return Some(false);
    };
    let Some(Value::Array(inner)) =
        json::member(b, union).filter(|u| u.as_array().is_some_and(|u| !u.is_empty()))
    else {
        return Some(false);
    };
    all_carry(inner, cx, depth + 1)
}

/// `required` lists longer than this are put in a hash set to look names up; shorter ones are scanned.
const SCAN: usize = 16;

/// The closing of one object node by [`CloseObjects`]: its changes recorded, a node it cannot close failed.
fn close(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    // The wrapped names are recorded only with diagnostics.
    let diagnostics = cx.settings().diagnostics;
    let closing = close_object(map, |name| {
        if diagnostics {
            cx.record_at(
                NULLABLE_OPTIONAL,
                ChangeKind::Rewritten,
                &["properties", name],
            );
        }
    });
    match closing {
        Ok(closing) => {
            // A schema `additionalProperties` held is dropped on purpose (strict providers take only closed
            // objects) and recorded as dropped at `<node>/additionalProperties`, so the report says what went.
            if closing.dropped {
                cx.record(
                    CLOSE_OBJECT,
                    ChangeKind::Dropped,
                    Some("additionalProperties"),
                );
            }
            if closing.closed {
                cx.record(CLOSE_OBJECT, ChangeKind::Rewritten, None);
            }
            Ok(())
        }
        Err(unclosable) => {
            let kind = match unclosable {
                Unclosable::RequiredNotStrings => FallbackKind::InvalidSchema,
                _ => FallbackKind::StrictUnsupported,
            };
            Err(cx.fail(kind, unclosable.to_string()))
        }
    }
}

/// What [`close_object`] changed in one object node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Closing {
    /// Some optional property was wrapped as nullable (`strict.nullable-optional`).
    pub wrapped: bool,
    /// `properties` was added, or `required` or `additionalProperties` written (`strict.close-object`).
    pub closed: bool,
    /// `additionalProperties` held a non-empty schema, which closing dropped.
    pub dropped: bool,
}

/// Why [`close_object`] cannot close an object node; the node is then left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unclosable {
    /// `required` is not an array of strings.
    RequiredNotStrings,
    /// `properties` is not an object.
    PropertiesNotObject,
    /// `required` names a property the node does not declare (the name).
    NotAProperty(String),
}

impl std::fmt::Display for Unclosable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::RequiredNotStrings => f.write_str("required must be an array of strings"),
            Self::PropertiesNotObject => f.write_str("properties must be an object under strict"),
            Self::NotAProperty(name) => write!(f, "required name {name:?} is not a property"),
        }
    }
}

impl std::error::Error for Unclosable {}

/// Closes one object node as [`CloseObjects`] does in `leave`, with its steps 1 to 4: `properties` added when
/// missing, each property that `required` does not name and that does not admit null ([`crate::admits_null`])
/// wrapped with [`wrap_nullable`] (a kept reference's wrapper marked, and `wrapped` called with the property's name),
/// `required` naming every property in declared order and `additionalProperties: false`, each in place or appended.
/// Says what changed; the node's own type is not read.
///
/// The node is read first and written only where it changes: an object that is already closed, the common case on
/// a second pass, costs no copy of its names.
///
/// # Errors
///
/// [`Unclosable`], before anything is written: a `required` that is not an array of strings, a `properties` that
/// is not an object, a required name that is not a property.
///
/// ```
/// use llmshim_strict::close_object;
/// use serde_json::json;
///
/// let mut node = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]});
/// let map = node.as_object_mut().ok_or("an object")?;
/// let mut wrapped = Vec::new();
/// let closing = close_object(map, |name| wrapped.push(name.to_owned()))?;
/// assert!(closing.wrapped && closing.closed && !closing.dropped);
/// assert_eq!(wrapped, ["a"]);
/// assert_eq!(
///     node,
///     json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "b": {"type": "integer"}},
///            "required": ["a", "b"], "additionalProperties": false})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn close_object(
    map: &mut Map<String, Value>,
    mut wrapped: impl FnMut(&str),
) -> Result<Closing, Unclosable> {
    // Reads: whether the node can be closed, and whether `required` already names every property in order.
    let (has_properties, required_kept) = {
        let required: &[Value] = match json::member(map, "required") {
            None => &[],
            Some(Value::Array(names)) if names.iter().all(Value::is_string) => names,
            Some(_) => return Err(Unclosable::RequiredNotStrings),
        };
        let properties = match json::member(map, "properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => return Err(Unclosable::PropertiesNotObject),
        };
        // Step 1 (check): every originally required name is a property.
        if let Some(missing) = required
            .iter()
            .filter_map(Value::as_str)
            .find(|name| !properties.is_some_and(|p| json::has(p, name)))
        {
            return Err(Unclosable::NotAProperty(missing.to_owned()));
        }
        let kept = properties.is_some_and(|properties| {
            json::has(map, "required")
                && required.len() == properties.len()
                && required
                    .iter()
                    .zip(properties.keys())
                    .all(|(n, k)| n.as_str() == Some(k))
        });
        (properties.is_some(), kept)
    };
    let mut closing = Closing::default();
    // Step 1: no properties and nothing required (checked above): empty ones are added.
    if !has_properties {
        map.insert("properties".to_owned(), Value::Object(Map::new()));
        closing.closed = true;
    }
    // Steps 2 and 3, where `required` does not already name every property (then none is optional). The originally
    // required names are taken out of their place, which then receives every name.
    if !required_kept {
        let mut original = json::member_mut(map, "required").map(std::mem::take);
        let required: &mut [Value] = match &mut original {
            Some(Value::Array(names)) => names.as_mut_slice(),
            _ => &mut [],
        };
        // An optional property that does not admit null already is wrapped as nullable.
        let mut optional = |name: &str, schema: &mut Value| {
            if admits_null(schema) {
                return;
            }
            wrap_nullable(schema);
            // A kept reference's definition may admit null by itself, which only the finished walk knows: the site is
            // marked so that the alternative is dropped again then.
            if let Value::Object(wrapper) = schema
                && let Some(site) = json::member_mut(wrapper, "anyOf").and_then(|b| b.get_mut(0))
                && llmshim_core::defs::site_name(site).is_some()
            {
                llmshim_core::defs::mark_optional(site);
            }
            closing.wrapped = true;
            wrapped(name);
        };
        let mut names = Vec::new();
        if let Some(Value::Object(properties)) = json::member_mut(map, "properties") {
            names.reserve_exact(properties.len());
            if required.len() > SCAN {
                let set: HashSet<&str> = required.iter().filter_map(Value::as_str).collect();
                for (name, schema) in properties.iter_mut() {
                    if !set.contains(name.as_str()) {
                        optional(name, schema);
                    }
                    names.push(Value::String(name.clone()));
                }
            } else {
                // A short `required` list is scanned: cheaper than hashing every name into a set (the common case by
                // far). A required name is moved from the old list into the new one (its slot left `null`, which no
                // later name matches) instead of copied.
                for (name, schema) in properties.iter_mut() {
                    if let Some(slot) = required.iter_mut().find(|r| r.as_str() == Some(name)) {
                        names.push(std::mem::take(slot));
                    } else {
                        optional(name, schema);
                        names.push(Value::String(name.clone()));
                    }
                }
            }
        }
        json::set(map, "required", Value::Array(names));
        closing.closed = true;
    }
    // Step 4: the object is closed.
    let previous = json::member(map, "additionalProperties");
    if previous != Some(&Value::Bool(false)) {
        closing.dropped = previous.is_some_and(|v| v.as_object().is_some_and(|s| !s.is_empty()));
        json::set(map, "additionalProperties", Value::Bool(false));
        closing.closed = true;
    }
    Ok(closing)
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
    // The description is taken out by a scan of the keys: `retain` rebuilds the map's index from the hashes it
    // stores, where a removal by key hashes the key again with SipHash (most wrapped schemas have a description).
    let mut description = None;
    if let Value::Object(map) = &mut inner
        && json::has(map, "description")
    {
        map.retain(|key, value| {
            if json::same_key(key, "description") {
                description = Some(std::mem::take(value));
                false
            } else {
                true
            }
        });
    }
    // The wrapper is a copy of a prepared one whose placeholder is then filled, and so is its null branch: copying
    // a map costs no hashing of its keys, building one hashes each. The branch list is built at its size directly.
    let prepared = wrappers();
    let mut wrapper = if description.is_some() {
        prepared.described.clone()
    } else {
        prepared.bare.clone()
    };
    let branches = Value::Array(vec![inner, Value::Object(prepared.null.clone())]);
    let mut slots = wrapper.values_mut();
    if let Some(first) = slots.next() {
        *first = branches;
    }
    if let (Some(slot), Some(description)) = (slots.next(), description) {
        *slot = description;
    }
    *schema = Value::Object(wrapper);
}

/// The prepared maps [`wrap_nullable`] copies.
struct Wrappers {
    /// `{"anyOf": null}`, where `null` stands for the list of branches.
    bare: Map<String, Value>,
    /// `{"anyOf": null, "description": null}`, the second `null` standing for the description.
    described: Map<String, Value>,
    /// The null branch, `{"type": "null"}`.
    null: Map<String, Value>,
}

/// The maps [`wrap_nullable`] copies, prepared once.
fn wrappers() -> &'static Wrappers {
    static WRAPPERS: std::sync::OnceLock<Wrappers> = std::sync::OnceLock::new();
    WRAPPERS.get_or_init(|| {
        let mut null = Map::new();
        null.insert("type".to_owned(), Value::String("null".to_owned()));
        let mut bare = Map::new();
        bare.insert("anyOf".to_owned(), Value::Null);
        let mut described = bare.clone();
        described.insert("description".to_owned(), Value::Null);
        Wrappers {
            bare,
            described,
            null,
        }
    })
}
