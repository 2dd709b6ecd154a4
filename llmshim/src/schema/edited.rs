//! The plain look: a schema that normalization without strict hands back as it is, or changes only by a few local
//! edits, found by one borrowed read and, where an edit applies, made where the schema is instead of walked.
//!
//! About half of the MCP corpus's tool schemas change on the Google targets, and most of them only because Gemini's
//! keep-list has no `additionalProperties` or `default`, the dialect's root `$schema` is removed, an empty
//! `properties` or `required` is dropped, or a `format` Gemini does not know is lifted. [`edited`] runs the look of
//! [`super::unchanged`] with those edits allowed, noting whether any applies; where every node of the schema passes
//! and none does, the schema stays as it is ([`Looked::Unchanged`]: nothing copied, walked, compared or dropped),
//! and otherwise ([`Looked::Edited`]) it is edited as the walk leaves it:
//! - the root's `$schema` (draft 7 or 2020-12 only) removed or set to 2020-12 as the meta step does;
//! - a key the rule set's keep-list strips, among a boolean `additionalProperties` (dropped), the scalar
//!   constraints the look lifts and a string `pattern` (lifted into the description in byte-wise keyword order, as
//!   the walk's lift queue writes them), and under the Google value rules a `format` they do not keep (lifted with
//!   them);
//! - a nullable `anyOf` of one live branch collapsed (`google.collapse-nullable`);
//! - an `anyOf` of several typed live branches beside annotations: on Gemini, its null branches (under the
//!   `nullable` marker) dropped and the node's annotations copied into each branch (`google.isolate-any-of`); on
//!   Code Assist, where the branches are not all of one type, narrowed to one branch with the others written into
//!   the description (`target.narrow-union`, the report `narrowed`);
//! - `required` names that are not properties filtered out, an empty `required` removed (`google.filter-required`);
//! - an empty `properties` removed (`google.drop-empty-properties`), or appended to an object without them
//!   (`walk.empty-properties`).
//!
//! Everything else refuses: a node that would need any other edit goes to the walk, and so does a node the target's
//! own `enter` hook acts on (`TargetRules::enter_acts`). The report is the walk's without diagnostics (strict off, `changed` when an
//! edit applied). The unit tests hold the output and report to the walk's over the whole shared corpus and
//! generated schemas.

use llmshim_core::keyword::TYPE_NAMES;
use llmshim_core::rules::EmptyProperties;
use llmshim_core::{Normalization, Nullable, json, lift};
use serde_json::{Map, Value};

use super::unchanged::{Look, Looked, dialect, null_branch};
use crate::schema::Options;

/// What normalizing `input` without strict, with the effective `options`, amounts to where it is nothing
/// ([`Looked::Unchanged`]) or the edits the module lists ([`Looked::Edited`], which makes them where the schema is);
/// `None` sends the schema to the walk.
pub(crate) fn edited<'r>(options: &'r Options, input: &Value) -> Option<Looked<'r>> {
    if options.strict || options.diagnostics || options.structured_output || options.bypass {
        return None;
    }
    let target = options.target.rules();
    // A target's own hooks may do anything, but its `enter` hook leaves a node alone where the target says it does
    // not act (`TargetRules::enter_acts`): the look then refuses the nodes it acts on.
    let hooks = target.hooks();
    if hooks.leave {
        return None;
    }
    let rules = target.rules();
    let Value::Object(root) = input else {
        return None;
    };
    let mut look = Look::<false>::new(options, rules);
    look.enter = hooks.enter.then_some(target);
    // The marker only where the rule set does not forbid it (the walk then fails the node instead).
    look.collapse = rules
        .collapse_nullable_any_of
        .then_some(options.nullable)
        .filter(|n| match n {
            Nullable::Marker => !rules.forbidden.contains(&"nullable"),
            Nullable::Remove | Nullable::Preserve => true,
            _ => false,
        });
    look.isolate = look.collapse.is_some() && rules.isolate_any_of;
    look.narrow = look.collapse.is_some() && !rules.isolate_any_of && rules.merge_combinators;
    if !(look.root(root) && look.node(root, 0, true, 0)) {
        return None;
    }
    Some(if look.edited {
        Looked::Edited(look)
    } else {
        Looked::Unchanged
    })
}

impl Look<'_, false> {
    /// Makes the edits on `root`, the root the plain look took, where it is, and gives the walk's report.
    pub(super) fn build(&self, root: &mut Map<String, Value>) -> Normalization {
        let mut changed = dialect(root, self.rules.schema_uri);
        changed |= edit(root, self);
        Normalization::produced(changed)
            .with_strict(false)
            .with_narrowed(self.narrowed)
    }
}

/// Applies the edits to `map`, a node the look accepted, and below it; returns whether anything changed.
fn edit(map: &mut Map<String, Value>, look: &Look<'_, false>) -> bool {
    let rules = look.rules;
    // The type's name as one of the known names (the look accepted no other), so that the map stays free to edit.
    let ty = map
        .iter()
        .find_map(|(key, value)| match (key.as_str(), value) {
            ("type", Value::String(ty)) => TYPE_NAMES.iter().copied().find(|name| name == ty),
            _ => None,
        });
    let before = map.len();
    let mut lifted: Vec<(String, Value)> = Vec::new();
    // `retain` rebuilds the map's index only when it removed something.
    map.retain(|key, value| {
        if !look.strips(key, value, || ty) {
            return true;
        }
        // `additionalProperties` is not on the lift list: it is dropped.
        if key != "additionalProperties" {
            lifted.push((key.clone(), std::mem::take(value)));
        }
        false
    });
    let mut changed = map.len() != before;
    lifted.sort_by(|(a, _), (b, _)| a.as_bytes().cmp(b.as_bytes()));
    for (key, value) in &lifted {
        lift::append(map, key, value);
    }
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for child in properties.values_mut() {
                    changed |= edit_value(child, look);
                }
            }
            ("items", items) => changed |= edit_value(items, look),
            ("anyOf", Value::Array(branches)) => {
                for branch in branches {
                    changed |= edit_value(branch, look);
                }
            }
            _ => {}
        }
    }
    if let Some(policy) = look.collapse {
        changed |= collapse(map, policy == Nullable::Marker, look.isolate);
    }
    // W26's part of the rule set, as its `leave` step does it: an object without `properties` gains empty ones, last.
    if rules.empty_properties == EmptyProperties::Add
        && json::member(map, "type").and_then(Value::as_str) == Some("object")
        && !json::has(map, "properties")
    {
        map.insert("properties".to_owned(), Value::Object(Map::new()));
        changed = true;
    }
    if rules.filter_required {
        changed |= filter_required(map);
    }
    if rules.empty_properties == EmptyProperties::Remove
        && matches!(json::member(map, "properties"), Some(Value::Object(p)) if p.is_empty())
    {
        json::remove(map, "properties");
        changed = true;
    }
    changed
}

/// [`edit`] on a schema that is an object; returns whether anything changed.
fn edit_value(value: &mut Value, look: &Look<'_, false>) -> bool {
    match value {
        Value::Object(map) => edit(map, look),
        _ => false,
    }
}

/// `google.collapse-nullable` on a union the look accepted (after its branches' edits): the live branch's keys
/// join the node where it lacks them, the descriptions of the node and of every branch (in branch order) join as
/// one, and with the marker policy `nullable: true` is set; returns whether anything changed. A union of several
/// live branches is isolated where `isolating` (Gemini) and narrowed otherwise (Code Assist) instead.
#[inline(never)]
fn collapse(map: &mut Map<String, Value>, marker: bool, isolating: bool) -> bool {
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return false;
    };
    if branches.iter().filter(|b| !null_branch(b)).count() > 1 {
        return if isolating {
            isolate(map, marker)
        } else {
            narrow(map)
        };
    }
    let joined = joined_description(map, branches);
    let Some(Value::Array(branches)) = json::remove(map, "anyOf") else {
        return false;
    };
    if let Some(Value::Object(live)) = branches.into_iter().find(|b| !null_branch(b)) {
        for (key, value) in live {
            if !json::has(map, &key) {
                map.insert(key, value);
            }
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    if marker {
        json::set(map, "nullable", Value::Bool(true));
    }
    true
}

/// `google.isolate-any-of` on a union of several live branches the look accepted (after its branches' edits), as
/// the Google tail makes it: null branches (only under the marker policy) leave, their descriptions joining the
/// node's, and every live branch gets `nullable: true`; then, where the node holds more than its `anyOf`, the node's
/// description is written in front of each branch's own, its title given to each branch without one, and the node
/// keeps only its `anyOf`. Returns whether anything changed.
fn isolate(map: &mut Map<String, Value>, marker: bool) -> bool {
    let changed = drop_nulls(map, marker);
    if map.len() == 1 {
        return changed;
    }
    let Some(Value::Array(mut branches)) = json::remove(map, "anyOf") else {
        return changed;
    };
    for (key, value) in map.iter() {
        for branch in &mut branches {
            let Value::Object(branch) = branch else {
                continue;
            };
            match key.as_str() {
                "description" => {
                    let parent = value.as_str().unwrap_or("");
                    let text = match json::member(branch, "description").and_then(Value::as_str) {
                        Some(own) if !own.is_empty() => format!("{parent} {own}"),
                        _ => parent.to_owned(),
                    };
                    json::set(branch, "description", Value::String(text));
                }
                "title" if !json::has(branch, "title") => {
                    branch.insert("title".to_owned(), value.clone());
                }
                // The look takes no other key beside `anyOf` but a `default`, lifted before.
                _ => {}
            }
        }
    }
    map.clear();
    map.insert("anyOf".to_owned(), Value::Array(branches));
    true
}

/// The null branches of a union of several live branches the look accepted removed, as the Google tail removes
/// them before isolating or merging the union: their descriptions join the node's, and with the marker policy every
/// live branch gets `nullable: true`. Returns whether there were any.
fn drop_nulls(map: &mut Map<String, Value>, marker: bool) -> bool {
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return false;
    };
    if !branches.iter().any(null_branch) {
        return false;
    }
    let nulls: Vec<Value> = branches
        .iter()
        .filter(|b| null_branch(b))
        .cloned()
        .collect();
    let joined = joined_description(map, &nulls);
    if let Some(Value::Array(branches)) = json::member_mut(map, "anyOf") {
        branches.retain(|b| !null_branch(b));
        if marker {
            for branch in branches.iter_mut() {
                if let Value::Object(branch) = branch {
                    json::set(branch, "nullable", Value::Bool(true));
                }
            }
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    true
}

/// `target.narrow-union` on a union of live branches of different types the look accepted (after its branches'
/// edits), as Code Assist's tail makes it when the merge fails: null branches removed first (the policy that removes
/// null), then the node takes the keys of the first branch whose keys other than `description` it holds with the
/// same value or not at all, the descriptions of the node and that branch join as one, and the other branches, as
/// edited, are written into the description as `(anyOf: [...])`. Returns whether anything changed (always).
fn narrow(map: &mut Map<String, Value>) -> bool {
    drop_nulls(map, false);
    let Some(Value::Array(mut branches)) = json::remove(map, "anyOf") else {
        return true;
    };
    let chosen = branches.iter().position(|branch| {
        branch.as_object().is_some_and(|branch| {
            branch.iter().all(|(key, value)| {
                key == "description" || json::member(map, key).is_none_or(|own| own == value)
            })
        })
    });
    let Some(Value::Object(branch)) = chosen.map(|at| branches.remove(at)) else {
        return true;
    };
    let own = trimmed(json::member(map, "description"));
    let theirs = trimmed(json::member(&branch, "description"));
    let joined = theirs.map(|theirs| {
        own.into_iter()
            .chain([theirs])
            .collect::<Vec<&str>>()
            .join(" ")
    });
    for (key, value) in branch {
        if key != "description" && !json::has(map, &key) {
            map.insert(key, value);
        }
    }
    if let Some(text) = joined {
        json::set(map, "description", Value::String(text));
    }
    let removed = Value::Array(branches);
    if !lift::append(map, "anyOf", &removed) {
        // The node's text already names an `(anyOf:` fragment: the branches are written after it all the same.
        let current = json::member(map, "description")
            .and_then(Value::as_str)
            .unwrap_or("");
        let text = format!("{current} (anyOf: {})", lift::render("anyOf", &removed));
        json::set(
            map,
            "description",
            Value::String(text.trim_start().to_owned()),
        );
    }
    true
}

/// The node's own description and every branch's, trimmed, the empty ones left out, joined by spaces; `None` when
/// no branch has one.
fn joined_description(map: &Map<String, Value>, branches: &[Value]) -> Option<String> {
    let added: Vec<&str> = branches
        .iter()
        .filter_map(|b| trimmed(b.get("description")))
        .collect();
    if added.is_empty() {
        return None;
    }
    let own = trimmed(json::member(map, "description"));
    Some(
        own.into_iter()
            .chain(added)
            .collect::<Vec<&str>>()
            .join(" "),
    )
}

/// A string's text trimmed, unless it is empty.
fn trimmed(value: Option<&Value>) -> Option<&str> {
    value
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
}

/// `google.filter-required` on a node the look accepted: names that are not properties removed, and an empty
/// `required` with them; returns whether anything changed.
fn filter_required(map: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(names)) = json::member(map, "required") else {
        return false;
    };
    let properties = json::member(map, "properties").and_then(Value::as_object);
    let declared = |name: &Value| {
        name.as_str()
            .is_some_and(|n| properties.is_some_and(|p| json::has(p, n)))
    };
    if !names.is_empty() && names.iter().all(declared) {
        return false;
    }
    let kept: Vec<Value> = names.iter().filter(|n| declared(n)).cloned().collect();
    if kept.is_empty() {
        json::remove(map, "required");
    } else {
        json::set(map, "required", Value::Array(kept));
    }
    true
}

#[cfg(test)]
// The tests print how many schemas the look took, beside their verdict.
#[allow(clippy::print_stderr)]
mod tests {
    use serde_json::{Value, json};

    use super::edited;
    use crate::schema::unchanged::tests::{all_options, builds_as_walk, corpus, look_property};
    use crate::schema::unchanged::{strict_closed, unchanged};
    use crate::schema::{Budget, Keywords, Nullable, Options, Target};
    use llmshim_benches::testdata;
    use llmshim_core::Normalization;
    use llmshim_core::rules::{Booleans, EmptyProperties};
    use llmshim_core::walk::Hooks;

    /// The unchanged look's options, and every target under the nullability policy that leaves unions alone.
    fn options() -> Vec<Options> {
        let mut all = all_options();
        all.extend(
            Target::BUILTIN
                .iter()
                .map(|target| Options::for_target(*target).with_nullable(Nullable::Preserve)),
        );
        all
    }

    /// The plain look's output and report, built on a copy of the input.
    fn built(options: &Options, input: &Value) -> Option<(Value, Normalization)> {
        let mut out = input.clone();
        let report = edited(options, input)?.build(&mut out)?;
        Some((out, report))
    }

    /// [`builds_as_walk`] for the strict look.
    fn closes(options: &Options, input: &Value) -> Result<bool, String> {
        builds_as_walk("strict look", strict_closed, options, input)
    }

    /// [`builds_as_walk`] for the edit look.
    fn builds(options: &Options, input: &Value) -> Result<bool, String> {
        builds_as_walk("edit look", built, options, input)
    }

    #[test]
    fn the_edit_look_agrees_with_the_walk_on_the_whole_corpus() {
        if testdata::require("the edit look over the corpus").is_none() {
            return;
        }
        let schemas = corpus();
        let mut problems = Vec::new();
        for options in options() {
            let (mut hits, mut edits) = (0, 0);
            for input in &schemas {
                match builds(&options, input) {
                    Ok(hit) => {
                        hits += usize::from(hit);
                        edits += usize::from(hit && !unchanged(&options, input));
                    }
                    Err(problem) => problems.push(problem),
                }
            }
            eprintln!(
                "edit look: {} strict {} {:?} {:?}: {hits} of {} schemas, {edits} the unchanged look refuses",
                options.target.name(),
                options.strict,
                options.keywords,
                options.budget,
                schemas.len()
            );
            // On the targets of the Google value rules without hooks of their own (Google and Code Assist), the
            // common edited shapes must be found within the default budget.
            let target = options.target.rules();
            let google = target.rules().google_values && target.hooks() == Hooks::NONE;
            if google && !options.strict && options.budget == Budget::default() {
                assert!(edits > 300, "{}: {edits} edited", options.target.name());
            }
            // On a target with an `enter` hook that says where it acts (Gemini's JSON Schema dialect), the look
            // takes the schemas whose edits are the rule set's on nodes the hook leaves alone.
            if target.hooks().enter && !options.strict && options.budget == Budget::default() {
                assert!(edits > 150, "{}: {edits} edited", options.target.name());
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_edit_look_builds_the_common_google_edits_and_refuses_the_rest() {
        let google = Options::for_target(Target::Google);
        let input = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "a": {"type": "string", "default": "x", "format": "uri", "description": "A"},
                "b": {"type": "integer", "exclusiveMinimum": 0, "default": 3},
                "c": {"type": "object", "properties": {}, "required": [], "additionalProperties": false},
                "d": {"anyOf": [{"type": "string", "format": "uri", "description": "D ", "title": "L"}, {"type": "null"}],
                      "default": null, "title": "T"}
            },
            "required": ["b", "z"],
            "additionalProperties": false
        });
        let Some((built, report)) = built(&google, &input) else {
            panic!("the edit look refuses {input}");
        };
        assert!(report.changed && !report.strict && !report.used_fallback && !report.narrowed);
        assert_eq!(
            serde_json::to_string(&built).ok().as_deref(),
            Some(concat!(
                r#"{"type":"object","properties":{"a":{"type":"string","description":"A (default: \"x\") (format: uri)"},"#,
                r#""b":{"type":"integer","description":"(default: 3) (exclusiveMinimum: 0)"},"#,
                r#""c":{"type":"object"},"#,
                r#""d":{"title":"T","description":"(default: null) D  (format: uri)","type":"string","nullable":true}},"#,
                r#""required":["b"]}"#
            ))
        );
        assert_eq!(builds(&google, &input), Ok(true));
        // A closed object whose only change is the dialect: built wherever the keep-list keeps `additionalProperties`,
        // also where the rule set rejects boolean subschemas (Responses), since a boolean `additionalProperties` is a
        // flag of its object there, not a subschema.
        let closed = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"a": {"type": "string", "additionalProperties": false}},
            "additionalProperties": false
        });
        // Rule sets that keep it and reject boolean subschemas, which the loop must meet.
        let mut rejecting = 0;
        for target in Target::BUILTIN {
            let options = Options::for_target(target);
            if target.rules().hooks() != Hooks::NONE {
                continue;
            }
            let rules = target.rules().rules();
            let kept = rules
                .keep_set(options.keywords)
                .is_none_or(|keep| keep.keeps("additionalProperties", &json!(false)));
            let built = builds(&options, &closed);
            if kept {
                assert_eq!(built, Ok(true), "{}", target.name());
                rejecting += usize::from(rules.booleans == Booleans::Reject);
            } else {
                assert!(built.is_ok(), "{built:?}");
            }
            // A boolean schema anywhere else goes to the walk, which rejects it where the rule set says so.
            let property =
                json!({"type": "object", "properties": {"a": true}, "additionalProperties": false});
            assert_eq!(builds(&options, &property), Ok(false), "{}", target.name());
        }
        assert!(
            rejecting > 0,
            "no rule set without hooks rejects boolean subschemas"
        );
        // Objects without `properties`, where the rule set appends empty ones after the lifted constraints; one whose
        // `additionalProperties` is a schema still goes to the walk.
        let open = json!({"type": "object", "properties": {
            "a": {"type": "object", "description": "Any", "minLength": 2},
            "b": {"type": "object", "required": ["x"], "additionalProperties": false}}});
        let schema = json!({"type": "object", "properties": {"a": {"type": "object", "additionalProperties": {}}}});
        let mut adding = 0;
        for target in Target::BUILTIN {
            let options = Options::for_target(target);
            let rules = target.rules().rules();
            if target.rules().hooks() != Hooks::NONE
                || rules.empty_properties != EmptyProperties::Add
            {
                continue;
            }
            adding += 1;
            assert_eq!(builds(&options, &open), Ok(true), "{}", target.name());
            assert_eq!(builds(&options, &schema), Ok(false), "{}", target.name());
        }
        assert!(
            adding > 0,
            "no rule set without hooks adds empty properties"
        );
        // A list of scalars as a `default`, kept or lifted as a whole on every target without hooks, with strict and
        // without; a list holding a list still goes to the walk.
        let scalars = json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "string"}, "default": ["x", 1, null, true]}}});
        let nested = json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "string"}, "default": [["x"]]}}});
        for target in Target::BUILTIN {
            if target.rules().hooks() != Hooks::NONE {
                continue;
            }
            for strict in [false, true] {
                let options = Options::for_target(target)
                    .with_strict(strict && target.rules().rules().strict.is_some());
                let check = if options.strict { closes } else { builds };
                assert_eq!(check(&options, &scalars), Ok(true), "{}", target.name());
                assert_eq!(check(&options, &nested), Ok(false), "{}", target.name());
            }
        }
        // On a target with an `enter` hook, the edits on nodes the hook leaves alone, and not on a node it acts on.
        let hooked = Target::BUILTIN
            .into_iter()
            .find(|t| t.rules().hooks().enter)
            .map(Options::for_target)
            .expect("a built-in target has an enter hook");
        let defaulted = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                               "properties": {"a": {"type": "string", "enum": ["x", "y"], "default": "x"}}});
        assert_eq!(builds(&hooked, &defaulted), Ok(true));
        // Gemini's JSON Schema dialect keeps a boolean `additionalProperties` though it rejects boolean subschemas.
        assert_eq!(hooked.target.rules().rules().booleans, Booleans::Reject);
        assert_eq!(builds(&hooked, &closed), Ok(true));
        // Its keep-list strips every `pattern`: a string one is lifted as written, with the other lifted constraints in
        // keyword order, before the pattern rules could read it (a lookaround, a malformed one); any other goes to the
        // walk.
        for pattern in ["^[a-z]+$", "^(?!x)", "("] {
            let input = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": pattern,
                               "minLength": 1, "description": "A"}}, "additionalProperties": false});
            assert_eq!(builds(&hooked, &input), Ok(true), "{input}");
        }
        let number =
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": 5}}});
        assert_eq!(builds(&hooked, &number), Ok(false));
        // Gemini's `parameters` under the conservative profile keep no `pattern`: a backreference is lifted as written.
        // Under the current profile the keep-list keeps a pattern and the pattern rules act on one outside Gemini's
        // subset, so it goes to the walk.
        let backreference =
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "(a)\\1"}}});
        let conservative = google.clone().with_keywords(Keywords::Conservative);
        let Some((lifted, _)) = self::built(&conservative, &backreference) else {
            panic!("the edit look refuses {backreference} under the conservative profile");
        };
        assert_eq!(
            lifted["properties"]["a"]["description"],
            json!("(pattern: (a)\\1)")
        );
        assert_eq!(builds(&conservative, &backreference), Ok(true));
        assert_eq!(builds(&google, &backreference), Ok(false));
        for input in [
            json!({"type": "object", "properties": {"a": {"type": "integer", "format": "int64", "default": 1}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", null], "default": "x"}}}),
        ] {
            assert_eq!(builds(&hooked, &input), Ok(false), "{input}");
        }
        // A union of several live branches on Google: the null branches leave (their descriptions joining the
        // node's) and each live branch is marked nullable, then the node's annotations (its lifted default in the
        // description) are copied into each branch and the node keeps only its `anyOf` (`google.isolate-any-of`).
        let several = json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "string", "format": "uri"}, {"type": "array", "items": {"type": "string"}, "title": "A"},
                            {"type": "null", "description": "none"}],
                  "default": null, "description": " Either ", "title": "T"},
            "b": {"anyOf": [{"type": "string", "description": "own"}, {"type": "integer"}], "title": "B"},
            "c": {"anyOf": [{"type": "string"}, {"type": "number"}]}}});
        let Some((isolated, report)) = self::built(&google, &several) else {
            panic!("the edit look refuses {several}");
        };
        assert!(report.changed && !report.narrowed);
        assert_eq!(
            serde_json::to_string(&isolated).ok().as_deref(),
            Some(concat!(
                r#"{"type":"object","properties":{"a":{"anyOf":["#,
                r#"{"type":"string","description":"Either  (default: null) none (format: uri)","nullable":true,"title":"T"},"#,
                r#"{"type":"array","items":{"type":"string"},"title":"A","nullable":true,"description":"Either  (default: null) none"}]},"#,
                r#""b":{"anyOf":[{"type":"string","description":"own","title":"B"},{"type":"integer","title":"B"}]},"#,
                r#""c":{"anyOf":[{"type":"string"},{"type":"number"}]}}}"#
            ))
        );
        assert_eq!(builds(&google, &several), Ok(true));
        // Null branches beside several live ones go to the walk under another nullability policy (which narrows or
        // keeps them); a union whose one live branch is itself such a union, or whose live branches are not all
        // typed, goes to the walk too.
        let nullable = json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "title": "T"}}});
        for options in [
            google.clone().with_nullable(Nullable::Remove),
            google.clone().with_nullable(Nullable::Preserve),
        ] {
            assert_eq!(builds(&options, &nullable), Ok(false), "{options:?}");
        }
        assert_eq!(
            builds(
                &google.clone().with_nullable(Nullable::Preserve),
                &json!({"type": "object", "properties": {"b": several["properties"]["b"].clone()}})
            ),
            Ok(true)
        );
        // The target that merges unions instead of isolating them (Code Assist), chosen by its rule set.
        let cca = Target::BUILTIN
            .into_iter()
            .find(|t| t.rules().hooks() == Hooks::NONE && t.rules().rules().merge_combinators)
            .map(Options::for_target)
            .expect("a built-in target without hooks merges unions");
        for input in [
            json!({"type": "object", "properties": {"a": {"anyOf": [
                {"anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}], "description": "d"}}}),
            json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"description": "any"}]}}}),
        ] {
            assert_eq!(builds(&google, &input), Ok(false), "{input}");
            assert_eq!(builds(&cca, &input), Ok(false), "{input}");
        }
        // On Code Assist, which merges unions, a union of branches of different types cannot merge and is narrowed
        // (`target.narrow-union`): null branches removed (narrowed under its policy), the first branch whose title
        // does not differ from the node's kept with the node's keys and joined description, the others written into
        // the description as edited.
        let Some((narrowed, report)) = self::built(&cca, &several) else {
            panic!("the edit look refuses {several} on Code Assist");
        };
        assert!(report.changed && report.narrowed);
        assert_eq!(
            serde_json::to_string(&narrowed).ok().as_deref(),
            Some(concat!(
                r#"{"type":"object","properties":{"a":{"description":"Either  (default: null) none (format: uri) "#,
                r#"(anyOf: [{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"title\":\"A\"}])","title":"T","type":"string"},"#,
                r#""b":{"title":"B","type":"string","description":"own (anyOf: [{\"type\":\"integer\"}])"},"#,
                r#""c":{"type":"string","description":"(anyOf: [{\"type\":\"number\"}])"}}}"#
            ))
        );
        assert_eq!(builds(&cca, &several), Ok(true));
        assert_eq!(builds(&cca, &nullable), Ok(true));
        // The kept branch is the first whose title does not differ from the node's; a node whose text already holds an
        // `(anyOf:` fragment gets the other branches after it all the same.
        let titled = json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "string", "title": "S"}, {"type": "integer"}, {"type": "number", "title": "T"}],
                  "title": "T", "description": "see (anyOf: x)"}}});
        let Some((narrowed, _)) = self::built(&cca, &titled) else {
            panic!("the edit look refuses {titled} on Code Assist");
        };
        assert_eq!(
            narrowed["properties"]["a"],
            json!({"title": "T", "description": r#"see (anyOf: x) (anyOf: [{"type":"string","title":"S"},{"type":"number","title":"T"}])"#,
                "type": "integer"})
        );
        assert_eq!(builds(&cca, &titled), Ok(true));
        // A union whose branches are all of one type is merged, which the look leaves to the walk; so are null
        // branches the policy keeps, and a union none of whose branches shares the node's title.
        for (options, input) in [
            (
                &cca,
                json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "string", "minLength": 1}]}}}),
            ),
            (
                &cca.clone().with_nullable(Nullable::Preserve),
                nullable.clone(),
            ),
            (
                &cca,
                json!({"type": "object", "properties": {"a": {"anyOf": [
                {"type": "string", "title": "S"}, {"type": "integer", "title": "I"}], "title": "T"}}}),
            ),
        ] {
            assert_eq!(builds(options, &input), Ok(false), "{input}");
        }
        for input in [
            // A number bound on a string; a draft-04 dialect; a schema for `additionalProperties`; an untyped node with
            // a default.
            json!({"type": "object", "properties": {"a": {"type": "string", "exclusiveMinimum": 1}}}),
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                   "properties": {"a": {"type": "number", "exclusiveMinimum": 1}}}),
            json!({"type": "object", "properties": {}, "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"a": {"description": "d", "default": 1}}}),
            // A null branch with more than a description, a union beside a key other than the annotations.
            json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null", "$ref": "#"}]}}}),
            json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}], "$comment": "c"}}}),
        ] {
            assert_eq!(builds(&google, &input), Ok(false), "{input}");
        }
    }

    #[test]
    fn the_edit_look_agrees_with_the_walk_on_generated_schemas() {
        look_property("edit look", &options(), builds);
    }
}
