//! The normalization report: what changed, whether the fallback was used, and why.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Why a schema was replaced by the fallback or demoted from strict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FallbackKind {
    /// A value that is not a schema, a container of the wrong kind, an empty `enum`, a bad `required`.
    InvalidSchema,
    /// A boolean subschema where the target or strict mode rejects it.
    BooleanSchema,
    /// A non-string `$ref`, a malformed percent-escape or a non-UTF-8 fragment.
    InvalidRef,
    /// A reference to a resource outside the document and the registered resources.
    ExternalRef,
    /// A pointer or anchor not found inside a known resource.
    UnresolvedRef,
    /// A reference reached again while it is being expanded.
    RefCycle,
    /// Two different nodes under one resource or anchor URI.
    DuplicateResource,
    /// A URI join failed.
    InvalidUri,
    /// Lookaround removal could not parse a pattern.
    Regex,
    /// A strict-only rule could not be satisfied.
    StrictUnsupported,
    /// A rule of the target's rule set (or a custom hook) rejected the schema.
    TargetUnsupported,
    /// A provider limit was exceeded.
    ProviderLimit,
    /// The depth budget was exceeded.
    BudgetDepth,
    /// The node budget was exceeded.
    BudgetNodes,
    /// The literal-byte budget was exceeded.
    BudgetLiteral,
    /// The result did not compile as a validator.
    Compile,
    /// A tool's parameters do not describe an object.
    NotObject,
}

impl FallbackKind {
    /// Every kind, in the contract's order.
    pub const ALL: [FallbackKind; 17] = [
        FallbackKind::InvalidSchema,
        FallbackKind::BooleanSchema,
        FallbackKind::InvalidRef,
        FallbackKind::ExternalRef,
        FallbackKind::UnresolvedRef,
        FallbackKind::RefCycle,
        FallbackKind::DuplicateResource,
        FallbackKind::InvalidUri,
        FallbackKind::Regex,
        FallbackKind::StrictUnsupported,
        FallbackKind::TargetUnsupported,
        FallbackKind::ProviderLimit,
        FallbackKind::BudgetDepth,
        FallbackKind::BudgetNodes,
        FallbackKind::BudgetLiteral,
        FallbackKind::Compile,
        FallbackKind::NotObject,
    ];

    /// The snake-case name used in serialized reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            FallbackKind::InvalidSchema => "invalid_schema",
            FallbackKind::BooleanSchema => "boolean_schema",
            FallbackKind::InvalidRef => "invalid_ref",
            FallbackKind::ExternalRef => "external_ref",
            FallbackKind::UnresolvedRef => "unresolved_ref",
            FallbackKind::RefCycle => "ref_cycle",
            FallbackKind::DuplicateResource => "duplicate_resource",
            FallbackKind::InvalidUri => "invalid_uri",
            FallbackKind::Regex => "regex",
            FallbackKind::StrictUnsupported => "strict_unsupported",
            FallbackKind::TargetUnsupported => "target_unsupported",
            FallbackKind::ProviderLimit => "provider_limit",
            FallbackKind::BudgetDepth => "budget_depth",
            FallbackKind::BudgetNodes => "budget_nodes",
            FallbackKind::BudgetLiteral => "budget_literal",
            FallbackKind::Compile => "compile",
            FallbackKind::NotObject => "not_object",
        }
    }
}

impl fmt::Display for FallbackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown kind or change-kind name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown name {name:?}")]
#[non_exhaustive]
pub struct UnknownName {
    /// The name that was not recognized.
    pub name: String,
}

impl FromStr for FallbackKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FallbackKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownName { name: s.to_owned() })
    }
}

/// The cause of a fallback or strict demotion: kind, JSON Pointer and a human message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FallbackReason {
    /// The kind of failure.
    pub kind: FallbackKind,
    /// Where it happened (RFC 6901; the root is `""`).
    pub pointer: String,
    /// Lowercase human text; not stable.
    pub message: String,
}

impl FallbackReason {
    /// A reason of `kind` at `pointer`.
    pub fn new(kind: FallbackKind, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        FallbackReason {
            kind,
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FallbackReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {:?}: {}", self.kind, self.pointer, self.message)
    }
}

impl std::error::Error for FallbackReason {}

/// What a change did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A key was removed without trace.
    Dropped,
    /// A key was removed and recorded in a description.
    Lifted,
    /// A construct was replaced by an equivalent one.
    Rewritten,
    /// A constraint was loosened.
    Relaxed,
    /// A key was added.
    Added,
    /// An old-draft form was upgraded.
    Upgraded,
    /// A constraint was tightened.
    Narrowed,
}

impl ChangeKind {
    /// Every kind.
    pub const ALL: [ChangeKind; 7] = [
        ChangeKind::Dropped,
        ChangeKind::Lifted,
        ChangeKind::Rewritten,
        ChangeKind::Relaxed,
        ChangeKind::Added,
        ChangeKind::Upgraded,
        ChangeKind::Narrowed,
    ];

    /// The lowercase name used in serialized reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Dropped => "dropped",
            ChangeKind::Lifted => "lifted",
            ChangeKind::Rewritten => "rewritten",
            ChangeKind::Relaxed => "relaxed",
            ChangeKind::Added => "added",
            ChangeKind::Upgraded => "upgraded",
            ChangeKind::Narrowed => "narrowed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ChangeKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ChangeKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownName { name: s.to_owned() })
    }
}

/// One recorded change: where, which rule, what kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Change {
    /// The location in the tree being built; keyword-level changes end with the keyword.
    pub pointer: String,
    /// The rule id, `scope.rule-name`.
    pub rule: Cow<'static, str>,
    /// What the change did.
    pub kind: ChangeKind,
}

impl Change {
    /// A change at `pointer` by `rule`.
    pub fn new(
        pointer: impl Into<String>,
        rule: impl Into<Cow<'static, str>>,
        kind: ChangeKind,
    ) -> Self {
        Change {
            pointer: pointer.into(),
            rule: rule.into(),
            kind,
        }
    }
}

/// The report every normalization returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Normalization {
    /// The value now held by the caller differs from the input.
    pub changed: bool,
    /// The schema was replaced by the fallback.
    pub used_fallback: bool,
    /// Strict was requested, effective, and enforced on the returned schema.
    pub strict: bool,
    /// Normalization was skipped.
    pub bypassed: bool,
    /// Some part the target cannot express was narrowed instead of falling back (a change of kind `narrowed`:
    /// a removed optional property or union branch, a union cut to one branch, an untyped node given a type, a
    /// truncated recursion), or a constraint was dropped, lifted or loosened below an odd number of `not`s or below
    /// an `if` (where a wider part makes the enclosing schema admit fewer values), whether or not diagnostics
    /// recorded the changes. A part narrowed below an odd number of `not`s makes the enclosing schema admit more
    /// values: it is recorded as `relaxed` and does not count here; one below an `if` is recorded as `relaxed` and
    /// counts (the schema may admit more or fewer).
    pub narrowed: bool,
    /// Why the requested result was not produced (fallback or strict demotion).
    pub fallback_reason: Option<FallbackReason>,
    /// With diagnostics on, every change in the order performed.
    pub changes: Vec<Change>,
}

/// What a normalization did, in one value: the report's flags and reason read together.
///
/// The precedence is fixed: a bypass says nothing else happened; a fallback replaced the schema whatever else
/// changed; a demotion produced a non-strict result where strict was asked; otherwise the result is rewritten or
/// unchanged.
///
/// ```
/// use llmshim_core::report::{FallbackKind, FallbackReason, Normalization, Outcome};
///
/// assert_eq!(Normalization::default().outcome(), Outcome::Unchanged);
/// assert_eq!(Normalization::produced(true).outcome(), Outcome::Rewritten);
/// let reason = FallbackReason::new(FallbackKind::RefCycle, "/properties/a", "reference cycle");
/// let report = Normalization::fell_back(reason.clone(), true);
/// assert_eq!(report.outcome(), Outcome::FellBack(Some(&reason)));
/// let limit = FallbackReason::new(FallbackKind::ProviderLimit, "", "too many properties");
/// let report = Normalization::produced(true).with_demotion(limit.clone());
/// assert_eq!(report.outcome(), Outcome::Demoted(&limit));
/// assert_eq!(Normalization::bypassed().outcome(), Outcome::Bypassed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome<'a> {
    /// The schema was already acceptable: the caller's value is unchanged.
    Unchanged,
    /// The schema was rewritten, strict enforced where asked.
    Rewritten,
    /// Strict was asked and could not be enforced: the result is the non-strict normalization, for this reason.
    Demoted(&'a FallbackReason),
    /// The schema was replaced by the fallback, for this reason (always present on reports the library builds).
    FellBack(Option<&'a FallbackReason>),
    /// Normalization was skipped.
    Bypassed,
}

impl Outcome<'_> {
    /// The lowercase name used in serialized reports: `unchanged`, `rewritten`, `demoted`, `fallback` or
    /// `bypassed` (the words of the command line's `check` table).
    ///
    /// ```
    /// use llmshim_core::report::Normalization;
    ///
    /// assert_eq!(Normalization::produced(true).outcome().as_str(), "rewritten");
    /// assert_eq!(Normalization::bypassed().outcome().as_str(), "bypassed");
    /// ```
    pub const fn as_str(&self) -> &'static str {
        match self {
            Outcome::Unchanged => "unchanged",
            Outcome::Rewritten => "rewritten",
            Outcome::Demoted(_) => "demoted",
            Outcome::FellBack(_) => "fallback",
            Outcome::Bypassed => "bypassed",
        }
    }
}

impl Normalization {
    /// A report for a bypassed normalization.
    pub fn bypassed() -> Self {
        Normalization {
            bypassed: true,
            ..Normalization::default()
        }
    }

    /// The report of a normalization that produced its own result; `changed` says whether it differs from the
    /// input. Add strictness, a demotion and changes with the `with_*` methods.
    pub fn produced(changed: bool) -> Self {
        Normalization {
            changed,
            ..Normalization::default()
        }
    }

    /// The report of a schema replaced by the fallback for `reason`; `changed` says whether the fallback differs
    /// from the input. A fallback records no changes.
    pub fn fell_back(reason: FallbackReason, changed: bool) -> Self {
        Normalization {
            changed,
            used_fallback: true,
            fallback_reason: Some(reason),
            ..Normalization::default()
        }
    }

    /// Sets whether strict was enforced on the result.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Records a strict demotion: the result is not strict, and `reason` says why unless a reason is already
    /// recorded (the first cause is kept).
    #[must_use]
    pub fn with_demotion(mut self, reason: FallbackReason) -> Self {
        self.strict = false;
        if self.fallback_reason.is_none() {
            self.fallback_reason = Some(reason);
        }
        self
    }

    /// Sets whether some part was narrowed (see [`Normalization::narrowed`]).
    #[must_use]
    pub fn with_narrowed(mut self, narrowed: bool) -> Self {
        self.narrowed = narrowed;
        self
    }

    /// Sets the recorded changes.
    #[must_use]
    pub fn with_changes(mut self, changes: Vec<Change>) -> Self {
        self.changes = changes;
        self
    }

    /// What happened, in one value; see [`Outcome`].
    pub fn outcome(&self) -> Outcome<'_> {
        if self.bypassed {
            Outcome::Bypassed
        } else if self.used_fallback {
            Outcome::FellBack(self.fallback_reason.as_ref())
        } else if let Some(reason) = &self.fallback_reason {
            Outcome::Demoted(reason)
        } else if self.changed {
            Outcome::Rewritten
        } else {
            Outcome::Unchanged
        }
    }

    /// The report as JSON, in the command line's shape: the flags `changed`, `used_fallback`, `strict`, `bypassed`
    /// and `narrowed`, then `fallback_reason` when present, then `changes` when `with_changes`.
    pub fn to_json(&self, with_changes: bool) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("changed".into(), self.changed.into());
        map.insert("used_fallback".into(), self.used_fallback.into());
        map.insert("strict".into(), self.strict.into());
        map.insert("bypassed".into(), self.bypassed.into());
        map.insert("narrowed".into(), self.narrowed.into());
        if let Some(reason) = &self.fallback_reason {
            let mut r = serde_json::Map::new();
            r.insert("kind".into(), reason.kind.as_str().into());
            r.insert("pointer".into(), reason.pointer.clone().into());
            r.insert("message".into(), reason.message.clone().into());
            map.insert("fallback_reason".into(), r.into());
        }
        if with_changes {
            let changes = self
                .changes
                .iter()
                .map(|c| {
                    let mut m = serde_json::Map::new();
                    m.insert("pointer".into(), c.pointer.clone().into());
                    m.insert("rule".into(), c.rule.to_string().into());
                    m.insert("kind".into(), c.kind.as_str().into());
                    serde_json::Value::Object(m)
                })
                .collect();
            map.insert("changes".into(), serde_json::Value::Array(changes));
        }
        serde_json::Value::Object(map)
    }
}
