//! Step W26, strict part: an object node's own properties carried into each object branch of its union.
//!
//! Strict closes every object on the names it declares. An object node with properties of its own beside an `anyOf`
//! (or `oneOf`) of object branches would be closed on its names while each branch is closed on its own, so an
//! instance would need exactly the node's names and exactly a branch's names at once: where a branch declares other
//! names than the node, nothing is left. A value of the node is a value of the node's shape and of one branch, so
//! the node's shape goes into every branch instead (`node ∧ (B1 ∨ B2)` is `(node ∧ B1) ∨ (node ∧ B2)`), each branch
//! closed on the names of both, and the union alone carries the object.

use llmshim_core::walk::NodeCtx;
use llmshim_core::{json, keyword};
use serde_json::{Map, Value};

use crate::close::wrap_nullable;
use crate::null::admits_null;

/// The keys a node whose shape is carried into its branches may hold besides its union and annotations.
const SHAPE: [&str; 4] = ["type", "properties", "required", "additionalProperties"];

/// Keys whose meaning depends on other keys of the same schema, or that hold schemas: two property schemas that hold
/// one of them are met only where both hold the same value.
const ENTANGLED: [&str; 15] = [
    "properties",
    "additionalProperties",
    "required",
    "patternProperties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
];

/// The union key of an object node whose own shape must go into its union's branches: the node holds `anyOf` or
/// `oneOf` beside `properties` or `required` of its own. `None` where it holds no union, or declares nothing.
pub(crate) fn union_key(map: &Map<String, Value>) -> Option<&'static str> {
    let declares = match json::member(map, "properties") {
        Some(Value::Object(p)) => !p.is_empty(),
        Some(_) => true,
        None => false,
    } || json::member(map, "required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    if !declares {
        return None;
    }
    ["anyOf", "oneOf"]
        .into_iter()
        .find(|key| json::member(map, key).is_some_and(Value::is_array))
}

/// The union key (`anyOf` or `oneOf`) of a node that holds that union and annotations only: a branch with no type
/// of its own, whose branches say what it admits.
pub(crate) fn bare_union(map: &Map<String, Value>) -> Option<&'static str> {
    let union = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| json::member(map, k).is_some_and(Value::is_array))?;
    map.keys()
        .all(|k| k == union || keyword::ANNOTATIONS.contains(&k.as_str()))
        .then_some(union)
}

/// The node's properties closed with some names required besides its own: what a branch that only requires names
/// takes (see [`carry_into_branches`]). An error where a name is not one of the node's properties.
pub(crate) type CloseWith<'a> = dyn Fn(&[&str]) -> Result<Map<String, Value>, &'static str> + 'a;

/// Rebuilds each branch of the node's union `key` with the node's properties, `closed_properties` as closing leaves
/// them, beside its own; a branch that only requires names of the node's properties takes them as `close_with`
/// closes them with those names required. The first reason a branch cannot take them is returned and nothing is
/// written; on success the node keeps its union and annotations only. `walked_at` gives the index each branch was
/// walked at, where branches before it were removed since (empty where none was): what the walk noted of a branch
/// is found at that index.
pub(crate) fn carry_into_branches(
    map: &mut Map<String, Value>,
    key: &str,
    closed_properties: &Map<String, Value>,
    close_with: &CloseWith<'_>,
    walked_at: &[usize],
    cx: &NodeCtx<'_>,
) -> Result<(), &'static str> {
    if map.keys().any(|k| {
        !SHAPE.contains(&k.as_str()) && k != key && !keyword::ANNOTATIONS.contains(&k.as_str())
    }) {
        return Err("an object beside its union holds keywords its branches cannot take");
    }
    // A node closed as written admits no name it does not declare; one with an `additionalProperties` schema binds
    // every such name with it, which closed branches cannot say.
    let node_closed = match json::member(map, "additionalProperties") {
        None | Some(Value::Bool(true)) => false,
        Some(Value::Bool(false)) => true,
        Some(Value::Object(schema)) if schema.is_empty() => false,
        Some(_) => {
            return Err(
                "an object's additionalProperties schema beside its union binds its branches' properties",
            );
        }
    };
    let Some(Value::Array(branches)) = json::member(map, key) else {
        return Err("the union is not an array");
    };
    let at = format!("{}/{key}", cx.pointer());
    // A property the node's walk omitted (`target.omit-property`) is one no instance may hold.
    let omitted: Vec<String> = cx
        .omitted_properties()
        .into_iter()
        .filter(|name| !json::has(closed_properties, name))
        .collect();
    let node = Shape {
        properties: closed_properties,
        closed: node_closed,
        omitted: &omitted,
        close_with,
    };
    let merged = branches
        .iter()
        .enumerate()
        .map(|(i, branch)| {
            let walked = walked_at.get(i).copied().unwrap_or(i);
            node.carried_into(branch, &format!("{at}/{walked}"), cx)
        })
        .collect::<Result<Vec<_>, _>>()?;
    json::set(map, key, Value::Array(merged));
    for k in SHAPE {
        json::remove(map, k);
    }
    Ok(())
}

/// The node's closed shape, carried into its branches.
struct Shape<'a> {
    /// The node's properties as closing leaves them (each optional one admitting null).
    properties: &'a Map<String, Value>,
    /// The node was closed as written.
    closed: bool,
    /// The names of the node's properties its walk omitted.
    omitted: &'a [String],
    /// The node's properties closed with more names required, for a branch that only requires names.
    close_with: &'a CloseWith<'a>,
}

impl Shape<'_> {
    /// The branch at `pointer` with the node's shape carried into it: a closed object branch takes the node's
    /// properties beside its own, a branch that is itself a union (no type of its own) passes them to its branches.
    fn carried_into(
        &self,
        branch: &Value,
        pointer: &str,
        cx: &NodeCtx<'_>,
    ) -> Result<Value, &'static str> {
        let Value::Object(b) = branch else {
            return Err("a union branch beside the object's properties is not a schema object");
        };
        if json::member(b, "type").and_then(Value::as_str) == Some("object") {
            return self.carried_into_object(b, pointer, cx).map(Value::Object);
        }
        if let Some(names) = required_only(b) {
            return self.carried_into_required(b, &names).map(Value::Object);
        }
        let Some(union) = bare_union(b) else {
            return Err("a union branch beside the object's properties is not an object");
        };
        let mut out = b.clone();
        if let Some(Value::Array(inner)) = json::member_mut(&mut out, union) {
            for (j, sub) in inner.iter_mut().enumerate() {
                *sub = self.carried_into(sub, &format!("{pointer}/{union}/{j}"), cx)?;
            }
        }
        Ok(Value::Object(out))
    }

    /// A branch that only requires `names` (annotations besides): it admits the node's values that hold those names,
    /// so it becomes a closed object with the node's properties, the names it requires as the node's required ones
    /// are (not made nullable), the others nullable as closing leaves them. A name the node does not declare, or
    /// one its walk omitted, gives up: the closed object admits no such name.
    fn carried_into_required(
        &self,
        b: &Map<String, Value>,
        names: &[&str],
    ) -> Result<Map<String, Value>, &'static str> {
        if names
            .iter()
            .any(|name| self.omitted.iter().any(|o| o == name))
        {
            return Err("a union branch requires a property its object omitted");
        }
        let properties = (self.close_with)(names)?;
        let all = properties.keys().cloned().map(Value::String).collect();
        let mut out = Map::new();
        out.insert("type".to_owned(), Value::String("object".to_owned()));
        for (k, v) in b {
            if k != "required" {
                out.insert(k.clone(), v.clone());
            }
        }
        out.insert("properties".to_owned(), Value::Object(properties));
        out.insert("required".to_owned(), Value::Array(all));
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
        Ok(out)
    }

    /// A closed object branch with the node's properties beside its own: on a name both declare the two schemas
    /// met, then the branch's other names; every name required and the object closed again.
    fn carried_into_object(
        &self,
        b: &Map<String, Value>,
        pointer: &str,
        cx: &NodeCtx<'_>,
    ) -> Result<Map<String, Value>, &'static str> {
        if json::member(b, "additionalProperties") != Some(&Value::Bool(false))
            || b.keys().any(|k| {
                !SHAPE.contains(&k.as_str()) && !keyword::ANNOTATIONS.contains(&k.as_str())
            })
        {
            return Err(
                "an object branch beside the object's properties is not a plain closed object",
            );
        }
        let Some(Value::Object(own)) = json::member(b, "properties") else {
            return Err("an object branch beside the object's properties has no properties");
        };
        // A branch that declares a name the node omitted would bring it back beside the node's properties. Taking
        // it out of the branch is sound only where the branch left it optional, which its closed form no longer
        // tells.
        if own.keys().any(|name| self.omitted.contains(name)) {
            return Err("a union branch declares a property its object omitted");
        }
        let branch_closed = !cx.closed_by_strict(pointer);
        let mut properties = Map::new();
        for (name, schema) in self.properties {
            let value = match json::member(own, name) {
                Some(theirs) => meet(schema, theirs)?,
                // The branch admits no name it does not declare: as an optional property of the node that is the
                // property left out, which closed objects cannot say apart from null.
                None if branch_closed => {
                    return Err(
                        "a branch closed as written does not declare a property of its object",
                    );
                }
                None => schema.clone(),
            };
            properties.insert(name.clone(), value);
        }
        for (name, schema) in own {
            if json::has(self.properties, name) {
                continue;
            }
            if self.closed {
                return Err(
                    "an object closed as written does not declare a property of its branch",
                );
            }
            properties.insert(name.clone(), schema.clone());
        }
        let names = properties.keys().cloned().map(Value::String).collect();
        let mut out = b.clone();
        json::set(&mut out, "properties", Value::Object(properties));
        json::set(&mut out, "required", Value::Array(names));
        Ok(out)
    }
}

/// The names a branch that holds only `required` (an array of strings) and annotations requires; `None` for any
/// other branch.
fn required_only(b: &Map<String, Value>) -> Option<Vec<&str>> {
    let Some(Value::Array(names)) = json::member(b, "required") else {
        return None;
    };
    if !b
        .keys()
        .all(|k| k == "required" || keyword::ANNOTATIONS.contains(&k.as_str()))
    {
        return None;
    }
    names.iter().map(Value::as_str).collect()
}

/// One property's schema from the node (`ours`) and from a branch (`theirs`), both as closing leaves them (an
/// optional one admits null): a schema admitting exactly the values both admit, or why none is written.
fn meet(ours: &Value, theirs: &Value) -> Result<Value, &'static str> {
    if ours == theirs {
        return Ok(ours.clone());
    }
    match (nullable_core(ours), nullable_core(theirs)) {
        (Some(a), Some(b)) => {
            let mut met = meet_plain(&a, &b)?;
            if !admits_null(&met) {
                wrap_nullable(&mut met);
            }
            Ok(met)
        }
        // Null is admitted on one side only: the other side's schema must not admit it either.
        (Some(a), None) if !admits_null(theirs) => meet_plain(&a, theirs),
        (None, Some(b)) if !admits_null(ours) => meet_plain(ours, &b),
        (None, None) if !admits_null(ours) && !admits_null(theirs) => meet_plain(ours, theirs),
        _ => Err(
            "a property the object and its branch both declare admits null on one side in a way not merged",
        ),
    }
}

/// The schema inside a nullable wrapper `{"anyOf": [<schema>, {"type": "null"}], "description": …}` (what closing
/// makes of an optional property), with the wrapper's description; `None` for any other schema.
fn nullable_core(schema: &Value) -> Option<Value> {
    let Value::Object(map) = schema else {
        return None;
    };
    if map.keys().any(|k| k != "anyOf" && k != "description") {
        return None;
    }
    let Some(Value::Array(branches)) = json::member(map, "anyOf") else {
        return None;
    };
    let [inner, Value::Object(null)] = branches.as_slice() else {
        return None;
    };
    if null.len() != 1 || json::member(null, "type").and_then(Value::as_str) != Some("null") {
        return None;
    }
    let mut inner = inner.clone();
    if let (Value::Object(inner), Some(description)) =
        (&mut inner, json::member(map, "description"))
    {
        if json::has(inner, "description") {
            return None;
        }
        inner.insert("description".to_owned(), description.clone());
    }
    Some(inner)
}

/// Two schemas that do not admit null met as one map: keys of one side kept, keys both hold with one value kept,
/// an `enum` both hold narrowed to the values both list, annotations joined or the node's kept; any other key both
/// hold differently, or a key whose meaning depends on its neighbours held on one side only, gives up.
fn meet_plain(ours: &Value, theirs: &Value) -> Result<Value, &'static str> {
    if ours == theirs {
        return Ok(ours.clone());
    }
    let (Value::Object(a), Value::Object(b)) = (ours, theirs) else {
        return Err(
            "a property the object and its branch both declare is not a schema object on both sides",
        );
    };
    // A side that accepted any value once its keep-list had lifted what it could not keep was given a type by the
    // walk (`walk.narrow-any`, its description marked `(type: any)`): the other side is the meet, and the lifted
    // fragments of the first join its description, so that what they name stays said.
    if accepted_any(b) {
        return Ok(Value::Object(with_lifted(a, b)));
    }
    if accepted_any(a) {
        return Ok(Value::Object(with_lifted(b, a)));
    }
    let mut out = a.clone();
    for (key, value) in b {
        match json::member(a, key) {
            Some(mine) if mine == value => {}
            Some(Value::String(mine)) if key == "description" => {
                if let Value::String(other) = value
                    && !mine.contains(other.as_str())
                {
                    let joined = if other.contains(mine.as_str()) {
                        other.clone()
                    } else {
                        format!("{mine} {other}")
                    };
                    json::set(&mut out, key, Value::String(joined));
                }
            }
            // Other annotations say nothing of the values: the node's stay.
            Some(_) if keyword::ANNOTATIONS.contains(&key.as_str()) => {}
            Some(Value::Array(mine)) if key == "enum" => {
                let Value::Array(other) = value else {
                    return Err("a property's enum is not an array");
                };
                let both: Vec<Value> = mine.iter().filter(|v| other.contains(v)).cloned().collect();
                if both.is_empty() {
                    return Err(
                        "a property the object and its branch both declare shares no enum value",
                    );
                }
                json::set(&mut out, key, Value::Array(both));
            }
            Some(_) => {
                return Err(
                    "a property the object and its branch both declare has two different constraints",
                );
            }
            None if ENTANGLED.contains(&key.as_str()) => {
                return Err(
                    "a property the object and its branch both declare holds a structure on one side only",
                );
            }
            None => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if a.keys()
        .any(|k| ENTANGLED.contains(&k.as_str()) && !json::has(b, k))
    {
        return Err(
            "a property the object and its branch both declare holds a structure on one side only",
        );
    }
    Ok(Value::Object(out))
}

/// Whether a walked schema is one that accepted any value as written and was typed by `walk.narrow-any`: a `type`
/// and annotations only, its description carrying the `(type: any)` mark.
fn accepted_any(map: &Map<String, Value>) -> bool {
    json::member(map, "type").is_some_and(Value::is_string)
        && map
            .keys()
            .all(|k| k == "type" || keyword::ANNOTATIONS.contains(&k.as_str()))
        && json::member(map, "description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains("(type: any)"))
}

/// `kept` with the description of `any` (a schema [`accepted_any`] takes) joined to its own, the `(type: any)` mark
/// left out: the fragments the keep-list lifted into it, and its words.
fn with_lifted(kept: &Map<String, Value>, any: &Map<String, Value>) -> Map<String, Value> {
    let mut out = kept.clone();
    let text = json::member(any, "description")
        .and_then(Value::as_str)
        .map(|d| d.replace("(type: any)", ""))
        .unwrap_or_default();
    let text = text.trim();
    if text.is_empty() {
        return out;
    }
    let joined = match json::member(kept, "description").and_then(Value::as_str) {
        Some(own) if own.contains(text) => return out,
        Some(own) if !own.trim().is_empty() => format!("{own} {text}"),
        _ => text.to_owned(),
    };
    json::set(&mut out, "description", Value::String(joined));
    out
}
