//! The extension point: what a target is, built-in or custom.

use serde_json::{Map, Value};

use crate::report::FallbackReason;
use crate::rules::RuleSet;
use crate::walk::{Hooks, NodeCtx};

/// A target's rules: an id, the rule-set data, and two optional hooks.
///
/// The built-in targets in `llmshim-targets` implement this trait exactly as a custom target outside the workspace
/// does; a custom target needs only this crate.
///
/// ```
/// use llmshim_core::{RuleSet, TargetRules, rules::Envelope};
///
/// #[derive(Debug)]
/// struct Acme;
///
/// static ACME_RULES: RuleSet = RuleSet::new().with_envelope(Envelope::CHAT).with_strict(None);
///
/// impl TargetRules for Acme {
///     fn id(&self) -> &str {
///         "acme"
///     }
///     fn rules(&self) -> &RuleSet {
///         &ACME_RULES
///     }
/// }
///
/// assert_eq!(Acme.id(), "acme");
/// assert!(Acme.rules().strict.is_none());
/// ```
pub trait TargetRules: Send + Sync + std::fmt::Debug {
    /// The target's id; hook changes use rule ids `<id>.<rule-name>`.
    fn id(&self) -> &str;

    /// The rule-set data.
    fn rules(&self) -> &RuleSet;

    /// Which of the two hooks below the target implements: the walk leaves out a hook this leaves out. The default,
    /// both, is always correct; a target that keeps a default hook may say so to spare the walk a call per node.
    fn hooks(&self) -> Hooks {
        Hooks::BOTH
    }

    /// Whether [`enter`](Self::enter) may act on the schema object `node`: where this says `false` of a schema
    /// object as the walk hands it to `enter`, `enter` changes nothing, records nothing and returns `Ok(())`,
    /// wherever the object stands. The default, `true` for every node, is always correct.
    ///
    /// The normalizer reads it before the walk: a schema that the rule-set data leaves as it is, or changes only by
    /// a few local edits of its own (a stripped constraint lifted, a root `$schema` removed), and on none of whose
    /// schema objects `enter` acts is handed back or edited without being walked. It asks on the input's objects,
    /// which differ from what the walk hands to `enter` at most by the root's `$schema`, so an answer should not
    /// depend on that key. A hook whose rules each start by testing a member of the node can answer with the same
    /// tests, so that the answer follows the hook.
    fn enter_acts(&self, node: &Map<String, Value>) -> bool {
        let _ = node;
        true
    }

    /// Step W18: runs on every visited schema object after type inference.
    ///
    /// # Errors
    ///
    /// A reason (normally `target_unsupported`) makes the schema fall back.
    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let _ = (node, cx);
        Ok(())
    }

    /// Step W29: runs on every visited schema object after its children.
    ///
    /// # Errors
    ///
    /// A reason (normally `target_unsupported`) makes the schema fall back.
    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let _ = (node, cx);
        Ok(())
    }
}
