//! The walker: one visit per schema position, running an ordered list of passes.
//!
//! A visit counts itself against the budget (W1), runs every pass's [`Pass::enter`] in order, walks the children
//! (W25) and runs every pass's [`Pass::leave`] in order. A pass that produces the visit's final result (reference
//! expansion, a type-array split) returns [`Flow::Done`] and the visit ends there. A pass walks a subtree again —
//! a reference target, a root-shaping branch without strict, a split branch — through [`NodeCtx::rewalk`].

use std::borrow::Cow;
use std::sync::Arc;

use crate::json;
use serde_json::{Map, Value};

use crate::budget::{Budget, Meter};
use crate::children::{Slot, Walk, WrongContainer, children_mut};
use crate::keep::Keywords;
use crate::keyword::Keyword;
use crate::lift;
use crate::pointer::push_token;
use crate::report::{Change, ChangeKind, FallbackKind, FallbackReason};
use crate::rules::{Nullable, Recursion};

pub mod steps;

/// The walker refuses to recurse deeper than this, whatever the budget says, so no budget can overflow the stack.
pub const HARD_MAX_DEPTH: usize = 400;

/// The core-side view of the effective options: what every pass may read.
///
/// The facade's `Options` (which names the target) is turned into `Settings` after the environment and the rule set
/// have been applied; core never names the facade's type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Settings {
    /// Strict enforcement is effective.
    pub strict: bool,
    /// The nullability policy.
    pub nullable: Nullable,
    /// `oneOf` becomes `anyOf`.
    pub rewrite_one_of: bool,
    /// Lookaround groups are deleted from patterns.
    pub strip_lookarounds: bool,
    /// Every change is recorded.
    pub diagnostics: bool,
    /// The schema is a structured-output schema.
    pub structured_output: bool,
    /// Which keep-lists apply: the keyword profile.
    pub keywords: Keywords,
    /// The budgets.
    pub budget: Budget,
    /// Children under a container of the wrong kind are skipped instead of failing `invalid_schema`; the
    /// resolver-only API uses this, normalization never does.
    pub lenient_children: bool,
    /// The members of `$defs` and `definitions` are walked too, after the other children, as positions that do not
    /// describe the instance; the resolver-only `bundle` uses this, normalization never does.
    pub walk_definitions: bool,
    /// What a recursive `$ref` becomes in this walk.
    pub recursion: Recursion,
    /// A child whose walk fails with a kind a narrowing may absorb ([`narrowable`]) climbs to the nearest optional
    /// property or removable union branch instead of failing the walk (`target.omit-property`); normalization sets
    /// this, the resolver-only API never does.
    pub narrow: bool,
    /// Failures the structural check found in an earlier walk of the same schema: the last visit of the node at
    /// each one's pointer (or of its nearest visited ancestor) fails with it, so that the climb can remove the
    /// nearest optional part around it.
    pub cuts: Vec<FallbackReason>,
    /// Keys of kept definitions (the root's is [`crate::defs::ROOT`]) an earlier walk of the same schema found to
    /// admit fewer values only after a site inside their own walk had counted on them not to: every site naming one
    /// counts as narrowed (see [`NodeCtx::note_kept_site`] and [`Walked::late_narrowed`]).
    pub narrowed_definitions: Vec<String>,
}

/// Whether a failure of `kind` may be absorbed by removing an optional part around it: a construct the target or
/// strict cannot express, a reference that cannot be followed, a pattern that cannot be rewritten. Recursion has
/// its own climb, and invalid schemas, booleans, budgets and limits fail the whole schema.
pub const fn narrowable(kind: FallbackKind) -> bool {
    matches!(
        kind,
        FallbackKind::TargetUnsupported
            | FallbackKind::StrictUnsupported
            | FallbackKind::ExternalRef
            | FallbackKind::UnresolvedRef
            | FallbackKind::Regex
    )
}

impl Settings {
    /// Settings with every switch off and the given budget.
    pub fn new(budget: Budget) -> Self {
        Settings {
            strict: false,
            nullable: Nullable::Preserve,
            rewrite_one_of: false,
            strip_lookarounds: false,
            diagnostics: false,
            structured_output: false,
            keywords: Keywords::default(),
            budget,
            lenient_children: false,
            walk_definitions: false,
            recursion: Recursion::Fallback,
            narrow: false,
            cuts: Vec::new(),
            narrowed_definitions: Vec::new(),
        }
    }

    /// Sets the kept definitions whose sites count as narrowed (see [`Settings::narrowed_definitions`]).
    #[must_use]
    pub fn with_narrowed_definitions(mut self, keys: Vec<String>) -> Self {
        self.narrowed_definitions = keys;
        self
    }

    /// Sets whether failures of the kinds [`narrowable`] names climb to an optional part instead of failing.
    #[must_use]
    pub fn with_narrow(mut self, on: bool) -> Self {
        self.narrow = on;
        self
    }

    /// Sets the structural-check failures of an earlier walk that this walk fails at (see [`Settings::cuts`]).
    #[must_use]
    pub fn with_cuts(mut self, cuts: Vec<FallbackReason>) -> Self {
        self.cuts = cuts;
        self
    }

    /// Sets what recursive references become.
    #[must_use]
    pub fn with_recursion(mut self, recursion: Recursion) -> Self {
        self.recursion = recursion;
        self
    }

    /// Sets strict.
    #[must_use]
    pub fn with_strict(mut self, on: bool) -> Self {
        self.strict = on;
        self
    }

    /// Sets the nullability policy.
    #[must_use]
    pub fn with_nullable(mut self, nullable: Nullable) -> Self {
        self.nullable = nullable;
        self
    }

    /// Sets the `oneOf` rewrite.
    #[must_use]
    pub fn with_rewrite_one_of(mut self, on: bool) -> Self {
        self.rewrite_one_of = on;
        self
    }

    /// Sets lookaround removal.
    #[must_use]
    pub fn with_strip_lookarounds(mut self, on: bool) -> Self {
        self.strip_lookarounds = on;
        self
    }

    /// Sets change recording.
    #[must_use]
    pub fn with_diagnostics(mut self, on: bool) -> Self {
        self.diagnostics = on;
        self
    }

    /// Sets the structured-output flag.
    #[must_use]
    pub fn with_structured_output(mut self, on: bool) -> Self {
        self.structured_output = on;
        self
    }

    /// Sets the keyword profile.
    #[must_use]
    pub fn with_keywords(mut self, keywords: Keywords) -> Self {
        self.keywords = keywords;
        self
    }

    /// Sets whether definitions are walked.
    #[must_use]
    pub fn with_walk_definitions(mut self, on: bool) -> Self {
        self.walk_definitions = on;
        self
    }

    /// Sets lenient child handling.
    #[must_use]
    pub fn with_lenient_children(mut self, on: bool) -> Self {
        self.lenient_children = on;
        self
    }
}

/// The position flags of a visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Position {
    /// The subschema constrains the instance positively; type inference runs only here.
    pub instance: bool,
    /// The node is the root or stands for it; root shaping and root checks run only here.
    pub root: bool,
    /// For a union branch (an `anyOf` or `oneOf` entry): the one type of the node it is a branch of, when that node
    /// names a single type. The branch describes only values of that type, whatever it says itself.
    pub conjunct: Option<&'static str>,
    /// For a union branch (an `anyOf` or `oneOf` entry) of an untyped intermediate root whose merged node may take
    /// its type from the keys it is merged with ([`NodeCtx::typed_when_merged`], the root not finishing that union
    /// itself): the branch's [`Position::conjunct`] is not known yet. The merged node's walk visits the branch again
    /// with it, so what a branch takes from its node's type waits for that visit.
    pub conjunct_pending: bool,
}

impl Position {
    /// The root's position: instance-describing and root.
    pub const ROOT: Position = Position {
        instance: true,
        root: true,
        conjunct: None,
        conjunct_pending: false,
    };

    /// A position from its two flags, not a union branch of a typed node.
    pub const fn new(instance: bool, root: bool) -> Self {
        Position {
            instance,
            root,
            conjunct: None,
            conjunct_pending: false,
        }
    }

    /// The same position as a union branch of a node whose one type is `conjunct` (see [`Position::conjunct`]).
    #[must_use]
    pub const fn with_conjunct(mut self, conjunct: Option<&'static str>) -> Self {
        self.conjunct = conjunct;
        self
    }

    /// The same position with [`Position::conjunct_pending`] set to `pending`.
    #[must_use]
    pub const fn with_conjunct_pending(mut self, pending: bool) -> Self {
        self.conjunct_pending = pending;
        self
    }
}

/// The type name among the JSON Schema type names that `name` spells, as a static string.
fn type_name(name: &str) -> Option<&'static str> {
    [
        "object", "array", "string", "number", "integer", "boolean", "null",
    ]
    .into_iter()
    .find(|t| *t == name)
}

/// Drops of keys that constrain nothing where they stand (`required: null`, meta keys, a keyword for another type
/// than the node's, an empty `properties`): removing them changes no node's values, even below `not`.
const VACUOUS_DROPS: [&str; 5] = [
    "walk.required-null",
    "resolve.drop-meta",
    "resolve.schema-uri",
    "google.type-applicability",
    "google.drop-empty-properties",
];

/// Whether a change of `kind` to `keyword` (the node itself when `None`) by `rule` may make its node admit more
/// values: a constraint dropped, lifted into the description or loosened. Below an odd number of `not`s such a change
/// makes the enclosing schema admit fewer values, and below an `if` it changes which of `then` and `else` applies.
fn widens(kind: ChangeKind, keyword: Option<&str>, rule: &str) -> bool {
    let constrains = |k: &str| {
        matches!(k, "type" | "required" | "nullable" | "$ref" | "$dynamicRef")
            || Keyword::from_name(k).is_some()
            || (crate::keyword::is_liftable(k) && !crate::keyword::ANNOTATIONS.contains(&k))
    };
    match kind {
        ChangeKind::Lifted | ChangeKind::Relaxed => keyword.is_none_or(constrains),
        ChangeKind::Dropped => !VACUOUS_DROPS.contains(&rule) && keyword.is_none_or(constrains),
        _ => false,
    }
}

/// What a pass's `enter` tells the walker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flow {
    /// Run the remaining steps.
    Continue,
    /// The node is this visit's final result: no later pass, no children, no `leave`.
    Done,
}

/// Which of a pass's two hooks can act in a walk: the walker calls only those, so a pass whose rule is off (a Google
/// rule on an OpenAI target, strict closing without strict) costs nothing per node.
///
/// ```
/// use llmshim_core::walk::Hooks;
///
/// assert!(Hooks::ENTER.enter && !Hooks::ENTER.leave);
/// assert_eq!(Hooks::when(false, Hooks::BOTH), Hooks::NONE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Hooks {
    /// [`Pass::enter`] can act.
    pub enter: bool,
    /// [`Pass::leave`] can act.
    pub leave: bool,
}

impl Hooks {
    /// Both hooks are called: the default, always correct.
    pub const BOTH: Hooks = Hooks::new(true, true);
    /// Only `enter` is called.
    pub const ENTER: Hooks = Hooks::new(true, false);
    /// Only `leave` is called.
    pub const LEAVE: Hooks = Hooks::new(false, true);
    /// The pass is left out of the walk.
    pub const NONE: Hooks = Hooks::new(false, false);

    /// Hooks from their two flags.
    pub const fn new(enter: bool, leave: bool) -> Self {
        Hooks { enter, leave }
    }

    /// `hooks` when `on`, else none.
    pub const fn when(on: bool, hooks: Hooks) -> Self {
        if on { hooks } else { Hooks::NONE }
    }
}

/// One per-node pass. Whoever composes the walk lists passes in the order of the walk steps (W1 to W30).
pub trait Pass {
    /// A short name for debugging.
    fn name(&self) -> &'static str;

    /// Which hooks can act in a walk with `settings`; the walker asks once per walk (for each value of
    /// [`Settings::strict`], which a re-walk may force) and never calls a hook this leaves out.
    ///
    /// The answer may depend on the pass and on the settings only, never on a node. A hook left out must be one that
    /// would change nothing, record nothing and return `Continue` or `Ok(())` on every node of such a walk. The
    /// default, both, is always correct.
    fn hooks(&self, settings: &Settings) -> Hooks {
        let _ = settings;
        Hooks::BOTH
    }

    /// Runs before the children are walked.
    ///
    /// # Errors
    ///
    /// A reason ends the whole walk.
    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let _ = (node, cx);
        Ok(Flow::Continue)
    }

    /// Runs after the children were walked.
    ///
    /// # Errors
    ///
    /// A reason ends the whole walk.
    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let _ = (node, cx);
        Ok(())
    }
}

/// How to walk a subtree again from inside a pass.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Rewalk {
    /// The base URI of the subtree; the current node's when `None`.
    pub base: Option<Arc<str>>,
    /// The position flags; the current node's when `None`.
    pub position: Option<Position>,
    /// Walk with strict forced to this value; the current setting when `None`.
    pub strict: Option<bool>,
    /// The subtree's root is an intermediate result: its keys will be merged with others and the merged node walked
    /// again (a `$ref` target before its siblings are copied over it). Passes see it through
    /// [`NodeCtx::intermediate`] and may leave to the second walk what depends on the root's final keys.
    pub intermediate: bool,
    /// With `intermediate`: the child keywords (a bit per place in [`Keyword::WALK_ORDER`]) whose values the merge
    /// replaces, so the intermediate root does not walk them (their walked value would be thrown away).
    pub skip_children: u32,
    /// With `intermediate`: the child keywords (a bit per place in [`Keyword::WALK_ORDER`]) that a pass which would
    /// leave them to the merged node finishes at the root instead: the node the root is merged into holds them
    /// already, and the root's own value would replace its (a one-entry `allOf`'s entry wins over its node), or the
    /// merge takes the root only once they are gone (an entry of a several-entry `allOf` merges only as a plain
    /// object schema).
    pub held: u32,
    /// With `intermediate`: the merge takes the root only as a plain object schema (an entry of a several-entry
    /// `allOf`), so the merged node is never typed from the root's `const`, `enum` or `format`; a pass that would
    /// leave those to the merged node finishes them at the root instead (see [`NodeCtx::typed_when_merged`]).
    pub plain: bool,
    /// The pointer the subtree is located at; the current node's when `None`.
    pub pointer: Option<String>,
    /// The subtree stands on its own (a kept definition): unless `intermediate`, its root is not an intermediate
    /// result even when the walk starts from one, since nothing is merged into it afterwards.
    pub detached: bool,
}

impl Rewalk {
    /// Re-walk at the current node's base and position.
    pub fn here() -> Self {
        Rewalk {
            base: None,
            position: None,
            strict: None,
            intermediate: false,
            skip_children: 0,
            held: 0,
            plain: false,
            pointer: None,
            detached: false,
        }
    }

    /// Sets the base URI.
    #[must_use]
    pub fn with_base(mut self, base: Arc<str>) -> Self {
        self.base = Some(base);
        self
    }

    /// Sets the position flags.
    #[must_use]
    pub fn with_position(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    /// Forces strict on or off.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = Some(strict);
        self
    }

    /// Marks the subtree's root as an intermediate result (see [`Rewalk::intermediate`]).
    #[must_use]
    pub fn with_intermediate(mut self, intermediate: bool) -> Self {
        self.intermediate = intermediate;
        self
    }

    /// Leaves the intermediate root's children under `keys` unwalked (see [`Rewalk::skip_children`]); names that
    /// are not child keywords are ignored.
    #[must_use]
    pub fn with_skipped_children<'k>(mut self, keys: impl IntoIterator<Item = &'k str>) -> Self {
        self.skip_children |= walk_order_bits(keys);
        self
    }

    /// Marks the child keywords under `keys` as finished at the intermediate root rather than left to the node it is
    /// merged into (see [`Rewalk::held`]); names that are not child keywords are ignored.
    #[must_use]
    pub fn with_held<'k>(mut self, keys: impl IntoIterator<Item = &'k str>) -> Self {
        self.held |= walk_order_bits(keys);
        self
    }

    /// Marks the intermediate root as merged only as a plain object schema (see [`Rewalk::plain`]).
    #[must_use]
    pub fn with_plain(mut self, plain: bool) -> Self {
        self.plain = plain;
        self
    }

    /// Walks the subtree as one that stands on its own (see [`Rewalk::detached`]).
    #[must_use]
    pub fn with_detached(mut self, detached: bool) -> Self {
        self.detached = detached;
        self
    }

    /// Locates the subtree at `pointer` instead of the current node's pointer.
    #[must_use]
    pub fn with_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }
}

struct Shared {
    settings: Settings,
    /// The passes whose hooks can act, with strict off (`[0]`) and on (`[1]`).
    plans: [Plan; 2],
    meter: Meter,
    changes: Vec<Change>,
    pointer: String,
    /// The depth of the intermediate root being walked, if any, with the child keywords it leaves unwalked (see
    /// [`Rewalk::intermediate`]).
    intermediate: Option<(usize, u32)>,
    /// The child keywords the intermediate root finishes itself (see [`Rewalk::held`]).
    held: u32,
    /// The intermediate root is merged only as a plain object schema (see [`Rewalk::plain`]).
    plain: bool,
    /// Kept definitions in the order the walk first needed them.
    defs: Vec<Definition>,
    /// A failure climbing to the nearest part it may remove (see [`NodeCtx::climb`]).
    climb: Option<Climb>,
    /// The site of a climb that found nothing to remove and whose site may become a stub.
    stub_site: Option<String>,
    /// Pointers of `anyOf` nodes the walk made itself (a flattened tuple), whose branches a climb passes through.
    made_unions: Vec<String>,
    /// Pointers of union branches strict closed from open objects (see [`NodeCtx::note_closed_by_strict`]).
    closed_by_strict: Vec<String>,
    /// Pointers of union branches `walk.narrow-any` left to the merged node's walk (see
    /// [`NodeCtx::note_waiting_branch`]).
    waiting_branches: Vec<String>,
    /// Pointers of nodes whose `type` the walk gave them (see [`NodeCtx::note_inferred_type`]).
    inferred_types: Vec<String>,
    /// How many changes made the schema admit fewer values (recorded or not; see [`NodeCtx::count`]).
    narrowed: usize,
    /// How many changes made some node admit fewer values (recorded or not): the `narrowed` ones and the ones a pass
    /// declares with [`NodeCtx::note_tightened`] (see [`NodeCtx::one_of_tightened`]).
    tightened: usize,
    /// Which of the settings' cuts a visit has already failed at.
    cuts_done: Vec<bool>,
    /// The parts climbs removed, in order (see [`Walked::removed`]).
    removed: Vec<(String, String)>,
    /// A site named the root while nothing of the walk had narrowed it yet (see [`NodeCtx::note_kept_site`]).
    root_relied: bool,
    /// Definition keys found narrowed after a site counted on them not to be (see [`Walked::late_narrowed`]).
    late_narrowed: Vec<String>,
    /// The node being visited lies below an odd number of `not`s (see [`NodeCtx::count`]).
    negated: bool,
    /// How many `if`s the node being visited lies below (see [`NodeCtx::count`]).
    conditions: u32,
}

impl Shared {
    /// The kind a change of kind `narrowed` made at the node being visited is recorded with, and whether it counts as
    /// narrowing the schema (see [`Shared::narrowing`]).
    fn recorded_narrowing(&self) -> (ChangeKind, bool) {
        match (self.negated, self.conditions > 0) {
            (false, false) => (ChangeKind::Narrowed, true),
            (true, false) => (ChangeKind::Relaxed, false),
            (_, true) => (ChangeKind::Relaxed, true),
        }
    }

    /// Counts a change that makes its part admit fewer values and returns the kind to record, which says what it is
    /// for the whole schema: below an odd number of `not`s the enclosing schema admits more values, so it is
    /// `relaxed` and no narrowing; below an `if` a narrower condition sends fewer values to `then` and more to
    /// `else`, so the schema may admit more or fewer: `relaxed`, and a narrowing. Its node admits fewer values either
    /// way (see [`NodeCtx::one_of_tightened`]).
    fn narrowing(&mut self) -> ChangeKind {
        let (kind, narrows) = self.recorded_narrowing();
        if narrows {
            self.narrowed += 1;
        }
        self.tightened += 1;
        kind
    }
}

/// The passes of a walk whose hooks can act under one value of strict: bit `i` stands for the pass at index `i`
/// of the list. Passes past the first [`PLANNED`] are always called.
#[derive(Clone, Copy, Debug, Default)]
struct Plan {
    enter: u64,
    leave: u64,
}

/// The bytes the walk's pointer is allocated with: enough for the pointers of most schemas, so that it is not
/// reallocated as the walk goes down.
const POINTER_CAPACITY: usize = 128;

/// How many passes of a list a [`Plan`] can leave out.
const PLANNED: usize = 64;

impl Plan {
    /// The plan of `passes` under `settings`: each pass asked once.
    fn new(passes: &[&dyn Pass], settings: &Settings) -> Plan {
        let mut plan = Plan::default();
        for (i, pass) in passes.iter().take(PLANNED).enumerate() {
            let hooks = pass.hooks(settings);
            plan.enter |= u64::from(hooks.enter) << i;
            plan.leave |= u64::from(hooks.leave) << i;
        }
        plan
    }
}

/// A kept definition: its name, the key its maker looks it up by, and its walked value once done.
#[derive(Debug)]
struct Definition {
    name: String,
    key: String,
    value: Option<Value>,
    /// The walk's tightening count when the definition's walk started.
    started: usize,
    /// Whether its walk made it admit fewer values, once done (see [`NodeCtx::note_kept_site`]).
    tightened: Option<bool>,
    /// A site inside its walk named it while its walk had not narrowed it yet.
    relied: bool,
}

/// A failure on its way up to the nearest optional property or removable union branch.
#[derive(Debug)]
struct Climb {
    site: String,
    rule: &'static str,
    omission: Omission,
    stub: bool,
}

/// What a removed property or branch is said to have lost, in the fragment appended to its parent's description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Omission {
    /// A recursive reference cut at `depth` expansions: `(recursive <name>: omitted below depth <depth>)`.
    Recursion {
        /// The expansions kept.
        depth: u32,
    },
    /// A part the target cannot express: `(omitted <name>: <kind>)`.
    Failure {
        /// Why it could not be kept.
        kind: FallbackKind,
    },
}

/// What a pass sees of the walk at one visit: location, flags, settings, the lift queue and the change log.
pub struct NodeCtx<'a> {
    shared: &'a mut Shared,
    passes: &'a [&'a dyn Pass],
    depth: usize,
    base: Arc<str>,
    position: Position,
    lifts: lift::Queue,
    /// The node accepted any value when it was entered (see [`NodeCtx::mark_any_value`]).
    any_value: bool,
    /// A branch of the node's `oneOf` admits fewer values after its walk (see [`NodeCtx::one_of_tightened`]).
    one_of_tightened: bool,
}

impl std::fmt::Debug for NodeCtx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeCtx")
            .field("pointer", &self.shared.pointer)
            .field("depth", &self.depth)
            .field("base", &self.base)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}

impl NodeCtx<'_> {
    /// The node's location in the tree being built.
    pub fn pointer(&self) -> &str {
        &self.shared.pointer
    }

    /// The node's depth (the root is 0).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The base URI in effect for this node.
    pub fn base(&self) -> &Arc<str> {
        &self.base
    }

    /// Changes the base URI for the rest of this visit and the node's children (step W3).
    pub fn set_base(&mut self, base: Arc<str>) {
        self.base = base;
    }

    /// The position flags.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The effective settings.
    pub fn settings(&self) -> &Settings {
        &self.shared.settings
    }

    /// The walk's meter, for passes that charge extra work.
    pub fn meter(&mut self) -> &mut Meter {
        &mut self.shared.meter
    }

    /// Charges `bytes` of literal work to the walk's meter, failing at this node past the budget.
    ///
    /// # Errors
    ///
    /// A `budget_literal` reason at this node when the charge exceeds `max_literal_bytes`.
    pub fn charge_literal(&mut self, bytes: usize) -> Result<(), FallbackReason> {
        let shared = &mut *self.shared;
        shared.meter.charge_literal(bytes, &shared.pointer)
    }

    /// A reason of `kind` at this node.
    pub fn fail(&self, kind: FallbackKind, message: impl Into<String>) -> FallbackReason {
        FallbackReason::new(kind, self.shared.pointer.clone(), message)
    }

    /// Records a change at this node, or at `keyword` below it, when diagnostics are on.
    pub fn record(
        &mut self,
        rule: impl Into<Cow<'static, str>>,
        kind: ChangeKind,
        keyword: Option<&str>,
    ) {
        let rule = rule.into();
        let kind = self.count(kind, keyword, &rule);
        if !self.shared.settings.diagnostics {
            return;
        }
        let mut pointer = self.shared.pointer.clone();
        if let Some(k) = keyword {
            push_token(&mut pointer, k);
        }
        self.shared.changes.push(Change::new(pointer, rule, kind));
    }

    /// Records a change at the path `tokens` below this node (for example `["properties", "a"]`), when diagnostics
    /// are on.
    pub fn record_at(
        &mut self,
        rule: impl Into<Cow<'static, str>>,
        kind: ChangeKind,
        tokens: &[&str],
    ) {
        let rule = rule.into();
        let kind = self.count(kind, tokens.last().copied(), &rule);
        if !self.shared.settings.diagnostics {
            return;
        }
        let mut pointer = self.shared.pointer.clone();
        for t in tokens {
            push_token(&mut pointer, t);
        }
        self.shared.changes.push(Change::new(pointer, rule, kind));
    }

    /// Counts a change of `kind` to `keyword` (the node itself when `None`) by `rule` and returns the kind to record
    /// (see [`Shared::narrowing`] for a change of kind `narrowed`): a change that widens a part below an odd number of
    /// `not`s, or below an `if`, makes the enclosing schema admit fewer values (a wider condition sends more values
    /// to `then` and fewer to `else`, so the node may admit fewer; see [`widens`]).
    fn count(&mut self, kind: ChangeKind, keyword: Option<&str>, rule: &str) -> ChangeKind {
        if kind == ChangeKind::Narrowed {
            return self.shared.narrowing();
        }
        let below = self.shared.negated || self.shared.conditions > 0;
        if below && widens(kind, keyword, rule) {
            self.shared.narrowed += 1;
            self.shared.tightened += 1;
        }
        kind
    }

    /// Takes back the latest change by `rule` recorded at this node's `keyword` (with diagnostics), once a later step
    /// has removed what that change added there, so that the report names no change the output does not show.
    pub fn retract_change(&mut self, rule: &str, keyword: &str) {
        let mut at = self.shared.pointer.clone();
        push_token(&mut at, keyword);
        if let Some(i) = self
            .shared
            .changes
            .iter()
            .rposition(|c| c.rule == rule && c.pointer == at)
        {
            self.shared.changes.remove(i);
        }
    }

    /// Takes back `count` narrowings by `rule` made in the union branches of this node's `combinator` (a change at
    /// `<node>/<combinator>/<i>`, or in a union of such a branch that a later step folded into it,
    /// `<node>/<combinator>/<i>/anyOf/<j>`), once a later step has given those branches back what the narrowing took:
    /// the narrowed count goes down by `count` and, with diagnostics, the latest such records go.
    pub fn retract_narrowings(&mut self, rule: &str, combinator: &str, count: usize) {
        if count == 0 {
            return;
        }
        // The branches lie where this node does (no `not` or `if` between them), so their narrowings were counted
        // and recorded as one made here would be.
        let recorded = self.shared.recorded_narrowing();
        if recorded.1 {
            self.shared.narrowed = self.shared.narrowed.saturating_sub(count);
        }
        let prefix = format!("{}/{combinator}/", self.shared.pointer);
        let in_branch = |pointer: &str| {
            pointer.strip_prefix(&prefix).is_some_and(|rest| {
                let mut tokens = rest.split('/');
                let index = |t: Option<&str>| {
                    t.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                };
                if !index(tokens.next()) {
                    return false;
                }
                while let Some(token) = tokens.next() {
                    if token != "anyOf" || !index(tokens.next()) {
                        return false;
                    }
                }
                true
            })
        };
        let mut left = count;
        let mut at = self.shared.changes.len();
        while left > 0 && at > 0 {
            at -= 1;
            let change = &self.shared.changes[at];
            if change.kind == recorded.0 && change.rule == rule && in_branch(&change.pointer) {
                self.shared.changes.remove(at);
                left -= 1;
            }
        }
    }

    /// Notes that a change not of kind `narrowed` made this node admit fewer values (a `type` that `walk.infer-type`
    /// took from `properties` or `items`, which admit any value of another type).
    pub fn note_tightened(&mut self) {
        self.shared.tightened += 1;
    }

    /// The parts climbs have removed so far in this walk, as [`Walked::removed`] lists them.
    pub fn removed_parts(&self) -> &[(String, String)] {
        &self.shared.removed
    }

    /// The names of this node's own properties that climbs removed whole so far in this walk
    /// (`<node>/properties/<name>`, the omissions `target.omit-property` records), unescaped. Most walks remove
    /// nothing, and then no pointer text is built.
    pub fn omitted_properties(&self) -> Vec<String> {
        if self.shared.removed.is_empty() {
            return Vec::new();
        }
        let mut prefix = self.pointer().to_owned();
        crate::pointer::push_token(&mut prefix, "properties");
        prefix.push('/');
        self.shared
            .removed
            .iter()
            .filter_map(|(_, at)| at.strip_prefix(prefix.as_str()))
            .filter(|rest| !rest.contains('/'))
            .map(crate::pointer::unescape)
            .collect()
    }

    /// Whether the walk of a branch of this node's `oneOf` (or the removal of one) made it admit fewer values: a
    /// value the original rejected for matching two branches may then match one. Read in `leave`.
    pub fn one_of_tightened(&self) -> bool {
        self.one_of_tightened
    }

    /// Queues a lift of `keyword` with `value` by `rule`; the queue is flushed by [`NodeCtx::flush_lifts`].
    pub fn queue_lift(&mut self, keyword: impl Into<String>, value: Value, rule: &'static str) {
        self.lifts.push(keyword, value, rule);
    }

    /// Writes the queued fragments into `node`'s description in byte-wise keyword order, recording one `lifted`
    /// change per fragment (also when the duplicate marker appends no text).
    pub fn flush_lifts(&mut self, node: &mut Value) {
        if self.lifts.is_empty() {
            return;
        }
        let queued = self.lifts.drain_sorted();
        let Some(map) = node.as_object_mut() else {
            return;
        };
        for q in queued {
            lift::append(map, &q.keyword, &q.value);
            self.record(q.rule, ChangeKind::Lifted, Some(&q.keyword));
        }
    }

    /// A mark of what the walk has recorded so far, to undo with [`NodeCtx::rollback`] when a tried rewrite is given
    /// up (budget charges are never undone).
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            changes: self.shared.changes.len(),
            defs: self.shared.defs.len(),
            closed_by_strict: self.shared.closed_by_strict.len(),
            waiting_branches: self.shared.waiting_branches.len(),
            inferred_types: self.shared.inferred_types.len(),
            narrowed: self.shared.narrowed,
            tightened: self.shared.tightened,
        }
    }

    /// Forgets what was recorded after `mark` was taken (changes and kept definitions), and a climb in progress.
    pub fn rollback(&mut self, mark: Checkpoint) {
        self.shared.changes.truncate(mark.changes);
        self.shared.defs.truncate(mark.defs);
        self.shared.closed_by_strict.truncate(mark.closed_by_strict);
        self.shared.waiting_branches.truncate(mark.waiting_branches);
        self.shared.inferred_types.truncate(mark.inferred_types);
        self.shared.narrowed = mark.narrowed;
        self.shared.tightened = mark.tightened;
        self.shared.climb = None;
    }

    /// The name of the kept definition made under `key`, if any (done or still being walked).
    pub fn definition_for(&self, key: &str) -> Option<&str> {
        self.shared
            .defs
            .iter()
            .find(|d| d.key == key)
            .map(|d| d.name.as_str())
    }

    /// The key of the kept definition `name`, if there is one.
    pub fn definition_key(&self, name: &str) -> Option<&str> {
        self.shared
            .defs
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.key.as_str())
    }

    /// Starts a kept definition under `key`, named `wanted` or, when that name is taken, `wanted_2`, `wanted_3`, …;
    /// returns the name. The definition is in progress until [`NodeCtx::complete_definition`].
    pub fn add_definition(&mut self, key: String, wanted: &str) -> String {
        let taken = |name: &str| self.shared.defs.iter().any(|d| d.name == name);
        let mut name = wanted.to_owned();
        let mut n = 2;
        while taken(&name) {
            name = format!("{wanted}_{n}");
            n += 1;
        }
        self.shared.defs.push(Definition {
            name: name.clone(),
            key,
            value: None,
            started: self.shared.tightened,
            tightened: None,
            relied: false,
        });
        name
    }

    /// Stores the walked value of the kept definition `name`.
    pub fn complete_definition(&mut self, name: &str, value: Value) {
        let now = self.shared.tightened;
        if let Some(d) = self.shared.defs.iter_mut().find(|d| d.name == name) {
            d.value = Some(value);
            d.tightened = Some(now != d.started);
            if d.relied && now != d.started {
                self.shared.late_narrowed.push(d.key.clone());
            }
        }
    }

    /// Notes a site that names the kept definition `name` (or the root, [`crate::defs::ROOT`]) once that
    /// definition's walk has begun, elsewhere than at the site whose visit walks it: the site admits fewer values
    /// where the definition's walk made it admit fewer, so a `oneOf` around it is relaxed (see
    /// [`NodeCtx::one_of_tightened`]) as around that first site. A site inside the definition's own walk (a cycle)
    /// counts what that walk has narrowed so far; should it narrow later, the walk lists the definition in
    /// [`Walked::late_narrowed`], and a walk again with it in [`Settings::narrowed_definitions`] counts every site.
    pub fn note_kept_site(&mut self, name: &str) {
        let shared = &mut *self.shared;
        let narrowed = if name == crate::defs::ROOT {
            // The root's walk is the whole walk, in progress at every site.
            let narrowed = shared.tightened > 0
                || shared
                    .settings
                    .narrowed_definitions
                    .iter()
                    .any(|k| k == crate::defs::ROOT);
            shared.root_relied |= !narrowed;
            narrowed
        } else {
            match shared.defs.iter_mut().find(|d| d.name == name) {
                Some(d) => {
                    if let Some(done) = d.tightened {
                        done
                    } else {
                        let narrowed = shared.tightened != d.started
                            || shared.settings.narrowed_definitions.contains(&d.key);
                        d.relied |= !narrowed;
                        narrowed
                    }
                }
                // Not a definition of this walk: count it, as nothing says otherwise.
                None => true,
            }
        };
        if narrowed {
            shared.tightened += 1;
        }
    }

    /// The walked value of the kept definition `name`, once done.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.shared
            .defs
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| d.value.as_ref())
    }

    /// Starts a climb: `reason` ends this visit and the visits above it until one of them is a property its object
    /// does not require, or a branch of a user-written `anyOf`/`oneOf` with another branch left; that part is then
    /// removed (with everything its walk recorded), the `omission` is appended to its parent's description as a
    /// fragment, `rule` is recorded at this node as narrowed, and the walk goes on. When nothing above can be
    /// removed the walk fails with `reason`; with `stub`, [`Failure::stub_site`] names this node then.
    pub fn climb(
        &mut self,
        reason: FallbackReason,
        rule: &'static str,
        omission: Omission,
        stub: bool,
    ) -> FallbackReason {
        self.shared.climb = Some(Climb {
            site: self.shared.pointer.clone(),
            rule,
            omission,
            stub,
        });
        reason
    }

    /// Notes that the node, as it was entered, accepts any value (only annotations): a later step of the same visit
    /// may give it a type (`walk.narrow-any`) after the keep-lists have run.
    pub fn mark_any_value(&mut self) {
        self.any_value = true;
    }

    /// Whether [`NodeCtx::mark_any_value`] was called during this visit.
    pub fn any_value(&self) -> bool {
        self.any_value
    }

    /// Whether a climb started below is on its way up.
    pub fn climbing(&self) -> bool {
        self.shared.climb.is_some()
    }

    /// Stops a climb at a boundary it may not cross (a kept definition, shared by every site): the failure goes on
    /// up as an ordinary one, and the walk's [`Failure::stub_site`] names the climb's site if it may become a stub.
    pub fn stop_climb(&mut self) {
        if let Some(climb) = self.shared.climb.take()
            && climb.stub
            && self.shared.stub_site.is_none()
        {
            self.shared.stub_site = Some(climb.site);
        }
    }

    /// Notes that strict closed the object node being visited, which was open before: a closed object found later at
    /// the same pointer (a node walked twice, as a `$ref` target and merged) is then not one closed as written.
    pub fn note_closed_by_strict(&mut self) {
        self.shared
            .closed_by_strict
            .push(self.shared.pointer.clone());
    }

    /// Whether strict closed an open object node at `pointer` ([`NodeCtx::note_closed_by_strict`]) in this walk,
    /// counting no walk undone by [`NodeCtx::rollback`].
    pub fn closed_by_strict(&self, pointer: &str) -> bool {
        self.shared.closed_by_strict.iter().any(|p| p == pointer)
    }

    /// Notes that the union branch being visited, annotations alone as written, is left untyped for the merged node's
    /// walk ([`Position::conjunct_pending`]), which judges it again with its node's type (`walk.narrow-any`).
    pub fn note_waiting_branch(&mut self) {
        self.shared
            .waiting_branches
            .push(self.shared.pointer.clone());
    }

    /// Whether a union branch of the node being visited (an `anyOf` or `oneOf` entry) was left for the merged node's
    /// walk ([`NodeCtx::note_waiting_branch`]) in this walk, counting no walk undone by [`NodeCtx::rollback`].
    pub fn holds_waiting_branch(&self) -> bool {
        self.shared.waiting_branches.iter().any(|p| {
            p.strip_prefix(self.shared.pointer.as_str())
                .and_then(|rest| {
                    rest.strip_prefix("/anyOf/")
                        .or_else(|| rest.strip_prefix("/oneOf/"))
                })
                .is_some_and(|index| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// Notes that the walk gave the node being visited its `type` (`walk.infer-type`, or an `allOf` merge whose
    /// participants had no `type` but one so given): the type was not written in the input, so it may turn away values
    /// the input admitted there, and a step that reads it as the author's (strict closing, `strict.close-object`)
    /// asks [`NodeCtx::type_inferred`] first. A node walked again at the same pointer (a `$ref` target, then merged
    /// with its siblings) keeps the note.
    pub fn note_inferred_type(&mut self) {
        self.shared.inferred_types.push(self.shared.pointer.clone());
    }

    /// Whether the walk gave the node being visited its `type` ([`NodeCtx::note_inferred_type`]) in this walk,
    /// counting no walk undone by [`NodeCtx::rollback`].
    pub fn type_inferred(&self) -> bool {
        self.type_inferred_at(&self.shared.pointer)
    }

    /// Whether the walk gave the node at `pointer` its `type` ([`NodeCtx::note_inferred_type`]) in this walk,
    /// counting no walk undone by [`NodeCtx::rollback`].
    pub fn type_inferred_at(&self, pointer: &str) -> bool {
        self.shared.inferred_types.iter().any(|p| p == pointer)
    }

    /// Marks the `anyOf` at `pointer` as made by the walk: a climb passes through its branches instead of removing
    /// one.
    pub fn mark_made_union(&mut self, pointer: String) {
        if !self.shared.made_unions.contains(&pointer) {
            self.shared.made_unions.push(pointer);
        }
    }

    /// Removes every key of `map` (this node's object) that `keep` rejects with its value, keeping the order of the
    /// rest: a removed key on the lift list is queued for the node's description under `rule`, any other is recorded
    /// as dropped under `rule`. The one keep-list mechanism of the strict and the rule-set keep-lists.
    pub fn keep_only(
        &mut self,
        map: &mut Map<String, Value>,
        keep: impl Fn(&str, &Value) -> bool,
        rule: &'static str,
    ) {
        if map.iter().all(|(k, v)| keep(k, v)) {
            return;
        }
        // `retain` keeps the kept keys in order in one pass, however many keys are stripped, without hashing them
        // again; the stripped ones are then lifted or reported in key order.
        let mut stripped: Vec<(String, Value)> = Vec::new();
        map.retain(|key, value| {
            let kept = keep(key, value);
            if !kept {
                stripped.push((key.clone(), std::mem::take(value)));
            }
            kept
        });
        for (key, value) in stripped {
            if crate::keyword::is_liftable(&key) {
                self.queue_lift(key, value, rule);
            } else {
                self.record(rule, ChangeKind::Dropped, Some(&key));
            }
        }
    }

    /// Walks `value` again as a subtree of this node, at depth + 1, located at this node's pointer.
    ///
    /// # Errors
    ///
    /// The first reason any step of the subtree's walk gives.
    pub fn rewalk(&mut self, value: &mut Value, how: &Rewalk) -> Result<(), FallbackReason> {
        let base = how.base.clone().unwrap_or_else(|| self.base.clone());
        let position = how.position.unwrap_or(self.position);
        let saved = self.shared.settings.strict;
        if let Some(strict) = how.strict {
            self.shared.settings.strict = strict;
        }
        let saved_intermediate = self.shared.intermediate;
        let saved_held = self.shared.held;
        let saved_plain = self.shared.plain;
        if how.intermediate {
            self.shared.intermediate = Some((self.depth + 1, how.skip_children));
            self.shared.held = how.held;
            self.shared.plain = how.plain;
        } else if how.detached {
            self.shared.intermediate = None;
        } else if let Some((_, skip)) = self.shared.intermediate.filter(|(d, _)| *d == self.depth) {
            self.shared.intermediate = Some((self.depth + 1, skip));
        }
        let saved_pointer = how
            .pointer
            .as_ref()
            .map(|p| std::mem::replace(&mut self.shared.pointer, p.clone()));
        let result = visit(
            self.shared,
            self.passes,
            value,
            self.depth + 1,
            base,
            position,
        );
        if let Some(pointer) = saved_pointer {
            self.shared.pointer = pointer;
        }
        self.shared.settings.strict = saved;
        self.shared.intermediate = saved_intermediate;
        self.shared.held = saved_held;
        self.shared.plain = saved_plain;
        result
    }

    /// Whether this visit is the root of an intermediate re-walk ([`Rewalk::intermediate`]), or of a re-walk made
    /// from such a visit (the same node walked again, still to be merged).
    pub fn intermediate(&self) -> bool {
        self.shared
            .intermediate
            .is_some_and(|(d, _)| d == self.depth)
    }

    /// Whether this visit is an intermediate root ([`NodeCtx::intermediate`]) or below one: a node whose type may
    /// still come from the keys the intermediate root is merged with.
    pub fn within_intermediate(&self) -> bool {
        self.shared
            .intermediate
            .is_some_and(|(d, _)| self.depth >= d)
    }

    /// Whether this visit is an intermediate root ([`NodeCtx::intermediate`]) whose child keyword `key` is finished
    /// at the root rather than left to the merged node (see [`Rewalk::held`]).
    pub fn intermediate_holds(&self, key: &str) -> bool {
        self.intermediate() && self.shared.held & walk_order_bits([key]) != 0
    }

    /// Whether this visit is an intermediate root ([`NodeCtx::intermediate`]) whose merged node may take its type from
    /// the root's keys (a `$ref` target, a one-entry `allOf`'s entry), not one merged only as a plain object schema
    /// (see [`Rewalk::plain`]). Where the root has no `type`, a pass that lifts or strips a `const`, `enum` or
    /// `format` leaves it to the merged node, which is typed first.
    pub fn typed_when_merged(&self) -> bool {
        self.intermediate() && !self.shared.plain
    }

    /// The child keywords this intermediate root leaves unwalked (a bit per place in [`Keyword::WALK_ORDER`]).
    fn skipped_children(&self) -> u32 {
        match self.shared.intermediate {
            Some((d, skip)) if d == self.depth => skip,
            _ => 0,
        }
    }
}

/// A mark taken by [`NodeCtx::checkpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    changes: usize,
    defs: usize,
    closed_by_strict: usize,
    waiting_branches: usize,
    inferred_types: usize,
    narrowed: usize,
    tightened: usize,
}

/// The outcome of a successful walk.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Walked {
    /// The changes recorded (empty without diagnostics).
    pub changes: Vec<Change>,
    /// Visits counted.
    pub nodes: usize,
    /// Literal bytes charged.
    pub literal_bytes: usize,
    /// The kept definitions, named and walked, in the order the walk first needed them.
    pub definitions: Vec<(String, Value)>,
    /// Some change made the schema admit fewer values, as [`crate::report::Normalization::narrowed`] says (whether or
    /// not diagnostics recorded it).
    pub narrowed: bool,
    /// Each part a climb removed, in the order removed, as the climb's site (for a cut, the pointer of its
    /// [`Settings::cuts`] entry) and the pointer of the removed property or union branch; a part removed inside a part
    /// removed later is listed too. Recorded whether or not diagnostics are on.
    pub removed: Vec<(String, String)>,
    /// Keys of kept definitions (the root's is [`crate::defs::ROOT`]) whose walk made them admit fewer values after
    /// a site inside that walk had counted on them not to (see [`NodeCtx::note_kept_site`]): a `oneOf` around such a
    /// site may have been kept where it should be relaxed, so the walk is to run again with these keys in
    /// [`Settings::narrowed_definitions`].
    pub late_narrowed: Vec<String>,
}

/// Why a walk stopped.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Failure {
    /// The first reason a step gave.
    pub reason: FallbackReason,
    /// The site of a climb that found nothing to remove, when its maker allowed a stub there (see
    /// [`NodeCtx::climb`]).
    pub stub_site: Option<String>,
}

/// Walks `root` in place with `passes`, starting at `base` in root position.
///
/// # Errors
///
/// The first reason a step gives; `root` is then in an unspecified, partly rewritten state, so callers walk a clone.
///
/// # Examples
///
/// ```
/// use llmshim_core::walk::{self, steps, Settings};
/// use llmshim_core::{Budget, Pass};
/// use serde_json::json;
///
/// let mut schema = json!({"type": "object", "properties": {"a": {"min_length": 1, "minLength": 2}}});
/// let passes: [&dyn Pass; 2] = [&steps::Shape::keep_booleans(), &steps::SnakeCase];
/// walk::walk(&mut schema, &passes, &Settings::new(Budget::default()), "https://llmshim.invalid/schema".into())?;
/// assert_eq!(schema, json!({"type": "object", "properties": {"a": {"minLength": 1}}}));
/// # Ok::<(), llmshim_core::FallbackReason>(())
/// ```
pub fn walk(
    root: &mut Value,
    passes: &[&dyn Pass],
    settings: &Settings,
    base: Arc<str>,
) -> Result<Walked, FallbackReason> {
    walk_detailed(root, passes, settings, base).map_err(|f| f.reason)
}

/// [`walk`], telling on failure whether a climb ended at a site that may become a stub.
///
/// # Errors
///
/// As [`walk`], with the stub site of a climb that found nothing to remove.
pub fn walk_detailed(
    root: &mut Value,
    passes: &[&dyn Pass],
    settings: &Settings,
    base: Arc<str>,
) -> Result<Walked, Failure> {
    let mut settings = settings.clone();
    let strict = settings.strict;
    settings.strict = !strict;
    let other = Plan::new(passes, &settings);
    settings.strict = strict;
    let this = Plan::new(passes, &settings);
    let plans = if strict { [other, this] } else { [this, other] };
    let (meter, cuts) = (Meter::new(settings.budget), settings.cuts.len());
    let mut shared = Shared {
        settings,
        plans,
        meter,
        changes: Vec::new(),
        pointer: String::with_capacity(POINTER_CAPACITY),
        intermediate: None,
        held: 0,
        plain: false,
        defs: Vec::new(),
        climb: None,
        stub_site: None,
        made_unions: Vec::new(),
        closed_by_strict: Vec::new(),
        waiting_branches: Vec::new(),
        inferred_types: Vec::new(),
        narrowed: 0,
        tightened: 0,
        cuts_done: vec![false; cuts],
        removed: Vec::new(),
        root_relied: false,
        late_narrowed: Vec::new(),
        negated: false,
        conditions: 0,
    };
    if let Err(reason) = visit(&mut shared, passes, root, 0, base, Position::ROOT) {
        let stub_site = shared
            .stub_site
            .take()
            .or_else(|| shared.climb.take().filter(|c| c.stub).map(|c| c.site));
        return Err(Failure { reason, stub_site });
    }
    if shared.root_relied && shared.tightened > 0 {
        shared.late_narrowed.push(crate::defs::ROOT.to_owned());
    }
    Ok(Walked {
        changes: shared.changes,
        nodes: shared.meter.nodes(),
        literal_bytes: shared.meter.literal_bytes(),
        narrowed: shared.narrowed > 0,
        removed: shared.removed,
        late_narrowed: shared.late_narrowed,
        definitions: shared
            .defs
            .into_iter()
            .filter_map(|d| d.value.map(|v| (d.name, v)))
            .collect(),
    })
}

fn visit(
    shared: &mut Shared,
    passes: &[&dyn Pass],
    node: &mut Value,
    depth: usize,
    base: Arc<str>,
    position: Position,
) -> Result<(), FallbackReason> {
    shared.meter.visit(depth, &shared.pointer)?;
    if depth > HARD_MAX_DEPTH {
        return Err(too_deep(&shared.pointer));
    }
    let mut cx = NodeCtx {
        shared,
        passes,
        depth,
        base,
        position,
        lifts: lift::Queue::default(),
        any_value: false,
        one_of_tightened: false,
    };
    if enter_all(node, &mut cx)? != Flow::Done {
        walk_children(node, &mut cx)?;
        leave_all(node, &mut cx)?;
    }
    if cx.shared.settings.cuts.is_empty() {
        return Ok(());
    }
    cut_here(cx.shared)
}

/// Fails the visit that just ended with the first cut not yet used at or below its pointer: no visit below
/// reached that pointer, so this node is the nearest one the walk knows. The climb then starts here.
#[cold]
#[inline(never)]
fn cut_here(shared: &mut Shared) -> Result<(), FallbackReason> {
    let here = shared.pointer.as_str();
    let found = shared
        .settings
        .cuts
        .iter()
        .enumerate()
        .position(|(i, cut)| {
            !shared.cuts_done.get(i).copied().unwrap_or(true)
                && cut
                    .pointer
                    .strip_prefix(here)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        });
    let Some(i) = found else {
        return Ok(());
    };
    if let Some(done) = shared.cuts_done.get_mut(i) {
        *done = true;
    }
    let Some(reason) = shared.settings.cuts.get(i).cloned() else {
        return Ok(());
    };
    shared.climb = Some(Climb {
        site: reason.pointer.clone(),
        rule: OMIT_RULE,
        omission: Omission::Failure { kind: reason.kind },
        stub: false,
    });
    Err(reason)
}

/// The rule a failure's climb records when it removes a part.
const OMIT_RULE: &str = "target.omit-property";

/// The plan in effect at this visit (strict may be forced by a re-walk).
fn plan(shared: &Shared) -> Plan {
    shared
        .plans
        .get(usize::from(shared.settings.strict))
        .copied()
        .unwrap_or_default()
}

/// The passes a plan's bits name, in list order, then every pass past the planned ones.
fn planned<'p>(
    passes: &'p [&'p dyn Pass],
    mut bits: u64,
) -> impl Iterator<Item = &'p dyn Pass> + 'p {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        passes.get(i).copied()
    })
    .chain(passes.get(PLANNED..).unwrap_or_default().iter().copied())
}

/// Runs the `enter` of every pass that can act until one is done, then flushes the lift queue unless one was.
#[inline(never)]
fn enter_all(node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
    for pass in planned(cx.passes, plan(cx.shared).enter) {
        if pass.enter(node, cx)? == Flow::Done {
            return Ok(Flow::Done);
        }
    }
    cx.flush_lifts(node);
    Ok(Flow::Continue)
}

/// Runs the `leave` of every pass that can act, then flushes the lift queue.
#[inline(never)]
fn leave_all(node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    for pass in planned(cx.passes, plan(cx.shared).leave) {
        pass.leave(node, cx)?;
    }
    cx.flush_lifts(node);
    Ok(())
}

// The recursion visit → walk_children → descend → visit is bounded by `HARD_MAX_DEPTH` levels, and
// each level must stay small enough that the whole chain fits a 2 MiB thread stack even in unoptimized builds.
// So error values are built in cold functions, and every recursive call goes through the one call site in
// `descend`.

#[cold]
#[inline(never)]
fn too_deep(pointer: &str) -> FallbackReason {
    FallbackReason::new(
        FallbackKind::BudgetDepth,
        pointer,
        format!("nesting deeper than the walker's fixed limit of {HARD_MAX_DEPTH} levels"),
    )
}

#[cold]
#[inline(never)]
fn bad_container(cx: &mut NodeCtx<'_>, wrong: WrongContainer) -> FallbackReason {
    let name = wrong.keyword.as_str();
    let mark = cx.shared.pointer.len();
    push_token(&mut cx.shared.pointer, name);
    let reason = cx.fail(
        FallbackKind::InvalidSchema,
        format!("{name} must be {}", wrong.expected),
    );
    cx.shared.pointer.truncate(mark);
    reason
}

/// Visits one child at depth + 1 with this node's base, below the current pointer plus the child's slot.
#[inline(never)]
fn descend(
    cx: &mut NodeCtx<'_>,
    value: &mut Value,
    slot: Slot<'_>,
    position: Position,
) -> Result<(), FallbackReason> {
    let mark = cx.shared.pointer.len();
    slot.push_onto(&mut cx.shared.pointer);
    let result = visit(
        cx.shared,
        cx.passes,
        value,
        cx.depth + 1,
        cx.base.clone(),
        position,
    );
    cx.shared.pointer.truncate(mark);
    result
}

/// Visits every schema position below the node in walk order (the positions of `children::children_mut`): a
/// child keeps the node's instance-describing flag unless its keyword drops it, and definitions members (walked only
/// when the settings ask) never describe the instance.
fn walk_children(node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    let Some(map) = node.as_object_mut() else {
        return Ok(());
    };
    // A union branch is in conjunction with its node: with a single type there, the branch admits only its values.
    let conjunct = json::member(map, "type")
        .and_then(Value::as_str)
        .and_then(type_name);
    // An untyped intermediate root's branches learn their node's type only in the merged node's walk.
    let pending = cx.typed_when_merged() && !json::has(map, "type");
    let how = Walk::new()
        .with_lenient(cx.shared.settings.lenient_children)
        .with_definitions(cx.shared.settings.walk_definitions)
        .with_skip(cx.skipped_children());
    // A child whose walk starts a climb that stops here is removed, and the walk goes on with the children after it
    // (the children visited before it come first again, so the restarted listing skips them).
    let mut visited = 0usize;
    loop {
        let mut failed: Option<(Option<Keyword>, Part, Checkpoint, FallbackReason)> = None;
        for child in children_mut(map, how).skip(visited) {
            let child = match child {
                Ok(child) => child,
                Err(wrong) => return Err(bad_container(cx, wrong)),
            };
            let instance = child
                .keyword
                .is_some_and(|k| cx.position.instance && k.keeps_instance_position());
            let mut position = Position::new(instance, false);
            if let Some(union @ (Keyword::AnyOf | Keyword::OneOf)) = child.keyword {
                position = position
                    .with_conjunct(conjunct)
                    .with_conjunct_pending(pending && !cx.intermediate_holds(union.as_str()));
            }
            let mark = cx.checkpoint();
            let one_of = child.keyword == Some(Keyword::OneOf);
            let (negated, conditions) = (cx.shared.negated, cx.shared.conditions);
            match child.keyword {
                Some(Keyword::Not) => cx.shared.negated = !negated,
                Some(Keyword::If) => cx.shared.conditions += 1,
                _ => {}
            }
            let visited_child = descend(cx, child.value, child.slot, position);
            (cx.shared.negated, cx.shared.conditions) = (negated, conditions);
            if let Err(reason) = visited_child {
                let part = match child.slot {
                    Slot::Member(_, name) => Part::Member(name.to_owned()),
                    Slot::Entry(_, index) => Part::Entry(index),
                    _ => Part::Other,
                };
                failed = Some((child.keyword, part, mark, reason));
                break;
            }
            if one_of && cx.shared.tightened != mark.tightened {
                cx.one_of_tightened = true;
            }
            visited += 1;
        }
        let Some((keyword, part, mark, reason)) = failed else {
            return Ok(());
        };
        if cx.shared.climb.is_none() && cx.shared.settings.narrow && narrowable(reason.kind) {
            cx.shared.climb = Some(Climb {
                site: reason.pointer.clone(),
                rule: OMIT_RULE,
                omission: Omission::Failure { kind: reason.kind },
                stub: false,
            });
        }
        match keyword {
            Some(keyword) if cx.shared.climb.is_some() && omit(map, keyword, &part, mark, cx) => {
                // A branch removed from a `oneOf` lets through a value it matched besides another branch.
                if keyword == Keyword::OneOf {
                    cx.one_of_tightened = true;
                }
            }
            _ => return Err(reason),
        }
    }
}

/// Which child of its keyword a failed visit was.
enum Part {
    /// A member of a map child, by name.
    Member(String),
    /// An entry of an array child, by index.
    Entry(usize),
    /// A single child.
    Other,
}

/// Whether `name` is in the node's `required` as the walk read it; a `required` that is not an array of strings
/// counts every name, so nothing is removed on its account.
fn originally_required(map: &Map<String, Value>, name: &str) -> bool {
    match json::member(map, "required") {
        None => false,
        Some(Value::Array(names)) => names.iter().any(|n| n.as_str().is_none_or(|n| n == name)),
        Some(_) => true,
    }
}

/// Ends a climb at the member or entry `at` of `keyword` when it may be removed: a property the node does not
/// require, or a branch of a user-written `anyOf`/`oneOf` with another branch left. The part is removed with
/// everything its walk recorded, the omission is appended to the node's description, and the climb's rule is
/// recorded at its site. Returns whether it did.
#[cold]
#[inline(never)]
fn omit(
    map: &mut Map<String, Value>,
    keyword: Keyword,
    part: &Part,
    mark: Checkpoint,
    cx: &mut NodeCtx<'_>,
) -> bool {
    let removed = match (keyword, part) {
        (Keyword::Properties, Part::Member(name)) => {
            if originally_required(map, name) {
                return false;
            }
            name.clone()
        }
        (Keyword::AnyOf | Keyword::OneOf, Part::Entry(_)) => {
            let Some(Value::Array(entries)) = map.get(keyword.as_str()) else {
                return false;
            };
            if entries.len() < 2 || cx.shared.made_unions.contains(&cx.shared.pointer) {
                return false;
            }
            keyword.as_str().to_owned()
        }
        _ => return false,
    };
    let Some(climb) = cx.shared.climb.take() else {
        return false;
    };
    cx.rollback(mark);
    match (part, map.get_mut(keyword.as_str())) {
        (Part::Member(name), Some(Value::Object(members))) => {
            members.shift_remove(name);
        }
        (Part::Entry(at), Some(Value::Array(entries))) if *at < entries.len() => {
            entries.remove(*at);
        }
        _ => {}
    }
    let (marker, text) = match climb.omission {
        Omission::Recursion { depth } => (
            format!("recursive {removed}"),
            format!("recursive {removed}: omitted below depth {depth}"),
        ),
        Omission::Failure { kind } => (
            format!("omitted {removed}"),
            format!("omitted {removed}: {}", kind.as_str()),
        ),
    };
    lift::append_text(map, &marker, &text);
    let mut at = cx.shared.pointer.clone();
    push_token(&mut at, keyword.as_str());
    match part {
        Part::Member(name) => push_token(&mut at, name),
        Part::Entry(index) => push_token(&mut at, &index.to_string()),
        Part::Other => {}
    }
    cx.shared.removed.push((climb.site.clone(), at));
    let kind = cx.shared.narrowing();
    if cx.shared.settings.diagnostics {
        cx.shared
            .changes
            .push(Change::new(climb.site, climb.rule, kind));
    }
    true
}

/// The bits of the child keywords among `keys` (a bit per place in [`Keyword::WALK_ORDER`]); names that are not
/// child keywords add none.
fn walk_order_bits<'k>(keys: impl IntoIterator<Item = &'k str>) -> u32 {
    keys.into_iter()
        .filter_map(|key| Keyword::WALK_ORDER.iter().position(|k| k.as_str() == key))
        .fold(0, |bits, place| bits | 1 << place)
}
