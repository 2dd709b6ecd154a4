//! The look before the walk: a schema read once, borrowed and without allocating, to find whether normalization
//! would hand it back as it is, or change it only in ways simple enough to make where the schema is.
//!
//! Most tool schemas sent without strict already suit their target (about 72% of the MCP corpus for the OpenAI,
//! Anthropic and MCP targets, about 48% for Google), yet the walk copies each one, runs every pass, checks and
//! compiles it, compares it with the input and drops the input. The look answers only for shapes on which the passes
//! do nothing but what it can state, so that the pipeline may skip all of that and report what the walk would.
//!
//! It is conservative: a node qualifies only when each of its keys is one of a few keywords with a value of the
//! expected kind (`type` naming one type, `properties`, `required` naming distinct properties, `description`,
//! `title`, an `enum` of strings, `items`, `default` as a scalar or a list of scalars, numeric bounds, counts, `format`, a `pattern` that
//! the pattern rules leave as it is and that compiles, and `anyOf` below the root where the target keeps unions as
//! they are), the rule set's keep-list and forbidden list let them stand, and none of the rule set's rewrites applies
//! (an object without `properties` where the target adds them, an array without `items` where it adds them, a
//! keyword of another type where the Google value rules drop it).
//! Anything else (references, identifiers, other patterns, other combinators, `const`, boolean schemas other than
//! `additionalProperties`, type arrays, `nullable`, a target with a `leave` hook of its own, a node its `enter` hook
//! acts on (`TargetRules::enter_acts`, every node for a target that does not say), diagnostics, structured output)
//! goes to the walk. Sizes stay far inside every budget: a node count, a depth and a bound on the
//! literal bytes the walk would charge.
//!
//! One reader of a node's members ([`read`]) and one record of what it read ([`Node`]) serve both looks:
//! - without strict ([`super::edited::edited`]), a few local edits are allowed besides, and the look records whether
//!   any applies: where none does, the schema is handed back as it is;
//! - under strict ([`strict_look`]), no schema comes back unchanged, but most tool schemas are changed only by
//!   closing their objects: the look takes strict's conditions (the strict keep-list's keys, every node typed or a
//!   union, the few constraints it keeps or lifts), and the schema is closed as the strict keep-list, the meta step,
//!   the empty-properties step and `llmshim_strict::CloseObjects` would leave it, with the walk's report.
//!
//! What a look takes is built where the schema is ([`Looked::build`]): the normalizer copies the schema first only
//! where it must keep the input (a memo entry, a caller that keeps the original).
//!
//! The unit tests hold both looks' answers to the walk's over the whole shared corpus and generated schemas.

use llmshim_core::keep::KeepSet;
use llmshim_core::keyword::TYPE_NAMES;
use llmshim_core::null::admits_null;
use llmshim_core::pattern_subset::PatternSubset;
use llmshim_core::rules::{DefaultItems, EmptyProperties, OpenAiLimits, Root, SchemaUri};
use llmshim_core::walk::Hooks;
use llmshim_core::{Normalization, Nullable, RuleSet, TargetRules, json, lift};
use llmshim_resolve::Draft;
use llmshim_strict::LimitCounts;
use llmshim_targets::pattern::{openai_accepts, strip_lookarounds};
use serde_json::{Map, Value};

use crate::schema::{Options, pipeline};

/// The deepest nesting of JSON containers the look accepts (far below the walk's budget and the compile limits).
const MAX_DEPTH: usize = 48;

/// The most schema objects the look accepts in one schema.
const MAX_NODES: usize = 4_096;

/// The most literal bytes (an upper bound of what the walk's literal charge counts) the look accepts.
const MAX_LITERAL_BYTES: usize = 1 << 20;

/// The report of a normalization that changed nothing, as the walk gives it without strict.
pub(crate) fn report() -> Normalization {
    Normalization::produced(false).with_strict(false)
}

/// Whether the plain look hands `input` back as it is under the effective `options`, with [`report`] as its report.
#[cfg(test)]
pub(crate) fn unchanged(options: &Options, input: &Value) -> bool {
    matches!(
        super::edited::edited(options, input),
        Some(Looked::Unchanged)
    )
}

/// What a look found for a schema it takes, to be built where the schema is ([`Looked::build`]).
pub(crate) enum Looked<'r> {
    /// Normalization hands the schema back exactly as it is, with [`report`] as its report.
    Unchanged,
    /// Normalization amounts to the plain look's edits ([`super::edited`]).
    Edited(Look<'r, false>),
    /// Strict normalization amounts to closing every object ([`strict_look`]).
    Closed(Closable),
}

/// What normalizing `input` with the effective `options` amounts to, where the look for its mode takes it; `None`
/// sends the schema to the walk.
pub(crate) fn look<'r>(options: &'r Options, input: &Value) -> Option<Looked<'r>> {
    if options.strict {
        strict_look(options, input).map(Looked::Closed)
    } else {
        super::edited::edited(options, input)
    }
}

impl Looked<'_> {
    /// Normalizes `schema`, the value looked at, in place, and gives the walk's report for it; `None`, with `schema`
    /// untouched, where it is not the object the look took.
    pub(crate) fn build(&self, schema: &mut Value) -> Option<Normalization> {
        match (self, schema) {
            (Looked::Closed(found), schema) => found.build(schema),
            (Looked::Unchanged, Value::Object(_)) => Some(report()),
            (Looked::Edited(look), Value::Object(root)) => Some(look.build(root)),
            _ => None,
        }
    }
}

/// The keys a node may hold for [`strict_look`]: those every strict keep-list keeps and no strict step rewrites.
const STRICT_KEYS: [&str; 9] = [
    "type",
    "title",
    "description",
    "properties",
    "required",
    "items",
    "enum",
    "anyOf",
    "additionalProperties",
];

/// The constraints (all on the lift list) [`strict_look`] accepts with a scalar value: where the strict keep-list
/// strips one, `close` lifts it into the description as the walk does; where it keeps one, it stays. The plain look
/// lifts the same ones, and a `pattern`, where the rule set's keep-list strips them.
const LIFTED: [&str; 10] = [
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "format",
];

/// Where strict normalization of `input` with the effective `options` certainly amounts to closing every object
/// (`strict.close-object`, `strict.nullable-optional`), that output, built on one copy of the input, and the walk's
/// report for it; `None` sends the schema to the walk.
#[cfg(test)]
pub(crate) fn strict_closed(options: &Options, input: &Value) -> Option<(Value, Normalization)> {
    strict_look(options, input)?.close(input)
}

/// The strict look's verdict on a schema: strict normalization amounts to closing its objects, which
/// [`Closable::normalize`] does where the schema is; until then it carries what the Anthropic request budget reads
/// of that output.
#[derive(Debug)]
pub(crate) struct Closable {
    /// The effective options the look ran with.
    options: Options,
    /// The request budget's counters of the output (`llmshim_strict::budget_counts`): optional parameters and
    /// union-typed nodes, counted by the look on the input where the rule set has the budget ((0, 0) elsewhere).
    pub(crate) counts: (usize, usize),
}

/// Whether strict normalization of `input` with the effective `options` certainly amounts to closing every object:
/// the look's verdict, or `None` (the schema goes to the walk).
///
pub(crate) fn strict_look(options: &Options, input: &Value) -> Option<Closable> {
    if !options.strict || options.diagnostics || options.structured_output || options.bypass {
        return None;
    }
    let target = options.target.rules();
    if target.hooks() != Hooks::NONE {
        return None;
    }
    let rules = target.rules();
    let profile = rules.strict.as_ref()?;
    let Value::Object(root) = input else {
        return None;
    };
    // A `$schema` rule the look does not know.
    if !matches!(rules.schema_uri, SchemaUri::Remove | SchemaUri::Set2020) {
        return None;
    }
    let mut look = Look::<true>::new(options, rules);
    look.strict = Some(profile.keep.get(options.keywords));
    look.limits = profile.openai_limits;
    look.count_unions = profile.anthropic_budget.is_some();
    if !(look.root(root)
        && json::member(root, "type").and_then(Value::as_str) == Some("object")
        && look.node(root, 0, true, 0))
    {
        return None;
    }
    // The OpenAI strict limits, on what the look counted: closing adds nothing they count (a wrapper and its null
    // branch have no type, `properties`, `enum` or `const`; every object the look takes has its `properties`).
    if let Some(limits) = &profile.openai_limits
        && look.counts.check(limits).is_err()
    {
        return None;
    }
    // Every object of the output requires all its properties, so none is optional.
    Some(Closable {
        options: options.clone(),
        counts: (0, look.unions),
    })
}

impl Closable {
    /// The strict output of `input`, the schema the look read, built on one copy, and the walk's report for it;
    /// `None` (never for a schema the look took) sends the schema to the walk.
    #[cfg(test)]
    pub(crate) fn close(&self, input: &Value) -> Option<(Value, Normalization)> {
        let mut out = input.clone();
        let report = self.build(&mut out)?;
        Some((out, report))
    }

    /// Makes `schema`, the schema the look read, its strict output where it is and gives the walk's report for it
    /// (the walk's output and report, should it not be the object the look took).
    pub(crate) fn normalize(&self, schema: &mut Value) -> Normalization {
        self.build(schema).unwrap_or_else(|| {
            let (out, report) = pipeline::normalize_uncached(&self.options, schema);
            *schema = out;
            report
        })
    }

    /// Closes `schema`, the schema the look read, where it is, and gives the walk's report; `None`, with `schema`
    /// untouched, where it is not an object.
    fn build(&self, schema: &mut Value) -> Option<Normalization> {
        let rules = self.options.target.rules().rules();
        let profile = rules.strict.as_ref()?;
        let Value::Object(root) = schema else {
            return None;
        };
        let mut changed = dialect(root, rules.schema_uri);
        changed |= close(root, profile.keep.get(self.options.keywords));
        Some(Normalization::produced(changed).with_strict(true))
    }
}

/// The meta step on `root`, a root a look took: its `$schema` removed or set to 2020-12 as `rule` says; returns
/// whether that changed anything.
pub(super) fn dialect(root: &mut Map<String, Value>, rule: SchemaUri) -> bool {
    if !json::has(root, "$schema") {
        return false;
    }
    let uri = Draft::Draft202012.uri();
    match rule {
        SchemaUri::Remove => json::remove(root, "$schema").is_some(),
        SchemaUri::Set2020 => match json::member_mut(root, "$schema") {
            Some(slot) if slot.as_str() != Some(uri) => {
                *slot = Value::String(uri.to_owned());
                true
            }
            _ => false,
        },
        // A rule the looks refuse.
        _ => false,
    }
}

/// Closes every object in the node `map`, a node the strict look took, as `llmshim_strict::CloseObjects` closes it:
/// the constraints the strict keep-list strips lifted, children first, then each object closed by
/// `llmshim_strict::close_object`, the closing the pass itself runs; returns whether anything changed. The map keeps
/// its hash table, so only the keys added are hashed.
fn close(map: &mut Map<String, Value>, keep: &KeepSet) -> bool {
    // The strict keep-list's step: the constraints it strips are lifted into the description in keyword order.
    let mut changed = false;
    if map.iter().any(|(key, value)| !keep.keeps(key, value)) {
        let mut stripped: Vec<(String, Value)> = Vec::new();
        map.retain(|key, value| {
            let kept = keep.keeps(key, value);
            if !kept {
                stripped.push((key.clone(), std::mem::take(value)));
            }
            kept
        });
        stripped.sort_by(|(a, _), (b, _)| a.as_bytes().cmp(b.as_bytes()));
        for (key, value) in &stripped {
            lift::append(map, key, value);
        }
        changed = true;
    }
    let mut object = false;
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("type", Value::String(ty)) => object = ty == "object",
            ("properties", Value::Object(properties)) => {
                for child in properties.values_mut() {
                    changed |= close_value(child, keep);
                }
            }
            ("items", items) => changed |= close_value(items, keep),
            ("anyOf", Value::Array(branches)) => {
                for branch in branches {
                    changed |= close_value(branch, keep);
                }
            }
            _ => {}
        }
    }
    if !object {
        return changed;
    }
    // `close_object` refuses a `required` that is not a list of strings naming declared properties, or `properties`
    // that is not an object (the walk then fails): the look took none of those, so it closes every object here.
    match llmshim_strict::close_object(map, |_| {}) {
        Ok(closing) => changed || closing.wrapped || closing.closed,
        Err(_) => changed,
    }
}

/// [`close`] on a schema that is an object; returns whether anything changed.
fn close_value(value: &mut Value, keep: &KeepSet) -> bool {
    match value {
        Value::Object(map) => close(map, keep),
        _ => false,
    }
}

/// The running state of one look; `STRICT` is whether it looks for [`strict_look`] (then `strict` is set), a
/// constant so that the plain look carries none of strict's conditions.
pub(super) struct Look<'r, const STRICT: bool> {
    pub(super) rules: &'r RuleSet,
    pub(super) keep: Option<&'r KeepSet>,
    /// Under strict, the strict profile's keep-list; `None` without strict.
    strict: Option<&'r KeepSet>,
    /// The target, where it has an `enter` hook: a node the hook acts on goes to the walk.
    pub(super) enter: Option<&'r dyn TargetRules>,
    /// Whether an edit applies somewhere: the plain look's output is then built, the input handed back otherwise.
    pub(super) edited: bool,
    /// Where the rule set collapses a nullable union and the look may take one, the nullability policy (one the
    /// look knows).
    pub(super) collapse: Option<Nullable>,
    /// Where the rule set also isolates a union of several live branches (`google.isolate-any-of`), that the look
    /// may take one ([`Look::nullable_union`] says which).
    pub(super) isolate: bool,
    /// Where the rule set instead merges unions (`cca.merge-combinator`), that the look may take a union of
    /// several live branches of different types, which the merge cannot take and `target.narrow-union` narrows to
    /// one branch ([`Look::nullable_union`] says which).
    pub(super) narrow: bool,
    /// Whether the look took something the walk narrows (a union narrowed, null branches removed): the report says
    /// so.
    pub(super) narrowed: bool,
    /// Under strict, the OpenAI strict limits of the profile, if it has them; `counts` holds what they count.
    limits: Option<OpenAiLimits>,
    counts: LimitCounts,
    /// Under strict, whether the verdict may stand without its output (where the rule set has the Anthropic request
    /// budget): the look then counts in `unions` the union-typed nodes of the output (each `anyOf`, and each optional
    /// property that closing wraps with null).
    count_unions: bool,
    unions: usize,
    /// The options' `strip_lookarounds`, which the pattern rules read.
    strip_lookarounds: bool,
    max_nodes: usize,
    max_depth: usize,
    max_literal_bytes: usize,
    nodes: usize,
    literal_bytes: usize,
}

/// The keys of a node that the look reads after its pass over the members.
#[derive(Default)]
struct Node<'v> {
    ty: Option<&'v str>,
    /// The `type` member itself, for the strict limits.
    type_value: Option<&'v Value>,
    properties: Option<&'v Map<String, Value>>,
    required: Option<&'v [Value]>,
    items: Option<&'v Map<String, Value>>,
    any_of: Option<&'v [Value]>,
    enum_values: Option<&'v [Value]>,
    /// A `format` the node keeps (one the plain look lifts is not recorded).
    format: Option<&'v str>,
    /// Keys (kept or lifted) that apply to one type only (the Google value rules drop them elsewhere), by group of
    /// [`GROUPS`].
    typed: [bool; 4],
    /// Keys other than `anyOf`, `description`, `title` and `default` (all an untyped node may hold).
    typing: bool,
}

/// The groups of keys the Google value rules keep only on nodes of one type: object, array, number (or integer),
/// string.
const GROUPS: [&str; 4] = ["object", "array", "number", "string"];

/// Reads the member `key` with `value` of a node into `node` (the node is the root where `root` is set): the
/// keywords both looks take, each with a value of the kind it must have. Returns the literal bytes the walk would
/// charge for its value (at most), or `None` for a member the look refuses.
fn read<'v>(
    rules: &RuleSet,
    node: &mut Node<'v>,
    key: &str,
    value: &'v Value,
    root: bool,
) -> Option<usize> {
    let bytes = match (key, value) {
        ("type", Value::String(name)) => {
            let known = TYPE_NAMES.contains(&name.as_str());
            if !known || (rules.forbid_null_type && name == "null") {
                return None;
            }
            node.ty = Some(name);
            node.type_value = Some(value);
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
                return None;
            }
            node.required = Some(names);
            node.typed[0] = true;
            node.typing = true;
            list_bytes(names)
        }
        ("enum", Value::Array(values)) => {
            if values.is_empty() || !values.iter().all(Value::is_string) {
                return None;
            }
            node.enum_values = Some(values);
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
                return None;
            }
            node.any_of = Some(branches);
            0
        }
        ("default", Value::Null | Value::Bool(_) | Value::Number(_)) => SCALAR_BYTES,
        // A list of scalars: a literal the walk neither enters nor rewrites, kept or lifted as a whole.
        ("default", Value::Array(values)) if values.len() <= 64 && values.iter().all(scalar) => {
            list_bytes(values)
        }
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
        // A pattern the look checked stays as it is ([`Look::pattern_stays`]); it applies to strings only.
        ("pattern", Value::String(source)) => {
            node.typed[3] = true;
            node.typing = true;
            text_bytes(source)
        }
        _ => return None,
    };
    Some(bytes)
}

impl<'r, const STRICT: bool> Look<'r, STRICT> {
    /// A look with the budgets of `options` over `rules`, without strict's keep-list, hooks or a nullable collapse.
    pub(super) fn new(options: &'r Options, rules: &'r RuleSet) -> Self {
        Look {
            rules,
            keep: rules.keep_set(options.keywords),
            strict: None,
            enter: None,
            edited: false,
            collapse: None,
            isolate: false,
            narrow: false,
            narrowed: false,
            limits: None,
            counts: LimitCounts::default(),
            count_unions: false,
            unions: 0,
            strip_lookarounds: options.strip_lookarounds,
            max_nodes: options.budget.max_nodes.min(MAX_NODES),
            max_depth: options.budget.max_depth.min(MAX_DEPTH),
            max_literal_bytes: options.budget.max_literal_bytes.min(MAX_LITERAL_BYTES),
            nodes: 0,
            literal_bytes: 0,
        }
    }

    /// The root rule: an object root where the rule set asks for one, none of the keys a shaped root may not keep.
    pub(super) fn root(&self, root: &Map<String, Value>) -> bool {
        let shaped: &[&str] = match self.rules.root {
            Root::Any => return true,
            Root::Object => &[],
            Root::Shaped(keys) => keys,
            // A root rule this look does not know.
            _ => return false,
        };
        // The node pass refuses `anyOf` at the root and every other combinator anywhere.
        root.iter().all(|(key, value)| {
            !shaped.contains(&key.as_str()) && (key != "type" || value.as_str() == Some("object"))
        }) && root.iter().any(|(key, _)| key == "type")
    }

    /// Notes that an edit applies; returns `true`, so that a condition reads "as it is, or edited".
    fn note_edit(&mut self) -> bool {
        self.edited = true;
        true
    }

    /// Whether a `pattern` with `value` (one the keep-lists in effect keep) stays on its node as it is: a well-formed
    /// string that W20 leaves where it is (within every kept subset, free of what OpenAI's engine rejects where the
    /// rule set checks that, unchanged by lookaround removal where the options ask for it) and that compiles as the
    /// compile gate compiles it (`llmshim_validate::pattern_compiles`). A structured-output schema, whose output
    /// bounds add a subset, never reaches the look.
    fn pattern_stays(&self, value: &Value) -> bool {
        let Value::String(source) = value else {
            return false;
        };
        let subsets = [
            self.keep.and_then(KeepSet::pattern),
            self.strict.and_then(KeepSet::pattern),
        ];
        PatternSubset::new().admits(source)
            && subsets.iter().flatten().all(|subset| subset.admits(source))
            && (!self.rules.openai_patterns || openai_accepts(source))
            && (!self.strip_lookarounds
                || strip_lookarounds(source).is_ok_and(|cleaned| cleaned == *source))
            && llmshim_validate::pattern_compiles(source)
    }

    /// Whether the rule set strips `key` with `value` from a node of the type `ty` gives, so that the plain look
    /// lifts or drops it: the keep-list's verdict, and under the Google value rules a `format` they do not keep.
    pub(super) fn strips<'t>(
        &self,
        key: &str,
        value: &Value,
        ty: impl FnOnce() -> Option<&'t str>,
    ) -> bool {
        self.keep.is_some_and(|keep| !keep.keeps(key, value))
            || (key == "format"
                && self.rules.google_values
                && value
                    .as_str()
                    .is_none_or(|format| !google_format(ty(), format)))
    }

    /// Whether the schema object `map`, `depth` containers deep, and everything below it pass the look. Under
    /// strict, `above` is the OpenAI nesting level of the node's nearest object or array ancestor (0 for the root),
    /// and the node is counted for the strict limits.
    pub(super) fn node(
        &mut self,
        map: &Map<String, Value>,
        depth: usize,
        root: bool,
        above: usize,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes || depth > self.max_depth {
            return false;
        }
        // (The strict look takes no target with hooks.)
        if !STRICT && self.enter.is_some_and(|target| target.enter_acts(map)) {
            return false;
        }
        if !STRICT && self.collapse.is_some() && !root && map.iter().any(|(key, _)| key == "anyOf")
        {
            return self.nullable_union(map, depth);
        }
        let rules = self.rules;
        let mut node = Node::default();
        for (key, value) in map {
            if root && key == "$schema" {
                if !self.schema_uri(value) {
                    return false;
                }
                self.charge(key, text_bytes(value.as_str().unwrap_or("")));
                continue;
            }
            if rules.forbidden.contains(&key.as_str()) {
                return false;
            }
            let bytes = if STRICT {
                self.strict_member(&mut node, key, value, root)
            } else {
                self.plain_member(&mut node, map, key, value, (depth, root))
            };
            let Some(bytes) = bytes else {
                return false;
            };
            self.charge(key, bytes);
        }
        if self.literal_bytes > self.max_literal_bytes
            || self.nodes > self.max_nodes
            || !self.fits(&node)
        {
            return false;
        }
        if STRICT && self.count_unions {
            self.unions = self
                .unions
                .saturating_add(usize::from(node.any_of.is_some()))
                .saturating_add(wrapped(&node));
        }
        // The node as the strict limits count it (the look takes no `const`).
        let level = match &self.limits {
            Some(limits) if STRICT => self.counts.node(
                node.type_value,
                node.properties,
                node.enum_values,
                None,
                above,
                limits,
            ),
            _ => above,
        };
        // Children: each property and each `anyOf` branch two containers deeper, the items one.
        if let Some(properties) = node.properties {
            for child in properties.values() {
                let Value::Object(child) = child else {
                    return false;
                };
                if !self.node(child, depth + 2, false, level) {
                    return false;
                }
            }
        }
        if let Some(items) = node.items
            && !self.node(items, depth + 1, false, level)
        {
            return false;
        }
        for branch in node.any_of.into_iter().flatten() {
            let Value::Object(branch) = branch else {
                return false;
            };
            if !self.node(branch, depth + 2, false, level) {
                return false;
            }
        }
        true
    }

    /// The root's `$schema`: draft 7 or 2020-12 (which read every keyword the look accepts alike), removed by the
    /// meta step before any keep-list reads it, or set to 2020-12 in place where the keep-lists keep it.
    fn schema_uri(&mut self, value: &Value) -> bool {
        let Some(uri) = value.as_str() else {
            return false;
        };
        if ![Draft::Draft7, Draft::Draft202012]
            .iter()
            .any(|d| d.uri() == uri)
        {
            return false;
        }
        let kept = |keep: Option<&KeepSet>| keep.is_none_or(|keep| keep.keeps("$schema", value));
        match self.rules.schema_uri {
            SchemaUri::Remove => self.note_edit(),
            SchemaUri::Set2020 => {
                kept(self.keep)
                    && (!STRICT || self.strict.is_some_and(|keep| kept(Some(keep))))
                    && (uri == Draft::Draft202012.uri() || self.note_edit())
            }
            // A rule this look does not know.
            _ => false,
        }
    }

    /// A member of a node under strict: a constraint the strict keep-list strips is lifted before the rule set's
    /// keep-list could read it; every other key must be one strict keeps, and so must the rule set.
    fn strict_member<'v>(
        &self,
        node: &mut Node<'v>,
        key: &str,
        value: &'v Value,
        root: bool,
    ) -> Option<usize> {
        let refused = if self.strict.is_some_and(|keep| !keep.keeps(key, value)) {
            !LIFTED.contains(&key)
        } else {
            self.keep.is_some_and(|keep| !keep.keeps(key, value))
        };
        if refused {
            return None;
        }
        // A pattern both keep-lists keep is taken where it stays as it is.
        let known = if key == "pattern" {
            self.pattern_stays(value)
        } else {
            STRICT_KEYS.contains(&key) || LIFTED.contains(&key)
        };
        if !known {
            return None;
        }
        if key == "additionalProperties" && value.is_boolean() {
            // A boolean `additionalProperties`, which closing sets to `false` in place.
            node.typed[0] = true;
            node.typing = true;
            return Some(SCALAR_BYTES);
        }
        read(self.rules, node, key, value, root)
    }

    /// A member of a node without strict, `depth` containers deep (at the root where `root` is set), in `map`: a
    /// key the rule set strips is an edit, lifted (among [`LIFTED`]) or dropped (a boolean `additionalProperties`).
    fn plain_member<'v>(
        &mut self,
        node: &mut Node<'v>,
        map: &Map<String, Value>,
        key: &str,
        value: &'v Value,
        (depth, root): (usize, bool),
    ) -> Option<usize> {
        let boolean = key == "additionalProperties" && value.is_boolean();
        if self.strips(key, value, || {
            json::member(map, "type").and_then(Value::as_str)
        }) {
            self.edited = true;
            if boolean {
                // Dropped without a trace.
                return self.boolean_schema(node, depth);
            }
            // A `pattern` the keep-list strips is lifted before the pattern rules could read it, as written.
            let lifted = LIFTED.contains(&key) || key == "pattern";
            if !lifted || (key == "format" && value.as_str() == Some("enum")) {
                return None;
            }
            // Lifted: counted as the walk charges the member, before the keep-list (the fragment is not charged),
            // and by its type's group, a lifted format not as one the node keeps.
            let bytes = read(self.rules, node, key, value, root)?;
            match key {
                "format" => node.format = None,
                "exclusiveMinimum" | "exclusiveMaximum" => node.typed[2] = true,
                _ => {}
            }
            return Some(bytes);
        }
        // A boolean `additionalProperties` the rule set keeps stays as it is, whether or not the rule set rejects
        // boolean subschemas: the walk reads it as a flag of its object, not as a subschema it enters.
        if boolean {
            return self.boolean_schema(node, depth);
        }
        if key == "pattern" && !self.pattern_stays(value) {
            return None;
        }
        read(self.rules, node, key, value, root)
    }

    /// A boolean `additionalProperties` on a node `depth` containers deep: counted as a schema, which the budgets
    /// may count.
    fn boolean_schema(&mut self, node: &mut Node<'_>, depth: usize) -> Option<usize> {
        self.nodes += 1;
        if depth + 1 > self.max_depth {
            return None;
        }
        node.typed[0] = true;
        node.typing = true;
        Some(SCALAR_BYTES)
    }

    /// Whether `map`, `depth` containers deep on a rule set that collapses nullable unions, is a union the collapse
    /// takes apart (an edit) and everything below it passes the plain look: beside `anyOf` only a `description`, a
    /// `title` and a scalar `default`; one branch not of type `null`, which the look accepts, and at least one of
    /// type `null` with at most a `description` beside it.
    ///
    /// Where the rule set also isolates unions ([`Look::isolate`]), a union of several branches not of type `null`
    /// is taken too: each such branch typed by a `type` string, and null branches only under the `nullable` marker
    /// (which `google.collapse-nullable` sets on each live branch instead; without it the walk narrows), a `default`
    /// only where the keep-list strips it (it is lifted into the node's description before isolation copies that
    /// into each branch). Where it merges unions instead ([`Look::narrow`]), such a union is taken where its live
    /// branches are not all of one type (the merge fails, and the union is narrowed to its first branch whose
    /// `title` does not differ from the node's), null branches only under the policy that removes them.
    #[inline(never)]
    fn nullable_union(&mut self, map: &Map<String, Value>, depth: usize) -> bool {
        self.edited = true;
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
        let live = branches.iter().filter(|b| !null_branch(b)).count();
        let taken = if live == 1 && branches.len() > 1 {
            !nested(branches)
        } else {
            live > 1 && self.several(map, branches, live)
        };
        if !taken || self.literal_bytes > self.max_literal_bytes {
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
            } else if !self.node(branch, depth + 2, false, 0) {
                return false;
            }
        }
        true
    }

    /// Whether a union of `live` (two or more) branches not of type `null`, `map` with its `branches`, is one the
    /// plain look isolates as `google.isolate-any-of` does or narrows as `target.narrow-union` does (see
    /// [`Look::nullable_union`]); its members and branches are read there. A narrowed union charges, besides, a
    /// bound of the branches the walk writes into the description.
    #[inline(never)]
    fn several(&mut self, map: &Map<String, Value>, branches: &[Value], live: usize) -> bool {
        fn ty(branch: &Value) -> Option<&str> {
            match branch {
                Value::Object(branch) => json::member(branch, "type").and_then(Value::as_str),
                _ => None,
            }
        }
        let shape = branches.len() <= 16
            && branches.iter().all(|branch| ty(branch).is_some())
            && json::member(map, "default")
                .is_none_or(|value| self.keep.is_some_and(|keep| !keep.keeps("default", value)));
        if !shape {
            return false;
        }
        if self.isolate {
            return live == branches.len() || self.collapse == Some(Nullable::Marker);
        }
        if !self.narrow || (live < branches.len() && self.collapse != Some(Nullable::Remove)) {
            return false;
        }
        let live_types = || branches.iter().filter_map(ty).filter(|t| *t != "null");
        let first = live_types().next();
        let title = json::member(map, "title");
        // The branch the narrowing keeps: one whose `title`, the only key beside the description it may share with
        // the node, does not differ from the node's.
        let compatible = |branch: &Value| {
            ty(branch) != Some("null")
                && title.is_none_or(|own| branch.get("title").is_none_or(|t| t == own))
        };
        if live_types().all(|t| Some(t) == first) || !branches.iter().any(compatible) {
            return false;
        }
        // The branches the narrowing leaves, as edited, are charged once more in the description: at most four
        // times their compact length (each lifted fragment repeats a member's text with a few bytes around it).
        let written = branches
            .iter()
            .map(|branch| {
                json::compact_len(branch)
                    .saturating_mul(4)
                    .saturating_add(64)
            })
            .fold(0usize, usize::saturating_add);
        self.literal_bytes = self.literal_bytes.saturating_add(written);
        self.narrowed = true;
        true
    }

    /// Counts a member as a literal the walk charges with its key.
    fn charge(&mut self, key: &str, bytes: usize) {
        self.literal_bytes = self
            .literal_bytes
            .saturating_add(key.len().saturating_add(bytes));
    }

    /// Whether none of the rule set's rewrites and checks applies to a node of these keys, but the plain look's
    /// edits (an empty `properties` removed, `required` filtered), which it notes.
    fn fits(&mut self, node: &Node<'_>) -> bool {
        let rules = self.rules;
        let Some(ty) = node.ty else {
            // An untyped node: only annotations (a `default` the keep-list strips is lifted as on a typed node),
            // perhaps a union, where no type is required (none is inferred); under strict a union (strict gives an
            // untyped node of annotations only a type).
            return !node.typing && !rules.require_type && (!STRICT || node.any_of.is_some());
        };
        if STRICT && !strict_fits(node, ty) {
            return false;
        }
        if node.any_of.is_some()
            && (rules.collapse_nullable_any_of || rules.merge_combinators || rules.isolate_any_of)
        {
            return false;
        }
        // Empty `properties` added or removed (both edits), default `items` added. Under strict, where the rule set
        // adds empty `properties` to an object without them, closing adds the same member at the same place.
        let properties_kept = match rules.empty_properties {
            EmptyProperties::Add => {
                ty != "object" || node.properties.is_some() || STRICT || self.note_edit()
            }
            EmptyProperties::Remove => {
                node.properties.is_none_or(|p| !p.is_empty()) || (!STRICT && self.note_edit())
            }
            EmptyProperties::Never => true,
            _ => false,
        };
        let items_kept =
            rules.default_items == DefaultItems::None || ty != "array" || node.items.is_some();
        // `required` names only declared properties, where the rule set filters it (and is not emptied), or, an
        // edit, is filtered.
        let required_kept = !rules.filter_required
            || node.required.is_none_or(|names| {
                !names.is_empty()
                    && names.iter().all(|name| {
                        name.as_str()
                            .is_some_and(|n| node.properties.is_some_and(|p| p.contains_key(n)))
                    })
            })
            || (!STRICT && self.note_edit());
        properties_kept
            && items_kept
            && required_kept
            && (!rules.google_values || google_kept(node, ty))
    }
}

/// Whether a union branch is of type `null` (the branches the nullable policies collapse or remove).
pub(super) fn null_branch(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
}

/// Whether one of `branches` is itself a union of several branches not of type `null`: collapsing a union of one
/// live branch gives the node that union and its own keys, which isolation or the merge then rewrites again; the
/// look leaves that to the walk.
#[inline(never)]
fn nested(branches: &[Value]) -> bool {
    branches.iter().any(|branch| match branch.get("anyOf") {
        Some(Value::Array(inner)) => inner.iter().filter(|b| !null_branch(b)).count() > 1,
        _ => false,
    })
}

/// Strict's shapes: no union beside a type, an `enum` only on a string, `properties` and `required` only on an object
/// (one without `properties` is closed as empty, with nothing required), `required` naming only its properties
/// (`close_object` refuses others, and so does the walk), `items` exactly on an array, each keyword of one type only
/// on that type, a `format` only on a string.
fn strict_fits(node: &Node<'_>, ty: &str) -> bool {
    let object = ty == "object";
    node.any_of.is_none()
        && node.required.is_none_or(|names| {
            names.iter().all(|name| {
                name.as_str()
                    .is_some_and(|n| node.properties.is_some_and(|p| json::has(p, n)))
            })
        })
        && (node.enum_values.is_none() || ty == "string")
        && (node.properties.is_none() || object)
        && (object || (node.required.is_none() && !node.typed[0]))
        && ((ty == "array") == node.items.is_some())
        && GROUPS
            .iter()
            .zip(node.typed)
            .all(|(of, present)| !present || ty == *of || (*of == "number" && ty == "integer"))
        && (node.format.is_none() || ty == "string")
}

/// The properties of a strict object node that closing wraps with null: those its `required` does not name and that
/// do not admit null already.
fn wrapped(node: &Node<'_>) -> usize {
    let (Some("object"), Some(properties)) = (node.ty, node.properties) else {
        return 0;
    };
    let required = node.required.unwrap_or_default();
    properties
        .iter()
        .filter(|(name, schema)| {
            !required.iter().any(|r| r.as_str() == Some(name.as_str())) && !admits_null(schema)
        })
        .count()
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
    format_kept && applies && (node.enum_values.is_none() || ty == "string")
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

/// An upper bound of the literal charge of a number, boolean or null.
const SCALAR_BYTES: usize = 32;

/// An upper bound of the compact JSON length of a string: every byte escaped as `\u00XX`, and the quotes.
fn text_bytes(text: &str) -> usize {
    text.len().saturating_mul(6).saturating_add(2)
}

/// Whether `value` is a string, a number, a boolean or null.
fn scalar(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// An upper bound of the compact JSON length of a list of scalars (the look accepts no other lists).
fn list_bytes(values: &[Value]) -> usize {
    values
        .iter()
        .map(|value| match value {
            Value::String(text) => text_bytes(text),
            _ => SCALAR_BYTES,
        })
        .fold(2, |sum, bytes| sum.saturating_add(bytes).saturating_add(1))
}

/// Whether `names` are strings, none repeated (compared pairwise: the look accepts only short lists).
fn distinct_strings(names: &[Value]) -> bool {
    names.len() <= 64
        && names.iter().enumerate().all(|(i, name)| {
            name.as_str()
                .is_some_and(|n| names[..i].iter().all(|earlier| earlier.as_str() != Some(n)))
        })
}

#[cfg(test)]
// The tests print how many schemas the look found, beside their verdict.
#[allow(clippy::print_stderr)]
pub(super) mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use llmshim_benches::testdata;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
    use serde_json::{Map, Value, json};

    use std::sync::OnceLock;

    use llmshim_core::rules::{DefaultItems, EmptyProperties, OpenAiLimits, Root, StrictProfile};
    use llmshim_core::walk::Hooks;
    use llmshim_core::{RuleSet, TargetRules};

    use super::{report, strict_closed, strict_look, unchanged};
    use crate::schema::{Budget, Keywords, Nullable, Options, Target, pipeline};
    use llmshim_core::pattern_subset::PatternSubset;

    /// The options the look is asked with: every built-in target, without and with strict (made effective as the
    /// normalizer makes it), under both keyword profiles.
    pub(in crate::schema) fn all_options() -> Vec<Options> {
        let mut all = Vec::new();
        for target in Target::BUILTIN {
            for strict in [false, true] {
                for keywords in [Keywords::Current, Keywords::Conservative] {
                    let effective = strict && target.rules().rules().strict.is_some();
                    all.push(
                        Options::for_target(target)
                            .with_strict(effective)
                            .with_keywords(keywords),
                    );
                }
            }
            // The other nullability policies, which act on type arrays and `nullable` only.
            for nullable in [Nullable::Marker, Nullable::Remove] {
                all.push(Options::for_target(target).with_nullable(nullable));
            }
            // Small budgets, which a look that counts less than the walk would pass.
            for budget in [
                Budget::default().with_max_literal_bytes(40),
                Budget::default().with_max_nodes(3),
                Budget::default().with_max_depth(2),
            ] {
                all.push(Options::for_target(target).with_budget(budget));
            }
        }
        all
    }

    /// Where the look says `input` stays as it is under `options`, the walk's output (bytes, key order included) and
    /// report must be exactly that; returns whether the look said so.
    fn agrees(options: &Options, input: &Value) -> Result<bool, String> {
        if !unchanged(options, input) {
            return Ok(false);
        }
        let (out, walked) = pipeline::normalize_uncached(options, input);
        let (a, b) = (serde_json::to_string(&out), serde_json::to_string(input));
        if a.ok() != b.ok() || walked != report() {
            return Err(format!(
                "{} strict {} {:?}: the look says unchanged, the walk gives {out} with {walked:?} for {input}",
                options.target.name(),
                options.strict,
                options.keywords
            ));
        }
        Ok(true)
    }

    /// Every schema of the shared corpus: MCP tools' input and output schemas (tools and variants), the generated
    /// schemas and the SchemaStore schemas.
    pub(in crate::schema) fn corpus() -> Vec<Value> {
        let mut out = Vec::new();
        for file in testdata::mcp_tool_files() {
            let value = testdata::read_json(&file).expect("MCP corpus files parse");
            let tools = value["tools"].as_array().into_iter().flatten();
            let variants = value["variants"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| &v["tool"]);
            for tool in tools.chain(variants) {
                for key in ["inputSchema", "outputSchema"] {
                    out.extend(tool.get(key).cloned());
                }
            }
        }
        let root = testdata::root().expect("the caller checked the data with `require`");
        for (file, member) in [
            ("pydantic.json", "schemas"),
            ("zod.json", "schemas"),
            ("zod4.json", "schemas"),
            ("zod4.json", "schemas_draft7"),
        ] {
            let value = testdata::read_json(root.join("generated").join(file))
                .expect("generated corpus files parse");
            out.extend(
                value[member]
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.values().cloned()),
            );
        }
        for entry in testdata::schemastore_entries() {
            out.push(testdata::read_json(&entry.schema).expect("SchemaStore schemas parse"));
        }
        out
    }

    /// The input schemas of the MCP corpus's tools (the 725 of the corpus bench rows).
    fn tool_schemas() -> Vec<Value> {
        testdata::mcp_tool_files()
            .into_iter()
            .flat_map(|file| {
                let value = testdata::read_json(&file).expect("MCP corpus files parse");
                value["tools"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|tool| tool.get("inputSchema").cloned())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn the_look_agrees_with_the_walk_on_the_whole_corpus() {
        if testdata::require("the unchanged look over the corpus").is_none() {
            return;
        }
        let schemas = corpus();
        let tools = tool_schemas();
        let mut problems = Vec::new();
        for options in all_options() {
            let mut hits = 0;
            for input in &schemas {
                match agrees(&options, input) {
                    Ok(hit) => hits += usize::from(hit),
                    Err(problem) => problems.push(problem),
                }
            }
            let tool_hits = tools
                .iter()
                .filter(|input| unchanged(&options, input))
                .count();
            eprintln!(
                "unchanged look: {} strict {} {:?} {:?} {:?}: {hits} of {} schemas, {tool_hits} of {} MCP tools",
                options.target.name(),
                options.strict,
                options.keywords,
                options.nullable,
                options.budget,
                schemas.len(),
                tools.len()
            );
            // The look must find the common tool shapes on every built-in target (a hook of its own says which
            // nodes it acts on), without strict and within the default budget.
            if !options.strict && options.budget == Budget::default() {
                assert!(
                    tool_hits * 3 > tools.len(),
                    "{}: {tool_hits} hits",
                    options.target.name()
                );
                // And nearly every tool schema the walk hands back unchanged (on Gemini's JSON Schema dialect, the
                // string enums and documented formats its hook leaves alone, which a list of keys could not tell
                // from those it acts on).
                let walked = tools
                    .iter()
                    .filter(|input| {
                        let (out, walked) = pipeline::normalize_uncached(&options, input);
                        out == **input && walked == report()
                    })
                    .count();
                assert!(
                    tool_hits * 20 >= walked * 19,
                    "{}: {tool_hits} hits of {walked} unchanged by the walk",
                    options.target.name()
                );
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Chat's rules with one of the OpenAI strict limits lowered so far that the corpus and the generated schemas
    /// reach it (the published ones are far above them), one limit per target: a count the strict look gets wrong
    /// shows as a schema the look closes and the walk demotes, or the other way round.
    #[derive(Debug)]
    struct Tight(usize);

    static TIGHT: [Tight; 5] = [Tight(0), Tight(1), Tight(2), Tight(3), Tight(4)];

    impl TargetRules for Tight {
        fn id(&self) -> &'static str {
            "tight"
        }

        fn rules(&self) -> &RuleSet {
            static RULES: OnceLock<[RuleSet; 5]> = OnceLock::new();
            let all = RULES.get_or_init(|| {
                let chat = *Target::OpenAiChat.rules().rules();
                std::array::from_fn(|at| {
                    let none = OpenAiLimits::unlimited();
                    let limits = match at {
                        0 => none.with_max_properties(4),
                        1 => none.with_max_nesting(2),
                        2 => none.with_max_enum_values(2),
                        3 => none.with_max_string_bytes(12),
                        _ => none.with_large_enum(1, 2),
                    };
                    chat.with_strict(Some(StrictProfile::new(Some(limits), None)))
                })
            });
            &all[self.0 % all.len()]
        }

        fn hooks(&self) -> Hooks {
            Hooks::NONE
        }
    }

    /// The strict options [`strict_look`] is asked with: every target with a strict profile, under both keyword
    /// profiles, the other nullability policies and small budgets, and chat with tight strict limits.
    fn strict_options() -> Vec<Options> {
        let mut all: Vec<Options> = TIGHT
            .iter()
            .map(|tight| Options::for_target(Target::custom(tight)).with_strict(true))
            .collect();
        for target in Target::BUILTIN {
            if target.rules().rules().strict.is_none() {
                continue;
            }
            let strict = Options::for_target(target).with_strict(true);
            for keywords in [Keywords::Current, Keywords::Conservative] {
                all.push(strict.clone().with_keywords(keywords));
            }
            for nullable in [Nullable::Marker, Nullable::Remove] {
                all.push(strict.clone().with_nullable(nullable));
            }
            for budget in [
                Budget::default().with_max_literal_bytes(40),
                Budget::default().with_max_nodes(3),
                Budget::default().with_max_depth(2),
            ] {
                all.push(strict.clone().with_budget(budget));
            }
        }
        all
    }

    /// A look that builds an output and its report for a schema, or declines it.
    pub(in crate::schema) type Builder =
        fn(&Options, &Value) -> Option<(Value, super::Normalization)>;

    /// Where `look` (named `name` in the message) builds an output for `input`, the walk's output (bytes, key order
    /// included) and report must be exactly those; returns whether it built one.
    pub(in crate::schema) fn builds_as_walk(
        name: &str,
        look: Builder,
        options: &Options,
        input: &Value,
    ) -> Result<bool, String> {
        let Some((built, report)) = look(options, input) else {
            return Ok(false);
        };
        let (out, walked) = pipeline::normalize_uncached(options, input);
        let (a, b) = (serde_json::to_string(&out), serde_json::to_string(&built));
        if a.is_err() || a.ok() != b.ok() || walked != report {
            return Err(format!(
                "{} {:?} {:?} {:?}: the {name} builds {built} with {report:?}, the walk gives {out} with {walked:?} \
                 for {input}",
                options.target.name(),
                options.keywords,
                options.nullable,
                options.budget,
            ));
        }
        Ok(true)
    }

    /// [`builds_as_walk`] for the strict look; where the rule set has the Anthropic request budget, the counters the
    /// look carries must also be those of the output it builds.
    fn closes(options: &Options, input: &Value) -> Result<bool, String> {
        let built = builds_as_walk("strict look", strict_closed, options, input)?;
        let budgeted = options
            .target
            .rules()
            .rules()
            .strict
            .is_some_and(|s| s.anthropic_budget.is_some());
        let (found, out) = (strict_look(options, input), strict_closed(options, input));
        // Under the budget, a verdict is given only where the output can be built (the tool path builds it later, or
        // never).
        if budgeted && found.is_some() != out.is_some() {
            return Err(format!(
                "{}: the strict look's verdict {found:?} but its output {out:?} for {input}",
                options.target.name(),
            ));
        }
        if let (true, Some(found), Some((out, _))) = (budgeted, found, out)
            && found.counts != llmshim_strict::budget_counts(&out)
        {
            return Err(format!(
                "{}: the strict look counts {:?}, the output {out} has {:?}",
                options.target.name(),
                found.counts,
                llmshim_strict::budget_counts(&out)
            ));
        }
        Ok(built)
    }

    #[test]
    fn the_strict_look_agrees_with_the_walk_on_the_whole_corpus() {
        if testdata::require("the strict look over the corpus").is_none() {
            return;
        }
        let schemas = corpus();
        let tools = tool_schemas();
        let chat = Options::for_target(Target::OpenAiChat).with_strict(true);
        let chat_hits = tools
            .iter()
            .filter(|input| strict_closed(&chat, input).is_some())
            .count();
        let mut problems = Vec::new();
        for options in strict_options() {
            let mut hits = 0;
            for input in &schemas {
                match closes(&options, input) {
                    Ok(hit) => hits += usize::from(hit),
                    Err(problem) => problems.push(problem),
                }
            }
            let tool_hits = tools
                .iter()
                .filter(|input| strict_closed(&options, input).is_some())
                .count();
            eprintln!(
                "strict look: {} {:?} {:?} {:?}: {hits} of {} schemas, {tool_hits} of {} MCP tools",
                options.target.name(),
                options.keywords,
                options.nullable,
                options.budget,
                schemas.len(),
                tools.len()
            );
            if options.target.rules().id() == "tight" {
                // Each tight limit refuses some of the tools chat takes, not all of them.
                assert!(
                    tool_hits > 0 && tool_hits < chat_hits,
                    "{:?}: {tool_hits} hits, chat {chat_hits}",
                    options.target.rules().rules().strict
                );
            } else if options.budget == Budget::default() {
                assert!(
                    tool_hits * 4 > tools.len(),
                    "{}: {tool_hits} hits",
                    options.target.name()
                );
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Chat's rules with an `enter` hook that changes nothing, without saying where it acts.
    #[derive(Debug)]
    struct Hooked;

    static HOOKED: Hooked = Hooked;

    impl TargetRules for Hooked {
        fn id(&self) -> &'static str {
            "hooked"
        }

        fn rules(&self) -> &RuleSet {
            Target::OpenAiChat.rules().rules()
        }

        fn hooks(&self) -> Hooks {
            Hooks::ENTER
        }
    }

    #[test]
    fn the_look_refuses_what_a_pass_would_change() {
        // Two targets chosen by their rules: one that adds empty `properties` and `items` and shapes its root (Chat),
        // one with the Google value rules and tail.
        let with_rules = |wanted: fn(&RuleSet) -> bool| {
            Target::BUILTIN
                .into_iter()
                .find(|t| t.rules().hooks() == Hooks::NONE && wanted(t.rules().rules()))
                .map(Options::for_target)
                .expect("a built-in target has these rules")
        };
        let chat = with_rules(|r| {
            r.empty_properties == EmptyProperties::Add
                && r.default_items == DefaultItems::Empty
                && matches!(r.root, Root::Shaped(_))
        });
        let google = with_rules(|r| r.google_values && r.isolate_any_of);
        // A target with an `enter` hook that says which nodes it acts on (Gemini's JSON Schema dialect).
        let hooked = Target::BUILTIN
            .into_iter()
            .find(|t| t.rules().hooks().enter)
            .map(Options::for_target)
            .expect("a built-in target has an enter hook");
        let simple = json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}, "required": ["a"]});
        assert!(unchanged(&chat, &simple));
        assert!(unchanged(&google, &simple));
        let untouched = json!({"type": "object", "properties": {"a": {"type": "string", "description": "d"}}, "required": ["a"]});
        let dated = json!({"type": "object", "properties": {"a": {"type": "string", "format": "date-time"}}});
        // The hook leaves a string enum and a documented string format alone.
        for input in [&untouched, &simple, &dated] {
            assert!(unchanged(&hooked, input), "{input}");
            assert!(agrees(&hooked, input).is_ok());
        }
        // A node the hook acts on goes to the walk: a format on an integer, an undocumented one, an enum of another
        // kind (the look itself refuses `const` and `nullable`).
        for input in [
            json!({"type": "object", "properties": {"a": {"type": "integer", "format": "int64"}}}),
            json!({"type": "object", "properties": {"a": {"type": "integer", "format": "date-time"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "format": "int64"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", null]}}}),
        ] {
            assert!(!unchanged(&hooked, &input), "{input}");
            assert!(agrees(&hooked, &input).is_ok());
        }
        // A pattern that stays as it is is taken, on a string; on Google, not on another type.
        let patterned = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["a"]});
        assert!(unchanged(&chat, &patterned), "{patterned}");
        assert!(agrees(&chat, &patterned).is_ok());
        assert!(unchanged(&google, &patterned), "{patterned}");
        assert!(agrees(&google, &patterned).is_ok());
        // A target whose options remove lookarounds (OpenAI Responses).
        let responses = Target::BUILTIN
            .into_iter()
            .map(Options::for_target)
            .find(|options| options.strip_lookarounds)
            .expect("a built-in target removes lookarounds");
        for source in ["(a", "[z-a]", "*a"] {
            assert!(!llmshim_validate::pattern_compiles(source), "{source}");
        }
        // The last two are well formed: only the compile check refuses them.
        for source in ["[z-a]", "*a"] {
            assert!(PatternSubset::new().admits(source), "{source}");
        }
        let with_pattern = |ty: &str, pattern: &str| json!({"type": "object", "properties": {"a": {"type": ty, "pattern": pattern}}});
        for (options, input) in [
            // Lookarounds removed, a construct OpenAI's engine rejects lifted, one Gemini's leaves out lifted.
            (&responses, with_pattern("string", "^(?!tmp)[a-z]+$")),
            (&chat, with_pattern("string", r"^\p{Lu}+$")),
            (&google, with_pattern("string", r"(a)\1")),
            // A pattern on an integer, which the Google value rules drop.
            (&google, with_pattern("integer", "^[0-9]+$")),
            // A malformed pattern, and one that is well formed but does not compile (the schema falls back).
            (&chat, with_pattern("string", "(a")),
            (&chat, with_pattern("string", "[z-a]")),
            (&chat, with_pattern("string", "*a")),
        ] {
            assert!(!unchanged(options, &input), "{input}");
            assert!(agrees(options, &input).is_ok());
        }
        // A custom target with an `enter` hook that does not say where it acts keeps every schema on the walk.
        let custom = Options::for_target(Target::custom(&HOOKED));
        assert!(!unchanged(&custom, &untouched));
        for (options, input) in [
            // Strict closes objects; diagnostics are recorded by the walk.
            (chat.clone().with_strict(true), simple.clone()),
            (chat.clone().with_diagnostics(true), simple.clone()),
            // `properties: {}` is added on Chat, an empty one removed on Google.
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": "object"}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
            ),
            // Default items, a type array, a reference, a root that is not an object.
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": "array"}}}),
            ),
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}),
            ),
            (
                chat.clone(),
                json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
            ),
            (chat.clone(), json!({"type": "string"})),
            // Google: a default stripped, a `required` naming nothing declared, a bound of another type, a union.
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"type": "string", "minimum": 1}}}),
            ),
            (
                google.clone(),
                json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}),
            ),
        ] {
            assert!(!unchanged(&options, &input), "{input}");
            assert!(agrees(&options, &input).is_ok());
        }
    }

    /// A value for one keyword: mostly what the look accepts, sometimes a value it must refuse or a pass changes.
    fn keyword(inner: &BoxedStrategy<Value>) -> impl Strategy<Value = (String, Value)> + use<> {
        let name = prop::sample::select(vec!["a", "b", "c", "id", "type", "x_y"]);
        let scalar = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..300).prop_map(Value::from),
            Just(json!(1.5)),
            Just(json!(-1.0)),
            "[a-z \\n\"]{0,6}".prop_map(Value::String),
        ];
        let type_name = prop::sample::select(vec![
            "object", "string", "integer", "number", "boolean", "array", "null", "int",
        ]);
        prop_oneof![
            6 => type_name.prop_map(|t| ("type".to_owned(), json!(t))),
            1 => Just(("type".to_owned(), json!(["string", "null"]))),
            4 => prop::collection::vec((name.clone(), inner.clone()), 0..4).prop_map(|members| {
                ("properties".to_owned(), Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
            }),
            3 => prop::collection::vec(name.clone(), 0..4)
                .prop_map(|names| ("required".to_owned(), json!(names))),
            2 => "[a-z (keyword:]{0,12}".prop_map(|t| ("description".to_owned(), json!(t))),
            1 => "[a-z]{0,6}".prop_map(|t| ("title".to_owned(), json!(t))),
            2 => prop::collection::vec(prop_oneof![4 => "[a-z]{0,3}".prop_map(Value::String), 1 => scalar.clone()], 0..4)
                .prop_map(|values| ("enum".to_owned(), Value::Array(values))),
            2 => inner.clone().prop_map(|items| ("items".to_owned(), items)),
            2 => prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|branches| ("anyOf".to_owned(), Value::Array(branches))),
            2 => scalar.clone().prop_map(|v| ("default".to_owned(), v)),
            1 => prop::collection::vec(prop_oneof![4 => scalar.clone(), 1 => Just(json!(["x"]))], 0..3)
                .prop_map(|values| ("default".to_owned(), Value::Array(values))),
            3 => (prop::sample::select(vec![
                "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                "minItems", "maxItems", "multipleOf",
            ]), scalar.clone())
                .prop_map(|(k, v)| (k.to_owned(), v)),
            1 => prop::sample::select(vec!["date-time", "int32", "double", "email", "uri", "enum"])
                .prop_map(|f| ("format".to_owned(), json!(f))),
            1 => prop::sample::select(vec!["const", "additionalProperties", "pattern", "nullable", "$ref", "oneOf", "x_of"])
                .prop_flat_map(move |k| scalar.clone().prop_map(move |v| (k.to_owned(), v))),
            // Patterns the look takes and patterns a pattern rule or the compile gate acts on: a lookaround, what
            // OpenAI's engine rejects, what Gemini's leaves out, a malformed one, one that does not compile.
            1 => prop::sample::select(vec![
                "^[a-z]+$", r"^\d{4}-\d{2}$", "(?<=a)b", "^(?!x)y", r"^\p{Lu}+$", r"(a)\1", "(?<n>a)", r"\bw",
                "(a", "[z-a]", "*a", "a{99999}",
            ])
            .prop_map(|p| ("pattern".to_owned(), json!(p))),
        ]
    }

    /// A schema object of a few keywords, any of them.
    fn node(inner: &BoxedStrategy<Value>) -> impl Strategy<Value = Value> + use<> {
        prop::collection::vec(keyword(inner), 0..6)
            .prop_map(|members| Value::Object(members.into_iter().collect()))
    }

    /// A typed schema object of the shapes the look accepts, with keywords that suit its type and now and then one
    /// that does not (or a value a pass changes).
    fn typed(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
        let suited = |ty: &'static str| -> Vec<(&'static str, Value)> {
            let mut keys = vec![("description", json!("text")), ("title", json!("T"))];
            match ty {
                "string" => keys.extend([
                    ("enum", json!(["a", "b"])),
                    ("format", json!("date-time")),
                    ("minLength", json!(1)),
                    ("maxLength", json!(9)),
                    ("default", json!("a")),
                    ("pattern", json!("^[a-z]+$")),
                ]),
                "integer" | "number" => keys.extend([
                    ("minimum", json!(0)),
                    ("maximum", json!(9.5)),
                    (
                        "format",
                        json!(if ty == "integer" { "int64" } else { "double" }),
                    ),
                    ("exclusiveMinimum", json!(0)),
                    ("default", json!(3)),
                ]),
                "array" => keys.extend([("minItems", json!(1)), ("maxItems", json!(3))]),
                _ => keys.push(("default", Value::Null)),
            }
            keys
        };
        let ty = prop::sample::select(vec![
            "object", "string", "integer", "number", "boolean", "array", "null",
        ]);
        let extra = prop::option::weighted(0.2, keyword(&inner));
        let names = prop::sample::select(vec!["a", "b", "c", "id"]);
        let properties = prop::collection::vec((names.clone(), inner.clone()), 0..4);
        let required = prop::collection::vec(names, 0..3);
        (
            ty,
            prop::collection::vec(any::<bool>(), 8),
            properties,
            required,
            inner,
            extra,
        )
            .prop_map(move |(ty, picks, properties, required, items, extra)| {
                let mut map = Map::new();
                map.insert("type".to_owned(), json!(ty));
                for ((key, value), pick) in suited(ty).into_iter().zip(picks.iter().copied()) {
                    if pick {
                        map.insert(key.to_owned(), value);
                    }
                }
                if ty == "object" && picks.get(7).copied().unwrap_or(true) {
                    let properties: Map<String, Value> = properties
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect();
                    let mut names: Vec<&str> = Vec::new();
                    for name in required {
                        if properties.contains_key(name) && !names.contains(&name) {
                            names.push(name);
                        }
                    }
                    if !names.is_empty() || picks.first().copied().unwrap_or(false) {
                        map.insert("required".to_owned(), json!(names));
                    }
                    map.insert("properties".to_owned(), Value::Object(properties));
                    // Now and then closed or open already, which strict closing replaces in place.
                    if picks.get(4).copied().unwrap_or(false)
                        && picks.get(5).copied().unwrap_or(false)
                    {
                        let open = picks.get(6).copied().unwrap_or(false);
                        map.insert("additionalProperties".to_owned(), json!(open));
                    }
                }
                if ty == "array" && picks.get(6).copied().unwrap_or(true) {
                    map.insert("items".to_owned(), items);
                }
                if let Some((key, value)) = extra {
                    map.insert(key, value);
                }
                Value::Object(map)
            })
    }

    /// A schema close to the shapes the look accepts: mostly typed nodes, now and then a union or any node.
    fn schema() -> BoxedStrategy<Value> {
        let leaf = prop_oneof![
            Just(json!({"type": "string"})),
            Just(json!({"type": "integer", "minimum": 0})),
            Just(json!({"type": "string", "enum": ["a", "b"]})),
            Just(json!({"type": "boolean", "description": "d"})),
            // Titles beside a union's own (which Code Assist's narrowing compares).
            Just(json!({"type": "number", "title": "T"})),
            Just(json!({"type": "string", "title": "S"})),
            Just(json!({"type": "null"})),
            Just(json!(true)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            let inner = inner.boxed();
            prop_oneof![
                8 => typed(inner.clone()),
                1 => (prop::collection::vec(inner.clone(), 1..4), prop::sample::select(vec![
                    json!({"description": "u"}),
                    json!({"description": " u ", "title": "T"}),
                    json!({"title": "T", "default": null}),
                    json!({}),
                    json!({"default": "x", "description": ""}),
                ]))
                    .prop_map(|(branches, annotations)| {
                        let mut union = json!({"anyOf": branches});
                        if let (Value::Object(union), Value::Object(annotations)) = (&mut union, annotations) {
                            union.extend(annotations);
                        }
                        union
                    }),
                1 => node(&inner),
            ]
        })
        .boxed()
    }

    /// A document: an object root, most often.
    fn document() -> impl Strategy<Value = Value> {
        prop_oneof![
            4 => (
                prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), schema()), 1..4),
                any::<bool>(),
                prop::sample::select(vec![None, None, None, Some("http://json-schema.org/draft-07/schema#"), Some("https://json-schema.org/draft/2020-12/schema"), Some("http://json-schema.org/draft-04/schema#")]),
            )
                .prop_map(|(properties, require, uri)| {
                    let properties: Map<String, Value> =
                        properties.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                    let names: Vec<&String> = properties.keys().collect();
                    let mut root = json!({"type": "object", "properties": properties.clone()});
                    if let Value::Object(map) = &mut root {
                        if require {
                            map.insert("required".to_owned(), json!(names));
                        }
                        // A dialect, which the strict look takes at the root for draft 7 and 2020-12.
                        if let Some(uri) = uri {
                            map.insert("$schema".to_owned(), json!(uri));
                        }
                    }
                    root
                }),
            1 => schema(),
        ]
    }

    /// Runs `check` (which says whether the look took a schema, or why it disagrees with the walk) on generated
    /// schemas under every one of `options`: `PROPTEST_CASES` cases (256 by default) on `PROPTEST_RNG_SEED` (16 by
    /// default); fails on a disagreement, and when fewer than a quarter of the cases reach the look's shapes.
    pub(in crate::schema) fn look_property(
        label: &str,
        options: &[Options],
        check: fn(&Options, &Value) -> Result<bool, String>,
    ) {
        let cases = std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(256);
        let seed = std::env::var("PROPTEST_RNG_SEED")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(16);
        let config = Config {
            cases,
            rng_seed: RngSeed::Fixed(seed),
            failure_persistence: None,
            ..Config::default()
        };
        let hits = AtomicUsize::new(0);
        let mut runner = TestRunner::new(config);
        let result = runner.run(&document(), |input| {
            for options in options {
                if check(options, &input).map_err(TestCaseError::fail)? {
                    hits.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(())
        });
        let hits = hits.into_inner();
        eprintln!("{label}: {hits} hits over {cases} generated schemas, seed {seed}");
        if let Err(err) = result {
            panic!("{err}");
        }
        // The generator must reach the look's accepted shapes, or the property says nothing.
        assert!(hits * 4 >= cases as usize, "{hits} hits in {cases} cases");
    }

    #[test]
    fn the_look_agrees_with_the_walk_on_generated_schemas() {
        look_property("unchanged look", &all_options(), agrees);
    }

    #[test]
    fn the_strict_look_closes_simple_shapes_and_refuses_the_rest() {
        let chat = Options::for_target(Target::OpenAiChat).with_strict(true);
        let simple = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "a": {"type": "string", "description": "A", "default": "x"},
                "b": {"type": "integer", "minimum": 1},
                "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}
            },
            "required": ["b"],
            "additionalProperties": true
        });
        let Some((built, report)) = strict_closed(&chat, &simple) else {
            panic!("the strict look refuses {simple}");
        };
        assert!(report.changed && report.strict && !report.used_fallback);
        assert_eq!(built["required"], json!(["a", "b", "c"]));
        assert_eq!(built["additionalProperties"], json!(false));
        assert_eq!(closes(&chat, &simple), Ok(true));
        // An object without `properties` is closed as empty (the walk's empty-properties step adds them first), and a
        // pattern the strict keep-list keeps stays.
        let open = json!({"type": "object", "properties": {"a": {"type": "object", "description": "any"},
                          "b": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["a", "b"]});
        let Some((built, _)) = strict_closed(&chat, &open) else {
            panic!("the strict look refuses {open}");
        };
        assert_eq!(
            built["properties"]["a"],
            json!({"type": "object", "description": "any", "properties": {}, "required": [], "additionalProperties": false})
        );
        assert_eq!(built["properties"]["b"]["pattern"], json!("^[a-z]+$"));
        assert_eq!(closes(&chat, &open), Ok(true));
        let nested = (0..12).fold(
            json!({"type": "string"}),
            |inner, _| json!({"type": "object", "properties": {"n": inner}, "required": ["n"]}),
        );
        for input in [
            // Deeper than the OpenAI strict limits: the walk demotes it.
            nested,
            // Refused though the walk would close them as the builder does (the look stays within shapes it
            // states): an enum of strings on a number, a bound of another type, a format on a number.
            json!({"type": "object", "properties": {"a": {"type": "integer", "enum": ["1"]}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "minimum": 1}}}),
            json!({"type": "object", "properties": {"a": {"type": "number", "format": "double"}}}),
            // A required name the object does not declare, which closing refuses (so does the walk).
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}},
                   "required": ["c"]}}}),
            // A dialect other than draft 7 and 2020-12, with a bound it reads otherwise.
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                   "properties": {"a": {"type": "number", "exclusiveMinimum": 1}}}),
        ] {
            assert_eq!(closes(&chat, &input), Ok(false), "{input}");
        }
        // Where the verdict may stand without its output (the Anthropic request budget), the look itself refuses a
        // required name that is not a property, which closing refuses.
        let anthropic = Target::BUILTIN
            .into_iter()
            .find(|t| {
                t.rules()
                    .rules()
                    .strict
                    .is_some_and(|s| s.anthropic_budget.is_some())
            })
            .map(|t| Options::for_target(t).with_strict(true))
            .expect("a built-in target has the request budget");
        let unclosable = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]});
        assert_eq!(closes(&anthropic, &unclosable), Ok(false));
        assert!(strict_look(&anthropic, &unclosable).is_none());
    }

    #[test]
    fn the_strict_look_agrees_with_the_walk_on_generated_schemas() {
        look_property("strict look", &strict_options(), closes);
    }
}
