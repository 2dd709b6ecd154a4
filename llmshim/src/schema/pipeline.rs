//! The stage order of one normalization: the facade is the only place that knows it.

use std::borrow::Cow;

use llmshim_core::json;
use llmshim_core::keyword::{KeywordClass, class_of};
use llmshim_core::rules::{Booleans, KeepSets, RuleSet};
use llmshim_core::walk::{self, HARD_MAX_DEPTH, Settings, steps};
use llmshim_core::{
    Change, ChangeKind, FallbackKind, FallbackReason, Normalization, Pass, Recursion, TargetRules,
};
use llmshim_resolve::pass::{BaseUri, Expand, Meta, Mode, RecursiveTarget, Upgrade};
use llmshim_resolve::{Registry, Resources, Upgrades};
use llmshim_targets::passes as target;
use serde_json::{Map, Value};

use crate::schema::Options;

/// The passes of the one walk, in order: each with the walk step it implements and its name. The list in
/// `attempt` must name the same passes in the same order (asserted there and by a test), and the steps only ever
/// increase, so no pass runs before a step it depends on.
pub(crate) const ORDER: [(&str, &str); 29] = [
    ("W2", "shape"),
    ("W3", "base-uri"),
    ("W5", "literals"),
    ("W6", "snake-case"),
    ("W6", "upgrade"),
    ("W7", "expand-ref"),
    ("W8", "meta"),
    ("W9", "upgrade"),
    ("W12", "required-null"),
    ("W13", "one-of"),
    ("W14", "merge-all-of"),
    ("W15", "root-shaping"),
    ("W16", "flatten-tuples"),
    ("W17", "infer-type"),
    ("W18", "target-enter-hook"),
    ("W19", "narrow-any"),
    ("W19", "strict-keep-list"),
    ("W19", "target-keep-list"),
    ("W20", "patterns"),
    ("W21", "nullable-policy"),
    ("W22", "google-values"),
    ("W22", "flush-lifts"),
    ("W23", "split-type-array"),
    ("W24", "required-strings"),
    ("W26", "empty-properties"),
    ("W26", "strict-close-objects"),
    ("W27", "default-items"),
    ("W28", "google-tail"),
    ("W29", "target-leave-hook"),
];

/// The base URI of a document that declares none.
const BASE: &str = "https://llmshim.invalid/schema";

/// The fallback schema: an object that accepts any arguments, for a schema that cannot be made acceptable.
pub(crate) fn fallback() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("object".to_owned()));
    m.insert("properties".to_owned(), Value::Object(Map::new()));
    Value::Object(m)
}

/// One normalization after the memo, with effective `options`: walk, checks, compile, strict demotion, fallback.
pub(crate) fn normalize_uncached(options: &Options, input: &Value) -> (Value, Normalization) {
    let target = options.target.rules();
    let first = attempt(options, target, input, options.strict);
    let outcome = match first {
        Ok(done) => Ok((done, options.strict, None)),
        Err(strict_failure) if options.strict => match attempt(options, target, input, false) {
            Ok((out, mut changes, narrowed)) => {
                if options.diagnostics {
                    let rule = if strict_failure.kind == FallbackKind::ProviderLimit {
                        "openai.strict-limits"
                    } else {
                        "strict.demoted"
                    };
                    changes.push(Change::new("", Cow::Borrowed(rule), ChangeKind::Relaxed));
                }
                Ok(((out, changes, narrowed), false, Some(strict_failure)))
            }
            Err(failure) => Err(failure),
        },
        Err(failure) => Err(failure),
    };
    match outcome {
        Ok(((out, changes, narrowed), strict, reason)) => {
            let report = Normalization::produced(!same_value(&out, input))
                .with_strict(strict)
                .with_narrowed(narrowed)
                .with_changes(changes);
            let report = match reason {
                Some(reason) => report.with_demotion(reason),
                None => report,
            };
            (out, report)
        }
        Err(reason) => {
            let out = fallback();
            let report = Normalization::fell_back(reason, !same_value(&out, input));
            (out, report)
        }
    }
}

/// Whether `a == b` as `Value` compares them (an object as the set of its members, whatever their order), without
/// hashing the key of a member that stands at the same place in both objects: the output of a normalization lists
/// the members it kept in the input's order, so the usual comparison looks no key up. The recursion goes no deeper
/// than the shallower value, as `==` does.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(p), Value::Object(q)) => {
            p.len() == q.len()
                && p.iter().zip(q).all(|((kp, vp), (kq, vq))| {
                    // Keys are unique, so the member at the same place is the one a lookup would find.
                    if kp == kq {
                        same_value(vp, vq)
                    } else {
                        q.get(kp).is_some_and(|v| same_value(vp, v))
                    }
                })
        }
        (Value::Array(p), Value::Array(q)) => {
            p.len() == q.len() && p.iter().zip(q).all(|(x, y)| same_value(x, y))
        }
        _ => a == b,
    }
}

/// The walk settings for `options` with strict set to `strict` and the recursion mode `recursion`.
fn settings(options: &Options, strict: bool, recursion: Recursion) -> Settings {
    Settings::new(options.budget)
        .with_strict(strict)
        .with_recursion(recursion)
        .with_nullable(options.nullable)
        .with_rewrite_one_of(options.rewrite_one_of)
        .with_strip_lookarounds(options.strip_lookarounds)
        .with_diagnostics(options.diagnostics)
        .with_structured_output(options.structured_output)
        .with_keywords(options.keywords)
        .with_narrow(true)
}

/// The structural check of `options` with strict set to `strict` and the recursion mode `recursion`, against
/// `rules`.
fn check_options<'r>(
    options: &Options,
    rules: &'r RuleSet,
    strict: bool,
    recursion: Recursion,
) -> llmshim_core::check::Options<'r> {
    llmshim_core::check::Options::new(rules)
        .with_strict(strict)
        .with_nullable(options.nullable)
        .with_keywords(options.keywords)
        .with_budget(&options.budget)
        .with_recursion(recursion)
}

/// At most this many cut sites become stubs in one attempt (each needs the walk again).
const MAX_STUBS: usize = 16;

/// At most this many structural-check failures are narrowed in one attempt (each needs the walk again).
const MAX_CUTS: usize = 32;

/// At most this many times a walk that kept references runs again with more recursive targets unrolled, before
/// every cycle is unrolled (each needs the walk again).
const MAX_UNKEPT_ROUNDS: usize = 8;

/// The unrolling depth of the last resort, when kept references do not settle within `MAX_UNKEPT_ROUNDS`.
const UNROLL_DEPTH: u32 = 3;

/// A walk that succeeded: its output, its changes, whether it narrowed something, and the targets of the kept
/// definitions a second pass over the output would not keep (or why the output could not be read for them).
struct Walk {
    out: Value,
    changes: Vec<Change>,
    narrowed: bool,
    unkept: Result<Vec<RecursiveTarget>, FallbackReason>,
    /// The walk kept some recursive definition.
    kept: bool,
    /// The parts climbs removed: each climb's site and the removed part's pointer ([`walk::Walked::removed`]).
    removed: Vec<(String, String)>,
}

/// Whether an attempt may apply several structural-check cuts in one walk (see [`batch`]); tests turn it off to
/// compare with one cut per walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cuts {
    Batched,
    OneByOne,
}

/// One attempt: pre-pass, the one walk, the structural check, strict limits and the compile check.
///
/// When unrolling recursion, two retries happen within the attempt: a cut site that nothing above could absorb
/// becomes `{"type": "object"}` when its target allows it (the walk runs again with that site stubbed), and a walk
/// over the node or literal budget runs again with the unrolling depth one lower, down to 1.
///
/// A structural-check failure that a narrowing may absorb (`target.omit-property`) makes the walk run again with
/// that failure as a cut: the visit at its pointer fails the same way a failure inside the walk does, and the climb
/// removes the nearest optional property or union branch around it, one failure per walk. A cut that comes back,
/// or one more than `MAX_CUTS`, keeps the failure. The result also says whether anything was narrowed. Several
/// cuts the same check found are applied in one walk when that walk shows they are independent (see [`batch`]), so
/// that a schema with many such failures needs a few walks instead of one per failure; the result is the one that
/// cutting them one walk at a time gives.
///
/// With kept references, the decision to keep a cycle is taken on the input, but later steps may remove what the
/// cycle ran through (an unresolved reference omitted, a lifted `if`): a definition whose cycle no longer comes back
/// in the output, or no longer crosses an optional property when only those are kept, would be unrolled by a second
/// pass. The walk then runs again with the targets of those definitions unrolled (`resolve.unroll-recursion`), so
/// that normalizing the output again changes nothing; after `MAX_UNKEPT_ROUNDS` rounds every cycle is unrolled.
fn attempt(
    options: &Options,
    target: &dyn TargetRules,
    input: &Value,
    strict: bool,
) -> Result<(Value, Vec<Change>, bool), FallbackReason> {
    attempt_counted(options, target, input, strict, Cuts::Batched, &mut 0)
}

/// [`attempt`], applying check cuts as `cuts` says and adding the number of walks it made to `walks`.
fn attempt_counted(
    options: &Options,
    target: &dyn TargetRules,
    input: &Value,
    strict: bool,
    mut batching: Cuts,
    walks: &mut usize,
) -> Result<(Value, Vec<Change>, bool), FallbackReason> {
    let rules = target.rules();
    let resources = Resources::new();
    // Indexing bounds its own recursion, so it may run first; a document its lean look covered is known to be
    // shallow enough, and any other is measured here, before an indexing error, so that a document nested too deep
    // fails for its depth whatever else is wrong with it.
    let registry = Registry::with_budget(input, &resources, &options.budget);
    let shallow =
        matches!(&registry, Ok(r) if r.root_depth_within().is_some_and(|d| d <= HARD_MAX_DEPTH));
    if !shallow && json::depth_within(input, HARD_MAX_DEPTH).is_none() {
        return Err(FallbackReason::new(
            FallbackKind::BudgetDepth,
            "",
            format!("the schema is nested deeper than {HARD_MAX_DEPTH} levels"),
        ));
    }
    let registry = registry?;
    let mut recursion = options.recursion_for(strict);
    let mut stubs: Vec<String> = Vec::new();
    let mut cuts: Vec<FallbackReason> = Vec::new();
    let mut unrolled: Vec<RecursiveTarget> = Vec::new();
    let mut rounds = 0;
    // A walk with the current cuts that a verified batch already made.
    let mut ready: Option<Walk> = None;
    // Every walk of the attempt: the same document and target, with the current recursion mode, stubs and cuts.
    let walk_with = |recursion: Recursion,
                     stubs: &[String],
                     cuts: Vec<FallbackReason>,
                     unrolled: &[RecursiveTarget],
                     walks: &mut usize| {
        *walks += 1;
        walk_once(
            options,
            target,
            &registry,
            input,
            strict,
            recursion,
            (stubs.to_vec(), cuts, unrolled),
        )
    };
    loop {
        let walked = if let Some(walk) = ready.take() {
            Ok(walk)
        } else {
            walk_with(recursion, &stubs, cuts.clone(), &unrolled, walks)
        };
        match walked {
            Ok(Walk {
                unkept: Err(reason),
                ..
            }) => return Err(reason),
            Ok(Walk {
                unkept: Ok(unkept), ..
            }) if !unkept.is_empty() => {
                rounds += 1;
                if rounds > MAX_UNKEPT_ROUNDS {
                    recursion = Recursion::unroll(UNROLL_DEPTH);
                } else {
                    unrolled.extend(unkept);
                }
                stubs.clear();
                cuts.clear();
            }
            Ok(Walk {
                out,
                changes,
                narrowed,
                kept,
                ..
            }) => {
                let check = check_options(options, rules, strict, recursion);
                if let Some(reason) = llmshim_core::check::first(&out, &check) {
                    if walk::narrowable(reason.kind)
                        && cuts.len() < MAX_CUTS
                        && !cuts.contains(&reason)
                    {
                        if batching == Cuts::Batched && !kept {
                            let with_more = |more: &[FallbackReason], walks: &mut usize| {
                                let mut all = cuts.clone();
                                all.extend_from_slice(more);
                                walk_with(recursion, &stubs, all, &unrolled, walks).ok()
                            };
                            match batch(&out, &check, &cuts, walks, with_more) {
                                Batch::Applied(more, walk) => {
                                    cuts.extend(more);
                                    ready = Some(*walk);
                                    continue;
                                }
                                Batch::Single => {}
                                // One batch that does not verify is enough: the rest of the attempt cuts one
                                // failure per walk.
                                Batch::Refused => batching = Cuts::OneByOne,
                            }
                        }
                        cuts.push(reason);
                        continue;
                    }
                    return Err(reason);
                }
                if strict {
                    strict_limits(&out, rules)?;
                }
                llmshim_validate::check(&out).map_err(FallbackReason::from)?;
                return Ok((out, changes, narrowed));
            }
            Err((failure, reentries)) => {
                if let Some(site) = failure.stub_site
                    && stubs.len() < MAX_STUBS
                    && !stubs.contains(&site)
                {
                    stubs.push(site);
                    continue;
                }
                let over_budget = matches!(
                    failure.reason.kind,
                    FallbackKind::BudgetNodes | FallbackKind::BudgetLiteral
                );
                if let Recursion::Unroll { depth } = recursion
                    && over_budget
                    && reentries > 0
                    && depth > 1
                {
                    recursion = Recursion::unroll(depth - 1);
                    stubs.clear();
                    cuts.clear();
                    continue;
                }
                return Err(failure.reason);
            }
        }
    }
}

/// One walk of `input` with the pass list of `target`, kept definitions finished, with the stubbed recursion sites,
/// the structural-check cuts and the unrolled recursive targets of earlier walks; on failure, also how often the walk
/// expanded a recursive target again.
fn walk_once(
    options: &Options,
    target: &dyn TargetRules,
    registry: &Registry<'_>,
    input: &Value,
    strict: bool,
    recursion: Recursion,
    (stubs, cuts, unrolled): (Vec<String>, Vec<FallbackReason>, &[RecursiveTarget]),
) -> Result<Walk, (walk::Failure, usize)> {
    let rules = target.rules();
    let draft = registry.draft();
    let shape = if rules.booleans == Booleans::Reject {
        steps::Shape::reject_booleans()
    } else {
        steps::Shape::keep_booleans()
    };
    let base = BaseUri::new(draft);
    let id = Upgrade::id(Upgrades::ALL, draft);
    let expand = Expand::new(registry, Mode::Normalize)
        .with_stubs(stubs)
        .with_unrolled(unrolled);
    let meta = Meta::normalize(rules.schema_uri, draft);
    let forms = Upgrade::forms(Upgrades::ALL);
    let root = target::RootShaping::new(rules);
    let flatten = steps::FlattenTuples::new(rules.flatten_tuples);
    let infer = steps::InferType::new(rules.infer_array_from_items);
    let enter_hook = target::EnterHook::new(target);
    let strict_keep =
        llmshim_strict::KeepList::new(rules.strict.map_or(KeepSets::STRICT, |p| p.keep));
    let narrow_any = steps::NarrowAny::new(rules.require_type);
    let keep = target::KeepList::new(rules);
    let patterns = target::Patterns::new(rules);
    let values = target::GoogleValues::new(rules);
    let split = steps::SplitTypeArray::new(rules.split_type_arrays);
    let empty = target::EmptyPropertiesAdd::new(rules);
    let items = target::DefaultItemsPass::new(rules);
    let tail = target::GoogleTail::new(rules);
    let leave_hook = target::LeaveHook::new(target);
    // The walk steps in order (see `ORDER`): `enter` steps run in list order before the children, `leave` steps
    // (W26 to W29) in list order after them.
    let passes: [&dyn Pass; ORDER.len()] = [
        &shape,
        &base,
        &steps::Literals,
        &steps::SnakeCase,
        &id,
        &expand,
        &meta,
        &forms,
        &steps::RequiredNull,
        &steps::OneOf,
        &steps::MergeAllOf,
        &root,
        &flatten,
        &infer,
        &enter_hook,
        &narrow_any,
        &strict_keep,
        &keep,
        &patterns,
        &steps::NullablePolicy,
        &values,
        &steps::FlushLifts,
        &split,
        &steps::RequiredStrings,
        &empty,
        &llmshim_strict::CloseObjects,
        &items,
        &tail,
        &leave_hook,
    ];
    debug_assert!(
        passes
            .iter()
            .map(|p| p.name())
            .eq(ORDER.iter().map(|(_, name)| *name)),
        "the pass list follows ORDER"
    );
    let mut settings = settings(options, strict, recursion).with_cuts(cuts);
    let mut out = input.clone();
    // A kept definition found narrowed only after a site inside its own walk counted on it not to be: the walk
    // runs again with every site of it counted narrowed (`walk.one-of-to-any-of`). Each run adds a key.
    let walked = loop {
        match walk::walk_detailed(&mut out, &passes, &settings, BASE.into()) {
            Ok(w)
                if w.late_narrowed
                    .iter()
                    .any(|k| !settings.narrowed_definitions.contains(k)) =>
            {
                settings.narrowed_definitions.extend(w.late_narrowed);
                input.clone_into(&mut out);
            }
            other => break other,
        }
    };
    match walked {
        Ok(walked) => {
            let mut unkept = Ok(Vec::new());
            if expand.kept_any() {
                let copied = llmshim_core::defs::finish(&mut out, walked.definitions);
                unkept = expand
                    .unkept_on_second_pass(&out, recursion, &options.budget)
                    .map(|mut unkept| {
                        for target in expand.unkept_copies(&copied) {
                            if !unkept.contains(&target) {
                                unkept.push(target);
                            }
                        }
                        unkept
                    });
            }
            Ok(Walk {
                out,
                changes: walked.changes,
                narrowed: walked.narrowed,
                unkept,
                kept: expand.kept_any(),
                removed: walked.removed,
            })
        }
        Err(failure) => Err((failure, expand.reentries())),
    }
}

/// What [`batch`] did.
enum Batch {
    /// The check found one failure to cut next, or the first ones cannot go together: cut one as usual.
    Single,
    /// These failures, cut together, gave this walk, the one cutting them one walk at a time would give.
    Applied(Vec<FallbackReason>, Box<Walk>),
    /// The walk with the failures cut together did not show them independent: cut one as usual.
    Refused,
}

/// Tries to cut, in one walk, the run of failures that the check of `out` finds from its first one on, each of which
/// one walk per cut would take in turn (narrowable, not cut already, within `MAX_CUTS`). `walk_with` walks with the
/// current cuts and the given ones added.
///
/// Cutting them one walk at a time takes the first failure of each walk's check. When each cut of the batch removes
/// an optional property (not a union branch, whose removal renumbers its siblings and may leave one branch), no cut
/// lies inside a part another cut removed, and the check of the batch walk finds exactly the first check's failures
/// less the batch and those inside the removed parts, in the same order, then every walk of the one-at-a-time
/// sequence would have found the next failure of the batch first: the sequence cuts the same failures in the same
/// order, and its last walk is this one.
fn batch(
    out: &Value,
    check: &llmshim_core::check::Options<'_>,
    cuts: &[FallbackReason],
    walks: &mut usize,
    walk_with: impl Fn(&[FallbackReason], &mut usize) -> Option<Walk>,
) -> Batch {
    let found = llmshim_core::check::check(out, check);
    let mut more: Vec<FallbackReason> = Vec::new();
    for reason in &found {
        // The batch ends where one walk per cut would stop, and before a cut that likely depends on another one
        // (nested in it, or likely to remove a union branch); the walk below verifies the rest.
        if !walk::narrowable(reason.kind)
            || cuts.len() + more.len() >= MAX_CUTS
            || cuts.contains(reason)
            || !below_a_property(&reason.pointer)
            || more
                .iter()
                .any(|m| nested(&m.pointer, &reason.pointer) || nested(&reason.pointer, &m.pointer))
        {
            break;
        }
        more.push(reason.clone());
    }
    if more.len() < 2 {
        return Batch::Single;
    }
    let Some(walk) = walk_with(&more, walks) else {
        return Batch::Refused;
    };
    if walk.kept || !matches!(&walk.unkept, Ok(unkept) if unkept.is_empty()) {
        return Batch::Refused;
    }
    // The part each cut of the batch removed: exactly one, an optional property.
    let mut parts: Vec<&str> = Vec::with_capacity(more.len());
    for reason in &more {
        let mut removed = walk
            .removed
            .iter()
            .filter(|(site, _)| *site == reason.pointer);
        let (Some((_, part)), None) = (removed.next(), removed.next()) else {
            return Batch::Refused;
        };
        let property = part
            .rsplit_once('/')
            .is_some_and(|(parent, _)| parent.ends_with("/properties"));
        if !property {
            return Batch::Refused;
        }
        parts.push(part);
    }
    for (i, reason) in more.iter().enumerate() {
        if parts
            .iter()
            .enumerate()
            .any(|(j, part)| i != j && nested(&reason.pointer, part))
        {
            return Batch::Refused;
        }
    }
    let expected: Vec<&FallbackReason> = found
        .iter()
        .filter(|r| !more.contains(r) && !parts.iter().any(|part| nested(&r.pointer, part)))
        .collect();
    let after = llmshim_core::check::check(&walk.out, check);
    if after.iter().eq(expected.iter().copied()) {
        Batch::Applied(more, Box::new(walk))
    } else {
        Batch::Refused
    }
}

/// Whether the schema at `pointer` is `at` or below it.
fn nested(pointer: &str, at: &str) -> bool {
    pointer
        .strip_prefix(at)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether the nearest property or union branch on the way up from `pointer` is a property (so that a climb from
/// there likely removes a property, not a branch).
fn below_a_property(pointer: &str) -> bool {
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut nearest_is_property = false;
    let mut at = 0;
    while let Some(&keyword) = tokens.get(at) {
        match class_of(keyword) {
            KeywordClass::MapChildren | KeywordClass::Definitions => {
                nearest_is_property = keyword == "properties";
                at += 2;
            }
            KeywordClass::ArrayChildren => {
                if matches!(keyword, "anyOf" | "oneOf") {
                    nearest_is_property = false;
                }
                at += 2;
            }
            _ => at += 1,
        }
    }
    nearest_is_property
}

/// The OpenAI strict limits of the rule set's strict profile, if any.
fn strict_limits(out: &Value, rules: &RuleSet) -> Result<(), FallbackReason> {
    match rules.strict.and_then(|p| p.openai_limits) {
        Some(limits) => llmshim_strict::fits(out, &limits),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use llmshim_benches::testdata;
    use serde_json::json;

    use crate::schema::pipeline::{Cuts, ORDER, attempt_counted, below_a_property, same_value};
    use crate::schema::{Options, Target};

    /// Normalizes `input` for `target` once with the check's cuts batched and once one per walk: the two results
    /// must be the same; returns the walks each made.
    fn walks_both_ways(target: Target, input: &serde_json::Value) -> (usize, usize) {
        let options = Options::for_target(target).with_diagnostics(true);
        let (mut batched, mut one_by_one) = (0, 0);
        let a = attempt_counted(
            &options,
            target.rules(),
            input,
            false,
            Cuts::Batched,
            &mut batched,
        );
        let b = attempt_counted(
            &options,
            target.rules(),
            input,
            false,
            Cuts::OneByOne,
            &mut one_by_one,
        );
        assert_eq!(a, b, "{}", target.name());
        (batched, one_by_one)
    }

    #[test]
    fn many_independent_check_failures_take_a_few_walks_and_change_nothing() {
        // SchemaStore's stylelint configuration: on Code Assist, each of its rules (an `allOf` of references to
        // groups of optional properties, each a type array with a `oneOf`) fails the structural check after the
        // walk. One cut per walk took 33 walks to reach the limit of 32 cuts and fall back; the batch verified
        // after its walk takes two, with the same result (the fallback reason names the 33rd failure).
        let Some(root) = testdata::require("the pipeline's batched cuts") else {
            return;
        };
        let input = testdata::read_json(root.join("schemastore/schemas/stylelintrc.json"))
            .expect("the SchemaStore schema parses");
        let (batched, one_by_one) = walks_both_ways(Target::CloudCodeAssist, &input);
        assert_eq!(one_by_one, 33);
        assert!(batched <= 2, "{batched} walks");
    }

    #[test]
    fn a_batch_that_does_not_verify_falls_back_to_one_cut_per_walk() {
        // Failures in two branches of one union, whose cuts may depend on each other (removing one branch leaves
        // the other alone): whatever the batch does, the result is the one of one cut per walk, and a refused batch
        // costs at most one more walk.
        let input = json!({"type": "object", "properties": {"a": {"anyOf": [
            {"type": "object", "properties": {"x": {"type": ["string", "null"], "oneOf": [{"type": "string"}, {"type": "null"}]}}},
            {"type": "object", "properties": {"y": {"type": ["string", "null"], "oneOf": [{"type": "string"}, {"type": "null"}]}}}
        ]}}});
        for target in Target::BUILTIN {
            let (batched, one_by_one) = walks_both_ways(target, &input);
            assert!(
                batched <= one_by_one + 1,
                "{}: {batched} > {one_by_one} + 1",
                target.name()
            );
        }
    }

    #[test]
    fn same_value_agrees_with_value_equality() {
        let values = [
            json!({"a": 1, "b": {"c": [1, 2], "d": "x"}}),
            json!({"b": {"d": "x", "c": [1, 2]}, "a": 1}),
            json!({"a": 1, "b": {"c": [2, 1], "d": "x"}}),
            json!({"a": 1, "b": {"c": [1, 2], "e": "x"}}),
            json!({"a": 1.0, "b": {"c": [1, 2], "d": "x"}}),
            json!({"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": null}),
            json!({"a": 1, "c": {"c": [1, 2], "d": "x"}}),
            json!([{"a": 1}, {"b": 2}]),
            json!([{"b": 2}, {"a": 1}]),
            json!("a"),
            json!(null),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(same_value(a, b), a == b, "{a} and {b}");
            }
        }
    }

    #[test]
    fn a_cut_below_a_union_branch_is_not_batched() {
        assert!(below_a_property("/properties/a/items/properties/b"));
        assert!(below_a_property("/properties/a/anyOf/0/properties/b/type"));
        assert!(!below_a_property("/properties/a/anyOf/0"));
        assert!(!below_a_property("/properties/a/oneOf/1/items"));
        assert!(!below_a_property(""));
        assert!(!below_a_property("/$defs/a"));
        // A property named like a keyword is a property.
        assert!(below_a_property("/properties/anyOf"));
    }

    /// The step number of a label such as `W19`.
    fn step(label: &str) -> u32 {
        label
            .strip_prefix('W')
            .and_then(|n| n.parse().ok())
            .unwrap_or(u32::MAX)
    }

    #[test]
    fn the_walk_steps_only_increase() {
        assert!(
            ORDER.iter().all(|(label, _)| step(label) <= 30),
            "{ORDER:?}"
        );
        assert!(
            ORDER.windows(2).all(|w| step(w[0].0) <= step(w[1].0)),
            "{ORDER:?}"
        );
    }
}
