//! Object applicators: `properties`, `patternProperties`, `additionalProperties`, `unevaluatedProperties`,
//! `propertyNames` and the dependency keywords.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Run;
use super::evaluated::Evaluated;
use super::path::Path;
use crate::node::{Dependency, Known, NodeId, Table, head, same_tail};
use crate::regex::{BACKTRACK_MESSAGE, Pattern};

/// Instance objects up to this size are searched linearly by [`has_key`].
const SCAN_KEYS: usize = 24;

/// Whether the instance object has the member `name`: a linear scan for small objects, which is cheaper than
/// hashing the name.
#[inline]
pub(crate) fn has_key(map: &Map<String, Value>, name: &str) -> bool {
    if map.len() <= SCAN_KEYS {
        let name_head = head(name);
        map.keys()
            .any(|k| k.len() == name.len() && head(k) == name_head && same_tail(k, name))
    } else {
        map.contains_key(name)
    }
}

/// The member `name` of the instance object, found as [`has_key`] finds it.
#[inline]
pub(crate) fn member<'m>(map: &'m Map<String, Value>, name: &str) -> Option<&'m Value> {
    if map.len() <= SCAN_KEYS {
        let name_head = head(name);
        map.iter()
            .find(|(k, _)| k.len() == name.len() && head(k) == name_head && same_tail(k, name))
            .map(|(_, v)| v)
    } else {
        map.get(name)
    }
}

/// A property name quoted as a JSON string, for messages.
pub(crate) fn quote(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_else(|_| format!("{name:?}"))
}

impl Run<'_> {
    /// `properties`: looks each instance key up in the schema's index; when errors are collected, the matches are
    /// evaluated in the schema's order.
    pub(super) fn properties<'v>(
        &mut self,
        table: Table,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let path = Path::key(sp, "properties");
        let matches = map
            .iter()
            .filter_map(|(key, value)| Some((self.tables.position(table, key)?, key, value)));
        if self.fail_fast() {
            for (position, key, value) in matches {
                let ok = self.property(table, position, key, value, ip, &path);
                if !ok {
                    return false;
                }
                if let Some(evaluated) = evaluated.as_deref_mut() {
                    evaluated.properties.insert(key.as_str());
                }
            }
            return true;
        }
        let mut ordered: Vec<_> = matches.collect();
        ordered.sort_unstable_by_key(|(position, _, _)| *position);
        let mut valid = true;
        for (position, key, value) in ordered {
            if !self.property(table, position, key, value, ip, &path) {
                valid = false;
                if self.fail_fast() {
                    return false;
                }
            }
            if let Some(evaluated) = evaluated.as_deref_mut() {
                evaluated.properties.insert(key.as_str());
            }
        }
        valid
    }

    /// Evaluates the instance member `key` against the `properties` entry at `position`.
    fn property(
        &mut self,
        table: Table,
        position: u32,
        key: &str,
        value: &Value,
        ip: Option<&Path<'_>>,
        path: &Path<'_>,
    ) -> bool {
        let tables = self.tables;
        let Some(entry) = tables.entries(table).get(position as usize) else {
            return true;
        };
        let (name, node) = (tables.name(entry), &entry.node);
        let ic = Path::key(ip, key);
        let sc = Path::key(Some(path), name);
        self.node(*node, value, Some(&ic), Some(&sc), None)
    }

    pub(super) fn pattern_properties<'v>(
        &mut self,
        entries: &[(Arc<Pattern>, NodeId)],
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let mut valid = true;
        let path = Path::key(sp, "patternProperties");
        for (pattern, node) in entries {
            let sc = Path::key(Some(&path), pattern.source());
            for (key, value) in map {
                let ic = Path::key(ip, key);
                match pattern.is_match(key) {
                    Ok(false) => continue,
                    Ok(true) => {
                        if !self.node(*node, value, Some(&ic), Some(&sc), None) {
                            valid = false;
                        }
                        if let Some(evaluated) = evaluated.as_deref_mut() {
                            evaluated.properties.insert(key.as_str());
                        }
                    }
                    Err(_) => {
                        valid = false;
                        self.error(Some(&ic), Some(&sc), None, || BACKTRACK_MESSAGE.to_owned());
                    }
                }
                if !valid && self.fail_fast() {
                    return false;
                }
            }
        }
        valid
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword's fields plus the walk state"
    )]
    pub(super) fn additional_properties<'v>(
        &mut self,
        node: NodeId,
        is_false: bool,
        known: Known<'_>,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let tables = self.tables;
        let covered = |key: &str| {
            known
                .properties
                .is_some_and(|t| tables.position(t, key).is_some())
                || known
                    .patterns
                    .iter()
                    .any(|(p, _)| p.is_match(key).unwrap_or(true))
        };
        let rest = map.iter().filter(|(key, _)| !covered(key));
        let valid = self.rest_members(node, is_false, "additionalProperties", rest, ip, sp);
        if let Some(evaluated) = evaluated {
            evaluated.all_properties = true;
        }
        valid
    }

    pub(super) fn unevaluated_properties<'v>(
        &mut self,
        node: NodeId,
        is_false: bool,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let seen = evaluated.as_deref();
        let rest = map
            .iter()
            .filter(|(key, _)| !seen.is_some_and(|e| e.has_property(key)));
        let valid = self.rest_members(node, is_false, "unevaluatedProperties", rest, ip, sp);
        if let Some(evaluated) = evaluated {
            evaluated.all_properties = true;
        }
        valid
    }

    /// The members no sibling keyword covered, each checked against `node` (or refused when `is_false`) under the
    /// keyword `key`; `additionalProperties` and `unevaluatedProperties` differ only in what counts as covered.
    fn rest_members<'v>(
        &mut self,
        node: NodeId,
        is_false: bool,
        key: &str,
        rest: impl Iterator<Item = (&'v String, &'v Value)>,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
    ) -> bool {
        let mut valid = true;
        let path = Path::key(sp, key);
        for (name, value) in rest {
            if is_false {
                self.error(ip, Some(&path), None, || {
                    format!("property {} is not allowed", quote(name))
                });
                valid = false;
            } else {
                let ic = Path::key(ip, name);
                if !self.node(node, value, Some(&ic), Some(&path), None) {
                    valid = false;
                }
            }
            if !valid && self.fail_fast() {
                return false;
            }
        }
        valid
    }

    pub(super) fn property_names(
        &mut self,
        node: NodeId,
        instance: &Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let mut valid = true;
        let path = Path::key(sp, "propertyNames");
        for key in map.keys() {
            let name = Value::String(key.clone());
            let ic = Path::key(ip, key);
            if !self.silently(node, &name, Some(&ic), Some(&path), None) {
                valid = false;
                self.error(ip, Some(&path), None, || {
                    format!("property name {} is invalid", quote(key))
                });
                if self.fail_fast() {
                    return false;
                }
            }
        }
        valid
    }

    pub(super) fn dependencies<'v>(
        &mut self,
        key: &str,
        entries: &[(Box<str>, Dependency)],
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let mut valid = true;
        let path = Path::key(sp, key);
        for (name, dependency) in entries {
            if !has_key(map, name) {
                continue;
            }
            match dependency {
                Dependency::Required(names) => {
                    for needed in names {
                        if !has_key(map, needed) {
                            valid = false;
                            self.error(ip, Some(&path), None, || {
                                format!(
                                    "property {} requires property {}",
                                    quote(name),
                                    quote(needed)
                                )
                            });
                            if self.fail_fast() {
                                return false;
                            }
                        }
                    }
                }
                Dependency::Schema(node) => {
                    let sc = Path::key(Some(&path), name);
                    if !self.node(*node, instance, ip, Some(&sc), evaluated.as_deref_mut()) {
                        valid = false;
                        if self.fail_fast() {
                            return false;
                        }
                    }
                }
            }
        }
        valid
    }
}
