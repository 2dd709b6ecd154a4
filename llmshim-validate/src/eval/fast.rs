//! The boolean walk: the verdict of a node when no error will be recorded and no annotation is wanted.
//!
//! It gives exactly the verdict of the full walk in fail-fast mode, without locations, messages or annotation
//! sets: `is_valid`, and every silent subschema (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`, and
//! everything after the error cap) of `validate`, take it. A node with `unevaluated*` keywords needs to know what
//! its subschemas evaluated, so it goes through the full walk, whose own subschemas come back here when they can.
//!
//! Since every keyword of a node must hold, keywords may be checked in any order. The liberties taken are that
//! `additionalProperties` applies its sibling `properties` and `patternProperties` in the same pass over the
//! instance's members, so each member is looked up and matched once, and that a `required` whose names are all
//! sibling `properties` is checked by that pass (the validation semantics are unchanged).
//!
//! The dispatch loop stays small: keywords that walk an object's members or an array's items have their own
//! out-of-line functions, so a node with a few simple keywords pays nothing for them.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::assertions::{Verdict, check, type_matches};
use super::objects::{has_key, member};
use super::{MAX_EVAL_DEPTH, Run};
use crate::node::{
    Dependency, Dispatch, Dynamic, Entry, Keyword, NONE, Node, NodeId, ObjectShape, PatternEntries,
    Table, TypeSet, str_eq,
};
use crate::regex::Pattern;

impl<'s> Run<'s> {
    /// Whether `instance` is valid against the node `id`.
    ///
    /// A node of assertions only is checked in place: it applies no subschema, so only the nesting limit of its
    /// own entry matters, and it neither enters the dynamic scope observably nor nests further.
    #[inline]
    pub(crate) fn valid(&mut self, id: NodeId, instance: &Value) -> bool {
        let nodes = self.nodes;
        let Some(node) = nodes.get(id as usize) else {
            return true;
        };
        if node.leaf {
            return self.depth < MAX_EVAL_DEPTH && self.valid_leaf(node, instance);
        }
        self.valid_node(id, instance)
    }

    #[inline]
    fn valid_leaf(&self, node: &Node, instance: &Value) -> bool {
        if node.types != 0 {
            return type_matches(TypeSet(node.types), instance);
        }
        node.keywords(self.keywords)
            .iter()
            .all(|keyword| assert_keyword(keyword, instance))
    }

    /// [`Run::valid`] for a node that applies subschemas.
    #[inline(never)]
    fn valid_node(&mut self, mut id: NodeId, instance: &Value) -> bool {
        if !self.charge() {
            return false;
        }
        let nodes = self.nodes;
        let keywords = self.keywords;
        let entry_depth = self.depth;
        // A chain of nodes that are only a static `$ref` is followed in place, each hop still counting one level
        // of nesting, as if each were entered in turn: a forwarded chain at once (the target's own entry check
        // then covers every hop's), a cyclic one hop by hop until the nesting limit (see `link`).
        let node = loop {
            let Some(node) = nodes.get(id as usize) else {
                self.depth = entry_depth;
                return true;
            };
            if node.forward != NONE {
                if node.hops == 0 {
                    // One hop of a cycle, entered like any node.
                    if self.depth >= MAX_EVAL_DEPTH {
                        self.depth = entry_depth;
                        return false;
                    }
                    self.depth += 1;
                } else {
                    self.depth += node.hops;
                }
                id = node.forward;
                continue;
            }
            if node.unevaluated {
                let valid = self.node_full(id, instance, None, None, None);
                self.depth = entry_depth;
                return valid;
            }
            if self.depth >= MAX_EVAL_DEPTH {
                self.depth = entry_depth;
                return false;
            }
            if node.leaf {
                let valid = self.valid_leaf(node, instance);
                self.depth = entry_depth;
                return valid;
            }
            break node;
        };
        self.depth += 1;
        let pushed = self.dynamic_scoping && self.push_scope(node.resource);
        if let Some(shape) = node.object {
            let valid = self.valid_object(node, shape, instance);
            if pushed {
                self.scope.pop();
            }
            self.depth = entry_depth;
            return valid;
        }
        let mut valid = true;
        for keyword in node.keywords(keywords) {
            // `type` is the most common keyword by far; a direct test keeps it off the dispatch table's indirect
            // branch.
            let holds = if let Keyword::Type { types, .. } = keyword {
                type_matches(*types, instance)
            } else {
                self.valid_keyword(keyword, instance)
            };
            if !holds {
                valid = false;
                break;
            }
        }
        if pushed {
            self.scope.pop();
        }
        self.depth = entry_depth;
        valid
    }

    /// Enters the resource `resource` in the dynamic scope unless it is already the innermost one.
    #[inline(never)]
    fn push_scope(&mut self, resource: u32) -> bool {
        if self.scope.last() == Some(&resource) {
            return false;
        }
        self.scope.push(resource);
        true
    }

    #[inline]
    fn valid_keyword(&mut self, keyword: &'s Keyword, instance: &Value) -> bool {
        match keyword {
            Keyword::False
            | Keyword::Type { .. }
            | Keyword::Const(_)
            | Keyword::Enum(_)
            | Keyword::Required { .. } => assert_keyword(keyword, instance),
            Keyword::Properties {
                table,
                covered,
                required,
            } => match instance {
                Value::Object(map) if !*covered => self.valid_properties(*table, *required, map),
                _ => true,
            },
            Keyword::PatternProperties { entries, covered } => match instance {
                Value::Object(map) if !*covered => self.valid_patterns(entries, map),
                _ => true,
            },
            Keyword::AdditionalProperties {
                node,
                is_false,
                properties,
                patterns,
            } => match instance {
                Value::Object(map) => {
                    self.valid_members(*node, *is_false, *properties, patterns, map)
                }
                _ => true,
            },
            Keyword::Items { prefix, rest, .. } => match instance {
                Value::Array(items) => self.valid_items(prefix, *rest, items),
                _ => true,
            },
            Keyword::AllOf { nodes, dispatch } => {
                // The branches a dispatch skips would enter three nested nodes (branch, test, constant), so it is
                // only used where none of them can reach the nesting limit.
                if *dispatch != NONE
                    && !self.dynamic_scoping
                    && self.depth + 2 < MAX_EVAL_DEPTH
                    && let Some(dispatch) = self.dispatches.get(*dispatch as usize)
                {
                    return self.valid_dispatch(dispatch, instance);
                }
                nodes.iter().all(|node| self.valid(*node, instance))
            }
            Keyword::AnyOf(nodes) => nodes.iter().any(|node| self.valid(*node, instance)),
            Keyword::OneOf(nodes) => self.valid_one_of(nodes, instance),
            Keyword::Not(node) => !self.valid(*node, instance),
            Keyword::If {
                condition,
                then,
                otherwise,
            } => {
                let branch = if self.valid(*condition, instance) {
                    then
                } else {
                    otherwise
                };
                branch.is_none_or(|node| self.valid(node, instance))
            }
            Keyword::Ref {
                target, dynamic, ..
            } => {
                let target = match dynamic {
                    Dynamic::Static => *target,
                    dynamic => self.dynamic_target(*target, dynamic),
                };
                self.valid(target, instance)
            }
            _ => self.valid_other(keyword, instance),
        }
    }

    /// The keywords the dispatch loop does not handle inline.
    #[inline(never)]
    fn valid_other(&mut self, keyword: &'s Keyword, instance: &Value) -> bool {
        match keyword {
            Keyword::Contains { node, min, max, .. } => match instance {
                Value::Array(items) => self.valid_contains(*node, *min, *max, items),
                _ => true,
            },
            Keyword::PropertyNames(node) => match instance {
                Value::Object(map) => map
                    .keys()
                    .all(|key| self.valid(*node, &Value::String(key.clone()))),
                _ => true,
            },
            Keyword::Dependencies { entries, .. } => match instance {
                Value::Object(map) => self.valid_dependencies(entries, map, instance),
                _ => true,
            },
            Keyword::UnevaluatedItems(_) | Keyword::UnevaluatedProperties { .. } => {
                // Only nodes without `unevaluated*` keywords get here; this keeps the walk total regardless.
                self.keyword(keyword, instance, None, None, None)
            }
            _ => assert_keyword(keyword, instance),
        }
    }

    /// An [`ObjectShape`] node: `properties`, `required` and `additionalProperties` ignore anything but objects,
    /// so a non-object only has to pass `type`; an object passes `type` and the one member pass.
    #[inline]
    fn valid_object(&mut self, node: &Node, shape: ObjectShape, instance: &Value) -> bool {
        let Value::Object(map) = instance else {
            return type_matches(TypeSet(shape.types), instance);
        };
        if shape.types & TypeSet::OBJECT == 0 {
            return false;
        }
        let keywords = node.keywords(self.keywords);
        let at = |offset: u8| {
            keywords
                .get(usize::from(offset))
                .map(|k| (node.start + u32::from(offset), k))
        };
        match (at(shape.properties), at(shape.additional)) {
            (
                _,
                Some((
                    _,
                    Keyword::AdditionalProperties {
                        node,
                        is_false,
                        properties,
                        patterns,
                    },
                )),
            ) => self.valid_members(*node, *is_false, *properties, patterns, map),
            (
                Some((
                    _,
                    Keyword::Properties {
                        table, required, ..
                    },
                )),
                None,
            ) => self.valid_properties(*table, *required, map),
            _ => true,
        }
    }

    /// An `allOf` through its [`Dispatch`]: the other branches as usual, then the `then` subschema of every
    /// discriminator branch whose test holds. A test holds when the instance is not an object (`properties` and
    /// `required` ignore it), when the property is absent and not required, or when it is the test's constant.
    /// Each `then` is applied one level deeper, inside its branch.
    #[inline(never)]
    fn valid_dispatch(&mut self, dispatch: &'s Dispatch, instance: &Value) -> bool {
        if !dispatch
            .others
            .iter()
            .all(|node| self.valid(*node, instance))
        {
            return false;
        }
        self.depth += 1;
        let valid = match instance {
            Value::Object(map) => match member(map, &dispatch.property) {
                None => dispatch
                    .all
                    .iter()
                    .filter(|(_, required)| !required)
                    .all(|(then, _)| self.valid(*then, instance)),
                Some(Value::String(value)) => dispatch
                    .by_value
                    .get(value.as_str())
                    .is_none_or(|thens| thens.iter().all(|then| self.valid(*then, instance))),
                Some(_) => true,
            },
            _ => dispatch
                .all
                .iter()
                .all(|(then, _)| self.valid(*then, instance)),
        };
        self.depth -= 1;
        valid
    }

    /// `properties` alone: each member named in the table against its subschema, then the fused `required`.
    #[inline(never)]
    fn valid_properties(&mut self, table: Table, required: u64, map: &Map<String, Value>) -> bool {
        let mut seen = 0u64;
        for (key, value) in map {
            if let Some(position) = self.tables.position(table, key) {
                seen |= 1u64.checked_shl(position).unwrap_or(0);
                if let Some(entry) = self.tables.entries(table).get(position as usize)
                    && !self.valid_entry(entry, value)
                {
                    return false;
                }
            }
        }
        seen & required == required
    }

    /// [`Run::valid`] for the subschema of a `properties` entry, checking a `type`-only one in place.
    #[inline]
    fn valid_entry(&mut self, entry: &Entry, value: &Value) -> bool {
        let types = entry.types;
        if types != 0 {
            return self.depth < MAX_EVAL_DEPTH && type_matches(TypeSet(types), value);
        }
        self.valid(entry.node, value)
    }

    /// `patternProperties` alone: every member against the subschema of every pattern it matches.
    #[inline(never)]
    fn valid_patterns(&mut self, entries: &'s PatternEntries, map: &Map<String, Value>) -> bool {
        for (pattern, node) in entries.iter() {
            for (key, value) in map {
                match pattern.is_match(key) {
                    Ok(false) => {}
                    Ok(true) => {
                        if !self.valid(*node, value) {
                            return false;
                        }
                    }
                    Err(_) => return false,
                }
            }
        }
        true
    }

    /// `additionalProperties` with its sibling `properties` and `patternProperties`: each member is checked
    /// against the property of its name and every pattern it matches, and the rest against `node`.
    #[inline(never)]
    fn valid_members(
        &mut self,
        node: NodeId,
        is_false: bool,
        properties: u32,
        patterns: &'s [(Arc<Pattern>, NodeId)],
        map: &Map<String, Value>,
    ) -> bool {
        // The sibling `properties` keyword is read in place (see `Known::of`).
        let (table, required) = match self.keywords.get(properties as usize) {
            Some(Keyword::Properties {
                table, required, ..
            }) => (Some(*table), *required),
            _ => (None, 0),
        };
        let mut seen = 0u64;
        for (key, value) in map {
            let mut matched = false;
            if let Some(table) = table
                && let Some(position) = self.tables.position(table, key)
            {
                matched = true;
                seen |= 1u64.checked_shl(position).unwrap_or(0);
                if let Some(entry) = self.tables.entries(table).get(position as usize)
                    && !self.valid_entry(entry, value)
                {
                    return false;
                }
            }
            for (pattern, subschema) in patterns {
                match pattern.is_match(key) {
                    Ok(false) => {}
                    Ok(true) => {
                        matched = true;
                        if !self.valid(*subschema, value) {
                            return false;
                        }
                    }
                    Err(_) => return false,
                }
            }
            if !matched && (is_false || !self.valid(node, value)) {
                return false;
            }
        }
        seen & required == required
    }

    /// `prefixItems`/`items` (or array `items`/`additionalItems`).
    #[inline(never)]
    fn valid_items(&mut self, prefix: &[NodeId], rest: Option<NodeId>, items: &[Value]) -> bool {
        for (item, node) in items.iter().zip(prefix.iter()) {
            if !self.valid(*node, item) {
                return false;
            }
        }
        match rest {
            Some(rest) => items
                .iter()
                .skip(prefix.len())
                .all(|item| self.valid(rest, item)),
            None => true,
        }
    }

    /// `contains` with `minContains`/`maxContains`.
    fn valid_contains(
        &mut self,
        node: NodeId,
        min: u64,
        max: Option<u64>,
        items: &[Value],
    ) -> bool {
        if min == 0 && max.is_none() {
            return true;
        }
        let mut count = 0u64;
        for item in items {
            if self.valid(node, item) {
                count += 1;
                match max {
                    None if count >= min => return true,
                    Some(max) if count > max => return false,
                    _ => {}
                }
            }
        }
        count >= min && max.is_none_or(|max| count <= max)
    }

    /// `dependentRequired`, `dependentSchemas` and `dependencies`.
    fn valid_dependencies(
        &mut self,
        entries: &'s [(Box<str>, Dependency)],
        map: &Map<String, Value>,
        instance: &Value,
    ) -> bool {
        for (name, dependency) in entries {
            if !has_key(map, name) {
                continue;
            }
            let holds = match dependency {
                Dependency::Required(names) => all_present(map, names),
                Dependency::Schema(node) => self.valid(*node, instance),
            };
            if !holds {
                return false;
            }
        }
        true
    }

    fn valid_one_of(&mut self, nodes: &[NodeId], instance: &Value) -> bool {
        let mut matched = 0;
        for node in nodes {
            if self.valid(*node, instance) {
                matched += 1;
                if matched > 1 {
                    return false;
                }
            }
        }
        matched == 1
    }
}

/// Whether `instance` satisfies the assertion `keyword` ([`Keyword::is_assertion`]).
#[inline]
fn assert_keyword(keyword: &Keyword, instance: &Value) -> bool {
    match keyword {
        Keyword::False => false,
        Keyword::Type { types, .. } => type_matches(*types, instance),
        Keyword::Const(value) => match (&**value, instance) {
            (Value::String(expected), Value::String(actual)) => str_eq(expected, actual),
            _ => check(keyword, instance) == Verdict::Pass,
        },
        Keyword::Enum(values) => match instance {
            Value::String(actual) => values
                .iter()
                .any(|v| matches!(v, Value::String(expected) if str_eq(expected, actual))),
            _ => check(keyword, instance) == Verdict::Pass,
        },
        Keyword::Required { names, fused } => match instance {
            Value::Object(map) if !*fused => all_present(map, names),
            _ => true,
        },
        _ => check(keyword, instance) == Verdict::Pass,
    }
}

/// Whether the object has every member in `names`.
#[inline(never)]
fn all_present(map: &Map<String, Value>, names: &[Box<str>]) -> bool {
    names.iter().all(|name| has_key(map, name))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::compile;

    /// `is_valid` takes the boolean walk; `validate` takes the full walk for every subschema that reports errors.
    fn verdict(schema: &Value, instance: &Value) -> bool {
        let validator = compile(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let fast = validator.is_valid(instance);
        assert_eq!(
            fast,
            validator.validate(instance).is_ok(),
            "{schema} on {instance}"
        );
        fast
    }

    fn discriminator() -> Value {
        let mut branches = Vec::new();
        for (i, kind) in ["a", "b", "c", "a"].iter().enumerate() {
            let mut test = json!({"properties": {"kind": {"const": kind}}});
            if i == 1 {
                test["required"] = json!(["kind"]);
            }
            let then = match i {
                0 => json!({"required": ["x"]}),
                1 => json!({"properties": {"x": {"type": "string"}}}),
                2 => json!(false),
                _ => json!({"properties": {"x": {"minLength": 2}}}),
            };
            branches.push(json!({"if": test, "then": then}));
        }
        branches.push(json!({"if": {"properties": {"kind": {"const": "z"}}}}));
        branches.push(json!({"type": ["object", "string", "null"]}));
        json!({"allOf": branches})
    }

    #[test]
    fn discriminated_all_of_applies_exactly_the_branches_whose_test_holds() {
        let schema = discriminator();
        let cases = [
            // Without `kind`, the tests without `required` hold: "a" needs `x`, "c" allows nothing.
            (json!({}), false),
            (json!({"kind": "a", "x": "xy"}), true),
            (json!({"kind": "a", "x": "x"}), false),
            (json!({"kind": "a"}), false),
            (json!({"kind": "b", "x": 1}), false),
            (json!({"kind": "b"}), true),
            (json!({"kind": "c"}), false),
            (json!({"kind": "z"}), true),
            (json!({"kind": "q", "x": 1}), true),
            (json!({"kind": 1}), true),
            // Not an object: every test holds, and "c" allows nothing.
            (json!("text"), false),
            (json!(null), false),
            (json!(1), false),
        ];
        for (instance, expected) in cases {
            assert_eq!(verdict(&schema, &instance), expected, "{instance}");
        }
    }

    #[test]
    fn reference_chains_count_every_hop_against_the_nesting_limit() {
        // The target of a chain of `length` hops from the root is entered at depth `length + 1`; under `not` one
        // level deeper.
        for (length, expected) in [
            (10usize, true),
            (509, true),
            (510, true),
            (511, false),
            (600, false),
        ] {
            let mut defs = serde_json::Map::new();
            for i in 0..length {
                defs.insert(
                    format!("r{i}"),
                    json!({"$ref": format!("#/$defs/r{}", i + 1)}),
                );
            }
            defs.insert(format!("r{length}"), json!({"type": "string"}));
            let schema = json!({"$defs": defs, "$ref": "#/$defs/r0"});
            assert_eq!(verdict(&schema, &json!("s")), expected, "chain of {length}");
            let negated = json!({"$defs": schema["$defs"].clone(), "not": {"$ref": "#/$defs/r0"}});
            assert_eq!(
                verdict(&negated, &json!("s")),
                length >= 510,
                "negated chain of {length}"
            );
        }
        let cycle = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "not": {"$ref": "#/$defs/a"}});
        assert!(verdict(&cycle, &json!(1)));
    }

    #[test]
    fn the_nesting_limit_near_a_dispatch_gives_the_plain_verdict() {
        // Each level tries itself first; near the nesting limit the discriminator's tests can no longer be
        // entered, so its branches hold vacuously and the deepest level accepts `{"kind": "c"}`.
        let schema = json!({"$defs": {"d": discriminator()}, "anyOf": [{"$ref": "#"}, {"$ref": "#/$defs/d"}]});
        assert!(verdict(&schema, &json!({"kind": "c"})));
        assert!(verdict(&schema, &json!({"kind": "a", "x": "xy"})));
    }

    #[test]
    fn object_shaped_nodes_match_the_keywords() {
        let closed = json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "string", "minLength": 2}},
            "required": ["a"],
            "additionalProperties": false
        });
        let open = json!({"required": ["a"], "properties": {"a": {"type": "integer"}}});
        let extra =
            json!({"additionalProperties": {"type": "boolean"}, "type": ["object", "string"]});
        let cases = [
            (&closed, json!({"a": 1}), true),
            (&closed, json!({"a": 1, "b": "xy"}), true),
            (&closed, json!({"a": 1, "b": "x"}), false),
            (&closed, json!({"a": 1, "c": 1}), false),
            (&closed, json!({"b": "xy"}), false),
            (&closed, json!("text"), false),
            (&closed, json!([]), false),
            (&open, json!({"a": 1, "z": null}), true),
            (&open, json!({"z": null}), false),
            (&open, json!({"a": "1"}), false),
            (&open, json!("text"), true),
            (&open, json!(3), true),
            (&extra, json!({"x": true}), true),
            (&extra, json!({"x": 1}), false),
            (&extra, json!("text"), true),
            (&extra, json!(3), false),
        ];
        for (schema, instance, expected) in cases {
            assert_eq!(
                verdict(schema, &instance),
                expected,
                "{schema} on {instance}"
            );
        }
    }

    #[test]
    fn fused_required_and_combined_member_pass_match_the_keywords() {
        let schema = json!({
            "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
            "patternProperties": {"^x-": {"type": "string"}, "^x-n": {"type": "number"}},
            "required": ["a"],
            "additionalProperties": false
        });
        let cases = [
            (json!({"a": 1}), true),
            (json!({}), false),
            (json!({"a": 1, "b": "s"}), true),
            (json!({"a": 1, "c": 1}), false),
            (json!({"a": 1, "x-s": "s"}), true),
            (json!({"a": 1, "x-s": 1}), false),
            (json!({"a": 1, "x-n": 1}), false),
            (json!({"a": "1"}), false),
            (json!([1]), true),
        ];
        for (instance, expected) in cases {
            assert_eq!(verdict(&schema, &instance), expected, "{instance}");
        }
    }
}
