//! Step W7: a `$ref` is replaced by its walked target with the referencing node's siblings merged over it, kept as a
//! reference into root `$defs` when its target is recursive and the walk keeps references, or cut when a recursive
//! target is unrolled as deep as allowed.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use hashbrown::HashSet;
use llmshim_core::defs;
use llmshim_core::json;
use llmshim_core::keyword::{KeywordClass, SNAKE_CASE, class_of};
use llmshim_core::lift::carry_lifted;
use llmshim_core::walk::{Flow, Hooks, NodeCtx, Omission, Pass, Rewalk, Settings, steps};
use llmshim_core::{Budget, ChangeKind, FallbackKind, FallbackReason, Recursion};
use serde_json::{Map, Value};

use crate::cycles::Cycles;
use crate::empty_object::admits_empty_object;
use crate::registry::{Registry, Resource, Resources, Target};
use crate::uri;

/// What the expansion does with booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Normalization: a boolean target fails `invalid_schema`.
    Normalize,
    /// The resolver-only API: a boolean target is merged by its meaning (`true` leaves the siblings, `false` stays
    /// `false`). Cycles follow the walk's recursion setting, as in normalization.
    Dereference,
}

/// The depth `KeepRefs` unrolls the cycles it does not keep to (with `optional_only`, those through required
/// properties only; in every mode, those [`Expand::with_unrolled`] names).
const OPTIONAL_ONLY_DEPTH: u32 = 3;

/// A recursive reference target of the walked document, as [`Expand::unkept_on_second_pass`] names it and
/// [`Expand::with_unrolled`] takes it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecursiveTarget(Target);

/// The keys of a referencing node that a kept definition's identity ignores: the reference itself and what W8
/// removes anyway.
fn merged_key(key: &str) -> bool {
    !matches!(
        key,
        "$ref" | "$id" | "$defs" | "definitions" | "$comment" | "$anchor"
    )
}

/// The keys around a reference target at one site: `over` wins over the target's own (siblings of a `$ref`, the
/// outer ones winning), `under` loses to them (the other keys of a node whose one-entry `allOf` is the reference,
/// the inner ones winning).
#[derive(Clone, Debug, Default, PartialEq)]
struct Around {
    over: Map<String, Value>,
    under: Map<String, Value>,
}

impl Around {
    /// The siblings of a `$ref` site.
    fn siblings(map: &Map<String, Value>, keep: impl Fn(&str) -> bool) -> Self {
        Around {
            over: map
                .iter()
                .filter(|(k, _)| keep(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            under: Map::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.over.is_empty() && self.under.is_empty()
    }

    /// The identity of a definition of `target` with these keys around it, walked with strict on or off, in a
    /// position that describes the instance or not (type inference runs only there).
    fn definition_key(&self, target: &Target, strict: bool, instance: bool) -> String {
        format!(
            "{}{}\u{1}{}\u{1}{}\u{1}{}\u{1}{}",
            u8::from(strict),
            u8::from(instance),
            target.0,
            target.1,
            json::compact(&Value::Object(self.over.clone())),
            json::compact(&Value::Object(self.under.clone()))
        )
    }

    /// Reads a definition key back: the target, the keys around it, and whether it was walked with strict.
    fn from_definition_key(key: &str) -> Option<(Target, Around, bool)> {
        let mut parts = key.splitn(5, '\u{1}');
        let strict = parts.next()?.starts_with('1');
        let doc = parts.next()?.parse::<usize>().ok()?;
        let pointer = parts.next()?.to_owned();
        let over = serde_json::from_str(parts.next()?).ok()?;
        let under = serde_json::from_str(parts.next()?).ok()?;
        Some(((doc, pointer), Around { over, under }, strict))
    }

    /// These keys seen from one link further in: `inner` are the keys of the node the reference led to, winning
    /// over its own target when `inner_over` (a `$ref` with siblings) and losing to it otherwise (a one-entry
    /// `allOf`). Outer keys that win keep winning; among losing keys the inner ones win.
    fn through(&self, inner: Map<String, Value>, inner_over: bool) -> Around {
        let inner: Map<String, Value> = inner
            .into_iter()
            .map(|(k, v)| (camel(&k).to_owned(), v))
            .collect();
        if inner_over {
            let mut over = inner;
            for (k, v) in &self.over {
                json::set(&mut over, k, v.clone());
            }
            Around {
                over,
                under: self.under.clone(),
            }
        } else {
            let mut under = self.under.clone();
            for (k, v) in inner {
                steps::set_entry_key(&mut under, &k, v);
            }
            Around {
                over: self.over.clone(),
                under,
            }
        }
    }
}

/// W7: reference expansion against a [`Registry`].
#[derive(Debug)]
pub struct Expand<'r, 'a> {
    registry: &'r Registry<'a>,
    mode: Mode,
    /// The targets being expanded, innermost last.
    stack: RefCell<Vec<Target>>,
    /// The cycles of the document, read at the first reference of a walk that keeps references.
    cycles: RefCell<Option<Cycles>>,
    /// Sites cut by unrolling where nothing above could be removed, which become `{"type": "object"}`.
    stubs: Vec<String>,
    /// Expansions of a target already being expanded (unrolling at work).
    reentries: Cell<usize>,
    /// Whether a site was kept as a reference.
    kept: Cell<bool>,
    /// Recursive targets unrolled whatever their cycle crosses.
    unrolled: Vec<Target>,
    /// The kept definitions made, by name, with the target each one stands for.
    made: RefCell<Vec<(String, Target)>>,
    /// The kept definitions whose walk is in progress, innermost last (the document root below them all).
    walking: RefCell<Vec<String>>,
    /// Each kept site the walk made, as the definition it was made in (the root's name outside every definition)
    /// and the definition it names.
    sites: RefCell<Vec<(String, String)>>,
}

impl<'r, 'a> Expand<'r, 'a> {
    /// Expansion over `registry`.
    pub fn new(registry: &'r Registry<'a>, mode: Mode) -> Self {
        Expand {
            registry,
            mode,
            stack: RefCell::new(Vec::new()),
            cycles: RefCell::new(None),
            stubs: Vec::new(),
            reentries: Cell::new(0),
            kept: Cell::new(false),
            unrolled: Vec::new(),
            made: RefCell::new(Vec::new()),
            walking: RefCell::new(Vec::new()),
            sites: RefCell::new(Vec::new()),
        }
    }

    /// The same expansion, unrolling the cycles of `targets` (as deep as `KeepRefs { optional_only: true }` unrolls
    /// the cycles it does not keep) instead of keeping references to them.
    #[must_use]
    pub fn with_unrolled(mut self, targets: &[RecursiveTarget]) -> Self {
        self.unrolled = targets.iter().map(|t| t.0.clone()).collect();
        self
    }

    /// After a walk that kept references, with `out` its output (definitions finished): the targets of the kept
    /// definitions that a second pass over `out` would not keep, because their cycle in `out` no longer comes back
    /// or no longer crosses an optional property (with `optional_only`). Later steps of the walk may remove what the
    /// cycle ran through in the input (an unresolved reference omitted, a lifted `if`), and the decision to keep was
    /// taken on the input; walking again with [`Expand::with_unrolled`] and these targets makes the output one that
    /// a second pass leaves as it is. Empty when every kept definition stays kept, or `recursion` keeps no
    /// references.
    ///
    /// # Errors
    ///
    /// The reasons indexing or reading `out` within `budget` gives.
    pub fn unkept_on_second_pass(
        &self,
        out: &Value,
        recursion: Recursion,
        budget: &Budget,
    ) -> Result<Vec<RecursiveTarget>, FallbackReason> {
        let Recursion::KeepRefs { optional_only } = recursion else {
            return Ok(Vec::new());
        };
        let made = self.made.borrow();
        if made.is_empty() {
            return Ok(Vec::new());
        }
        let resources = Resources::new();
        let registry = Registry::with_budget(out, &resources, budget)?;
        let cycles = Cycles::analyze(&registry, optional_only, &[], budget)?;
        let in_out =
            |name: &str| name == defs::ROOT || out.get("$defs").and_then(|d| d.get(name)).is_some();
        let mut unkept: Vec<RecursiveTarget> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        // A definition a removed union branch took with it may be made again under the same name: the last one made
        // is the one in `out`.
        for (name, target) in made.iter().rev() {
            if seen.contains(&name.as_str()) || !in_out(name) {
                continue;
            }
            seen.push(name);
            // A second pass meets every kept site as a bare reference: to the root, kept when the root lies on a
            // kept cycle; to a member of the root's `$defs`, kept when it leads to one (see `kept_site`).
            let kept = if name == defs::ROOT {
                let root: Target = (0, String::new());
                cycles.kept(&root) && cycles.reaches(&root, &[])
            } else {
                let mut pointer = String::from("/$defs");
                llmshim_core::pointer::push_token(&mut pointer, name);
                cycles.reaches(&(0, pointer), &[])
            };
            let target = RecursiveTarget(target.clone());
            if !kept && !unkept.contains(&target) {
                unkept.push(target);
            }
        }
        Ok(unkept)
    }

    /// After a walk that kept references, with `copied` the definitions [`defs::finish`] replaced by copies (no
    /// cycle of sites was left from them): the targets of those whose walk never made a cycle of sites at all. Such a
    /// target was kept because the cycle it lies on in the input does not come back once the keys around a
    /// reference replace the target's (a `$ref` whose sibling `properties` replace the ones that recursed); its copies
    /// then stand where the walk met bare sites (an `allOf` entry it could not merge), which a second pass would
    /// walk as schemas. Walking again with [`Expand::with_unrolled`] and these targets expands them where they are
    /// met. A definition on a cycle of sites that a later rule cut (strict closing drops a schema-valued
    /// `additionalProperties`) is not named: unrolling it would expand, and cut, what the rule removes.
    pub fn unkept_copies(&self, copied: &[String]) -> Vec<RecursiveTarget> {
        let sites = self.sites.borrow();
        let made = self.made.borrow();
        let mut unkept: Vec<RecursiveTarget> = Vec::new();
        for name in copied {
            // Whether a chain of sites leads from `name` back to it.
            let mut seen: Vec<&str> = Vec::new();
            let mut stack: Vec<&str> = vec![name];
            let mut cycle = false;
            while let Some(from) = stack.pop() {
                for (_, to) in sites.iter().filter(|(f, _)| f == from) {
                    if to == name {
                        cycle = true;
                    } else if !seen.contains(&to.as_str()) {
                        seen.push(to);
                        stack.push(to);
                    }
                }
            }
            if cycle {
                continue;
            }
            if let Some((_, target)) = made.iter().rev().find(|(n, _)| n == name) {
                let target = RecursiveTarget(target.clone());
                if !unkept.contains(&target) {
                    unkept.push(target);
                }
            }
        }
        unkept
    }

    /// Records a kept site naming `name`, made in the definition being walked.
    fn site_made(&self, name: &str) {
        let from = self
            .walking
            .borrow()
            .last()
            .cloned()
            .unwrap_or_else(|| defs::ROOT.to_owned());
        self.sites.borrow_mut().push((from, name.to_owned()));
    }

    /// The same expansion, turning each cut site at one of `stubs` (pointers a failed walk named in
    /// [`Failure::stub_site`](llmshim_core::walk::Failure)) into `{"type": "object"}` instead of cutting it.
    #[must_use]
    pub fn with_stubs(mut self, stubs: Vec<String>) -> Self {
        self.stubs = stubs;
        self
    }

    /// How many times the walk expanded a target it was already expanding: non-zero means a lower unrolling depth
    /// makes a smaller schema.
    pub fn reentries(&self) -> usize {
        self.reentries.get()
    }

    /// Whether the walk kept a site as a reference; its markers then need
    /// [`defs::finish`](llmshim_core::defs::finish).
    pub fn kept_any(&self) -> bool {
        self.kept.get()
    }

    /// Reads the document's cycles on first use, then answers `read` from them.
    fn with_cycles<T>(
        &self,
        optional_only: bool,
        cx: &NodeCtx<'_>,
        read: impl FnOnce(&Cycles) -> T,
    ) -> Result<T, FallbackReason> {
        if self.cycles.borrow().is_none() {
            let cycles = Cycles::analyze(
                self.registry,
                optional_only,
                &self.unrolled,
                &cx.settings().budget,
            )
            .map_err(|r| FallbackReason::new(r.kind, cx.pointer(), r.message))?;
            *self.cycles.borrow_mut() = Some(cycles);
        }
        let cycles = self.cycles.borrow();
        Ok(read(cycles.as_ref().unwrap_or(&Cycles::default())))
    }

    fn occurrences(&self, target: &Target) -> u32 {
        let n = self.stack.borrow().iter().filter(|t| *t == target).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }
}

/// What a site that is not kept does.
enum Decision {
    Inline,
    Cut(u32),
}

impl Pass for Expand<'_, '_> {
    fn name(&self) -> &'static str {
        "expand-ref"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object() else {
            return Ok(Flow::Continue);
        };
        let Some(reference) = json::member(map, "$ref") else {
            return self.entry_site(node, cx);
        };
        let Some(reference) = reference.as_str() else {
            return Err(cx.fail(FallbackKind::InvalidRef, "$ref must be a string"));
        };
        if let Some(name) = defs::marker_name(reference) {
            // A site this walk kept: it stays as it is, unless a merge gave it siblings.
            let name = name.to_owned();
            return self.kept_again(node, &name, cx);
        }
        let absolute =
            uri::join(cx.base(), reference).map_err(|m| cx.fail(FallbackKind::InvalidUri, m))?;
        let target = self.registry.resolve(&absolute, cx.pointer())?;
        let around = Around::siblings(map, merged_key);
        if let Some(name) = self.keep_through(&absolute, &target, &around, cx)? {
            *node = defs::kept_site(&name);
            return Ok(Flow::Done);
        }
        match self.walk_decision(&absolute, &target, cx)? {
            Decision::Cut(depth) => self.cut(node, &target, depth, cx),
            Decision::Inline => {
                let Some(site) = node.as_object() else {
                    return Ok(Flow::Continue);
                };
                // The Part I expansion merges every key but the reference and `$id`.
                let around = Around::siblings(site, |k| !matches!(k, "$ref" | "$id"));
                let merged = self.inline(&around, target, None, cx)?;
                cx.record("resolve.inline-ref", ChangeKind::Rewritten, Some("$ref"));
                *node = merged;
                Ok(Flow::Done)
            }
        }
    }
}

impl<'a> Expand<'_, 'a> {
    /// With kept references and outside root position: the definition name for a site with `around` its reference
    /// to `target`, made the first time; `None` when the site is not kept. A target that is itself a reference (a
    /// `$ref` node, or a node whose one-entry `allOf` is a bare `$ref`), not kept on its own, is seen through to the
    /// end of the chain with the keys composed, so that a definition is made where the walk first meets its site,
    /// as a second pass over the output meets it.
    fn keep_through(
        &self,
        absolute: &str,
        target: &Resource<'a>,
        around: &Around,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Option<String>, FallbackReason> {
        let Recursion::KeepRefs { optional_only } = cx.settings().recursion else {
            return Ok(None);
        };
        if cx.position().root {
            return Ok(None);
        }
        // The chain is followed past links that are not kept; of a run of kept links the last one is taken, so
        // that no definition is a mere reference to another.
        let mut current = (absolute.to_owned(), target.clone(), around.clone());
        let mut chosen = None;
        // A chain that comes back to a target it passed ends there (a definition that is a reference to itself).
        let mut passed: Vec<Target> = Vec::new();
        for _ in 0..32 {
            passed.push(current.1.key());
            if self.kept_site(&current.1, &current.2, optional_only, cx)? {
                chosen = Some(current.clone());
            } else if chosen.is_some() {
                break;
            }
            let Some(next) = self.link(&current.1, &current.2) else {
                break;
            };
            if passed.contains(&next.1.key()) {
                break;
            }
            current = next;
        }
        match chosen {
            Some((absolute, target, around)) => self.keep(&absolute, target, &around, cx).map(Some),
            None => Ok(None),
        }
    }

    /// The next link of a chain of references: the node of `target` is a `$ref` (its siblings win over its own
    /// target) or a one-entry `allOf` of a `$ref` (its other keys lose to the entry, whose siblings win).
    fn link(
        &self,
        target: &Resource<'a>,
        around: &Around,
    ) -> Option<(String, Resource<'a>, Around)> {
        let map = target.value.as_object()?;
        let (reference, inner, inner_over) =
            if let Some(Value::String(reference)) = json::member(map, "$ref") {
                let inner: Map<String, Value> = map
                    .iter()
                    .filter(|(k, _)| merged_key(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (reference.as_str(), inner, true)
            } else {
                let (reference, siblings) = single_entry_reference(map)?;
                let inner: Map<String, Value> = map
                    .iter()
                    .filter(|(k, _)| merged_key(k) && k.as_str() != "allOf")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let absolute = uri::join(&target.base, reference).ok()?;
                let next = self.registry.resolve(&absolute, "").ok()?;
                // The node's other keys lose to the entry, whose siblings win over its target.
                let around = around.through(inner, false);
                let siblings = with_node_properties(siblings, &around.under);
                return Some((absolute, next, around.through(siblings, true)));
            };
        let absolute = uri::join(&target.base, reference).ok()?;
        let next = self.registry.resolve(&absolute, "").ok()?;
        Some((absolute, next, around.through(inner, inner_over)))
    }

    /// Whether a site with `around` its reference to `target` is kept: the target lies on a kept cycle (or is a
    /// member of the root's `$defs` that leads to one, referenced bare: how a definition made of a target and the
    /// keys around its site reads on a second pass, which must give the same output), and the keys around it do
    /// not replace every way back to a kept target.
    fn kept_site(
        &self,
        target: &Resource<'a>,
        around: &Around,
        optional_only: bool,
        cx: &NodeCtx<'_>,
    ) -> Result<bool, FallbackReason> {
        let key = target.key();
        let replaced: Vec<&str> = around.over.keys().map(String::as_str).collect();
        let home =
            around.is_empty() && target.in_root_document && is_root_definition(&target.pointer);
        self.with_cycles(optional_only, cx, |cycles| {
            !cycles.forced(&key) && (cycles.kept(&key) || home) && cycles.reaches(&key, &replaced)
        })
    }

    /// What a site that is not kept does: expand its target, or cut it where unrolling has gone deep enough.
    fn walk_decision(
        &self,
        absolute: &str,
        target: &Resource<'_>,
        cx: &NodeCtx<'_>,
    ) -> Result<Decision, FallbackReason> {
        let key = target.key();
        let seen = self.occurrences(&key);
        let cycle = || {
            cx.fail(
                FallbackKind::RefCycle,
                format!("{absolute:?} refers back to itself"),
            )
        };
        match cx.settings().recursion {
            Recursion::Unroll { depth } => Ok(if seen >= depth.max(1) {
                Decision::Cut(depth.max(1))
            } else {
                Decision::Inline
            }),
            Recursion::KeepRefs { optional_only } => {
                let unrolled = self.with_cycles(optional_only, cx, |c| {
                    c.forced(&key) || (optional_only && c.unrolled(&key))
                })?;
                if unrolled && seen >= OPTIONAL_ONLY_DEPTH {
                    return Ok(Decision::Cut(OPTIONAL_ONLY_DEPTH));
                }
                if seen > 0 && !unrolled {
                    // Only a cycle through root position gets here (its sites are inlined); a loop must end.
                    return Err(cycle());
                }
                Ok(Decision::Inline)
            }
            // `Fallback`: a cycle is an error.
            _ => {
                if seen > 0 {
                    return Err(cycle());
                }
                Ok(Decision::Inline)
            }
        }
    }

    /// The definition name for `target` with `around` it, walking the definition the first time it is needed.
    fn keep(
        &self,
        absolute: &str,
        target: Resource<'_>,
        around: &Around,
        cx: &mut NodeCtx<'_>,
    ) -> Result<String, FallbackReason> {
        self.kept.set(true);
        let key = target.key();
        cx.record(
            "resolve.keep-recursive-ref",
            ChangeKind::Rewritten,
            Some("$ref"),
        );
        // The root is walked where it describes the instance, so narrowed; a site below `not` or `if` needs it as
        // written (a narrowing there admits more, not less) and gets a definition of its own, walked like its site.
        if key == (0, String::new()) && around.is_empty() && cx.position().instance {
            let mut made = self.made.borrow_mut();
            if !made.iter().any(|(name, _)| name == defs::ROOT) {
                made.push((defs::ROOT.to_owned(), key));
            }
            self.site_made(defs::ROOT);
            cx.note_kept_site(defs::ROOT);
            return Ok(defs::ROOT.to_owned());
        }
        // A definition made during a walk without strict (a root-shaping branch) is not the strict one, and one made
        // where the instance is not described (below `not` or `if`, no type inference) is not the one made where it is.
        let definition_key =
            around.definition_key(&key, cx.settings().strict, cx.position().instance);
        if let Some(name) = cx.definition_for(&definition_key) {
            self.site_made(name);
            let name = name.to_owned();
            cx.note_kept_site(&name);
            return Ok(name);
        }
        let name = cx.add_definition(
            definition_key,
            &defs::sanitize(&wanted_name(absolute, &target)),
        );
        self.made.borrow_mut().push((name.clone(), key));
        self.site_made(&name);
        let mut at = String::from("/$defs");
        llmshim_core::pointer::push_token(&mut at, &name);
        // A definition is shared by every site: it is walked with no expansion around it, and a climb started
        // inside it may not leave it.
        let outer = self.stack.replace(Vec::new());
        self.walking.borrow_mut().push(name.clone());
        let walked = self.inline(around, target, Some(&at), cx);
        self.walking.borrow_mut().pop();
        *self.stack.borrow_mut() = outer;
        match walked {
            Ok(value) => {
                cx.complete_definition(&name, value);
                Ok(name)
            }
            Err(reason) => {
                cx.stop_climb();
                Err(reason)
            }
        }
    }

    /// A site this walk kept, met again: bare, it is final, unless its definition was walked with another strict
    /// setting (a root-shaping branch walks without strict), which makes it the site of the definition walked with
    /// this one; with keys around it (a merge gave it some), it becomes a definition of its target with those keys
    /// winning over the definition's.
    fn kept_again(
        &self,
        node: &mut Value,
        name: &str,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object() else {
            return Ok(Flow::Continue);
        };
        let known = if name == defs::ROOT {
            Some(((0, String::new()), Around::default(), cx.settings().strict))
        } else {
            cx.definition_key(name)
                .and_then(Around::from_definition_key)
        };
        let Some((target_key, first, strict)) = known else {
            return Err(cx.fail(FallbackKind::InvalidRef, "a reference kept by another walk"));
        };
        if map.len() == 1 && strict == cx.settings().strict {
            cx.note_kept_site(name);
            return Ok(Flow::Done);
        }
        let Some(target) = self.registry.at(&target_key) else {
            return Err(cx.fail(
                FallbackKind::UnresolvedRef,
                "a kept reference lost its target",
            ));
        };
        let outer: Map<String, Value> = map
            .iter()
            .filter(|(k, _)| merged_key(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut around = first;
        for (k, v) in outer {
            json::set(&mut around.over, &k, v);
        }
        let absolute = absolute_of(&target);
        let name = self.keep(&absolute, target, &around, cx)?;
        *node = defs::kept_site(&name);
        Ok(Flow::Done)
    }

    /// A node whose one-entry `allOf` is a reference, outside root position: kept when the reference is (the entry's
    /// siblings win over the target, and the node's other keys lose to both, as W14 merges them); otherwise W14 merges
    /// the entry as usual.
    fn entry_site(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !matches!(cx.settings().recursion, Recursion::KeepRefs { .. }) || cx.position().root {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object() else {
            return Ok(Flow::Continue);
        };
        let Some((reference, siblings)) = single_entry_reference(map) else {
            return Ok(Flow::Continue);
        };
        let Ok(absolute) = uri::join(cx.base(), reference) else {
            return Ok(Flow::Continue);
        };
        let Ok(target) = self.registry.resolve(&absolute, cx.pointer()) else {
            return Ok(Flow::Continue);
        };
        // The entry's siblings win over its target (`resolve.inline-ref`), and the node's other keys lose to both.
        let under: Map<String, Value> = map
            .iter()
            .filter(|(k, _)| merged_key(k) && k.as_str() != "allOf")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let siblings_len = siblings.len();
        let over = with_node_properties(siblings, &under)
            .into_iter()
            .map(|(k, v)| (camel(&k).to_owned(), v))
            .collect();
        let bare = siblings_len == 0;
        let mut around = Around { over, under };
        // The entry wins, but not on `type` where the node's own type excludes some of the entry's kinds, as W14
        // merges an entry (`walk.merge-all-of`): the kinds both admit win over the entry's, and none admits nothing.
        let entry_type = match json::member(&around.over, "type") {
            Some(t) => Some(t.clone()),
            None => target
                .value
                .as_object()
                .and_then(|t| json::member(t, "type"))
                .cloned(),
        };
        if let (Some(own), Some(theirs)) = (json::member(map, "type"), entry_type.as_ref()) {
            match steps::single_entry_type(own, theirs) {
                Some(Ok(shared)) => {
                    around.over.insert("type".to_owned(), shared);
                }
                // An entry with siblings is left to W14, which walks it first and merges what remains (a kept
                // reference beside the node's type, which strict then gives up), as before such entries were kept here.
                Some(Err(_)) if !bare => return Ok(Flow::Continue),
                Some(Err(message)) => return Err(cx.fail(FallbackKind::InvalidSchema, message)),
                None => {}
            }
        }
        match self.keep_through(&absolute, &target, &around, cx)? {
            Some(name) => {
                *node = defs::kept_site(&name);
                Ok(Flow::Done)
            }
            None => Ok(Flow::Continue),
        }
    }

    /// Cuts a site where a recursive target would be expanded once more than `depth` allows: the climb removes the
    /// nearest optional property or union branch above; a site a previous attempt could not cut that way becomes
    /// `{"type": "object"}`.
    fn cut(
        &self,
        node: &mut Value,
        target: &Resource<'_>,
        depth: u32,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Flow, FallbackReason> {
        let pointer = cx.pointer().to_owned();
        if self.stubs.contains(&pointer) {
            let name = position_name(&pointer);
            let mut stub = Map::new();
            stub.insert("type".to_owned(), Value::String("object".to_owned()));
            if let Some(Value::String(text)) = node.get("description") {
                stub.insert("description".to_owned(), Value::String(text.clone()));
            }
            llmshim_core::lift::append_text(
                &mut stub,
                &format!("recursive {name}"),
                &format!("recursive {name}: omitted below depth {depth}"),
            );
            *node = Value::Object(stub);
            cx.record("resolve.unroll-recursion", ChangeKind::Narrowed, None);
            return Ok(Flow::Continue);
        }
        // The site may become a stub only when what it stands for admits an empty object anyway: an object schema
        // (typed, or with `properties`, from which its type is inferred) that surely admits `{}`: requiring nothing,
        // neither itself nor through a combinator or a reference (an `anyOf` whose every branch requires a property
        // admits no finite instance through the cycle); the site's own keys win over the target's, as the expansion
        // would merge them.
        let key_of = |k: &str| node.get(k).or_else(|| target.value.get(k));
        let typed = match key_of("type") {
            Some(ty) => ty.as_str() == Some("object"),
            None => key_of("properties").is_some(),
        };
        let registry = self.registry;
        let resolve = |reference: &str, base: &str| {
            let absolute = uri::join(base, reference).ok()?;
            let target = registry.resolve(&absolute, "").ok()?;
            Some((target.value, target.base))
        };
        let stub = typed
            && node
                .as_object()
                .is_some_and(|site| admits_empty_object(site, cx.base().clone(), &resolve));
        let reason = cx.fail(
            FallbackKind::RefCycle,
            format!(
                "{:?} is recursive and unrolled {depth} times already",
                target.pointer
            ),
        );
        Err(cx.climb(
            reason,
            "resolve.unroll-recursion",
            Omission::Recursion { depth },
            stub,
        ))
    }

    /// The target walked and merged with the keys `around` it: the Part I expansion, also the walk of a kept
    /// definition (located at `at`).
    fn inline(
        &self,
        around: &Around,
        target: Resource<'_>,
        at: Option<&str>,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Value, FallbackReason> {
        let key = target.key();
        if self.occurrences(&key) > 0 {
            self.reentries.set(self.reentries.get() + 1);
        }
        let mut walked = target.value.clone();
        if let Some(t) = walked.as_object_mut() {
            json::remove(t, "$id");
            if target.draft.uses_plain_id() && matches!(t.get("id"), Some(Value::String(_))) {
                json::remove(t, "id");
            }
            let same_base = *target.base == **cx.base();
            substitute(&around.over, t, same_base);
            if cx.settings().strict {
                declare_sibling_names(&around.over, t, same_base);
            }
        }
        let before = walked
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.expand(
            around,
            &mut walked,
            before.as_deref(),
            (key, target.base),
            at,
            cx,
        )
    }

    /// Walks the target (on the stack of targets being expanded, so that a reference back to it is seen), merges
    /// the keys around it, and walks the merged node (off the stack: the keys around are the referencing node's,
    /// and a reference among them to the same target is no cycle).
    fn expand(
        &self,
        around: &Around,
        walked: &mut Value,
        before: Option<&str>,
        (key, base): (Target, Arc<str>),
        at: Option<&str>,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Value, FallbackReason> {
        // The target's root is merged with the keys around it below and walked again, so passes may leave to that
        // second walk what depends on the root's final keys (strict closing reads the final `properties`), and its
        // children that a winning key replaces are not walked at all.
        // A kept definition (located at `at`) stands on its own: nothing is merged into it afterwards, even when its
        // site was met in an intermediate root (a `$ref` target's one-entry `allOf`), so its merged node is walked
        // as a final one (typed, narrowed, split), as a second pass walking it from a bare reference does.
        let rewalk = |how: Rewalk| match at {
            Some(at) => how.with_pointer(at.to_owned()).with_detached(true),
            None => how,
        };
        let replaced = around.over.keys().map(String::as_str);
        let how = Rewalk::here()
            .with_base(base)
            .with_intermediate(true)
            .with_skipped_children(replaced);
        self.stack.borrow_mut().push(key);
        let target_walk = cx.rewalk(walked, &rewalk(how));
        self.stack.borrow_mut().pop();
        target_walk?;
        let mut merged = match walked {
            Value::Object(t) => t.clone(),
            Value::Bool(b) if self.mode == Mode::Dereference => {
                if !*b {
                    return Ok(Value::Bool(false));
                }
                let mut rest = around.under.clone();
                for (k, v) in &around.over {
                    json::set(&mut rest, k, v.clone());
                }
                if rest.is_empty() {
                    return Ok(Value::Bool(true));
                }
                let mut rest = Value::Object(rest);
                cx.rewalk(&mut rest, &rewalk(Rewalk::here()))?;
                return Ok(rest);
            }
            _ => {
                return Err(cx.fail(
                    FallbackKind::InvalidSchema,
                    "the reference target is not a schema object",
                ));
            }
        };
        if !around.under.is_empty() {
            let mut below = around.under.clone();
            for (key, value) in merged {
                steps::set_entry_key(&mut below, &key, value);
            }
            merged = below;
        }
        let after = merged
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        for (key, value) in &around.over {
            if key == "description"
                && let (Value::String(text), Some(after)) = (value, after.as_deref())
            {
                let text = carry_lifted(text, before.unwrap_or(""), after);
                json::set(&mut merged, key, Value::String(text));
                continue;
            }
            json::set(&mut merged, key, value.clone());
        }
        let mut merged = Value::Object(merged);
        cx.rewalk(&mut merged, &rewalk(Rewalk::here()))?;
        Ok(merged)
    }
}

/// The siblings of a one-entry `allOf`'s reference, with the `properties` of the node around the `allOf` (`under`)
/// joined into theirs: the siblings replace the target's `properties` (`resolve.inline-ref`), and the entry then joins
/// the node's (`walk.merge-all-of`), the node keeping the names only it declares and the entry winning on a shared
/// one. Applied after the node's keys, as siblings are, the siblings' `properties` would otherwise drop the node's.
fn with_node_properties(
    mut siblings: Map<String, Value>,
    under: &Map<String, Value>,
) -> Map<String, Value> {
    if let (Some(Value::Object(own)), Some(Value::Object(theirs))) = (
        json::member(under, "properties"),
        siblings.get("properties"),
    ) {
        let mut joined = own.clone();
        for (name, schema) in theirs {
            joined.insert(name.clone(), schema.clone());
        }
        siblings.insert("properties".to_owned(), Value::Object(joined));
    }
    siblings
}

/// The `$ref` of a node's one-entry `allOf` whose entry is a reference, with the entry's other keys (its siblings,
/// which win over the target; empty for a bare reference).
fn single_entry_reference(map: &Map<String, Value>) -> Option<(&str, Map<String, Value>)> {
    let Some(Value::Array(entries)) = json::member(map, "allOf") else {
        return None;
    };
    let [Value::Object(entry)] = entries.as_slice() else {
        return None;
    };
    let reference = entry.get("$ref").and_then(Value::as_str)?;
    let siblings = entry
        .iter()
        .filter(|(k, _)| merged_key(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some((reference, siblings))
}

/// Siblings win: a target key a sibling replaces never reaches the result, so the target is walked with the
/// sibling's value in that place already. Otherwise the walk could fail, or demote strict, on content the merge
/// throws away, or shape the root by keys it will not have. A schema-valued sibling is put in place only when target
/// and sibling share a base (its references must resolve against the sibling's base), and the target's root leaves
/// every sibling's child keyword unwalked either way: the merged node walks the sibling's value. `description` stays
/// the target's, so that the fragments its walk lifts can follow the sibling's text.
fn substitute(over: &Map<String, Value>, target: &mut Map<String, Value>, same_base: bool) {
    for (key, value) in over {
        if matches!(key.as_str(), "$ref" | "$id" | "description") {
            continue;
        }
        // `dependencies` and `additionalItems` hold schemas until the upgrades (W9, W10) turn them into children.
        let literal = matches!(class_of(key), KeywordClass::Literal)
            && !matches!(key.as_str(), "dependencies" | "additionalItems");
        if !same_base && !literal {
            continue;
        }
        // The siblings are already in camel case; the target may still spell the key in snake case, which its walk
        // renames (and which wins over a camel-case spelling there).
        let snake = SNAKE_CASE
            .iter()
            .find(|(_, camel)| *camel == key.as_str())
            .map(|(snake, _)| *snake);
        for spelling in std::iter::once(key.as_str()).chain(snake) {
            if let Some(slot) = target.get_mut(spelling) {
                *slot = value.clone();
            }
        }
    }
}

/// Under strict, a target whose `allOf` of several entries the walk may merge gets the siblings' `properties` before
/// its walk (the merged node has them either way, and the target's walk leaves them unwalked): `walk.merge-all-of`
/// then sees the names the merged node declares, and gives up an entry whose `additionalProperties` schema binds one
/// of them. Its walk would otherwise close that entry, and the walk of the merged node would join the closed entries
/// with the siblings' names, which the schema no longer binds. Where target and siblings share a base the values are
/// the siblings' (`substitute` has put them in place already where the target has `properties`); across resources
/// only the names are given, each admitting anything, as the values' references resolve against the siblings' base.
fn declare_sibling_names(
    over: &Map<String, Value>,
    target: &mut Map<String, Value>,
    same_base: bool,
) {
    let several = ["allOf", "all_of"].into_iter().any(|k| {
        json::member(target, k)
            .and_then(Value::as_array)
            .is_some_and(|entries| entries.len() > 1)
    });
    if !several {
        return;
    }
    let Some(Value::Object(properties)) = json::member(over, "properties") else {
        return;
    };
    let declared = if same_base {
        properties.clone()
    } else {
        properties
            .keys()
            .map(|name| (name.clone(), Value::Object(Map::new())))
            .collect()
    };
    target.insert("properties".to_owned(), Value::Object(declared));
}

/// The camel-case spelling of a snake-case keyword (other keys as they are).
fn camel(key: &str) -> &str {
    SNAKE_CASE
        .iter()
        .find(|(snake, _)| *snake == key)
        .map_or(key, |(_, camel)| camel)
}

/// Whether `pointer` names a member of the root's `$defs`: `/$defs/<name>`.
fn is_root_definition(pointer: &str) -> bool {
    pointer
        .strip_prefix("/$defs/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/'))
}

/// The name a definition of `target` wants: the anchor the reference used, else the last segment of the target's
/// pointer (escapes decoded), else nothing (`def`).
fn wanted_name(absolute: &str, target: &Resource<'_>) -> String {
    let (_, fragment) = uri::split_fragment(absolute);
    let fragment = uri::percent_decode(fragment).unwrap_or_default();
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return fragment;
    }
    target
        .pointer
        .rsplit('/')
        .next()
        .map(llmshim_core::pointer::unescape)
        .unwrap_or_default()
}

/// An absolute URI that resolves to `target`: its resource plus the pointer into it.
fn absolute_of(target: &Resource<'_>) -> String {
    let mut pointer = String::new();
    for c in target.pointer.chars() {
        match c {
            '%' => pointer.push_str("%25"),
            '#' => pointer.push_str("%23"),
            ' ' => pointer.push_str("%20"),
            c => pointer.push(c),
        }
    }
    if target.in_root_document {
        format!("{}#{pointer}", uri::DEFAULT_BASE)
    } else {
        format!("{}#{pointer}", target.resource)
    }
}

/// The name a cut site gives its fragment: the property it is the schema of, or the keyword above it.
fn position_name(pointer: &str) -> String {
    let mut tokens = pointer.rsplit('/');
    let last = tokens.next().unwrap_or("");
    let name = if last.parse::<usize>().is_ok() {
        tokens.next().unwrap_or(last)
    } else {
        last
    };
    llmshim_core::pointer::unescape(name)
}

pub(crate) fn unique_name(taken: &mut HashSet<String>, wanted: &str) -> String {
    let mut name = wanted.to_owned();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{wanted}_{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

/// Escapes a `$defs` key for use in a URI fragment pointer.
pub(crate) fn escape_token(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            ' ' => out.push_str("%20"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_positions_and_definitions() {
        assert_eq!(position_name("/properties/kids/items"), "items");
        assert_eq!(position_name("/properties/a~1b"), "a/b");
        assert_eq!(position_name("/anyOf/1"), "anyOf");
        assert!(is_root_definition("/$defs/Node"));
        assert!(!is_root_definition("/$defs/Node/properties/a"));
        assert!(!is_root_definition("/definitions/Node"));
        let mut taken = HashSet::new();
        assert_eq!(unique_name(&mut taken, "a"), "a");
        assert_eq!(unique_name(&mut taken, "a"), "a_2");
    }
}
