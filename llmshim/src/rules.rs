//! The project's own rule reference: every rule id, walk step, structural check and provider fact, with what it
//! does, on which targets, and why.
//!
//! Every change a normalization records names a rule id (`google.enum-lift`, `strict.close-object`, …); code
//! comments cite rule ids, walk steps (`W19`) and structural checks (`S15`) and provider facts (`GEM-7`). This module
//! is where they resolve. `RULES.md` at the repository root is generated from it (`cargo xtask rules`), so the
//! reference cannot drift from the data: which targets a rule applies to is computed from each target's rule set.
//!
//! ```
//! use llmshim::rules;
//!
//! let rule = rules::rule("google.enum-lift").expect("a rule of the reference");
//! assert_eq!(rule.step, "W22");
//! assert!(rules::reason("google.enum-lift").is_some_and(|why| !why.is_empty()));
//! assert!(rules::rule("no.such-rule").is_none());
//! ```

mod catalogue;
mod checks;
mod facts;
mod markdown;
mod steps;

use llmshim_core::ChangeKind;
use llmshim_core::rules::RuleSet;

pub use markdown::markdown;

/// Whether a rule applies to a target, read from its rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Applies {
    /// The rule set never applies it.
    Never,
    /// It applies whenever normalization runs for the target (some rules only where their keyword occurs, or only
    /// for structured-output schemas, as the rule says).
    Always,
    /// It applies when strict is requested and the target has a strict profile.
    WithStrict,
    /// It applies when strict is not effective (the target has a strict profile whose attempt does otherwise).
    WithoutStrict,
}

/// Whether a rule's code exists yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// Implemented: the rule id appears in the file named by [`Rule::file`].
    Implemented,
    /// Planned under the given issue; its implementer completes the entry.
    Planned(u32),
}

/// One rule: an id that changes name in reports, what it does, where, and why.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Rule {
    /// The rule id, `scope.rule-name`, as it appears in `Change::rule`.
    pub id: &'static str,
    /// The change kinds it records.
    pub kinds: &'static [ChangeKind],
    /// The walk step (`W19`), or the stage after the walk, that runs it.
    pub step: &'static str,
    /// What it does, in a sentence or two.
    pub what: &'static str,
    /// Why, in one line: the reason `explain` prints.
    pub why: &'static str,
    /// The provider facts behind it ([`FACTS`] labels such as `GEM-7`).
    pub facts: &'static [&'static str],
    /// The source file that implements it, relative to the repository root.
    pub file: &'static str,
    /// Whether a target applies it, from its rule set.
    pub applies: fn(&RuleSet) -> Applies,
    /// Whether it is implemented yet.
    pub status: Status,
}

impl Rule {
    /// Whether a target with `rules` applies this rule.
    pub fn applies_to(&self, rules: &RuleSet) -> Applies {
        (self.applies)(rules)
    }
}

/// One step of the per-node walk (`W1` to `W30`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The label, `W1` to `W30`.
    pub label: &'static str,
    /// What happens at this step.
    pub what: &'static str,
    /// The source file that implements it.
    pub file: &'static str,
}

/// One row of the structural check (`S1` to `S18`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Check {
    /// The label, `S1` to `S18`.
    pub label: &'static str,
    /// The condition that fails a node.
    pub what: &'static str,
    /// The fallback kind it reports (`invalid_schema`, …).
    pub kind: &'static str,
}

/// One provider fact the rules rest on: what a provider accepts or rejects, with where it is documented or seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fact {
    /// The label, such as `GEM-7`.
    pub label: &'static str,
    /// The fact, in a sentence.
    pub statement: &'static str,
    /// Where it is documented or was observed.
    pub link: &'static str,
}

/// Every rule id, grouped by scope.
pub const RULES: &[Rule] = catalogue::RULES;

/// The walk steps, in order.
pub const STEPS: &[Step] = steps::STEPS;

/// The rows of the structural check, in order.
pub const CHECKS: &[Check] = checks::CHECKS;

/// The provider facts, by provider.
pub const FACTS: &[Fact] = facts::FACTS;

/// The rule with id `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The one-line reason of the rule with id `id`.
pub fn reason(id: &str) -> Option<&'static str> {
    rule(id).map(|r| r.why)
}
