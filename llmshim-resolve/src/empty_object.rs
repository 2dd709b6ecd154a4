//! Whether a schema surely admits the empty object `{}`: the test a recursion stub `{"type": "object"}` must pass.
//!
//! An unrolled recursive site that nothing above can absorb becomes the stub `{"type": "object"}`
//! (`resolve.unroll-recursion`). The stub is sound only where the schema it stands for admits an empty object: a
//! target that requires a property, directly or in every branch of a combinator, admits no finite instance through
//! its cycle, and a stub would let the model write one. The answer is three-valued (admits, rejects, cannot tell
//! without resolving a reference) and the stub is made only on a sure "admits".

use std::cell::RefCell;
use std::sync::Arc;

use hashbrown::HashMap;
use llmshim_core::keyword::SNAKE_CASE;
use serde_json::{Map, Value};

/// Nesting of combinators, `not` and references past which the answer is "cannot tell".
const MAX_DEPTH: usize = 32;

/// How many references one node may chain (a `$ref` whose target holds a `$ref`, ...) before the answer is "cannot
/// tell".
const MAX_CHAIN: usize = 8;

/// Whether the node `site` (a reference site, read under the base URI `base`) surely admits `{}`, its references
/// read as the expansion merges them: a node's other keys win over its reference target's. `resolve` takes a
/// reference and the base URI it is read under, and gives its target with the target's base URI.
pub(crate) fn admits_empty_object<'v, R>(
    site: &'v Map<String, Value>,
    base: Arc<str>,
    resolve: &R,
) -> bool
where
    R: Fn(&str, &str) -> Option<(&'v Value, Arc<str>)>,
{
    let reader = Reader {
        resolve,
        answers: RefCell::new(HashMap::new()),
    };
    reader.node(site, base, 0) == Some(true)
}

/// Reads schemas for [`admits_empty_object`].
struct Reader<'r, R> {
    resolve: &'r R,
    /// The answer for each node already read, by the node's address, its base URI and its depth: the same answer
    /// the reading would give again, so that a node that several entries reach (a target that an `allOf` names
    /// twice, and that names itself twice) is read once per depth, not once per path to it.
    answers: RefCell<HashMap<Read, Option<bool>>>,
}

/// One reading of a node: its address, the base URI it is read under, and its depth.
type Read = (*const Map<String, Value>, Arc<str>, usize);

/// A node with the targets of its chain of references under it, each with its base URI: a key of an earlier layer
/// wins, and every `$ref` but the last layer's is consumed by the chain (the last layer has none).
struct Layers<'v> {
    layers: Vec<(&'v Map<String, Value>, Arc<str>)>,
}

impl<'v> Layers<'v> {
    /// The value of `key` as the merged node holds it, with the base URI it is read under.
    fn get(&self, key: &str) -> Option<(&'v Value, &Arc<str>)> {
        self.layers
            .iter()
            .find_map(|(map, base)| map.get(key).map(|v| (v, base)))
    }

    /// Every key of the merged node, each once, with the base URI it is read under (`$ref`s left out).
    fn entries(&self) -> impl Iterator<Item = (&'v String, &'v Value, &Arc<str>)> {
        self.layers
            .iter()
            .enumerate()
            .flat_map(move |(i, (map, base))| {
                map.iter()
                    .filter(move |(k, _)| {
                        k.as_str() != "$ref"
                            && !self.layers[..i]
                                .iter()
                                .any(|(m, _)| m.contains_key(k.as_str()))
                    })
                    .map(move |(k, v)| (k, v, base))
            })
    }
}

impl<'v, R> Reader<'_, R>
where
    R: Fn(&str, &str) -> Option<(&'v Value, Arc<str>)>,
{
    /// The answer for one subschema read under `base`.
    fn schema(&self, value: &'v Value, base: &Arc<str>, depth: usize) -> Option<bool> {
        match value {
            Value::Bool(admits) => Some(*admits),
            // A nested `$id` would change the base its references are read under: not followed.
            Value::Object(map) if map.contains_key("$id") || map.contains_key("id") => None,
            Value::Object(map) => self.node(map, base.clone(), depth),
            _ => None,
        }
    }

    /// The answer for a node and the chain of its references' targets.
    fn node(&self, map: &'v Map<String, Value>, base: Arc<str>, depth: usize) -> Option<bool> {
        if depth > MAX_DEPTH {
            return None;
        }
        let key = (std::ptr::from_ref(map), base.clone(), depth);
        if let Some(answer) = self.answers.borrow().get(&key) {
            return *answer;
        }
        let answer = self.read(map, base, depth);
        self.answers.borrow_mut().insert(key, answer);
        answer
    }

    /// [`Reader::node`], read.
    fn read(&self, map: &'v Map<String, Value>, base: Arc<str>, depth: usize) -> Option<bool> {
        let mut layers = vec![(map, base)];
        loop {
            let (last, base) = match layers.last() {
                Some((last, base)) => (*last, base.clone()),
                None => return None,
            };
            let Some(reference) = last.get("$ref") else {
                break;
            };
            if layers.len() > MAX_CHAIN {
                return None;
            }
            match (self.resolve)(reference.as_str()?, &base)? {
                (Value::Object(target), target_base) => layers.push((target, target_base)),
                (Value::Bool(true), _) => break,
                _ => return None,
            }
        }
        self.layers(&Layers { layers }, depth)
    }

    /// `Some(true)` when `{}` surely satisfies every key of `node`, `Some(false)` when some key surely rejects it,
    /// `None` otherwise.
    fn layers(&self, node: &Layers<'v>, depth: usize) -> Option<bool> {
        let mut verdict = Some(true);
        for (key, value, base) in node.entries() {
            let key = SNAKE_CASE
                .iter()
                .find(|(snake, _)| *snake == key.as_str())
                .map_or(key.as_str(), |(_, camel)| camel);
            let answer = match key {
                "type" => match value {
                    Value::String(name) => Some(name == "object"),
                    Value::Array(names) => Some(names.iter().any(|n| n == "object")),
                    _ => None,
                },
                "enum" => value
                    .as_array()
                    .map(|values| values.iter().any(is_empty_object)),
                "const" => Some(is_empty_object(value)),
                "required" => value.as_array().map(Vec::is_empty),
                "minProperties" => value.as_f64().map(|n| n <= 0.0),
                "allOf" => self
                    .entries(value, base, depth)
                    .and_then(|a| all(a.into_iter())),
                "anyOf" => self.entries(value, base, depth).and_then(|answers| {
                    if answers.contains(&Some(true)) {
                        Some(true)
                    } else if answers.iter().all(|a| *a == Some(false)) {
                        Some(false)
                    } else {
                        None
                    }
                }),
                "oneOf" => self.entries(value, base, depth).and_then(|answers| {
                    let admitting = answers.iter().filter(|a| **a == Some(true)).count();
                    let unknown = answers.iter().filter(|a| a.is_none()).count();
                    match (admitting, unknown) {
                        (1, 0) => Some(true),
                        (2.., _) | (0, 0) => Some(false),
                        _ => None,
                    }
                }),
                "not" => self.schema(value, base, depth + 1).map(|admits| !admits),
                "if" => {
                    let branch = |k: &str| {
                        node.get(k)
                            .map_or(Some(true), |(s, b)| self.schema(s, b, depth + 1))
                    };
                    match self.schema(value, base, depth + 1) {
                        Some(true) => branch("then"),
                        Some(false) => branch("else"),
                        None => all([branch("then"), branch("else")].into_iter()),
                    }
                }
                // Dynamic references are not followed; the draft-3 combinators are not read.
                "$dynamicRef" | "$recursiveRef" | "extends" | "disallow" => None,
                // Every other keyword constrains members, other types, or nothing: `{}` has no members.
                _ => Some(true),
            };
            verdict = all([verdict, answer].into_iter());
            if verdict == Some(false) {
                break;
            }
        }
        verdict
    }

    /// The answers for the entries of a combinator, or `None` when it is no non-empty array.
    fn entries(
        &self,
        value: &'v Value,
        base: &Arc<str>,
        depth: usize,
    ) -> Option<Vec<Option<bool>>> {
        match value {
            Value::Array(items) if !items.is_empty() => Some(
                items
                    .iter()
                    .map(|s| self.schema(s, base, depth + 1))
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// The conjunction of three-valued answers: a sure "rejects" wins, then "cannot tell".
fn all(answers: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut verdict = Some(true);
    for answer in answers {
        match answer {
            Some(false) => return Some(false),
            None => verdict = None,
            Some(true) => {}
        }
    }
    verdict
}

fn is_empty_object(value: &Value) -> bool {
    value.as_object().is_some_and(Map::is_empty)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Whether the site `{"$ref": "#/$defs/T"}` admits `{}` in a document whose `$defs` are `defs`.
    fn admits(site: Value, defs: &Value) -> bool {
        let doc = json!({"$defs": defs});
        let resolve = |reference: &str, _base: &str| {
            let pointer = reference.strip_prefix('#')?;
            Some((doc.pointer(pointer)?, Arc::from("")))
        };
        let Value::Object(site) = site else {
            return false;
        };
        admits_empty_object(&site, Arc::from(""), &resolve)
    }

    fn site() -> Value {
        json!({"$ref": "#/$defs/T"})
    }

    #[test]
    fn an_object_requiring_nothing_admits_it() {
        assert!(admits(site(), &json!({"T": {"type": "object"}})));
        assert!(admits(
            site(),
            &json!({"T": {"type": "object", "properties": {"a": {"$ref": "#/$defs/T"}}, "required": []}})
        ));
        assert!(admits(
            site(),
            &json!({"T": {"anyOf": [{"required": ["a"]}, {"properties": {"a": {}}}]}})
        ));
        // The site's own keys win over its target's, as the expansion merges them.
        assert!(admits(
            json!({"$ref": "#/$defs/T", "required": []}),
            &json!({"T": {"required": ["a"]}})
        ));
        // A reference is read as its target under the referencing node's other keys.
        assert!(admits(
            site(),
            &json!({"T": {"type": "object", "required": [], "$ref": "#/$defs/U"}, "U": {"type": "array", "required": ["a"]}})
        ));
        assert!(admits(
            site(),
            &json!({"T": {"allOf": [{"$ref": "#/$defs/U"}]}, "U": {"minProperties": 0}})
        ));
    }

    #[test]
    fn a_required_property_anywhere_it_binds_rejects_it() {
        for defs in [
            json!({"T": {"required": ["a"]}}),
            json!({"T": {"type": "object", "anyOf": [{"properties": {"name": {"$ref": "#/$defs/T"}}, "required": ["name"]}]}}),
            json!({"T": {"any_of": [{"required": ["a"]}, {"min_properties": 1}]}}),
            json!({"T": {"allOf": [{}, {"required": ["a"]}]}}),
            json!({"T": {"oneOf": [{}, {"type": "object"}]}}),
            json!({"T": {"not": {}}}),
            json!({"T": {"if": true, "then": {"minProperties": 1}}}),
            json!({"T": {"enum": [1, {"a": 1}]}}),
            json!({"T": {"allOf": [{"$ref": "#/$defs/U"}]}, "U": {"required": ["a"]}}),
            json!({"T": {"$ref": "#/$defs/U"}, "U": {"$ref": "#/$defs/V"}, "V": {"type": "string"}}),
        ] {
            assert!(!admits(site(), &defs), "{defs}");
        }
    }

    #[test]
    fn what_it_cannot_read_is_no_admission() {
        for defs in [
            json!({"T": {"allOf": [{"$ref": "#/$defs/missing"}]}}),
            json!({"T": {"required": true}}),
            json!({"T": {"anyOf": []}}),
            json!({"T": {"$ref": "#/$defs/T"}}),
            json!({"T": {"allOf": [{"$id": "https://x.test/", "$ref": "#/$defs/U"}]}, "U": {}}),
            json!({"T": {"$dynamicRef": "#/$defs/T"}}),
        ] {
            assert!(!admits(site(), &defs), "{defs}");
        }
        let mut deep = json!({"required": ["a"]});
        for _ in 0..100 {
            deep = json!({"not": {"not": deep}});
        }
        assert!(!admits(site(), &json!({"T": deep})));
    }

    #[test]
    fn a_target_that_names_itself_twice_is_read_once_per_depth() {
        // Found by the property test (seed 1796166033339067023, Anthropic strict): each entry of `T`'s `allOf`
        // is `T` again, without consuming anything of the instance, so every path down to the depth limit was read,
        // 2^32 of them. Each node is now read once per depth; the answer stays "cannot tell".
        let twice = json!({"T": {"type": "object", "allOf": [{"$ref": "#/$defs/T"}, {"$ref": "#/$defs/T"}]}});
        assert!(!admits(site(), &twice));
        // Three definitions naming the next one twice each: the same node met at one depth by many paths.
        let chain = json!({
            "T": {"allOf": [{"$ref": "#/$defs/U"}, {"$ref": "#/$defs/U"}, {"$ref": "#/$defs/T"}]},
            "U": {"anyOf": [{"$ref": "#/$defs/V"}, {"$ref": "#/$defs/V"}, {"$ref": "#/$defs/T"}]},
            "V": {"type": "object", "oneOf": [{"$ref": "#/$defs/T"}, {"$ref": "#/$defs/U"}]}
        });
        assert!(!admits(site(), &chain));
        // A cycle whose every path admits `{}` still does, where the depth limit is not reached on the way.
        let sure = json!({"T": {"anyOf": [{"type": "object"}, {"$ref": "#/$defs/T"}, {"$ref": "#/$defs/T"}]}});
        assert!(admits(site(), &sure));
    }
}
