//! In-place applicators: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, and the dynamic reference target.

use serde_json::Value;

use super::Run;
use super::evaluated::Evaluated;
use super::path::Path;
use crate::node::{Dynamic, NodeId};

impl Run<'_> {
    pub(super) fn all_of<'v>(
        &mut self,
        nodes: &[NodeId],
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let path = Path::key(sp, "allOf");
        let mut valid = true;
        for (i, node) in nodes.iter().enumerate() {
            let sc = Path::index(Some(&path), i);
            if !self.node(*node, instance, ip, Some(&sc), evaluated.as_deref_mut()) {
                valid = false;
                if self.fail_fast() {
                    return false;
                }
            }
        }
        valid
    }

    pub(super) fn any_of<'v>(
        &mut self,
        nodes: &[NodeId],
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let path = Path::key(sp, "anyOf");
        let mut any = false;
        for (i, node) in nodes.iter().enumerate() {
            let sc = Path::index(Some(&path), i);
            match evaluated.as_deref_mut() {
                Some(evaluated) => {
                    let mut local = Evaluated::default();
                    if self.silently(*node, instance, ip, Some(&sc), Some(&mut local)) {
                        any = true;
                        evaluated.merge(local);
                    }
                }
                None => {
                    if self.silently(*node, instance, ip, Some(&sc), None) {
                        return true;
                    }
                }
            }
        }
        if !any {
            self.error(ip, Some(&path), None, || {
                "does not match any alternative".to_owned()
            });
        }
        any
    }

    pub(super) fn one_of<'v>(
        &mut self,
        nodes: &[NodeId],
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let path = Path::key(sp, "oneOf");
        let exact = !self.fail_fast();
        let tracking = evaluated.is_some();
        let mut matched = 0usize;
        let mut winner = None;
        for (i, node) in nodes.iter().enumerate() {
            let sc = Path::index(Some(&path), i);
            let mut local = tracking.then(Evaluated::default);
            if self.silently(*node, instance, ip, Some(&sc), local.as_mut()) {
                matched += 1;
                if matched == 1 {
                    winner = local;
                } else if !exact {
                    break;
                }
            }
        }
        if matched != 1 {
            self.error(ip, Some(&path), None, || {
                format!("must match exactly one alternative, matched {matched}")
            });
            return false;
        }
        if let (Some(evaluated), Some(winner)) = (evaluated, winner) {
            evaluated.merge(winner);
        }
        true
    }

    pub(super) fn not(
        &mut self,
        node: NodeId,
        instance: &Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
    ) -> bool {
        let path = Path::key(sp, "not");
        if self.silently(node, instance, ip, Some(&path), None) {
            self.error(ip, Some(&path), None, || {
                "must not match the excluded schema".to_owned()
            });
            return false;
        }
        true
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword's fields plus the walk state"
    )]
    pub(super) fn if_then_else<'v>(
        &mut self,
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let if_path = Path::key(sp, "if");
        let mut local = evaluated.is_some().then(Evaluated::default);
        let holds = self.silently(condition, instance, ip, Some(&if_path), local.as_mut());
        if holds && let (Some(evaluated), Some(local)) = (evaluated.as_deref_mut(), local) {
            evaluated.merge(local);
        }
        let (branch, key) = if holds {
            (then, "then")
        } else {
            (otherwise, "else")
        };
        match branch {
            Some(node) => {
                let path = Path::key(sp, key);
                self.node(node, instance, ip, Some(&path), evaluated)
            }
            None => true,
        }
    }

    /// The node a reference lands on, following the dynamic scope for `$dynamicRef` and `$recursiveRef`.
    pub(super) fn dynamic_target(&self, target: NodeId, dynamic: &Dynamic) -> NodeId {
        match dynamic {
            Dynamic::Static => target,
            Dynamic::Anchor(name) => self
                .scope
                .iter()
                .filter_map(|r| self.resources.get(*r as usize))
                .find_map(|info| {
                    info.dynamic_anchors
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, id)| *id)
                })
                .unwrap_or(target),
            Dynamic::Recursive => self
                .scope
                .iter()
                .filter_map(|r| self.resources.get(*r as usize))
                .find_map(|info| info.recursive_root)
                .unwrap_or(target),
        }
    }
}
