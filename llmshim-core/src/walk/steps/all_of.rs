//! Step W14: an `allOf` merged into its node: a single entry always (the entry winning), several entries when each
//! is a plain object schema (`walk.merge-all-of`).

use serde_json::{Map, Value};

use crate::json;
use crate::lift;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Position, Rewalk, Settings};

/// The rule id of both merges.
const RULE: &str = "walk.merge-all-of";

/// W14: merges `allOf` into the node.
///
/// A one-entry `allOf` is removed, its entry walked at depth + 1 and its keys copied into the node (replacing in
/// place, appending new ones; `properties` members are set one by one, so the node's other members stay:
/// [`set_entry_key`]), but where both carry a `type` the merged node takes the kinds the two share; when
/// they share none the schema admits nothing and fails `invalid_schema`. Where both carry a different
/// `description`, the node's text comes first, then the entry's words and lifted fragments
/// ([`lift::carry_lifted`]).
///
/// Two or more entries are merged when every entry, after its own walk, is an object schema with only the keys
/// `type` (`"object"`), `properties`, `required`, `additionalProperties` (`false`), `title` and `description`, and
/// the node has neither a `type` other than `"object"` nor an `additionalProperties` other than `false`:
/// `properties` are the node's own followed by each entry's (a name with different schemas gets an `allOf` of
/// them, which its own visit merges in turn), `required` is their union in first-seen order, the title is the
/// node's or else the first entry's, descriptions are joined with one space (empty ones skipped, an empty one kept
/// where none has text), and `type` is `"object"`.
/// The merge is exact when no participant is closed, or when exactly one is and every other one's property names
/// are among its names (the result is then closed); otherwise the result is closed when any participant was and
/// the change is recorded as relaxed. A property an entry's walk omitted is left out of the result; one narrowed below
/// keeps that entry's walked schema, unless a closed participant does not declare it (then no value of the `allOf`
/// has it) or another participant declares it too (then a closed `allOf` is not merged, and an open one fails its node
/// unless every other entry that declares the property lost the same part). An `allOf` that does not qualify stays
/// and is walked as children, its entries as they were.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct MergeAllOf;

impl Pass for MergeAllOf {
    fn name(&self) -> &'static str {
        "merge-all-of"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        match json::member(map, "allOf") {
            Some(Value::Array(entries)) if entries.len() == 1 => merge_single(node, cx),
            Some(Value::Array(entries)) if entries.len() > 1 => {
                merge_several(map, cx)?;
                Ok(Flow::Continue)
            }
            _ => Ok(Flow::Continue),
        }
    }
}

fn merge_single(node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
    let Some(map) = node.as_object_mut() else {
        return Ok(Flow::Continue);
    };
    let Some(Value::Array(mut entries)) = json::remove(map, "allOf") else {
        return Ok(Flow::Continue);
    };
    let mut entry = entries.pop().unwrap_or(Value::Null);
    // The entry's keys are merged into this node, whose own visit goes on from here (type inference, the split,
    // closing), so the entry's root is an intermediate result: those steps run once, on the merged keys.
    // A union the node holds too would be replaced by the entry's: the entry's walk finishes its own (see
    // `Rewalk::held`), so that both constrain the merged node.
    let how = Rewalk::here()
        .with_intermediate(true)
        .with_held(map.keys().map(String::as_str));
    cx.rewalk(&mut entry, &how)?;
    let Value::Object(mut entry) = entry else {
        return Err(cx.fail(
            FallbackKind::InvalidSchema,
            "the allOf entry is not a schema object",
        ));
    };
    let Some(map) = node.as_object_mut() else {
        return Ok(Flow::Continue);
    };
    // The entry wins, but not on `type` where the node's own type excludes some of the entry's kinds.
    if let (Some(own), Some(theirs)) = (json::member(map, "type"), json::member(&entry, "type")) {
        match single_entry_type(own, theirs) {
            Some(Ok(shared)) => json::set(&mut entry, "type", shared),
            Some(Err(message)) => return Err(cx.fail(FallbackKind::InvalidSchema, message)),
            None => {}
        }
    }
    // Nor on `description`: where both hold different text, the node's own stays first, followed by the entry's
    // words and the fragments its walk lifted (the join `resolve.inline-ref` makes of a sibling's text and its
    // target's), so neither author's prose gives way to the other's.
    if let (Some(Value::String(own)), Some(Value::String(theirs))) =
        (map.get("description"), entry.get("description"))
    {
        let own_text = own.trim();
        let theirs_text = theirs.trim_start();
        if !own_text.is_empty() && theirs.trim() != own_text {
            // An entry whose text starts with the node's (its own words the same, fragments added) adds only those.
            let repeats = theirs_text
                .strip_prefix(own_text)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace));
            let joined = lift::carry_lifted(own, if repeats { own_text } else { "" }, theirs);
            json::set(&mut entry, "description", Value::String(joined));
        }
    }
    for (key, value) in entry {
        set_entry_key(map, &key, value);
    }
    cx.record(RULE, ChangeKind::Rewritten, Some("allOf"));
    Ok(Flow::Continue)
}

/// Sets key `key` of a one-entry `allOf`'s entry in its node `map`, the entry winning (W14), except on `properties`
/// where both hold an object: the node keeps the members only it declares, and the entry's members are set among
/// them (a name both declare takes the entry's schema in place, a new name is appended). A value must satisfy both,
/// so a property the node alone declares stays constrained; replacing the whole map let it vanish without a trace.
pub fn set_entry_key(map: &mut Map<String, Value>, key: &str, value: Value) {
    if key == "properties"
        && let Some(Value::Object(own)) = map.get_mut(key)
        && let Value::Object(theirs) = value
    {
        for (name, schema) in theirs {
            own.insert(name, schema);
        }
        return;
    }
    json::set(map, key, value);
}

/// The `type` a one-entry `allOf` merge gives its node, whose own type is `own`, when the entry's type `theirs` would
/// otherwise win: a value must have both, so where the node excludes some of the entry's kinds the merged node takes
/// the kinds they share (`Some(Ok(shared))`), and where they share none the node admits nothing (`Some(Err(message))`,
/// an `invalid_schema` reason). `None` when the entry's type stands as it is, or either is not a type.
pub fn single_entry_type(own: &Value, theirs: &Value) -> Option<Result<Value, String>> {
    let shared = shared_types(own, theirs)?;
    if shared.is_empty() {
        return Some(Err(format!(
            "the allOf entry's type {} shares no value with its node's type {}: the schema admits nothing",
            json::compact(theirs),
            json::compact(own)
        )));
    }
    if same_types(&shared, theirs) {
        return None;
    }
    Some(Ok(match <[Value; 1]>::try_from(shared) {
        Ok([one]) => one,
        Err(several) => Value::Array(several),
    }))
}

/// The type names of a `type` value, or `None` when it is neither a name nor an array of names.
fn type_names(value: &Value) -> Option<Vec<&str>> {
    match value {
        Value::String(name) => Some(vec![name.as_str()]),
        Value::Array(names) => names.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

/// The kinds of the entry's type `theirs` that the node's type `own` also admits, in the entry's order (an
/// `integer` on one side and a `number` on the other share the integers); `None` when either is not a type.
fn shared_types(own: &Value, theirs: &Value) -> Option<Vec<Value>> {
    let own = type_names(own)?;
    let mut shared: Vec<Value> = Vec::new();
    for name in type_names(theirs)? {
        let kept = if own.contains(&name) {
            name
        } else if (name == "number" && own.contains(&"integer"))
            || (name == "integer" && own.contains(&"number"))
        {
            "integer"
        } else {
            continue;
        };
        if !shared.iter().any(|s| s.as_str() == Some(kept)) {
            shared.push(Value::String(kept.to_owned()));
        }
    }
    Some(shared)
}

/// Whether `shared` names exactly the kinds of the type value `theirs`, in its order.
fn same_types(shared: &[Value], theirs: &Value) -> bool {
    type_names(theirs).is_some_and(|names| {
        names.len() == shared.len()
            && names
                .iter()
                .zip(shared)
                .all(|(n, s)| s.as_str() == Some(*n))
    })
}

/// Whether the node itself rules a merge out: a `type` other than `"object"` or an open `additionalProperties`,
/// or a merged key whose value is not one the merge can read (left to the checks of the Part I path).
fn node_conflicts(map: &Map<String, Value>) -> bool {
    map.iter().any(|(key, value)| match key.as_str() {
        "type" => value.as_str() != Some("object"),
        "additionalProperties" => *value != Value::Bool(false),
        "properties" => !value.is_object(),
        "required" => !value
            .as_array()
            .is_some_and(|names| names.iter().all(Value::is_string)),
        "title" | "description" => !value.is_string(),
        _ => false,
    })
}

/// Whether a walked entry is an object schema made only of the mergeable keys, with sound values.
fn mergeable(entry: &Value) -> bool {
    let Value::Object(map) = entry else {
        return false;
    };
    map.iter().all(|(key, value)| match key.as_str() {
        "type" => value.as_str() == Some("object"),
        "properties" => value.is_object(),
        "required" => value
            .as_array()
            .is_some_and(|names| names.iter().all(Value::is_string)),
        "additionalProperties" => *value == Value::Bool(false),
        "title" | "description" => value.is_string(),
        _ => false,
    })
}

fn merge_several(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    if node_conflicts(map) {
        return Ok(());
    }
    let Some(Value::Array(entries)) = json::member(map, "allOf") else {
        return Ok(());
    };
    // An entry typed as anything but an object cannot qualify, whatever its walk does; no walk is spent on it.
    let hopeless = entries.iter().any(|e| match e {
        Value::Object(m) => m.get("type").is_some_and(|t| t.as_str() != Some("object")),
        _ => true,
    });
    if hopeless {
        return Ok(());
    }
    // An entry whose `additionalProperties` is a schema binds every property it does not declare. Only strict merges
    // it (closing it to `false` in the entry's walk), and the join of closed entries would then let another
    // participant's schema alone bind such a property; where another participant declares a name the entry does
    // not, strict cannot express the `allOf` (a later walk of the node would meet the entries already closed), so the
    // node fails and the narrowing removes the optional part around it, or strict is given up.
    if binds_another_property(map, entries) {
        if cx.settings().strict {
            return Err(cx.fail(FallbackKind::StrictUnsupported, REST_BOUND));
        }
        return Ok(());
    }
    // The entries are walked on copies: when they do not qualify, the allOf stays as it was and its entries are
    // walked as children, and nothing recorded by the tried walks remains.
    let mut walked = entries.clone();
    let mark = cx.checkpoint();
    let removed_before = cx.removed_parts().len();
    let base = cx.pointer().to_owned();
    let position = Position::new(cx.position().instance, false);
    // An entry behind a `$ref` shows its `additionalProperties` only once walked (resolved; a kept reference is never
    // mergeable). Its intermediate walk here leaves it open, but the walk of the `allOf` as children closes it, and a
    // `$ref` target's `allOf` is walked again in the node merged with the reference's siblings, which would join the
    // closed entries. So under strict, where an entry is a reference, every entry is walked (not only up to the first
    // that cannot be merged) and the check above made again on the walked entries.
    let behind_ref = cx.settings().strict
        && walked
            .iter()
            .any(|e| e.as_object().is_some_and(|m| json::has(m, "$ref")));
    for (index, entry) in walked.iter_mut().enumerate() {
        // Each entry's keys are merged into this node, which is walked on: its root is an intermediate result. Only a
        // plain object schema is merged, so a union the entry holds is finished in the entry's walk (`Rewalk::held`):
        // left to this node it would keep the entry from merging, and the `allOf` would stay, its entries then walked
        // as children at pointers the merged output no longer has.
        let how = Rewalk::here()
            .with_position(position)
            .with_intermediate(true)
            .with_held(["allOf", "anyOf", "oneOf"])
            .with_plain(true)
            .with_pointer(format!("{base}/allOf/{index}"));
        if cx.rewalk(entry, &how).is_err() || (!behind_ref && !mergeable(entry)) {
            cx.rollback(mark);
            return Ok(());
        }
    }
    if behind_ref && binds_another_property(map, &walked) {
        cx.rollback(mark);
        return Err(cx.fail(FallbackKind::StrictUnsupported, REST_BOUND));
    }
    if !walked.iter().all(mergeable) {
        cx.rollback(mark);
        return Ok(());
    }
    let entries: Vec<Map<String, Value>> = walked
        .into_iter()
        .filter_map(|e| match e {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .collect();
    // The properties the entries' walks omitted (`target.omit-property`): the entry, the name, and the pointer of
    // the part removed below the property (empty when it was the property itself).
    let prefix = format!("{base}/allOf/");
    let omitted: Vec<(usize, String, String)> = cx
        .removed_parts()
        .get(removed_before..)
        .unwrap_or_default()
        .iter()
        .filter_map(|(_, at)| omitted_property(at.strip_prefix(&prefix)?))
        .collect();
    // Strict closes the merged node after the merge (`strict.close-object`) when no participant was closed.
    let closes =
        cx.settings().strict || std::iter::once(&*map).chain(entries.iter()).any(is_closed);
    // Where an entry lost a property, or part of one, that another participant declares, the merge would leave that
    // property bound by the other's schema alone, which admits values the lost part rejected. A property omitted
    // whole is left out of the result: closed, it admits none there, as in the closed entry; open, the result does
    // not declare it, as the entry no longer does. Closed, one narrowed below it cannot be merged soundly, so the
    // `allOf` stays as it was (strict then narrows around it or is given up). Open, an unmerged `allOf` would merge
    // on the next pass, where nothing is omitted any more; so a property narrowed below it that another participant
    // declares without the same part omitted, or one omitted whole that another participant requires (the result
    // would require it with any value), fails the node, and the narrowing removes the nearest optional part around it.
    let elsewhere = |entry: usize, name: &str| {
        names(map).contains(&name)
            || entries
                .iter()
                .enumerate()
                .any(|(i, p)| i != entry && names(p).contains(&name))
    };
    if closes {
        if omitted
            .iter()
            .any(|(entry, name, below)| !below.is_empty() && elsewhere(*entry, name))
        {
            cx.rollback(mark);
            return Ok(());
        }
    } else {
        // Every other participant that declares the property lost the same part of it.
        let lost_alike = |entry: usize, name: &str, below: &str| {
            !names(map).contains(&name)
                && entries.iter().enumerate().all(|(i, p)| {
                    i == entry
                        || !names(p).contains(&name)
                        || omitted
                            .iter()
                            .any(|(j, n, b)| *j == i && n == name && b == below)
                })
        };
        let required = |name: &str| {
            std::iter::once(&*map)
                .chain(entries.iter())
                .any(|p| requires(p, name))
        };
        let unsound = omitted.iter().any(|(entry, name, below)| {
            if below.is_empty() {
                elsewhere(*entry, name) && required(name)
            } else {
                !lost_alike(*entry, name, below)
            }
        });
        if unsound {
            cx.rollback(mark);
            return Err(cx.fail(
                FallbackKind::TargetUnsupported,
                "allOf: an entry lost part of a property that another entry still declares or requires",
            ));
        }
    }
    // A property narrowed below it that only its own entry declares keeps that entry's walked schema, which admits
    // no value the entry's original did not, as the open merge keeps it; its notes stay below it. It is left out only
    // where a closed participant does not declare it: there the `allOf` admits no such property at all, so the closed
    // result without it loses nothing. Leaving it out also where its own entry is the closed one took the property,
    // and every note below it, out of a result that should declare it.
    let closed_out = |name: &str| {
        std::iter::once(&*map)
            .chain(entries.iter())
            .any(|p| is_closed(p) && !names(p).contains(&name))
    };
    let dropped: Vec<&str> = omitted
        .iter()
        .filter(|(_, name, below)| below.is_empty() || closed_out(name))
        .map(|(_, name, _)| name.as_str())
        .collect();
    // A closed result without a property some participant requires admits no object at all, and a target that
    // drops `required` names its `properties` lack (Gemini's) would make it admit objects the input refused: the
    // node fails instead, and the narrowing removes the nearest optional part around it.
    if closes
        && dropped.iter().any(|name| {
            std::iter::once(&*map)
                .chain(entries.iter())
                .any(|p| requires(p, name))
        })
    {
        cx.rollback(mark);
        return Err(cx.fail(
            FallbackKind::TargetUnsupported,
            "allOf: a property the closed result leaves out is required, so no object is admitted",
        ));
    }
    // The merged node is typed `object` whether or not a participant wrote it (an entry of `properties` alone, left
    // untyped by its intermediate walk, is read as an object). Where none wrote a type, the walk gave it.
    let written = |participant: &Map<String, Value>, at: &str| {
        json::has(participant, "type") && !cx.type_inferred_at(at)
    };
    let typed_as_written = written(map, &base)
        || entries
            .iter()
            .enumerate()
            .any(|(i, entry)| written(entry, &format!("{base}/allOf/{i}")));
    let exact = merge_into(map, &entries, &dropped);
    if !typed_as_written {
        cx.note_inferred_type();
    }
    json::remove(map, "allOf");
    let kind = if exact {
        ChangeKind::Rewritten
    } else {
        ChangeKind::Relaxed
    };
    cx.record(RULE, kind, Some("allOf"));
    Ok(())
}

/// Why strict gives up an `allOf` that [`binds_another_property`] finds.
const REST_BOUND: &str =
    "allOf: an entry's additionalProperties schema binds a property another entry declares";

/// Whether an entry among `entries`, the `allOf` of the node `map`, has an `additionalProperties` schema that binds
/// a property another participant (the node or another entry) declares and the entry does not.
fn binds_another_property(map: &Map<String, Value>, entries: &[Value]) -> bool {
    let binds_the_rest = |m: &Map<String, Value>| {
        ["additionalProperties", "additional_properties"]
            .into_iter()
            .any(|k| {
                json::member(m, k)
                    .and_then(Value::as_object)
                    .is_some_and(|a| !a.is_empty())
            })
    };
    entries.iter().enumerate().any(|(i, e)| {
        let Value::Object(m) = e else { return false };
        binds_the_rest(m) && {
            let own = names(m);
            std::iter::once(map)
                .chain(
                    entries
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .filter_map(|(_, p)| p.as_object()),
                )
                .any(|p| names(p).iter().any(|n| !own.contains(n)))
        }
    })
}

/// The property an entry's walk omitted, from the removed part's pointer below the node's `allOf/`: the entry's
/// index, the name, and the pointer of the part below the property (empty when the part was the property itself,
/// `<index>/properties/<name>`).
fn omitted_property(below: &str) -> Option<(usize, String, String)> {
    let mut tokens = below.splitn(4, '/');
    let entry = tokens.next()?.parse::<usize>().ok()?;
    if tokens.next()? != "properties" {
        return None;
    }
    let name = crate::pointer::unescape(tokens.next()?);
    Some((entry, name, tokens.next().unwrap_or_default().to_owned()))
}

/// The property names of a participant.
fn names(map: &Map<String, Value>) -> Vec<&str> {
    json::member(map, "properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Whether a participant's `required` names `name`.
fn requires(map: &Map<String, Value>, name: &str) -> bool {
    json::member(map, "required")
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name)))
}

fn is_closed(map: &Map<String, Value>) -> bool {
    json::member(map, "additionalProperties") == Some(&Value::Bool(false))
}

/// Merges the walked `entries` into the node `map` (which keeps its other keys), leaving out the properties named in
/// `dropped`; returns whether the merge is exact.
fn merge_into(
    map: &mut Map<String, Value>,
    entries: &[Map<String, Value>],
    dropped: &[&str],
) -> bool {
    let participants: Vec<&Map<String, Value>> =
        std::iter::once(&*map).chain(entries.iter()).collect();
    let closed: Vec<usize> = participants
        .iter()
        .enumerate()
        .filter(|(_, p)| is_closed(p))
        .map(|(i, _)| i)
        .collect();
    let (exact, close) = match closed.as_slice() {
        [] => (true, false),
        [only] => {
            let allowed = names(participants[*only]);
            let within = participants
                .iter()
                .enumerate()
                .filter(|(i, _)| i != only)
                .all(|(_, p)| names(p).iter().all(|n| allowed.contains(n)));
            (within, true)
        }
        _ => (false, true),
    };

    // Properties: each name's distinct schemas in first-seen order.
    let mut variants: Vec<(String, Vec<Value>)> = Vec::new();
    let mut any_properties = false;
    let mut required: Vec<Value> = Vec::new();
    let mut title: Option<Value> = None;
    let mut descriptions: Vec<&str> = Vec::new();
    let mut any_description = false;
    for p in &participants {
        if let Some(Value::Object(props)) = p.get("properties") {
            any_properties = true;
            for (name, schema) in props {
                if dropped.contains(&name.as_str()) {
                    continue;
                }
                match variants.iter_mut().find(|(n, _)| n == name) {
                    Some((_, seen)) => {
                        if !seen.contains(schema) {
                            seen.push(schema.clone());
                        }
                    }
                    None => variants.push((name.clone(), vec![schema.clone()])),
                }
            }
        }
        if let Some(Value::Array(names)) = p.get("required") {
            for name in names {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
        if title.is_none()
            && let Some(t @ Value::String(_)) = p.get("title")
        {
            title = Some(t.clone());
        }
        if let Some(Value::String(d)) = p.get("description") {
            any_description = true;
            if !d.is_empty() {
                descriptions.push(d);
            }
        }
    }
    // Empty texts are skipped when joining, but a description the participants wrote empty stays one.
    let description = any_description.then(|| descriptions.join(" "));
    let properties: Map<String, Value> = variants
        .into_iter()
        .map(|(name, mut seen)| {
            let schema = if seen.len() == 1 {
                seen.pop().unwrap_or(Value::Bool(true))
            } else {
                let mut all = Map::new();
                all.insert("allOf".to_owned(), Value::Array(seen));
                Value::Object(all)
            };
            (name, schema)
        })
        .collect();

    json::set(map, "type", Value::String("object".to_owned()));
    if any_properties {
        json::set(map, "properties", Value::Object(properties));
    }
    if !required.is_empty() {
        json::set(map, "required", Value::Array(required));
    }
    if close {
        json::set(map, "additionalProperties", Value::Bool(false));
    }
    if let Some(title) = title {
        json::set(map, "title", title);
    }
    if let Some(description) = description {
        json::set(map, "description", Value::String(description));
    }
    exact
}
