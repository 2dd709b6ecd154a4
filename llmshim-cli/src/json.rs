//! JSON text in and out at any nesting depth: reading, writing, copying and dropping without recursion.
//!
//! `serde_json`'s parser stops at 128 levels, and its serializer, `Clone` and `Drop` recurse once per level, so a
//! document nested 100,000 levels deep would be refused or overflow the stack. The command reads every document
//! with [`from_str`], writes every answer with [`write()`], and copies and frees values with [`deep_clone`] and
//! [`dismantle`]; each keeps its own stack on the heap. Scalars and keys still go through `serde_json`, so the values
//! read and the text written are exactly what `serde_json` reads and writes (same numbers, same escapes, same key
//! order), only without its depth limit.
//!
//! ```
//! use llmshim_cli::json;
//!
//! let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
//! let value = json::from_str(&deep).unwrap();
//! let mut text = Vec::new();
//! json::write(&mut text, &value, false).unwrap();
//! assert_eq!(text, deep.as_bytes());
//! json::dismantle(value);
//! ```

mod read;
mod write;

pub use read::{ParseError, from_str};
pub use write::{write, write_painted};

use serde_json::{Map, Value};

/// Drops `value` from an explicit stack, so that a value nested deeper than the stack allows is freed safely.
pub fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

/// A container being copied: the source children still to visit and the copy built so far.
enum Open<'a> {
    Array(std::slice::Iter<'a, Value>, Vec<Value>),
    Object(serde_json::map::Iter<'a>, Map<String, Value>, String),
}

/// A copy of `value` (key order and numbers kept) built from an explicit stack, so that a value nested deeper than
/// the stack allows is copied safely.
///
/// ```
/// use llmshim_cli::json::deep_clone;
/// use serde_json::json;
///
/// let value = json!({"b": [1, {"c": null}], "a": 2.5});
/// assert_eq!(deep_clone(&value), value);
/// ```
pub fn deep_clone(value: &Value) -> Value {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = value;
    loop {
        // Open `next`: a scalar or empty container is done at once, a container with children goes on the stack.
        let mut done = match next {
            Value::Array(items) if !items.is_empty() => {
                stack.push(Open::Array(items.iter(), Vec::with_capacity(items.len())));
                None
            }
            Value::Object(map) if !map.is_empty() => {
                stack.push(Open::Object(map.iter(), Map::new(), String::new()));
                None
            }
            Value::Array(_) => Some(Value::Array(Vec::new())),
            Value::Object(_) => Some(Value::Object(Map::new())),
            scalar => Some(scalar.clone()),
        };
        // Hand finished values to their parents and find the next child to open.
        loop {
            if let Some(finished) = done.take() {
                match stack.last_mut() {
                    None => return finished,
                    Some(Open::Array(_, copy)) => copy.push(finished),
                    Some(Open::Object(_, copy, key)) => {
                        copy.insert(std::mem::take(key), finished);
                    }
                }
            }
            let child = match stack.last_mut() {
                Some(Open::Array(children, _)) => children.next(),
                Some(Open::Object(children, _, key)) => children.next().map(|(k, v)| {
                    key.clone_from(k);
                    v
                }),
                None => None,
            };
            if let Some(child) = child {
                next = child;
                break;
            }
            done = match stack.pop() {
                Some(Open::Array(_, copy)) => Some(Value::Array(copy)),
                Some(Open::Object(_, copy, _)) => Some(Value::Object(copy)),
                // The root is returned above as soon as it is finished, so the stack is never empty here.
                None => return Value::Null,
            };
        }
    }
}
