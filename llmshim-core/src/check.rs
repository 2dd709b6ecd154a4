//! The structural check: the rows S1 to S18 every finished schema must satisfy.
//!
//! The check reads the walk's result; it never changes it. Recursion follows the same positions as the walker:
//! map-child values, single children (except a boolean `additionalProperties` and a boolean `items` beside
//! `prefixItems`) and array-child entries, each in the node's stored key order. A container of the wrong kind is not
//! entered. The depth of a child is checked before the check descends into it (S1), so it never recurses deeper
//! than `max_depth` nor deeper than [`HARD_MAX_DEPTH`].
//!
//! Every violation is reported at the pointer of the node that fails; a node's own violations come in row order,
//! before those of its children, so [`check`] lists them in document order and [`first`] returns the first of them.

use std::collections::HashSet;
use std::ops::ControlFlow;

use serde_json::{Map, Value};

use crate::budget::Budget;
use crate::children::{Slot, children};
use crate::json;
use crate::keep::{KeepSet, Keywords};
use crate::keyword::TYPE_NAMES;
use crate::report::{FallbackKind, FallbackReason};
use crate::rules::{Booleans, Nullable, Recursion, Root, RuleSet};
use crate::walk::HARD_MAX_DEPTH;

/// What the check holds a schema to: the target's rule set, whether strict is effective, the effective nullability
/// policy (S4 accepts a type array only without strict and under [`Nullable::Preserve`]), the keyword profile (which
/// selects the keep-lists, the rule set's and under strict its strict profile's, that S6 and the strict keep-list row
/// hold every key and value to), the depth budget and the recursion mode (whether kept references into the root's
/// `$defs` are accepted).
///
/// ```
/// use llmshim_core::{Budget, Keywords, Nullable, RuleSet, check};
///
/// let rules = RuleSet::new();
/// let options = check::Options::new(&rules)
///     .with_strict(true)
///     .with_nullable(Nullable::Marker)
///     .with_keywords(Keywords::Conservative)
///     .with_budget(&Budget::default().with_max_depth(64));
/// assert!(options.strict);
/// assert_eq!(options.keywords, Keywords::Conservative);
/// assert_eq!(options.max_depth, 64);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options<'a> {
    /// The target's rule set.
    pub rules: &'a RuleSet,
    /// Strict enforcement is effective.
    pub strict: bool,
    /// The effective nullability policy.
    pub nullable: Nullable,
    /// The keyword profile, which selects the keep-lists.
    pub keywords: Keywords,
    /// The depth limit (S1).
    pub max_depth: usize,
    /// The effective recursion mode: with kept references a `$ref` may stand alone in its node when it is `#` or
    /// `#/$defs/<name>` naming a member of the root's `$defs`, which may exist only at the root and whose members are
    /// checked once each, at depth 1.
    pub recursion: Recursion,
}

impl<'a> Options<'a> {
    /// The check for `rules`, strict off, [`Nullable::Preserve`], the default keyword profile and the default depth
    /// budget.
    pub fn new(rules: &'a RuleSet) -> Self {
        Options {
            rules,
            strict: false,
            nullable: Nullable::Preserve,
            keywords: Keywords::default(),
            max_depth: Budget::DEFAULT_MAX_DEPTH,
            recursion: Recursion::Fallback,
        }
    }

    /// Sets whether strict is effective.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Sets the nullability policy.
    #[must_use]
    pub fn with_nullable(mut self, nullable: Nullable) -> Self {
        self.nullable = nullable;
        self
    }

    /// Sets the keyword profile.
    #[must_use]
    pub fn with_keywords(mut self, keywords: Keywords) -> Self {
        self.keywords = keywords;
        self
    }

    /// Sets the recursion mode.
    #[must_use]
    pub fn with_recursion(mut self, recursion: Recursion) -> Self {
        self.recursion = recursion;
        self
    }

    /// Takes the depth limit of `budget`.
    #[must_use]
    pub fn with_budget(mut self, budget: &Budget) -> Self {
        self.max_depth = budget.max_depth;
        self
    }
}

/// Every violation of S1 to S18 in `schema`, in document order; empty when the schema passes.
///
/// ```
/// use llmshim_core::{FallbackKind, RuleSet, check};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"a": {"type": "text"}, "b": {"enum": []}}});
/// let found = check::check(&schema, &check::Options::new(&RuleSet::new()));
/// let found: Vec<_> = found.iter().map(|r| (r.kind, r.pointer.as_str())).collect();
/// assert_eq!(found, [
///     (FallbackKind::InvalidSchema, "/properties/a"),
///     (FallbackKind::InvalidSchema, "/properties/b"),
/// ]);
/// ```
pub fn check(schema: &Value, options: &Options<'_>) -> Vec<FallbackReason> {
    let mut checker = Checker::new(options, false);
    let _ = checker.root(schema, options.recursion.keeps_refs());
    checker.found
}

/// The first violation [`check`] would report, found without looking further; `None` when the schema passes.
///
/// ```
/// use llmshim_core::{FallbackKind, Recursion, RuleSet, check};
/// use serde_json::json;
///
/// let rules = RuleSet::new();
/// let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// assert_eq!(check::first(&schema, &check::Options::new(&rules)), None);
///
/// let reason = check::first(&schema, &check::Options::new(&rules).with_strict(true));
/// assert_eq!(reason.map(|r| (r.kind, r.pointer)), Some((FallbackKind::StrictUnsupported, String::new())));
///
/// let tree = json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}});
/// let kept = check::Options::new(&rules).with_recursion(Recursion::KEEP_REFS);
/// assert_eq!(check::first(&tree, &kept), None);
/// let reason = check::first(&tree, &check::Options::new(&rules));
/// assert_eq!(reason.map(|r| r.pointer), Some("/properties/kids/items".to_owned()));
/// ```
pub fn first(schema: &Value, options: &Options<'_>) -> Option<FallbackReason> {
    let mut checker = Checker::new(options, true);
    let _ = checker.root(schema, options.recursion.keeps_refs());
    checker.found.into_iter().next()
}

/// Whether the definition `name` of `defs` is only a reference to another definition, and following such references
/// comes back to it: a schema that says nothing but "this schema" (its keys were all siblings of a `$ref` to itself).
fn alias_loop(defs: Option<&Map<String, Value>>, name: &str) -> bool {
    let Some(defs) = defs else {
        return false;
    };
    let alias = |name: &str| -> Option<&str> {
        let member = defs.get(name)?.as_object()?;
        match member.get("$ref") {
            Some(Value::String(r)) if member.len() == 1 => r.strip_prefix("#/$defs/"),
            _ => None,
        }
    };
    let mut at = name;
    // A chain longer than the number of definitions has come round.
    for _ in 0..defs.len() {
        match alias(at) {
            Some(next) if next == name => return true,
            Some(next) => at = next,
            None => return false,
        }
    }
    false
}

/// The first violation of `schema` checked as a subschema below the root (the root rule S18 does not apply, and no
/// kept reference is accepted, since a subschema has no root `$defs`); `None` when it passes. A narrowing uses it to
/// pick a union branch the target can take on its own.
///
/// ```
/// use llmshim_core::rules::Root;
/// use llmshim_core::{RuleSet, check};
/// use serde_json::json;
///
/// let rules = RuleSet::new().with_root(Root::Object);
/// let options = check::Options::new(&rules);
/// assert!(check::first(&json!({"type": "string"}), &options).is_some());
/// assert_eq!(check::first_below(&json!({"type": "string"}), &options), None);
/// ```
pub fn first_below(schema: &Value, options: &Options<'_>) -> Option<FallbackReason> {
    let mut checker = Checker::new(options, true);
    let _ = checker.child(schema, 1);
    checker.found.into_iter().next()
}

/// The keywords S12 requires to be strings.
const STRING_KEYWORDS: [&str; 4] = ["title", "description", "format", "pattern"];

/// The keywords S14 requires to be numbers.
const NUMBER_KEYWORDS: [&str; 5] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

struct Checker<'a> {
    rules: &'a RuleSet,
    strict: bool,
    nullable: Nullable,
    /// The rule set's keep-list under the keyword profile, if it has one (S6).
    keep: Option<&'a KeepSet>,
    /// The strict keep-list under the keyword profile.
    strict_keep: &'a KeepSet,
    max_depth: usize,
    first_only: bool,
    found: Vec<FallbackReason>,
    /// Where the node being checked sits, as the slots from the root down; written out as a JSON Pointer only when
    /// a violation is recorded, so a schema that passes builds no pointer text.
    path: Vec<Slot<'a>>,
    /// With kept references: the names of the root's `$defs`.
    definitions: Option<Vec<&'a str>>,
}

impl<'a> Checker<'a> {
    fn new(options: &Options<'a>, first_only: bool) -> Self {
        Checker {
            rules: options.rules,
            strict: options.strict,
            nullable: options.nullable,
            keep: options.rules.keep_set(options.keywords),
            strict_keep: options.rules.strict_keep(options.keywords),
            max_depth: options.max_depth,
            first_only,
            found: Vec::new(),
            path: Vec::new(),
            definitions: None,
        }
    }

    /// Checks the root and, with kept references, the members of its `$defs` once each, at depth 1.
    fn root(&mut self, schema: &'a Value, refs: bool) -> ControlFlow<()> {
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .filter(|_| refs);
        if refs {
            self.definitions = Some(
                defs.map(|d| d.keys().map(String::as_str).collect())
                    .unwrap_or_default(),
            );
        }
        self.node(schema, 0)?;
        for (name, member) in defs.into_iter().flatten() {
            self.path.push(Slot::Member("$defs", name));
            let flow = if alias_loop(defs, name) {
                self.fail(
                    FallbackKind::RefCycle,
                    "the definition is only a reference that leads back to itself",
                )
            } else {
                self.child(member, 1)
            };
            self.path.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Whether `map` is a kept reference: its only key is a `$ref` to `#` or to a member of the root's `$defs`.
    fn kept_reference(&self, map: &Map<String, Value>) -> bool {
        let Some(names) = &self.definitions else {
            return false;
        };
        let Some(Value::String(reference)) = json::member(map, "$ref") else {
            return false;
        };
        map.len() == 1
            && (reference == "#"
                || reference
                    .strip_prefix("#/$defs/")
                    .is_some_and(|name| names.contains(&name)))
    }

    /// The JSON Pointer of the node being checked.
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for slot in &self.path {
            slot.push_onto(&mut pointer);
        }
        pointer
    }

    /// Records a violation at the current pointer; breaks when only the first one is wanted.
    fn fail(&mut self, kind: FallbackKind, message: impl Into<String>) -> ControlFlow<()> {
        self.found
            .push(FallbackReason::new(kind, self.pointer(), message));
        if self.first_only {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Checks one node at `depth` (whose depth is already known to be within the limits), then its children.
    fn node(&mut self, value: &'a Value, depth: usize) -> ControlFlow<()> {
        match value {
            Value::Object(map) => {
                self.rows(map, depth == 0)?;
                self.children(map, depth)
            }
            Value::Bool(_) => {
                if self.strict || self.rules.booleans == Booleans::Reject {
                    self.fail(
                        FallbackKind::BooleanSchema,
                        "boolean subschemas are not accepted here",
                    )?;
                }
                ControlFlow::Continue(())
            }
            _ => self.fail(
                FallbackKind::InvalidSchema,
                "a schema must be an object or a boolean",
            ),
        }
    }

    /// Descends into the children of a schema object (the positions of `children::children`), in its stored key
    /// order.
    fn children(&mut self, map: &'a Map<String, Value>, depth: usize) -> ControlFlow<()> {
        for child in children(map) {
            self.path.push(child.slot);
            let flow = self.child(child.value, depth + 1);
            self.path.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// S1: a child deeper than the limits fails and is not entered; otherwise it is checked.
    fn child(&mut self, value: &'a Value, depth: usize) -> ControlFlow<()> {
        if depth > self.max_depth {
            let message = format!("nesting deeper than {} levels", self.max_depth);
            return self.fail(FallbackKind::BudgetDepth, message);
        }
        if depth > HARD_MAX_DEPTH {
            let message =
                format!("nesting deeper than the walker's fixed limit of {HARD_MAX_DEPTH} levels");
            return self.fail(FallbackKind::BudgetDepth, message);
        }
        self.node(value, depth)
    }

    /// S4 to S18 on one schema object, in row order.
    fn rows(&mut self, map: &Map<String, Value>, root: bool) -> ControlFlow<()> {
        // A kept reference is no schema of its own: its target is checked where it stands.
        if self.kept_reference(map) {
            return ControlFlow::Continue(());
        }
        // With kept references the root's `$defs` is the definitions' home, not a keyword of the root schema.
        let home = root && self.definitions.is_some();
        // The keys the rows below read, found in one pass instead of one hashed lookup each; the same pass notes
        // whether S10, S12 and S14 have a candidate (the arms name the keys of `STRING_KEYWORDS` and
        // `NUMBER_KEYWORDS`, which a test holds them to).
        let (mut ty, mut any_of, mut all_of, mut required, mut enumeration, mut nullable) =
            (None, false, false, None, None, None);
        let (mut dollar, mut any_string, mut any_number) = (false, false, false);
        for (key, value) in map {
            match key.as_str() {
                "type" => ty = Some(value),
                "anyOf" => any_of = true,
                "allOf" => all_of = true,
                "required" => required = Some(value),
                "enum" => enumeration = Some(value),
                "nullable" => nullable = Some(value),
                "title" | "description" | "format" | "pattern" => any_string |= !value.is_string(),
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                    any_number |= !value.is_number();
                }
                other => dollar |= other.starts_with('$'),
            }
        }
        let type_name = ty.and_then(Value::as_str);

        // S4: `type` is a type name or an allowed type array.
        if let Some(ty) = ty {
            self.type_value(ty)?;
        }

        // S5: an untyped node without `anyOf`.
        if ty.is_none() && !any_of {
            if self.strict {
                self.fail(
                    FallbackKind::StrictUnsupported,
                    "a node needs type or anyOf under strict",
                )?;
            } else if self.rules.require_type {
                self.fail(
                    FallbackKind::TargetUnsupported,
                    "the target needs type or anyOf on every node",
                )?;
            }
        }

        // S6: `type: "null"` where forbidden, and keys outside the keep-list.
        if self.rules.forbid_null_type && type_name == Some("null") {
            self.fail(
                FallbackKind::TargetUnsupported,
                "the target does not accept type \"null\"",
            )?;
        }
        if let Some(keep) = self.keep {
            for (key, value) in map {
                // With kept references the root's `$defs` is the definitions' home, not a keyword to keep.
                let home_defs = home && key == "$defs";
                if !home_defs && !keep.admits(key, value) {
                    let message = if keep.mentions(key) {
                        format!("the target keeps {key} only with another value")
                    } else {
                        format!("{key} is not on the target's keep-list")
                    };
                    self.fail(FallbackKind::TargetUnsupported, message)?;
                }
            }
        }

        // S7: forbidden keys.
        if !self.rules.forbidden.is_empty() {
            for key in map.keys() {
                if self.rules.forbidden.contains(&key.as_str()) {
                    let message = format!("the target forbids {key}");
                    self.fail(FallbackKind::TargetUnsupported, message)?;
                }
            }
        }

        // S8: `anyOf` with siblings where it must stand alone.
        if self.rules.isolate_any_of && any_of && map.len() > 1 {
            self.fail(
                FallbackKind::TargetUnsupported,
                "anyOf must stand alone on this target",
            )?;
        }

        // S9: `allOf` under strict.
        if self.strict && all_of {
            self.fail(
                FallbackKind::StrictUnsupported,
                "allOf is not accepted under strict",
            )?;
        }

        // S10: references and definitions left over. (The checks below that look up a fixed list of keys first
        // make sure that one pass over the node's members finds a candidate, which is cheaper than the lookups;
        // the lookups then report in the list's order.)
        for key in ["$ref", "$defs"] {
            if dollar && map.contains_key(key) && !(home && key == "$defs") {
                let message = if self.definitions.is_some() {
                    format!(
                        "{key} is left in the result other than as a lone reference into the root's $defs"
                    )
                } else {
                    format!("{key} is left in the result")
                };
                self.fail(FallbackKind::InvalidSchema, message)?;
            }
        }

        // S11: `required` is an array of unique strings.
        if let Some(required) = required
            && !unique_strings(required)
        {
            self.fail(
                FallbackKind::InvalidSchema,
                "required must be an array of unique strings",
            )?;
        }

        // S12: string-valued annotations.
        for key in STRING_KEYWORDS {
            if any_string && map.get(key).is_some_and(|v| !v.is_string()) {
                let message = format!("{key} must be a string");
                self.fail(FallbackKind::InvalidSchema, message)?;
            }
        }

        // S13: `enum` and `nullable`.
        if enumeration.is_some_and(|v| v.as_array().is_none_or(Vec::is_empty)) {
            self.fail(
                FallbackKind::InvalidSchema,
                "enum must be a non-empty array",
            )?;
        }
        if nullable.is_some_and(|v| !v.is_boolean()) {
            self.fail(FallbackKind::InvalidSchema, "nullable must be a boolean")?;
        }

        // S14: numeric bounds.
        for key in NUMBER_KEYWORDS {
            if any_number && map.get(key).is_some_and(|v| !v.is_number()) {
                let message = format!("{key} must be a number");
                self.fail(FallbackKind::InvalidSchema, message)?;
            }
        }

        if self.strict {
            self.strict_rows(map, type_name, home)?;
        }

        // S18: the root rule.
        if root {
            self.root_rule(map, type_name)?;
        }
        ControlFlow::Continue(())
    }

    /// S4 on the value of `type`.
    fn type_value(&mut self, ty: &Value) -> ControlFlow<()> {
        match ty {
            Value::String(name) if TYPE_NAMES.contains(&name.as_str()) => ControlFlow::Continue(()),
            Value::String(name) => {
                let message = format!("type {name:?} is not a type name");
                self.fail(FallbackKind::InvalidSchema, message)
            }
            Value::Array(names)
                if !names.is_empty()
                    && names
                        .iter()
                        .all(|n| n.as_str().is_some_and(|n| TYPE_NAMES.contains(&n))) =>
            {
                if self.strict || self.nullable != Nullable::Preserve {
                    self.fail(
                        FallbackKind::TargetUnsupported,
                        "a type array is accepted only without strict and with the preserve nullable policy",
                    )
                } else {
                    ControlFlow::Continue(())
                }
            }
            _ => self.fail(
                FallbackKind::InvalidSchema,
                "type must be a type name or a non-empty array of type names",
            ),
        }
    }

    /// S15 to S17, which apply only under strict.
    fn strict_rows(
        &mut self,
        map: &Map<String, Value>,
        type_name: Option<&str>,
        home: bool,
    ) -> ControlFlow<()> {
        // The members these rows read, found in one pass over the keys instead of a search for each.
        let (mut properties, mut additional, mut required) = (None, None, None);
        let (mut items, mut prefix_items) = (false, false);
        // `anyOf`, `oneOf` and `allOf`, in that order.
        let mut combinators: [(&str, Option<&Value>); 3] =
            [("anyOf", None), ("oneOf", None), ("allOf", None)];
        for (key, value) in map {
            match key.as_str() {
                "properties" => properties = Some(value),
                "additionalProperties" => additional = Some(value),
                "required" => required = Some(value),
                "items" => items = true,
                "prefixItems" => prefix_items = true,
                "anyOf" => combinators[0].1 = Some(value),
                "oneOf" => combinators[1].1 = Some(value),
                "allOf" => combinators[2].1 = Some(value),
                _ => {}
            }
        }
        if type_name == Some("object") {
            let properties = properties.and_then(Value::as_object);
            if properties.is_none() {
                self.fail(
                    FallbackKind::StrictUnsupported,
                    "a strict object needs properties as an object",
                )?;
            }
            if additional != Some(&Value::Bool(false)) {
                self.fail(
                    FallbackKind::StrictUnsupported,
                    "a strict object needs additionalProperties false",
                )?;
            }
            if let Some(properties) = properties
                && !requires_each_in_order(required, properties)
            {
                self.fail(
                    FallbackKind::StrictUnsupported,
                    "a strict object must require every property once, in declared order",
                )?;
            }
        }
        if type_name == Some("array") && !items {
            self.fail(
                FallbackKind::StrictUnsupported,
                "a strict array needs items",
            )?;
        }
        if prefix_items {
            self.fail(
                FallbackKind::StrictUnsupported,
                "prefixItems is not accepted under strict",
            )?;
        }
        // The strict keep-list: what strict providers accept on every node, values included.
        for (key, value) in map {
            if key != "prefixItems"
                && !(home && key == "$defs")
                && !self.strict_keep.admits(key, value)
            {
                let message = if self.strict_keep.mentions(key) {
                    format!("{key} is accepted under strict only with another value")
                } else {
                    format!("{key} is not accepted under strict")
                };
                self.fail(FallbackKind::StrictUnsupported, message)?;
            }
        }
        // Containers a strict provider parses as such; the walk never writes other values, but a schema checked
        // on its own may hold them.
        for (key, value) in combinators {
            if value.is_some_and(|v| v.as_array().is_none_or(Vec::is_empty)) {
                let message = format!("{key} must be a non-empty array");
                self.fail(FallbackKind::InvalidSchema, message)?;
            }
        }
        if type_name != Some("object") && properties.is_some_and(|v| !v.is_object()) {
            self.fail(FallbackKind::InvalidSchema, "properties must be an object")?;
        }
        ControlFlow::Continue(())
    }

    /// S18 on the root node.
    fn root_rule(&mut self, map: &Map<String, Value>, type_name: Option<&str>) -> ControlFlow<()> {
        let forbidden: &[&str] = match self.rules.root {
            Root::Any => return ControlFlow::Continue(()),
            Root::Object => &[],
            Root::Shaped(keys) => keys,
        };
        if type_name != Some("object") {
            self.fail(
                FallbackKind::TargetUnsupported,
                "the root must have type \"object\" on this target",
            )?;
        }
        for key in map.keys() {
            if forbidden.contains(&key.as_str()) {
                let message = format!("{key} is not accepted at the root on this target");
                self.fail(FallbackKind::TargetUnsupported, message)?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Lists up to this long are checked for repeats pairwise instead of through a hash set.
const PAIRWISE: usize = 16;

/// Whether `value` is an array of strings without repeats (S11).
fn unique_strings(value: &Value) -> bool {
    let Value::Array(entries) = value else {
        return false;
    };
    // A short list is compared pairwise: cheaper than hashing every name (the common case by far).
    if entries.len() <= PAIRWISE {
        return entries.iter().enumerate().all(|(i, entry)| {
            entry.as_str().is_some_and(|name| {
                entries
                    .iter()
                    .take(i)
                    .all(|earlier| earlier.as_str() != Some(name))
            })
        });
    }
    let mut seen = HashSet::with_capacity(entries.len());
    entries
        .iter()
        .all(|entry| entry.as_str().is_some_and(|name| seen.insert(name)))
}

/// Whether `required` lists exactly the keys of `properties`, in their order (S15); an absent `required` lists
/// nothing.
fn requires_each_in_order(required: Option<&Value>, properties: &Map<String, Value>) -> bool {
    let entries: &[Value] = match required {
        None => &[],
        Some(Value::Array(entries)) => entries,
        Some(_) => return false,
    };
    entries.len() == properties.len()
        && entries
            .iter()
            .zip(properties.keys())
            .all(|(entry, key)| entry.as_str() == Some(key.as_str()))
}
