//! `Normalizer`: the pipeline with its environment and memo, which the free functions use by default.

use std::sync::{Arc, OnceLock};

use llmshim_cache::{Hit, Limits, Lookup, Memo};
use llmshim_core::json;
use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{FallbackKind, Normalization};
use serde_json::Value;

use crate::schema::unchanged::{Closable, Looked};
use crate::schema::{Env, EnvFlags, Options, Target};
use crate::schema::{pipeline, unchanged};

/// The memo type the facade uses: keyed by the effective [`Options`].
pub type SchemaMemo = Memo<Options>;

/// The process-wide memo, created on first use with the default limits (512 entries, 16 MiB).
fn process_memo() -> &'static Arc<SchemaMemo> {
    static MEMO: OnceLock<Arc<SchemaMemo>> = OnceLock::new();
    MEMO.get_or_init(|| Arc::new(Memo::new(Limits::default())))
}

/// The options a normalization runs with under the environment's `flags`: without strict where the flags switch it
/// off or the target has no strict mode; `None` where the options or the flags skip normalization.
fn effective(options: &Options, flags: EnvFlags) -> Option<Options> {
    if options.bypass || flags.no_schema_normalization {
        return None;
    }
    let mut effective = options.clone();
    if flags.no_strict || options.target.rules().rules().strict.is_none() {
        effective.strict = false;
    }
    Some(effective)
}

#[derive(Clone, Debug)]
enum MemoChoice {
    Process,
    Own(Arc<SchemaMemo>),
    Off,
}

/// Runs normalizations with a chosen environment and memo.
///
/// `Normalizer::default()` reads the process environment on every call and uses the process-wide memo; that is
/// what [`normalize_with`](crate::schema::normalize_with) does. Tests and the command line's `batch` pass fixed
/// flags and a memo of their own.
///
/// ```
/// use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
/// use serde_json::json;
///
/// let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default().with_no_strict(true))).without_memo();
/// let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// let report = normalizer.normalize_with(&Options::for_target(Target::OpenAiChat).with_strict(true), &mut schema);
/// assert!(!report.strict);
/// assert_eq!(schema, json!({"type": "object", "properties": {"a": {"type": "string"}}}));
/// ```
#[derive(Clone, Debug)]
pub struct Normalizer {
    env: Env,
    memo: MemoChoice,
}

impl Default for Normalizer {
    fn default() -> Self {
        Normalizer {
            env: Env::Process,
            memo: MemoChoice::Process,
        }
    }
}

impl Normalizer {
    /// A normalizer reading `env`, with the process-wide memo.
    pub fn new(env: Env) -> Self {
        Normalizer {
            env,
            memo: MemoChoice::Process,
        }
    }

    /// The same normalizer without a memo.
    #[must_use]
    pub fn without_memo(mut self) -> Self {
        self.memo = MemoChoice::Off;
        self
    }

    /// The same normalizer with a memo of the caller's.
    #[must_use]
    pub fn with_memo(mut self, memo: Arc<SchemaMemo>) -> Self {
        self.memo = MemoChoice::Own(memo);
        self
    }

    /// The same normalizer with the flags fixed to `flags`: a request-level operation reads the environment once and
    /// hands its per-schema calls this copy.
    pub(crate) fn with_flags(&self, flags: crate::schema::EnvFlags) -> Normalizer {
        Normalizer {
            env: Env::Fixed(flags),
            memo: self.memo.clone(),
        }
    }

    /// The environment this normalizer reads.
    pub fn env(&self) -> Env {
        self.env
    }

    /// `normalize_with(&Options::for_target(target), schema)`.
    pub fn normalize_for(&self, target: Target, schema: &mut Value) -> Normalization {
        self.normalize_with(&Options::for_target(target), schema)
    }

    /// Normalizes `schema` in place for `options.target`; never fails.
    pub fn normalize_with(&self, options: &Options, schema: &mut Value) -> Normalization {
        self.normalize_same(options, schema, None)
    }

    /// [`Normalizer::normalize_with`] for a `schema` identical to the input `same` was found or stored for under
    /// other options (the Anthropic request budget normalizing a demoted tool without strict): the memo is asked
    /// for the entry of that input under these options without fingerprinting `schema` again
    /// ([`Memo::lookup_as`]), and looked up as usual when it has none.
    pub(crate) fn normalize_same(
        &self,
        options: &Options,
        schema: &mut Value,
        same: Option<&Hit<Options>>,
    ) -> Normalization {
        match self.normalize_in(options, schema, false, same) {
            Outcome::Done(report, ..) => report,
            // Without `keep` a hit is applied and a verdict built before they come back; these arms are never taken.
            Outcome::Hit(hit) => {
                hit.apply(schema);
                hit.report().clone()
            }
            Outcome::Closable(found) => found.normalize(schema),
        }
    }

    /// [`Normalizer::normalize_with`] for a caller that may normalize `schema` again another way (the Anthropic
    /// request budget), which needs the input as it was.
    ///
    /// A memo hit is handed back without being applied, and without a memo the strict look's verdict without its
    /// output: `schema` is still the input, so nothing is copied, and the caller applies the hit or builds the
    /// output (`Closable::normalize`) or normalizes the input the other way. On any other path `schema` is normalized and
    /// the input handed back as it was: the very value the normalization read where nothing else needs it, a copy
    /// where the memo keeps it or the look before the walk left the schema as it is (`None` only for an input nested
    /// deeper than the walker goes: it falls back, so it is never normalized again).
    pub(crate) fn normalize_keeping(&self, options: &Options, schema: &mut Value) -> Kept {
        match self.normalize_in(options, schema, true, None) {
            Outcome::Done(report, original, stored) => Kept::Done(report, original, stored),
            Outcome::Hit(hit) => Kept::Deferred(hit),
            Outcome::Closable(found) => Kept::Closable(found),
        }
    }

    /// Whether normalizing `schema` with `options` and no memo runs the walk: neither the environment nor the options
    /// skip normalization, and the look for the effective mode does not take the schema (`llmshim::testing::walks`).
    #[cfg(feature = "testing")]
    pub(crate) fn walks(&self, options: &Options, schema: &Value) -> bool {
        effective(options, self.env.read())
            .is_some_and(|effective| unchanged::look(&effective, schema).is_none())
    }

    /// The one normalization path; with `keep`, a hit comes back unapplied and any other path hands back the input as
    /// it was, as [`Normalizer::normalize_keeping`] says; with `same`, the memo lookup starts from its entry, as
    /// [`Normalizer::normalize_same`] says.
    fn normalize_in(
        &self,
        options: &Options,
        schema: &mut Value,
        keep: bool,
        same: Option<&Hit<Options>>,
    ) -> Outcome {
        // The copy that an original needs when no memo entry can stand in for it.
        let copy = |schema: &Value| {
            (keep && json::depth_within(schema, HARD_MAX_DEPTH).is_some()).then(|| schema.clone())
        };
        // The input the uncached path replaces: the original itself where one is kept (the normalization only read
        // it, so it is the input as it was, and no copy is needed), dropped otherwise. Every attempt measures the
        // input's depth first and falls back for its depth when it is deeper than the walker goes, so an input
        // whose report is not such a fallback is within that depth: it needs no measuring again, and dropping it
        // recurses no deeper than the walk did. Any other input is measured, or taken apart without recursion.
        let settle = |schema: &mut Value, out: Value, report: &Normalization| {
            let input = std::mem::replace(schema, out);
            let walked = !report.used_fallback
                || report
                    .fallback_reason
                    .as_ref()
                    .is_none_or(|r| r.kind != FallbackKind::BudgetDepth);
            if keep && (walked || json::depth_within(&input, HARD_MAX_DEPTH).is_some()) {
                return Some(input);
            }
            if walked {
                drop(input);
            } else {
                json::dismantle(input);
            }
            None
        };
        let flags = self.env.read();
        let Some(effective) = effective(options, flags) else {
            return Outcome::Done(Normalization::bypassed(), copy(schema), None);
        };
        let memo = match (&self.memo, flags.no_schema_cache) {
            (_, true) | (MemoChoice::Off, _) => None,
            (MemoChoice::Process, false) => Some(process_memo()),
            (MemoChoice::Own(m), false) => Some(m),
        };
        // Off the memo's hit path, a schema the look finds unchanged is left where it is: nothing is copied, walked,
        // compared or dropped.
        // Off the memo (or where it keys nothing), a schema a look takes is normalized where it is: left as it is
        // where nothing changes, edited or closed in place otherwise; nothing is walked, compared or dropped, and
        // nothing copied but the original a caller keeps (the look read the schema, so it is within the walker's
        // depth). A caller that keeps the input gets the strict look's verdict instead, and builds the output only
        // if it needs it.
        let unkeyed = |schema: &mut Value| {
            match unchanged::look(&effective, schema) {
                Some(Looked::Closed(found)) if keep => return Outcome::Closable(found),
                Some(looked) => {
                    let original = keep.then(|| schema.clone());
                    if let Some(report) = looked.build(schema) {
                        return Outcome::Done(report, original, None);
                    }
                }
                None => {}
            }
            let (out, report) = pipeline::normalize_uncached(&effective, schema);
            let original = settle(schema, out, &report);
            Outcome::Done(report, original, None)
        };
        let Some(memo) = memo else {
            return unkeyed(schema);
        };
        let looked = match same {
            Some(same) => memo.lookup_as(&effective, schema, same),
            None => memo.lookup(&effective, schema),
        };
        match looked {
            Lookup::Hit(hit) if keep => Outcome::Hit(hit),
            Lookup::Hit(hit) => {
                hit.apply(schema);
                Outcome::Done(hit.report().clone(), None, None)
            }
            Lookup::Miss(fingerprint) => {
                let original = copy(schema);
                let (out, report) = uncached(&effective, schema);
                let input = std::mem::replace(schema, out);
                let output = schema.clone();
                // A caller that keeps the input gets the new entry too, to remember what it derives from it.
                let stored = if keep {
                    memo.insert_hit(fingerprint, effective, input, output, report.clone())
                } else {
                    memo.insert(fingerprint, effective, input, output, report.clone());
                    None
                };
                Outcome::Done(report, original, stored)
            }
            Lookup::Unkeyed => unkeyed(schema),
        }
    }
}

/// The uncached normalization of `schema` with the effective `options`, leaving `schema` as it is: built on one
/// copy where a look takes it (the plain look where it is unchanged or only a few local edits apply, the strict
/// look where strict only closes its objects), walked otherwise.
fn uncached(options: &Options, schema: &Value) -> (Value, Normalization) {
    if let Some(looked) = unchanged::look(options, schema) {
        let mut out = schema.clone();
        if let Some(report) = looked.build(&mut out) {
            return (out, report);
        }
    }
    pipeline::normalize_uncached(options, schema)
}

/// What [`Normalizer::normalize_in`] did.
enum Outcome {
    /// The schema was normalized in place: its report, the input copied before where it was asked for, and the
    /// memo entry just stored for it where it was asked for.
    Done(Normalization, Option<Value>, Option<Hit<Options>>),
    /// A memo hit, asked to be handed back unapplied: the schema is still the input.
    Hit(Hit<Options>),
    /// The strict look's verdict, asked for in place of its output: the schema is still the input.
    Closable(Closable),
}

/// What [`Normalizer::normalize_keeping`] hands back.
#[derive(Debug)]
pub(crate) enum Kept {
    /// The schema was normalized in place: its report, the input as it was, and on a memo miss the entry just
    /// stored for the result (a hit whose output the schema already is).
    Done(Normalization, Option<Value>, Option<Hit<Options>>),
    /// A memo hit, not applied yet: the schema is still the input, identical to the hit's stored input, and the
    /// hit's output and report are the normalization's.
    Deferred(Hit<Options>),
    /// Without a memo, the strict look's verdict: the schema is still the input, and [`Closable::normalize`] makes it
    /// the output, with the report the walk would give.
    Closable(Closable),
}
