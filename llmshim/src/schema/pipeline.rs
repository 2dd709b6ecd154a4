//! The stage order of one normalization: the facade is the only place that knows it.

use std::borrow::Cow;

use llmshim_core::json;
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
            let report = Normalization::produced(out != *input)
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
            let report = Normalization::fell_back(reason, out != *input);
            (out, report)
        }
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
/// or one more than `MAX_CUTS`, keeps the failure. The result also says whether anything was narrowed.
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
    if json::depth_within(input, HARD_MAX_DEPTH).is_none() {
        return Err(FallbackReason::new(
            FallbackKind::BudgetDepth,
            "",
            format!("the schema is nested deeper than {HARD_MAX_DEPTH} levels"),
        ));
    }
    let rules = target.rules();
    let resources = Resources::new();
    let registry = Registry::with_budget(input, &resources, &options.budget)?;
    let mut recursion = options.recursion_for(strict);
    let mut stubs: Vec<String> = Vec::new();
    let mut cuts: Vec<FallbackReason> = Vec::new();
    let mut unrolled: Vec<RecursiveTarget> = Vec::new();
    let mut rounds = 0;
    loop {
        match walk_once(
            options,
            target,
            &registry,
            input,
            strict,
            recursion,
            (stubs.clone(), cuts.clone(), &unrolled),
        ) {
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
                ..
            }) => {
                let check = check_options(options, rules, strict, recursion);
                if let Some(reason) = llmshim_core::check::first(&out, &check) {
                    if walk::narrowable(reason.kind)
                        && cuts.len() < MAX_CUTS
                        && !cuts.contains(&reason)
                    {
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
    let mut out = input.clone();
    let settings = settings(options, strict, recursion).with_cuts(cuts);
    match walk::walk_detailed(&mut out, &passes, &settings, BASE.into()) {
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
            })
        }
        Err(failure) => Err((failure, expand.reentries())),
    }
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
    use crate::schema::pipeline::ORDER;

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
