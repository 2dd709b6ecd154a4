//! Step W28: the Google-family tail — nullable-`anyOf` collapse, combinator merge, `required` filter, empty
//! `properties` removal and `anyOf` isolation.

use llmshim_core::keep::Conditional;
use llmshim_core::keyword::is_liftable;
use llmshim_core::rules::EmptyProperties;
use llmshim_core::walk::{Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{
    ChangeKind, FallbackKind, FallbackReason, Nullable, RuleSet, check, json, lift,
};
use serde_json::{Map, Value};

use crate::passes::values;

/// W28: the tail rules a rule set switches on, in contract order.
#[derive(Clone, Copy, Debug)]
pub struct GoogleTail<'r> {
    rules: &'r RuleSet,
}

impl<'r> GoogleTail<'r> {
    /// The tail rules of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        GoogleTail { rules }
    }
}

impl Pass for GoogleTail<'_> {
    fn name(&self) -> &'static str {
        "google-tail"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        let rules = self.rules;
        Hooks::when(
            rules.collapse_nullable_any_of
                || rules.merge_combinators
                || rules.filter_required
                || rules.empty_properties == EmptyProperties::Remove
                || rules.isolate_any_of,
            Hooks::LEAVE,
        )
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        // Whether the collapse or a merge gave the node keys (or its type) after W22 ran.
        let mut late = false;
        // A target's union holding a branch `walk.narrow-any` left to the merged node is collapsed there, as in place.
        if self.rules.collapse_nullable_any_of && !awaits_merged_node(map, cx) {
            late |= collapse(map, cx) || drop_null_branches(map, cx);
        }
        // An intermediate root (a `$ref` target, a one-entry `allOf`'s entry) is merged with other keys before its node
        // is finished, and those keys may give the node its type (a sibling's `properties`): merged here, a branch's
        // type (a `(type: any)` string, an array inferred from `items`) would win, and the `properties` the merge
        // brings would go as inapplicable to it. The union merges into the merged node instead, as isolation waits,
        // unless the root is to finish it (`Rewalk::held`): the node holds a union of the same keyword, which the
        // root's would replace, or the root is an entry of an `allOf` of several, merged only as a plain object.
        if self.rules.merge_combinators {
            let conditional = self
                .rules
                .keep_set(cx.settings().keywords)
                .map_or(&[][..], |k| k.conditional);
            for combinator in ["allOf", "anyOf", "oneOf"] {
                if cx.intermediate() && !cx.intermediate_holds(combinator) {
                    continue;
                }
                late |= match merge(map, combinator, conditional, cx) {
                    Ok(merged) => merged,
                    // A union the target cannot merge keeps one branch it can take; when none qualifies, the failure
                    // climbs to an optional part (`target.omit-property`).
                    Err(reason) if combinator == "anyOf" => {
                        if narrow_union(map, self.rules, cx)? {
                            true
                        } else {
                            return Err(reason);
                        }
                    }
                    Err(reason) => return Err(reason),
                };
            }
        }
        // An intermediate root (a `$ref` target, an `allOf` entry) is merged with other keys before its node is
        // finished: its `required` may name properties the merge brings in, so the filter waits for the merged node.
        if self.rules.filter_required && !cx.intermediate() && filter_required(map, cx) {
            // A node that only required names it does not declare (`{"required": ["a"]}`) is left with annotations
            // alone: written that way, `walk.narrow-any` would have typed it where a type is needed, and so does this.
            if self.rules.require_type || cx.settings().strict {
                type_emptied_node(map, cx, self.rules.require_type);
            }
        }
        if self.rules.empty_properties == EmptyProperties::Remove
            && matches!(json::member(map, "properties"), Some(Value::Object(p)) if p.is_empty())
        {
            json::remove(map, "properties");
            cx.record(
                "google.drop-empty-properties",
                ChangeKind::Dropped,
                Some("properties"),
            );
        }
        if self.rules.google_values && late {
            values::rerun(map, &[], cx);
        }
        // Isolation copies the node's keys into the branches of its type: an intermediate root is typed only once
        // merged (`walk.infer-type` waits for it), and isolating it untyped would drop its `properties` with the node.
        if self.rules.isolate_any_of && !cx.intermediate() {
            isolate(map, self.rules.google_values, cx)?;
        }
        Ok(())
    }
}

/// Whether `map`, an untyped intermediate root whose merged node may take its type from the keys it is merged with
/// ([`NodeCtx::typed_when_merged`]), holds a union branch, annotations alone as written, that `walk.narrow-any` left
/// for the merged node's walk to judge ([`NodeCtx::holds_waiting_branch`]). Collapsed here, such a branch would
/// bring the root a `nullable` mark and no type, and the merged node, typed by no sibling, would then not be the
/// annotation-only node that `walk.narrow-any` types: the union is left to the merged node, whose walk types the
/// branch with what it knows of its node's type and then collapses it, as in place.
fn awaits_merged_node(map: &Map<String, Value>, cx: &NodeCtx<'_>) -> bool {
    cx.typed_when_merged() && !json::has(map, "type") && cx.holds_waiting_branch()
}

fn is_null_type(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
}

/// `google.collapse-nullable`: an `anyOf` of one live branch and null branches becomes the live branch's keys (the
/// node wins), except `description`, which joins the node's own text and every branch's, in branch order. Returns
/// whether it did.
fn collapse(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> bool {
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return false;
    };
    let live: Vec<&Value> = branches.iter().filter(|b| !is_null_type(b)).collect();
    if live.len() != 1 || live.len() == branches.len() {
        return false;
    }
    let Some(Value::Object(branch)) = live.first().map(|b| (*b).clone()) else {
        return false;
    };
    // Every branch's description joins the node's, the null branches' too ("null when unknown"), in branch order.
    let joined = joined_description(map, branches.iter().map(|b| b.get("description")));
    json::remove(map, "anyOf");
    for (key, value) in branch {
        if !map.contains_key(&key) {
            map.insert(key, value);
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    if cx.settings().nullable == Nullable::Marker {
        json::set(map, "nullable", Value::Bool(true));
    }
    cx.record(
        "google.collapse-nullable",
        ChangeKind::Rewritten,
        Some("anyOf"),
    );
    true
}

/// An `anyOf` of two or more live branches and null branches loses its null branches, whose descriptions join the
/// node's: with the `nullable` marker (Gemini) each live branch gets `nullable: true`, which admits the same values
/// (`google.collapse-nullable`); without one (Code Assist) null is no longer admitted (`walk.nullable-remove`,
/// narrowed), before the combinator merge. Returns whether it did.
fn drop_null_branches(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> bool {
    let marker = match cx.settings().nullable {
        Nullable::Marker => true,
        Nullable::Remove => false,
        _ => return false,
    };
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return false;
    };
    let nulls = branches.iter().filter(|b| is_null_type(b)).count();
    if nulls == 0 || branches.len() - nulls < 2 {
        return false;
    }
    let joined = joined_description(
        map,
        branches
            .iter()
            .filter(|b| is_null_type(b))
            .map(|b| b.get("description")),
    );
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.retain(|b| !is_null_type(b));
        if marker {
            for branch in branches.iter_mut() {
                if let Some(b) = branch.as_object_mut() {
                    json::set(b, "nullable", Value::Bool(true));
                }
            }
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    if marker {
        cx.record(
            "google.collapse-nullable",
            ChangeKind::Rewritten,
            Some("anyOf"),
        );
    } else {
        cx.record("walk.nullable-remove", ChangeKind::Narrowed, Some("anyOf"));
    }
    true
}

/// `target.narrow-union`: an `anyOf` the target cannot merge becomes its first branch that passes the target's
/// check on its own (an object at the root), conjoined with the node's other keys: a key both carry with different
/// values (other than `description`, whose texts join) leaves the union alone. The other branches, as walked, are
/// appended to the description as `(anyOf: [...])`. The result admits a subset of what the union admitted. Returns
/// whether it did.
fn narrow_union(
    map: &mut Map<String, Value>,
    rules: &RuleSet,
    cx: &mut NodeCtx<'_>,
) -> Result<bool, FallbackReason> {
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return Ok(false);
    };
    let options = check::Options::new(rules)
        .with_strict(cx.settings().strict)
        .with_nullable(cx.settings().nullable)
        .with_budget(&cx.settings().budget);
    let root = cx.position().root;
    let chosen = branches.iter().position(|b| {
        b.as_object().is_some_and(|b| {
            (!root || b.get("type").and_then(Value::as_str) == Some("object"))
                && b.iter().all(|(key, value)| {
                    key == "description" || map.get(key).is_none_or(|own| own == value)
                })
        }) && check::first_below(b, &options).is_none()
    });
    let Some(chosen) = chosen else {
        return Ok(false);
    };
    let Some(Value::Array(mut branches)) = json::remove(map, "anyOf") else {
        return Ok(false);
    };
    let Value::Object(branch) = branches.remove(chosen) else {
        return Ok(false);
    };
    let joined = joined_description(map, [branch.get("description")]);
    for (key, value) in branch {
        if key != "description" && !map.contains_key(&key) {
            map.insert(key, value);
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    cx.charge_literal(branches.iter().map(json::compact_len).sum())?;
    let removed = Value::Array(branches);
    if !lift::append(map, "anyOf", &removed) {
        // The chosen branch brought an `(anyOf:` fragment of its own (a union narrowed inside it): the removed
        // branches are named after it all the same.
        let current = map.get("description").and_then(Value::as_str).unwrap_or("");
        let text = format!("{current} (anyOf: {})", lift::render("anyOf", &removed));
        json::set(
            map,
            "description",
            Value::String(text.trim_start().to_owned()),
        );
    }
    cx.record("target.narrow-union", ChangeKind::Narrowed, Some("anyOf"));
    Ok(true)
}

/// `cca.merge-combinator`: the branches of `combinator` merge into one schema of their shared type, appended where
/// the node lacks a key (the branches' `properties` join the node's, whose own schema wins on a shared name). `enum`
/// arrays unite (`anyOf`, `oneOf`) or intersect (`allOf`), and the description is the
/// node's own text followed by every branch's, so that the values and constraints the branches held in their
/// descriptions stay with the node. Returns whether the combinator was there to merge.
///
/// A key the keep-list keeps only under a condition (`conditional`: under the current keyword profile the string
/// lengths, the property counts and the pattern) that the branches do not share (every `anyOf` or `oneOf` branch
/// with one value; no two `allOf` entries with different values) is lifted into each branch's description first,
/// where the narrower keep-list would have put it, so the merge neither narrows the union nor fails on it.
fn merge(
    map: &mut Map<String, Value>,
    combinator: &str,
    conditional: &[Conditional],
    cx: &mut NodeCtx<'_>,
) -> Result<bool, FallbackReason> {
    let Some(Value::Array(mut branches)) = json::member(map, combinator).cloned() else {
        return Ok(false);
    };
    lift_unshared(&mut branches, combinator, conditional, cx);
    // A branch `walk.narrow-any` made a string before its node's type was known (the union of a `$ref` target typed by
    // the referencing node's siblings) admitted any value: it takes the node's type, as it would have where that
    // type was known when the branch was walked.
    let mut retyped = 0;
    if let Some(ty) = map.get("type").and_then(Value::as_str) {
        for branch in &mut branches {
            retyped += usize::from(retype_any(branch, ty));
        }
    }
    let unsupported = |cx: &NodeCtx<'_>, why: &str| {
        cx.fail(
            FallbackKind::TargetUnsupported,
            format!("{combinator}: {why}"),
        )
    };
    let Some(ty) = branches
        .first()
        .and_then(|b| b.get("type"))
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return Err(unsupported(cx, "the first branch has no type"));
    };
    let mut merged = Map::new();
    merged.insert("type".to_owned(), Value::String(ty.clone()));
    let mut required: Option<Vec<Value>> = None;
    for branch in &branches {
        let Some(b) = branch.as_object() else {
            return Err(unsupported(cx, "a branch is not an object"));
        };
        if b.get("type").and_then(Value::as_str) != Some(ty.as_str()) {
            return Err(unsupported(cx, "branches have different types"));
        }
        for (key, value) in b {
            match key.as_str() {
                // The type is the first branch's, and the descriptions are joined below.
                "type" | "description" => {}
                "required" => {
                    let names = value.as_array().cloned().unwrap_or_default();
                    required = Some(match required.take() {
                        None => names,
                        Some(mut acc) if combinator == "allOf" => {
                            for n in names {
                                if !acc.contains(&n) {
                                    acc.push(n);
                                }
                            }
                            acc
                        }
                        Some(acc) => acc.into_iter().filter(|n| names.contains(n)).collect(),
                    });
                }
                "properties" => {
                    let Some(props) = value.as_object() else {
                        return Err(unsupported(cx, "properties is not an object"));
                    };
                    let slot = merged
                        .entry("properties")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(acc) = slot {
                        for (name, schema) in props {
                            match acc.get(name) {
                                Some(existing) if existing != schema => {
                                    return Err(unsupported(
                                        cx,
                                        "a property differs between branches",
                                    ));
                                }
                                Some(_) => {}
                                None => {
                                    acc.insert(name.clone(), schema.clone());
                                }
                            }
                        }
                    }
                }
                "enum" if value.is_array() => {
                    let Value::Array(values) = value else {
                        continue;
                    };
                    match merged.get_mut("enum") {
                        Some(Value::Array(acc)) if combinator == "allOf" => {
                            acc.retain(|v| values.contains(v));
                            if acc.is_empty() {
                                return Err(unsupported(
                                    cx,
                                    "the enum values have no value in common",
                                ));
                            }
                        }
                        Some(Value::Array(acc)) => {
                            for v in values {
                                if !acc.contains(v) {
                                    acc.push(v.clone());
                                }
                            }
                        }
                        Some(_) => return Err(unsupported(cx, "enum differs between branches")),
                        None => {
                            let mut distinct: Vec<Value> = Vec::new();
                            for v in values {
                                if !distinct.contains(v) {
                                    distinct.push(v.clone());
                                }
                            }
                            merged.insert("enum".to_owned(), Value::Array(distinct));
                        }
                    }
                }
                _ => match merged.get(key) {
                    Some(existing) if existing != value => {
                        return Err(unsupported(cx, &format!("{key} differs between branches")));
                    }
                    Some(_) => {}
                    None => {
                        merged.insert(key.clone(), value.clone());
                    }
                },
            }
        }
        if !b.contains_key("required") && ty == "object" && combinator != "allOf" {
            required = Some(Vec::new());
        }
    }
    // The joined description replaces the node's own in place; a node without one gets it among the merged keys, before
    // `required`.
    let mut joined = joined_description(map, branches.iter().map(|b| b.get("description")));
    if !map.contains_key("description")
        && let Some(text) = joined.take()
    {
        merged.insert("description".to_owned(), Value::String(text));
    }
    if ty == "object" {
        merged.insert(
            "required".to_owned(),
            Value::Array(required.unwrap_or_default()),
        );
    }
    json::remove(map, combinator);
    // A property the node's own walk omitted (`target.omit-property`) stays out of the merge: the node's schema for
    // it admitted nothing the target can say, and the node and its union both hold, so the branch's schema for the
    // name, joined in its place, would admit values the input refused. The node's description already names it.
    if let Some(Value::Object(theirs)) = merged.get_mut("properties") {
        let omitted = cx.omitted_properties();
        if !omitted.is_empty() {
            theirs.retain(|name, _| !omitted.contains(name));
        }
    }
    for (key, value) in merged {
        match (map.get_mut(&key), value) {
            // The node's own `properties` win on a name both declare; the names only the branches declare join them,
            // so a property a branch alone gives does not vanish with the merge. Where a branch gives a shared name
            // another schema, that schema's text (the fragments lifted into it, a `not` say) joins the description
            // of the node's where it is not there yet, as the branches' own texts join the node's.
            (Some(Value::Object(own)), Value::Object(theirs)) if key == "properties" => {
                for (name, schema) in theirs {
                    match own.get_mut(&name) {
                        Some(kept) if *kept != schema => *kept = with_own_text(kept, &schema),
                        Some(_) => {}
                        None => {
                            own.insert(name, schema);
                        }
                    }
                }
            }
            (Some(_), _) => {}
            (None, value) => {
                map.insert(key, value);
            }
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    cx.retract_narrowings("walk.narrow-any", combinator, retyped);
    cx.record(
        "cca.merge-combinator",
        ChangeKind::Rewritten,
        Some(combinator),
    );
    Ok(true)
}

/// Lifts, in every branch that has it, each key of `conditional` that the branches do not share (see [`merge`]),
/// in byte-wise keyword order.
fn lift_unshared(
    branches: &mut [Value],
    combinator: &str,
    conditional: &[Conditional],
    cx: &mut NodeCtx<'_>,
) {
    let mut keys: Vec<&str> = conditional.iter().map(|c| c.key).collect();
    keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    for key in keys {
        let values: Vec<Option<&Value>> = branches.iter().map(|b| b.get(key)).collect();
        let present: Vec<&Value> = values.iter().flatten().copied().collect();
        let equal = present.windows(2).all(|w| w[0] == w[1]);
        let shared = if combinator == "allOf" {
            equal
        } else {
            present.is_empty() || (present.len() == values.len() && equal)
        };
        if shared {
            continue;
        }
        for (i, branch) in branches.iter_mut().enumerate() {
            if let Some(b) = branch.as_object_mut()
                && let Some(value) = json::remove(b, key)
            {
                lift::append(b, key, &value);
                cx.record_at(
                    "cca.merge-combinator",
                    ChangeKind::Lifted,
                    &[combinator, &i.to_string(), key],
                );
            }
        }
    }
}

/// The node's own string description followed by the string descriptions of `branches`, each trimmed, the empty ones
/// skipped, joined with single spaces; `None` when no branch has a description to add (the node keeps its own).
fn joined_description<'a>(
    node: &Map<String, Value>,
    branches: impl IntoIterator<Item = Option<&'a Value>>,
) -> Option<String> {
    let added: Vec<&str> = branches
        .into_iter()
        .filter_map(|d| d.and_then(Value::as_str))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .collect();
    if added.is_empty() {
        return None;
    }
    let own = node
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty());
    Some(
        own.into_iter()
            .chain(added)
            .collect::<Vec<&str>>()
            .join(" "),
    )
}

/// `required` names that are not properties are removed, and an empty `required` with them. Returns whether
/// `required` is gone.
fn filter_required(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) -> bool {
    let Some(Value::Array(names)) = json::member(map, "required") else {
        return false;
    };
    let props = json::member(map, "properties").and_then(Value::as_object);
    let declared = |n: &&Value| {
        n.as_str()
            .is_some_and(|n| props.is_some_and(|p| json::has(p, n)))
    };
    // The common case, every name declared, is decided without copying the list.
    if !names.is_empty() && names.iter().all(|n| declared(&n)) {
        return false;
    }
    let kept: Vec<Value> = names.iter().filter(declared).cloned().collect();
    let emptied = kept.is_empty();
    if emptied {
        json::remove(map, "required");
    } else {
        json::set(map, "required", Value::Array(kept));
    }
    cx.record(
        "google.filter-required",
        ChangeKind::Dropped,
        Some("required"),
    );
    emptied
}

/// A node that `google.filter-required` left with annotations alone gets the type `walk.narrow-any` gives a node
/// written that way. A union branch of a node with one type ([`Position::conjunct`](llmshim_core::walk::Position::conjunct))
/// takes that type, which narrows nothing there (recorded as `walk.infer-type`); in a union branch this is what the
/// walk of a `$ref` target's merged node finds, so the Code Assist merge in the node's visit finds it typed. On a
/// target that needs a type on every node (`require_type`), any other node but the root becomes a string marked
/// `(type: any)` (recorded as `walk.narrow-any`, narrowed): a `required` list constrains only objects, so every string
/// the output admits the input admitted, and the node is what the walk of a `$ref` to it, or of a union of such
/// branches behind one, gives. Below an intermediate root (an `allOf` entry, a `$ref` target) the node is left as it
/// is: the keys the root is merged with may type its node, and the merged node's walk decides. (A node emptied by a
/// lift, a `not` say, is not narrowed so: a string might be exactly what the lifted assertion refused, so its failure
/// climbs to an optional part.)
fn type_emptied_node(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>, require_type: bool) {
    if map.contains_key("type") || !llmshim_core::keyword::annotations_only(map) {
        return;
    }
    if cx.position().conjunct.is_some()
        || (require_type && !cx.position().root && !cx.within_intermediate())
    {
        llmshim_core::walk::steps::type_as_any(map, cx);
    }
}

/// The value of `key` for a branch that holds `own` while its node holds `node`, when both can be kept as one:
/// `required` names unite; `properties` unite by name, a name both declare keeping the node's schema where the
/// branch's says no more than it ([`implied`]); any other key takes the node's value where the branch's says no
/// more. `None` when the two constrain differently.
fn conjoin(key: &str, own: &Value, node: &Value) -> Option<Value> {
    match (key, own, node) {
        ("required", Value::Array(own), Value::Array(node)) => {
            let mut names = own.clone();
            for name in node {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            Some(Value::Array(names))
        }
        ("properties", Value::Object(own), Value::Object(node)) => {
            let mut joined = own.clone();
            for (name, schema) in node {
                match joined.get(name) {
                    None => {
                        joined.insert(name.clone(), schema.clone());
                    }
                    Some(mine) if mine == schema => {}
                    Some(mine) if implied(mine, schema) => {
                        let kept = with_own_text(schema, mine);
                        joined.insert(name.clone(), kept);
                    }
                    Some(_) => return None,
                }
            }
            Some(Value::Object(joined))
        }
        _ if implied(own, node) => Some(with_own_text(node, own)),
        _ => None,
    }
}

/// `node` with the description of `own` appended to its own (where it is not already there), so that text and
/// lifted fragments the branch carried survive; the `(type: any)` mark of a node `walk.narrow-any` typed is left
/// out, since the node's schema replaces that type.
fn with_own_text(node: &Value, own: &Value) -> Value {
    let mut out = node.clone();
    let text = own
        .get("description")
        .and_then(Value::as_str)
        .map_or("", |d| d.trim_end_matches("(type: any)").trim());
    if let Some(map) = out.as_object_mut()
        && !text.is_empty()
    {
        let current = map.get("description").and_then(Value::as_str).unwrap_or("");
        if !current.contains(text) {
            let joined = format!("{current} {text}").trim_start().to_owned();
            json::set(map, "description", Value::String(joined));
        }
    }
    out
}

/// Whether the branch's schema `own` admits everything the node's schema `node` admits, as far as can be told
/// without reasoning about values: every key of `own` but `description` is in `node` with the same value, or
/// `own` was an annotation-only node that `walk.narrow-any` gave a string type (it stood for any value).
fn implied(own: &Value, node: &Value) -> bool {
    let (Some(own), Some(node)) = (own.as_object(), node.as_object()) else {
        return false;
    };
    let narrowed_any = own.get("type").and_then(Value::as_str) == Some("string")
        && own
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.ends_with("(type: any)"))
        && own.keys().all(|k| {
            matches!(
                k.as_str(),
                "type" | "description" | "title" | "default" | "examples" | "deprecated"
            )
        });
    narrowed_any
        || own
            .iter()
            .all(|(k, v)| k == "description" || node.get(k) == Some(v))
}

/// Whether a description holds a fragment that a narrowing wrote (`target.omit-property`,
/// `resolve.unroll-recursion`).
fn names_a_narrowing(text: &str) -> bool {
    text.contains("(omitted ") || text.contains("(recursive ")
}

/// The keys `anyOf` isolation copies into a branch of type `ty`.
fn applies(key: &str, ty: &str) -> bool {
    match key {
        "properties" | "required" | "propertyOrdering" | "minProperties" | "maxProperties" => {
            ty == "object"
        }
        "items" | "minItems" | "maxItems" => ty == "array",
        "enum" | "minLength" | "maxLength" | "pattern" => ty == "string",
        "format" => matches!(ty, "string" | "integer" | "number"),
        "minimum" | "maximum" => matches!(ty, "integer" | "number"),
        _ => false,
    }
}

/// A branch that `walk.narrow-any` made a string, annotations and `(type: any)` aside, before the type of its node
/// was known (the union of a `$ref` target whose type the referencing node's sibling `properties` give, or the
/// branch of an untyped union that `google.collapse-nullable` then marked `nullable`) admitted any value: it takes
/// the node's type `ty`, as it does where that type is known when the branch is walked, and the fragment and the
/// `nullable` mark go (a value of the node is not null). Otherwise it would admit nothing there: isolation would
/// remove it with what its description holds, and the Code Assist merge would keep its `(type: any)` fragment on a
/// node of another type.
///
/// Returns whether it retyped the branch: the branch then admits every value of its node again, so the narrowing
/// `walk.narrow-any` recorded for it no longer holds.
fn retype_any(branch: &mut Value, ty: &str) -> bool {
    const FRAGMENT: &str = "(type: any)";
    let Some(map) = branch.as_object_mut() else {
        return false;
    };
    if ty == "string"
        || map.get("type").and_then(Value::as_str) != Some("string")
        || !map.keys().all(|k| {
            matches!(k.as_str(), "type" | "nullable")
                || llmshim_core::keyword::ANNOTATIONS.contains(&k.as_str())
        })
    {
        return false;
    }
    let Some(Value::String(text)) = map.get("description") else {
        return false;
    };
    let Some(at) = text.find(FRAGMENT) else {
        return false;
    };
    let rest = format!("{} {}", &text[..at], &text[at + FRAGMENT.len()..]);
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    if rest.is_empty() {
        json::remove(map, "description");
    } else {
        json::set(map, "description", Value::String(rest));
    }
    json::remove(map, "nullable");
    json::set(map, "type", Value::String(ty.to_owned()));
    true
}

/// A node with `anyOf` and other keys moves those keys into the branches; with `google_values`, the value
/// rules then run again on every branch, which may have received a type or keys.
/// Takes the properties a climb omitted at this node (`target.omit-property`) out of the `anyOf` branches its keys
/// are about to join: the node's schema for such a property is one the target cannot express, and a branch that
/// still declared it would admit, as the node's conjunction with it, values the node's schema refuses. The node's
/// description, which names the omission, joins every branch. A branch that requires such a property fails the node
/// instead, since without it the branch would admit objects the original refuses.
fn leave_omitted(
    map: &Map<String, Value>,
    branches: &mut [Value],
    cx: &mut NodeCtx<'_>,
) -> Result<(), FallbackReason> {
    let declared = map.get("properties").and_then(Value::as_object);
    let omitted: Vec<String> = cx
        .omitted_properties()
        .into_iter()
        .filter(|name| declared.is_none_or(|d| !d.contains_key(name)))
        .collect();
    if omitted.is_empty() {
        return Ok(());
    }
    let mut taken = 0;
    for branch in branches.iter_mut() {
        let Some(bm) = branch.as_object_mut() else {
            continue;
        };
        for name in &omitted {
            let required = bm
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)));
            if required {
                return Err(cx.fail(
                    FallbackKind::TargetUnsupported,
                    format!("anyOf: a branch requires {name}, which the node omitted"),
                ));
            }
            if let Some(Value::Object(properties)) = bm.get_mut("properties")
                && properties.shift_remove(name.as_str()).is_some()
            {
                taken += 1;
                // Gemini rejects an object with empty `properties`, as `google.drop-empty-properties` says.
                if properties.is_empty() {
                    json::remove(bm, "properties");
                }
            }
        }
    }
    for _ in 0..taken {
        cx.record("target.omit-property", ChangeKind::Narrowed, Some("anyOf"));
    }
    Ok(())
}

fn isolate(
    map: &mut Map<String, Value>,
    google_values: bool,
    cx: &mut NodeCtx<'_>,
) -> Result<(), FallbackReason> {
    if !json::has(map, "anyOf") || map.len() == 1 {
        return Ok(());
    }
    let Some(Value::Array(mut branches)) = json::remove(map, "anyOf") else {
        return Err(cx.fail(FallbackKind::InvalidSchema, "anyOf must be an array"));
    };
    leave_omitted(map, &mut branches, cx)?;
    if let Some(ty) = map.get("type").cloned() {
        if let Some(name) = ty.as_str() {
            let mut retyped = 0;
            for branch in &mut branches {
                retyped += usize::from(retype_any(branch, name));
            }
            cx.retract_narrowings("walk.narrow-any", "anyOf", retyped);
        }
        // A branch that a narrowing changed (a part omitted or cut as recursive, named in its description) may admit
        // nothing only because of what was left out: its description, which names that part, joins the node's, so
        // the removal below does not take the note with it.
        let removed = branches
            .iter()
            .filter(|b| b.get("type").is_some_and(|t| *t != ty))
            .filter_map(|b| b.get("description"))
            .filter(|d| d.as_str().is_some_and(names_a_narrowing))
            .map(Some);
        if let Some(text) = joined_description(map, removed) {
            json::set(map, "description", Value::String(text));
        }
        branches.retain(|b| b.get("type").is_none_or(|t| *t == ty));
        for b in &mut branches {
            if let Some(bm) = b.as_object_mut()
                && !bm.contains_key("type")
            {
                bm.insert("type".to_owned(), ty.clone());
            }
        }
        if branches.is_empty() {
            return Err(cx.fail(
                FallbackKind::TargetUnsupported,
                "no anyOf branch has the node's type",
            ));
        }
    }
    let mut lifted: Vec<Vec<(String, Value)>> = vec![Vec::new(); branches.len()];
    for (key, value) in map.iter() {
        if key == "type" {
            continue;
        }
        for (i, b) in branches.iter_mut().enumerate() {
            let Some(bm) = b.as_object_mut() else {
                continue;
            };
            let branch_type = bm.get("type").and_then(Value::as_str).map(str::to_owned);
            match key.as_str() {
                "description" => {
                    let parent = value.as_str().unwrap_or("");
                    let text = match bm.get("description").and_then(Value::as_str) {
                        Some(own) if !own.is_empty() => format!("{parent} {own}"),
                        _ => parent.to_owned(),
                    };
                    json::set(bm, "description", Value::String(text));
                }
                "title" => {
                    if !bm.contains_key("title") {
                        bm.insert("title".to_owned(), value.clone());
                    }
                }
                "nullable" => {
                    if value == &Value::Bool(true) {
                        json::set(bm, "nullable", Value::Bool(true));
                    }
                }
                _ => {
                    let Some(t) = branch_type.as_deref() else {
                        continue;
                    };
                    if !applies(key, t) {
                        continue;
                    }
                    let joined = match bm.get(key) {
                        None => Some(value.clone()),
                        Some(own) if own == value => None,
                        Some(own) => match conjoin(key, own, value) {
                            Some(joined) => Some(joined),
                            None if is_liftable(key) => {
                                if let Some(slot) = lifted.get_mut(i) {
                                    slot.push((key.clone(), value.clone()));
                                }
                                None
                            }
                            // Keeping either value alone would admit what the other forbids.
                            None => {
                                return Err(cx.fail(
                                    FallbackKind::TargetUnsupported,
                                    format!("anyOf: a branch's {key} differs from the node's"),
                                ));
                            }
                        },
                    };
                    if let Some(joined) = joined {
                        bm.insert(key.clone(), joined);
                    }
                }
            }
        }
    }
    for (i, (b, mut fragments)) in branches.iter_mut().zip(lifted).enumerate() {
        fragments.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        if let Some(bm) = b.as_object_mut() {
            for (key, value) in fragments {
                lift::append(bm, &key, &value);
            }
            if map.contains_key("required") {
                filter_required(bm, cx);
            }
            if google_values {
                values::rerun(bm, &["anyOf", &i.to_string()], cx);
            }
        }
    }
    map.clear();
    map.insert("anyOf".to_owned(), Value::Array(branches));
    cx.record(
        "google.isolate-any-of",
        ChangeKind::Rewritten,
        Some("anyOf"),
    );
    Ok(())
}
