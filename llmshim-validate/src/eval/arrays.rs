//! Array applicators: `prefixItems`/`items` (and the older `items`/`additionalItems`), `contains`, `unevaluatedItems`.

use serde_json::Value;

use super::Run;
use super::evaluated::Evaluated;
use super::path::Path;
use crate::node::NodeId;

impl Run<'_> {
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword's fields plus the walk state"
    )]
    pub(super) fn items<'v>(
        &mut self,
        prefix: &[NodeId],
        prefix_key: &str,
        rest: Option<NodeId>,
        rest_key: &str,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Array(items) = instance else {
            return true;
        };
        let mut valid = true;
        let prefix_path = Path::key(sp, prefix_key);
        for (i, (item, node)) in items.iter().zip(prefix).enumerate() {
            let ic = Path::index(ip, i);
            let sc = Path::index(Some(&prefix_path), i);
            if !self.node(*node, item, Some(&ic), Some(&sc), None) {
                valid = false;
                if self.fail_fast() {
                    return false;
                }
            }
        }
        if let Some(rest) = rest {
            let rest_path = Path::key(sp, rest_key);
            for (i, item) in items.iter().enumerate().skip(prefix.len()) {
                let ic = Path::index(ip, i);
                if !self.node(rest, item, Some(&ic), Some(&rest_path), None) {
                    valid = false;
                    if self.fail_fast() {
                        return false;
                    }
                }
            }
        }
        if let Some(evaluated) = evaluated {
            if rest.is_some() {
                evaluated.all_items = true;
            } else {
                evaluated.items = evaluated.items.max(prefix.len().min(items.len()));
            }
        }
        valid
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword's fields plus the walk state"
    )]
    pub(super) fn contains<'v>(
        &mut self,
        node: NodeId,
        min: u64,
        min_key: &str,
        max: Option<u64>,
        annotate: bool,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Array(items) = instance else {
            return true;
        };
        let marking = annotate && evaluated.is_some();
        let mut marks = Vec::new();
        let mut count = 0u64;
        let path = Path::key(sp, "contains");
        for (i, item) in items.iter().enumerate() {
            let ic = Path::index(ip, i);
            if self.silently(node, item, Some(&ic), Some(&path), None) {
                count += 1;
                if marking {
                    marks.push(i);
                } else if max.is_none_or(|m| count > m) && count >= min {
                    break;
                }
            }
        }
        let mut valid = true;
        if count < min {
            valid = false;
            self.error(ip, sp, Some(min_key), || {
                format!("must contain at least {min} matching items")
            });
        }
        if let Some(max) = max.filter(|m| count > *m) {
            valid = false;
            self.error(ip, sp, Some("maxContains"), || {
                format!("must contain at most {max} matching items")
            });
        }
        if let Some(evaluated) = evaluated.filter(|_| marking) {
            evaluated.marked.extend(marks);
        }
        valid
    }

    pub(super) fn unevaluated_items<'v>(
        &mut self,
        node: NodeId,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Array(items) = instance else {
            return true;
        };
        let mut valid = true;
        let path = Path::key(sp, "unevaluatedItems");
        let seen = evaluated.as_deref();
        for (i, item) in items.iter().enumerate() {
            if seen.is_some_and(|e| e.has_item(i)) {
                continue;
            }
            let ic = Path::index(ip, i);
            if !self.node(node, item, Some(&ic), Some(&path), None) {
                valid = false;
                if self.fail_fast() {
                    return false;
                }
            }
        }
        if let Some(evaluated) = evaluated {
            evaluated.all_items = true;
        }
        valid
    }
}
