//! Document order for changes: where a change's pointer stands in the output, or else in the input.
//!
//! A report lists changes in the order the walk performed them, which jumps around (a `$ref` is inlined after the
//! changes inside its target, definitions are dropped first). `explain` reads better top to bottom, so each change
//! is placed by its pointer, one segment at a time: a key or index the output still has sorts by its position there;
//! one the output no longer has (a removed keyword, an inlined `$ref`) sorts before the node's remaining keys, among
//! its fellow removed keys by its position in the input at the same place when the input has one, and otherwise in
//! the order performed. A node's own change sorts before the changes inside it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use llmshim::schema::Change;

/// The decoded reference tokens of a JSON Pointer (`~1` is `/`, `~0` is `~`); the root `""` has none.
///
/// ```
/// use llmshim_cli::explain::order::tokens;
///
/// assert_eq!(tokens(""), Vec::<String>::new());
/// assert_eq!(tokens("/properties/a~1b/items/0"), ["properties", "a/b", "items", "0"]);
/// assert_eq!(tokens("/~0x"), ["~x"]);
/// ```
pub fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Objects with more keys than this get a key-to-position table instead of a scan per lookup.
const SCAN_LIMIT: usize = 16;

/// Looks up children with their positions, remembering the key positions of large objects.
#[derive(Default)]
struct Positions<'v> {
    tables: HashMap<*const Map<String, Value>, HashMap<&'v str, usize>>,
}

impl<'v> Positions<'v> {
    /// The child of `node` named by `token`, with its position among its siblings.
    fn child(&mut self, node: &'v Value, token: &str) -> Option<(usize, &'v Value)> {
        match node {
            Value::Object(map) if map.len() > SCAN_LIMIT => {
                let table = self
                    .tables
                    .entry(std::ptr::from_ref(map))
                    .or_insert_with(|| {
                        map.keys()
                            .enumerate()
                            .map(|(at, k)| (k.as_str(), at))
                            .collect()
                    });
                let at = *table.get(token)?;
                map.get(token).map(|child| (at, child))
            }
            Value::Object(map) => map
                .iter()
                .enumerate()
                .find(|(_, (k, _))| k.as_str() == token)
                .map(|(at, (_, child))| (at, child)),
            Value::Array(items) => {
                let at: usize = token.parse().ok()?;
                items.get(at).map(|child| (at, child))
            }
            _ => None,
        }
    }
}

/// A sort key: per token, whether the output has it (kept keys sort after removed ones) and a position.
type Key = Vec<(bool, usize)>;

/// The position of `pointer`: the output's positions while the output has the path, then the input's at the same
/// place; a token that neither has sorts last among the removed keys of its node (ties keep the order performed).
fn key<'v>(
    pointer: &str,
    input: &'v Value,
    output: &'v Value,
    positions: &mut Positions<'v>,
) -> Key {
    let mut out = Some(output);
    let mut inp = Some(input);
    let mut key = Vec::new();
    for token in tokens(pointer) {
        let in_child = inp.and_then(|node| positions.child(node, &token));
        if let Some((at, child)) = out.and_then(|node| positions.child(node, &token)) {
            key.push((true, at));
            out = Some(child);
        } else {
            key.push((false, in_child.map_or(usize::MAX, |(at, _)| at)));
            out = None;
        }
        inp = in_child.map(|(_, child)| child);
    }
    key
}

/// The changes in document order (see the module documentation); a stable sort, so changes at the same place
/// keep the order performed.
///
/// ```
/// use llmshim::schema::{Normalizer, Options, Target};
/// use llmshim_cli::explain::order::document_order;
/// use serde_json::json;
///
/// let input = json!({
///     "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"type": "string", "format": "email"}},
///     "$defs": {"A": {"type": "integer", "minimum": 0}}
/// });
/// let mut output = input.clone();
/// let options = Options::for_target(Target::Google).with_diagnostics(true);
/// let report = Normalizer::default().normalize_with(&options, &mut output);
/// let pointers: Vec<&str> = document_order(&report.changes, &input, &output)
///     .iter()
///     .map(|c| c.pointer.as_str())
///     .collect();
/// // `$defs` is gone, so it comes before the root's remaining keys; the inferred root `type` is last in the output.
/// assert_eq!(pointers, ["/$defs", "/properties/a/$ref", "/properties/b/format", "/type"]);
/// ```
pub fn document_order<'c>(changes: &'c [Change], input: &Value, output: &Value) -> Vec<&'c Change> {
    let mut positions = Positions::default();
    let mut keyed: Vec<(Key, &'c Change)> = changes
        .iter()
        .map(|change| (key(&change.pointer, input, output, &mut positions), change))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, change)| change).collect()
}
