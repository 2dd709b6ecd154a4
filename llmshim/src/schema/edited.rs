//! The plain look's second chance: a schema that normalization without strict changes only by a few local edits,
//! built from one copy of the input instead of walked.
//!
//! About half of the MCP corpus's tool schemas change on the Google targets, and most of them only because Gemini's
//! keep-list has no `additionalProperties` or `default`, the dialect's root `$schema` is removed, an empty
//! `properties` or `required` is dropped, or a `format` Gemini does not know is lifted. [`edited`] runs the look of
//! [`super::unchanged`] with those edits allowed, and where every node of the schema passes, builds the output as the
//! walk leaves it:
//! - the root's `$schema` (draft 7 or 2020-12 only) removed or set to 2020-12 as the meta step does;
//! - a key the rule set's keep-list strips, among a boolean `additionalProperties` (dropped) and the scalar
//!   constraints of [`LIFTED`] (lifted into the description in byte-wise keyword order, as the walk's lift queue
//!   writes them), and under the Google value rules a `format` they do not keep (lifted with them);
//! - `required` names that are not properties filtered out, an empty `required` removed (`google.filter-required`);
//! - an empty `properties` removed (`google.drop-empty-properties`).
//!
//! Everything else refuses as the unchanged look refuses: a node that would need any other edit goes to the walk, and
//! so does a node the target's own `enter` hook acts on (`TargetRules::enter_acts`).
//! The report is the walk's without diagnostics (strict off, `changed` when an edit applied). The unit tests hold
//! the output and report to the walk's over the whole shared corpus and generated schemas.

use llmshim_core::keep::KeepSet;
use llmshim_core::keyword::TYPE_NAMES;
use llmshim_core::rules::{Booleans, DefaultItems, EmptyProperties, Root, SchemaUri};
use llmshim_core::{Normalization, Nullable, RuleSet, TargetRules, json, lift};
use llmshim_resolve::Draft;
use serde_json::{Map, Value};

use super::unchanged::{
    GROUPS, MAX_DEPTH, MAX_LITERAL_BYTES, MAX_NODES, SCALAR_BYTES, distinct_strings, list_bytes,
    text_bytes,
};
use crate::schema::Options;

/// The constraints [`edited`] lifts where the rule set's keep-list strips them, each with a scalar value of the
/// kind the look accepts (checked in [`Look::node`]), and the group of [`GROUPS`] a bound belongs to.
const LIFTED: [(&str, Option<usize>); 10] = [
    ("default", None),
    ("format", None),
    ("minimum", Some(2)),
    ("maximum", Some(2)),
    ("exclusiveMinimum", Some(2)),
    ("exclusiveMaximum", Some(2)),
    ("minItems", Some(1)),
    ("maxItems", Some(1)),
    ("minLength", Some(3)),
    ("maxLength", Some(3)),
];

/// Where normalizing `input` without strict, with the effective `options`, certainly amounts to the edits the module
/// lists, that output, built from one copy of the input, and the walk's report for it; `None` sends the schema to
/// the walk.
pub(crate) fn edited(options: &Options, input: &Value) -> Option<(Value, Normalization)> {
    if options.strict || options.diagnostics || options.structured_output || options.bypass {
        return None;
    }
    let target = options.target.rules();
    // A target's own hooks may do anything; only rule-set data is read here, on nodes its `enter` hook leaves
    // alone (`TargetRules::enter_acts`).
    let hooks = target.hooks();
    if hooks.leave {
        return None;
    }
    let rules = target.rules();
    let Value::Object(root) = input else {
        return None;
    };
    let mut look = Look {
        rules,
        keep: rules.keep_set(options.keywords),
        // The marker only where the rule set does not forbid it (the walk then fails the node instead).
        collapse: rules
            .collapse_nullable_any_of
            .then_some(options.nullable)
            .filter(|n| match n {
                Nullable::Marker => !rules.forbidden.contains(&"nullable"),
                Nullable::Remove | Nullable::Preserve => true,
                _ => false,
            }),
        max_nodes: options.budget.max_nodes.min(MAX_NODES),
        max_depth: options.budget.max_depth.min(MAX_DEPTH),
        max_literal_bytes: options.budget.max_literal_bytes.min(MAX_LITERAL_BYTES),
        nodes: 0,
        literal_bytes: 0,
        enter: hooks.enter.then_some(target),
    };
    if !(look.root(root) && look.node(root, 0, true)) {
        return None;
    }
    let mut out = root.clone();
    let mut changed = match json::member_mut(&mut out, "$schema") {
        None => false,
        Some(slot) => match rules.schema_uri {
            SchemaUri::Remove => json::remove(&mut out, "$schema").is_some(),
            SchemaUri::Set2020 => {
                let uri = Draft::Draft202012.uri();
                let set = slot.as_str() != Some(uri);
                if set {
                    *slot = Value::String(uri.to_owned());
                }
                set
            }
            // The look refuses a `$schema` under a rule it does not know.
            _ => return None,
        },
    };
    changed |= edit(&mut out, &look);
    Some((
        Value::Object(out),
        Normalization::produced(changed).with_strict(false),
    ))
}

/// Whether the rule set strips `key` with `value` from a node, so that the look lifts or drops it: the keep-list's
/// verdict, and under the Google value rules a `format` they do not keep on a node of type `ty`.
fn stripped(look: &Look<'_>, key: &str, value: &Value, ty: Option<&str>) -> bool {
    look.keep.is_some_and(|keep| !keep.keeps(key, value))
        || (key == "format"
            && look.rules.google_values
            && value
                .as_str()
                .is_none_or(|format| !google_format(ty, format)))
}

/// The Google value rules' `format` verdict for the formats the look accepts (never `enum`, which it refuses).
fn google_format(ty: Option<&str>, format: &str) -> bool {
    matches!(
        (ty, format),
        (Some("string"), "date-time")
            | (Some("integer"), "int32" | "int64")
            | (Some("number"), "float" | "double")
    )
}

/// Applies the edits to `map`, a copy of a node the look accepted, and below it; returns whether anything changed.
fn edit(map: &mut Map<String, Value>, look: &Look<'_>) -> bool {
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
        if !stripped(look, key, value, ty) {
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
        changed |= collapse(map, policy == Nullable::Marker);
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
fn edit_value(value: &mut Value, look: &Look<'_>) -> bool {
    match value {
        Value::Object(map) => edit(map, look),
        _ => false,
    }
}

/// `google.collapse-nullable` on a union the look accepted (after its branches' edits): the live branch's keys
/// join the node where it lacks them, the descriptions of the node and of every branch (in branch order) join as
/// one, and with the marker policy `nullable: true` is set; returns whether anything changed.
fn collapse(map: &mut Map<String, Value>, marker: bool) -> bool {
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return false;
    };
    let joined = joined_description(map, branches);
    let Some(Value::Array(branches)) = json::remove(map, "anyOf") else {
        return false;
    };
    let null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
    if let Some(Value::Object(live)) = branches.into_iter().find(|b| !null(b)) {
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

/// The running state of one look.
struct Look<'r> {
    rules: &'r RuleSet,
    keep: Option<&'r KeepSet>,
    /// Where the rule set collapses a nullable union, the nullability policy (one the look knows).
    collapse: Option<Nullable>,
    max_nodes: usize,
    max_depth: usize,
    max_literal_bytes: usize,
    nodes: usize,
    literal_bytes: usize,
    /// The target, where it has an `enter` hook: a node the hook acts on goes to the walk.
    enter: Option<&'r dyn TargetRules>,
}

/// The keys of a node that the look reads after its pass over the members.
#[derive(Default)]
struct Node<'v> {
    ty: Option<&'v str>,
    properties: Option<&'v Map<String, Value>>,
    items: Option<&'v Map<String, Value>>,
    any_of: Option<&'v [Value]>,
    has_enum: bool,
    /// A `format` the node keeps (a lifted one is not counted here).
    format: Option<&'v str>,
    /// Keys (kept or lifted) that apply to one type only, by group of [`GROUPS`].
    typed: [bool; 4],
    /// Keys other than `anyOf`, `description`, `title` and `default` (all an untyped node may hold).
    typing: bool,
}

impl Look<'_> {
    /// The root rule: an object root where the rule set asks for one, none of the keys a shaped root may not keep.
    fn root(&self, root: &Map<String, Value>) -> bool {
        let shaped: &[&str] = match self.rules.root {
            Root::Any => return true,
            Root::Object => &[],
            Root::Shaped(keys) => keys,
            // A root rule this look does not know.
            _ => return false,
        };
        root.iter().all(|(key, value)| {
            !shaped.contains(&key.as_str()) && (key != "type" || value.as_str() == Some("object"))
        }) && root.iter().any(|(key, _)| key == "type")
    }

    /// Whether the schema object `map`, `depth` containers deep, and everything below it need only the module's
    /// edits.
    fn node(&mut self, map: &Map<String, Value>, depth: usize, root: bool) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes
            || depth > self.max_depth
            || self.enter.is_some_and(|target| target.enter_acts(map))
        {
            return false;
        }
        let rules = self.rules;
        if self.collapse.is_some() && !root && map.iter().any(|(key, _)| key == "anyOf") {
            return self.nullable_union(map, depth);
        }
        let ty = map
            .iter()
            .find_map(|(key, value)| match (key.as_str(), value) {
                ("type", Value::String(ty)) => Some(ty.as_str()),
                _ => None,
            });
        let mut node = Node::default();
        for (key, value) in map {
            if root && key == "$schema" {
                // The root's dialect, draft 7 or 2020-12 (which read every keyword the look accepts alike), removed
                // by the meta step or set to 2020-12 where the keep-list keeps it.
                let known = value.as_str().is_some_and(|uri| {
                    [Draft::Draft7, Draft::Draft202012]
                        .iter()
                        .any(|d| d.uri() == uri)
                });
                let rule = match rules.schema_uri {
                    SchemaUri::Remove => true,
                    SchemaUri::Set2020 => self.keep.is_none_or(|keep| keep.keeps(key, value)),
                    _ => false,
                };
                if !known || !rule {
                    return false;
                }
                self.charge(key, text_bytes(value.as_str().unwrap_or("")));
                continue;
            }
            if rules.forbidden.contains(&key.as_str()) {
                return false;
            }
            if stripped(self, key, value, ty) {
                let group = match (key.as_str(), value) {
                    // Dropped without a trace; counted as a schema, which the budgets may count.
                    ("additionalProperties", Value::Bool(_)) => {
                        self.nodes += 1;
                        if depth + 1 > self.max_depth {
                            return false;
                        }
                        node.typed[0] = true;
                        self.charge(key, SCALAR_BYTES);
                        node.typing = true;
                        continue;
                    }
                    (
                        "default",
                        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_),
                    )
                    | (
                        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum",
                        Value::Number(_),
                    ) => LIFTED.iter().find(|(k, _)| k == key).and_then(|(_, g)| *g),
                    ("minItems" | "maxItems" | "minLength" | "maxLength", count)
                        if count.is_u64() =>
                    {
                        LIFTED.iter().find(|(k, _)| k == key).and_then(|(_, g)| *g)
                    }
                    ("format", Value::String(format)) if format != "enum" => None,
                    _ => return false,
                };
                if let Some(group) = group
                    && let Some(slot) = node.typed.get_mut(group)
                {
                    *slot = true;
                }
                if key != "default" {
                    node.typing = true;
                }
                // The walk charges the member as written, before the keep-list; the fragment is not charged.
                let bytes = match value {
                    Value::String(text) => text_bytes(text),
                    _ => SCALAR_BYTES,
                };
                self.charge(key, bytes);
                continue;
            }
            let bytes = match (key.as_str(), value) {
                ("type", Value::String(name)) => {
                    let known = TYPE_NAMES.contains(&name.as_str());
                    if !known || (rules.forbid_null_type && name == "null") {
                        return false;
                    }
                    node.ty = Some(name);
                    node.typing = true;
                    text_bytes(name)
                }
                ("description" | "title" | "default", Value::String(text)) => text_bytes(text),
                ("properties", Value::Object(properties)) => {
                    node.properties = Some(properties);
                    node.typed[0] = true;
                    node.typing = true;
                    properties.keys().map(String::len).sum()
                }
                ("required", Value::Array(names)) => {
                    if !distinct_strings(names) {
                        return false;
                    }
                    node.typed[0] = true;
                    node.typing = true;
                    list_bytes(names)
                }
                ("enum", Value::Array(values)) => {
                    if values.is_empty() || !values.iter().all(Value::is_string) {
                        return false;
                    }
                    node.has_enum = true;
                    node.typing = true;
                    list_bytes(values)
                }
                ("items", Value::Object(items)) => {
                    node.items = Some(items);
                    node.typed[1] = true;
                    node.typing = true;
                    0
                }
                ("anyOf", Value::Array(branches)) => {
                    if root || branches.is_empty() {
                        return false;
                    }
                    node.any_of = Some(branches);
                    0
                }
                // A boolean `additionalProperties` the rule set keeps, where it keeps boolean schemas as they are;
                // counted as a schema, which the budgets may count.
                ("additionalProperties", Value::Bool(_)) if rules.booleans == Booleans::Keep => {
                    self.nodes += 1;
                    if depth + 1 > self.max_depth {
                        return false;
                    }
                    node.typed[0] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("default", Value::Null | Value::Bool(_) | Value::Number(_)) => SCALAR_BYTES,
                ("minimum" | "maximum", Value::Number(_)) => {
                    node.typed[2] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("exclusiveMinimum" | "exclusiveMaximum", Value::Number(_)) => {
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("minItems" | "maxItems", count) if count.is_u64() => {
                    node.typed[1] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("minLength" | "maxLength", count) if count.is_u64() => {
                    node.typed[3] = true;
                    node.typing = true;
                    SCALAR_BYTES
                }
                ("format", Value::String(format)) => {
                    node.format = Some(format);
                    node.typing = true;
                    text_bytes(format)
                }
                _ => return false,
            };
            self.charge(key, bytes);
        }
        if self.literal_bytes > self.max_literal_bytes
            || self.nodes > self.max_nodes
            || !self.fits(&node)
        {
            return false;
        }
        // Children: each property and each `anyOf` branch two containers deeper, the items one.
        if let Some(properties) = node.properties {
            for child in properties.values() {
                let Value::Object(child) = child else {
                    return false;
                };
                if !self.node(child, depth + 2, false) {
                    return false;
                }
            }
        }
        if let Some(items) = node.items
            && !self.node(items, depth + 1, false)
        {
            return false;
        }
        for branch in node.any_of.into_iter().flatten() {
            let Value::Object(branch) = branch else {
                return false;
            };
            if !self.node(branch, depth + 2, false) {
                return false;
            }
        }
        true
    }

    /// Whether `map`, `depth` containers deep on a rule set that collapses nullable unions, is a union the collapse
    /// takes apart and everything below it needs only the module's edits: beside `anyOf` only a `description`, a
    /// `title` and a scalar `default`; one branch not of type `null`, which the look accepts, and at least one of
    /// type `null` with at most a `description` beside it.
    fn nullable_union(&mut self, map: &Map<String, Value>, depth: usize) -> bool {
        let mut branches: &[Value] = &[];
        for (key, value) in map {
            let bytes = match (key.as_str(), value) {
                ("anyOf", Value::Array(list)) => {
                    branches = list;
                    0
                }
                ("description" | "title" | "default", Value::String(text)) => text_bytes(text),
                ("default", Value::Null | Value::Bool(_) | Value::Number(_)) => SCALAR_BYTES,
                _ => return false,
            };
            self.charge(key, bytes);
        }
        let null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
        let live = branches.iter().filter(|b| !null(b)).count();
        if live != 1 || branches.len() < 2 || self.literal_bytes > self.max_literal_bytes {
            return false;
        }
        for branch in branches {
            let Value::Object(branch) = branch else {
                return false;
            };
            if json::member(branch, "type").and_then(Value::as_str) == Some("null") {
                // A null branch: counted as a schema two containers deeper, its members charged.
                self.nodes += 1;
                if self.nodes > self.max_nodes
                    || depth + 2 > self.max_depth
                    || self.enter.is_some_and(|target| target.enter_acts(branch))
                {
                    return false;
                }
                for (key, value) in branch {
                    let Value::String(text) = value else {
                        return false;
                    };
                    if key != "type" && key != "description" {
                        return false;
                    }
                    self.charge(key, text_bytes(text));
                }
                if self.literal_bytes > self.max_literal_bytes {
                    return false;
                }
            } else if !self.node(branch, depth + 2, false) {
                return false;
            }
        }
        true
    }

    /// Counts a member as a literal the walk charges with its key.
    fn charge(&mut self, key: &str, bytes: usize) {
        self.literal_bytes = self
            .literal_bytes
            .saturating_add(key.len().saturating_add(bytes));
    }

    /// Whether no rewrite but the module's edits applies to a node of these keys.
    fn fits(&self, node: &Node<'_>) -> bool {
        let rules = self.rules;
        let Some(ty) = node.ty else {
            // An untyped node: only annotations (a `default` the keep-list strips is lifted as on a typed node),
            // perhaps a union, where no type is required (none is inferred).
            return !node.typing && !rules.require_type;
        };
        if node.any_of.is_some()
            && (rules.collapse_nullable_any_of || rules.merge_combinators || rules.isolate_any_of)
        {
            return false;
        }
        // Empty `properties` added, default `items` added; an empty `properties` the rule set removes is an edit.
        let properties_kept = match rules.empty_properties {
            EmptyProperties::Add => ty != "object" || node.properties.is_some(),
            EmptyProperties::Remove | EmptyProperties::Never => true,
            _ => false,
        };
        let items_kept =
            rules.default_items == DefaultItems::None || ty != "array" || node.items.is_some();
        properties_kept && items_kept && (!rules.google_values || google_kept(node, ty))
    }
}

/// The Google value rules: a string `enum` only on a string node, a kept `format` only where they keep it, and each
/// keyword (kept or lifted) that applies to one type only on a node of that type.
fn google_kept(node: &Node<'_>, ty: &str) -> bool {
    let format_kept = node
        .format
        .is_none_or(|format| google_format(Some(ty), format));
    let applies = GROUPS
        .iter()
        .zip(node.typed)
        .all(|(of, present)| !present || ty == *of || (*of == "number" && ty == "integer"));
    format_kept && applies && (!node.has_enum || ty == "string")
}

#[cfg(test)]
// The tests print how many schemas the look took, beside their verdict.
#[allow(clippy::print_stderr)]
mod tests {
    use serde_json::{Value, json};

    use super::edited;
    use crate::schema::unchanged::tests::{all_options, builds_as_walk, corpus, look_property};
    use crate::schema::unchanged::unchanged;
    use crate::schema::{Budget, Nullable, Options, Target};
    use llmshim_benches::testdata;
    use llmshim_core::rules::Booleans;
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

    /// [`builds_as_walk`] for the edit look.
    fn builds(options: &Options, input: &Value) -> Result<bool, String> {
        builds_as_walk("edit look", edited, options, input)
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
        let Some((built, report)) = edited(&google, &input) else {
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
        // A closed object whose only change is the dialect: built where boolean schemas are kept as they are, walked
        // where the rule set rejects them (Responses).
        let closed = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"a": {"type": "string", "additionalProperties": false}},
            "additionalProperties": false
        });
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
                let expected = rules.booleans == Booleans::Keep;
                assert_eq!(built, Ok(expected), "{}", target.name());
            } else {
                assert!(built.is_ok(), "{built:?}");
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
        for input in [
            json!({"type": "object", "properties": {"a": {"type": "integer", "format": "int64", "default": 1}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", null], "default": "x"}}}),
        ] {
            assert_eq!(builds(&hooked, &input), Ok(false), "{input}");
        }
        for input in [
            // A union of two live branches; a number bound on a string; a draft-04 dialect; a schema for
            // `additionalProperties`; an untyped node with a default.
            json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}}),
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
