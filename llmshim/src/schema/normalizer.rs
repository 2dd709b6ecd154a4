//! `Normalizer`: the pipeline with its environment and memo, which the free functions use by default.

use std::sync::{Arc, OnceLock};

use llmshim_cache::{Hit, Limits, Lookup, Memo};
use llmshim_core::Normalization;
use llmshim_core::json;
use llmshim_core::walk::HARD_MAX_DEPTH;
use serde_json::Value;

use crate::schema::pipeline;
use crate::schema::{Env, Options, Target};

/// The memo type the facade uses: keyed by the effective [`Options`].
pub type SchemaMemo = Memo<Options>;

/// The process-wide memo, created on first use with the default limits (512 entries, 16 MiB).
fn process_memo() -> &'static Arc<SchemaMemo> {
    static MEMO: OnceLock<Arc<SchemaMemo>> = OnceLock::new();
    MEMO.get_or_init(|| Arc::new(Memo::new(Limits::default())))
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
        self.normalize_in(options, schema, false).0
    }

    /// [`Normalizer::normalize_with`], also handing back `schema` as it was before, for a caller that may normalize
    /// it again another way (the Anthropic request budget).
    ///
    /// A memo hit hands back the hit itself, whose stored input is identical to `schema`, so nothing is copied
    /// until the original is read; on any other path the input is copied before normalization. `None` only for an
    /// input nested deeper than the walker goes: it falls back, so it is never normalized again.
    pub(crate) fn normalize_keeping(
        &self,
        options: &Options,
        schema: &mut Value,
    ) -> (Normalization, Option<Original>) {
        self.normalize_in(options, schema, true)
    }

    /// The one normalization path; with `keep`, the original comes back as [`Normalizer::normalize_keeping`] says.
    fn normalize_in(
        &self,
        options: &Options,
        schema: &mut Value,
        keep: bool,
    ) -> (Normalization, Option<Original>) {
        // The copy that an original needs when no memo entry can stand in for it.
        let copy = |schema: &Value| {
            (keep && json::depth_within(schema, HARD_MAX_DEPTH).is_some())
                .then(|| Original::Owned(schema.clone()))
        };
        let flags = self.env.read();
        if options.bypass || flags.no_schema_normalization {
            return (Normalization::bypassed(), copy(schema));
        }
        let mut effective = options.clone();
        if flags.no_strict || options.target.rules().rules().strict.is_none() {
            effective.strict = false;
        }
        let memo = match (&self.memo, flags.no_schema_cache) {
            (_, true) | (MemoChoice::Off, _) => None,
            (MemoChoice::Process, false) => Some(process_memo()),
            (MemoChoice::Own(m), false) => Some(m),
        };
        let Some(memo) = memo else {
            let original = copy(schema);
            let (out, report) = pipeline::normalize_uncached(&effective, schema);
            replace(schema, out);
            return (report, original);
        };
        match memo.lookup(&effective, schema) {
            Lookup::Hit(hit) => {
                hit.apply(schema);
                let report = hit.report().clone();
                (report, keep.then_some(Original::Stored(hit)))
            }
            Lookup::Miss(fingerprint) => {
                let original = copy(schema);
                let (out, report) = pipeline::normalize_uncached(&effective, schema);
                let input = std::mem::replace(schema, out);
                memo.insert(
                    fingerprint,
                    effective,
                    input,
                    schema.clone(),
                    report.clone(),
                );
                (report, original)
            }
            Lookup::Unkeyed => {
                let original = copy(schema);
                let (out, report) = pipeline::normalize_uncached(&effective, schema);
                replace(schema, out);
                (report, original)
            }
        }
    }
}

/// A schema as it was before normalization, kept by [`Normalizer::normalize_keeping`].
pub(crate) enum Original {
    /// A copy made before normalization.
    Owned(Value),
    /// The memo hit that served the normalization: its stored input is identical to the schema.
    Stored(Hit<Options>),
}

impl Original {
    /// The schema as it was, copied out of the memo entry only now, where a hit kept it.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Original::Owned(value) => value,
            Original::Stored(hit) => hit.input().clone(),
        }
    }
}

impl std::fmt::Debug for Original {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Original::Owned(value) => f.debug_tuple("Owned").field(value).finish(),
            Original::Stored(hit) => f.debug_tuple("Stored").field(hit).finish(),
        }
    }
}

/// Writes the result into the caller's value; the old value is taken apart without recursion, because an input
/// that failed the depth check may be nested far deeper than the stack allows a recursive drop to go.
fn replace(schema: &mut Value, out: Value) {
    let old = std::mem::replace(schema, out);
    llmshim_core::json::dismantle(old);
}
