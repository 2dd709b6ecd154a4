//! The JSON model: order-preserving edits, identity, compact rendering and byte counts.

use serde_json::{Map, Value};
use std::io;

/// Renames `old` to `new` in place, keeping its position; an existing `new` key is removed first.
///
/// Returns whether `old` was present.
pub fn rename_in_place(map: &mut Map<String, Value>, old: &str, new: &str) -> bool {
    if !map.contains_key(old) {
        return false;
    }
    map.shift_remove(new);
    let Some(index) = map.keys().position(|k| k == old) else {
        return false;
    };
    if let Some(value) = map.shift_remove(old) {
        map.shift_insert(index, new.to_owned(), value);
    }
    true
}

/// Maps with at most this many members are searched by [`member`] and [`has`] with a scan of their keys.
const SCAN: usize = 8;

/// The member `key` of `map`. A small map (the usual schema node) is scanned, which costs less than hashing the
/// key with the map's keyed hasher; a larger one is looked up.
///
/// ```
/// use serde_json::json;
///
/// let schema = json!({"type": "string", "description": "A name"});
/// let map = schema.as_object().expect("an object");
/// assert_eq!(llmshim_core::json::member(map, "type"), Some(&json!("string")));
/// assert!(!llmshim_core::json::has(map, "enum"));
/// ```
pub fn member<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= SCAN {
        map.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

/// Whether two keys are equal. A keyword is short, so a key of at most 16 bytes is compared inline, as two words
/// that may overlap, instead of through a call to the library's `memcmp`, which costs more than the comparison.
///
/// ```
/// use llmshim_core::json::same_key;
///
/// assert!(same_key("description", "description"));
/// assert!(!same_key("minLength", "maxLength"));
/// assert!(!same_key("type", "types"));
/// assert!(same_key("", ""));
/// ```
#[inline]
pub fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        0..4 => a.iter().zip(b).all(|(x, y)| x == y),
        4..8 => {
            let words = |s: &[u8]| {
                (
                    s.first_chunk::<4>().map(|w| u32::from_le_bytes(*w)),
                    s.last_chunk::<4>().map(|w| u32::from_le_bytes(*w)),
                )
            };
            words(a) == words(b)
        }
        8..=16 => {
            let words = |s: &[u8]| {
                (
                    s.first_chunk::<8>().map(|w| u64::from_le_bytes(*w)),
                    s.last_chunk::<8>().map(|w| u64::from_le_bytes(*w)),
                )
            };
            words(a) == words(b)
        }
        _ => a == b,
    }
}

/// [`member`], mutably.
pub fn member_mut<'m>(map: &'m mut Map<String, Value>, key: &str) -> Option<&'m mut Value> {
    if map.len() <= SCAN {
        map.iter_mut()
            .find(|(k, _)| same_key(k, key))
            .map(|(_, v)| v)
    } else {
        map.get_mut(key)
    }
}

/// Whether `map` has the member `key`, found as [`member`] finds it.
pub fn has(map: &Map<String, Value>, key: &str) -> bool {
    member(map, key).is_some()
}

/// Removes `key` keeping the order of the other keys.
pub fn remove(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    map.shift_remove(key)
}

/// Sets `key`: replaces the value in place when present, appends otherwise.
pub fn set(map: &mut Map<String, Value>, key: &str, value: Value) {
    if let Some(slot) = member_mut(map, key) {
        *slot = value;
    } else {
        map.insert(key.to_owned(), value);
    }
}

/// Identity: key order matters and numbers must have the same kind and `f64` bits.
///
/// Iterative, so it never overflows the stack.
///
/// ```
/// use llmshim_core::json::identical;
/// use serde_json::json;
///
/// assert!(identical(&json!({"a": 1, "b": 2}), &json!({"a": 1, "b": 2})));
/// assert!(!identical(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1})));
/// assert!(!identical(&json!(0.0), &json!(-0.0)));
/// assert!(!identical(&json!(1), &json!(1.0)));
/// ```
pub fn identical(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((x, y)) = stack.pop() {
        match (x, y) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(p), Value::Bool(q)) if p == q => {}
            (Value::String(p), Value::String(q)) if p == q => {}
            (Value::Number(p), Value::Number(q)) => {
                if !same_number(p, q) {
                    return false;
                }
            }
            (Value::Array(p), Value::Array(q)) if p.len() == q.len() => {
                stack.extend(p.iter().zip(q));
            }
            (Value::Object(p), Value::Object(q)) if p.len() == q.len() => {
                for ((kp, vp), (kq, vq)) in p.iter().zip(q) {
                    if kp != kq {
                        return false;
                    }
                    stack.push((vp, vq));
                }
            }
            _ => return false,
        }
    }
    true
}

fn same_number(p: &serde_json::Number, q: &serde_json::Number) -> bool {
    if let (Some(a), Some(b)) = (p.as_i64(), q.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (p.as_u64(), q.as_u64()) {
        return a == b;
    }
    if p.is_f64() && q.is_f64() {
        return p.as_f64().map(f64::to_bits) == q.as_f64().map(f64::to_bits);
    }
    false
}

/// Compact JSON text of `value`, exactly as the compact serializer of `serde_json` writes it.
///
/// Iterative, so a value nested far deeper than the stack allows is rendered safely.
///
/// ```
/// use llmshim_core::json::compact;
/// use serde_json::json;
///
/// assert_eq!(compact(&json!({"b": [1, 2.5, null], "a": "é\n"})), r#"{"b":[1,2.5,null],"a":"é\n"}"#);
/// ```
pub fn compact(value: &Value) -> String {
    let mut text = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_compact(&mut text, value);
    // The serializer writes only valid UTF-8.
    String::from_utf8(text).unwrap_or_default()
}

/// The byte length of `value`'s compact JSON text, counted without building the text.
///
/// Iterative, so a value nested far deeper than the stack allows is measured safely.
pub fn compact_len(value: &Value) -> usize {
    // Containers still to measure: brackets, commas and colons are counted as each is taken off the stack.
    let mut open: Vec<&Value> = Vec::new();
    let mut total = 0usize;
    let mut next = Some(value);
    while let Some(value) = next.take().or_else(|| open.pop()) {
        match value {
            Value::Array(items) => {
                total = total.saturating_add(1 + items.len().max(1));
                for item in items {
                    match item {
                        Value::Array(_) | Value::Object(_) => open.push(item),
                        scalar => total = total.saturating_add(scalar_len(scalar)),
                    }
                }
            }
            Value::Object(map) => {
                total = total.saturating_add(1 + map.len().max(1));
                for (key, item) in map {
                    total = total.saturating_add(string_len(key) + 1);
                    match item {
                        Value::Array(_) | Value::Object(_) => open.push(item),
                        scalar => total = total.saturating_add(scalar_len(scalar)),
                    }
                }
            }
            scalar => total = total.saturating_add(scalar_len(scalar)),
        }
    }
    total
}

/// The compact length of a value that is not a container.
fn scalar_len(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::String(text) => string_len(text),
        other => {
            // Numbers are written by `serde_json` itself; writing to a counter cannot fail.
            let mut counter = Counter(0);
            let _ = serde_json::to_writer(&mut counter, other);
            counter.0
        }
    }
}

/// The length of `text` as a JSON string the way `serde_json` writes it: quoted, with `"` and `\` escaped, the
/// control characters with a short escape (`\b`, `\t`, `\n`, `\f`, `\r`) in two bytes and the others as `\u00XX`.
fn string_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let len = bytes.len().saturating_add(2);
    // Most strings escape nothing: a branch-free test of each 32-byte chunk, or-ing one byte per input byte (which
    // the compiler vectorizes sixteen bytes at a time), decides it.
    let special = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
    if bytes
        .chunks(32)
        .all(|chunk| chunk.iter().fold(0u8, |any, &b| any | u8::from(special(b))) == 0)
    {
        return len;
    }
    bytes.iter().fold(len, |len, &byte| {
        len + match byte {
            b'"' | b'\\' | 0x08 | 0x09 | 0x0a | 0x0c | 0x0d => 1,
            0x00..=0x1f => 5,
            _ => 0,
        }
    })
}

/// One piece of compact output still to be written.
enum Piece<'a> {
    Value(&'a Value),
    Key(&'a str),
    Text(&'static [u8]),
}

/// Writes `value` as compact JSON with an explicit stack; scalars and keys go through `serde_json` itself, so the
/// text is byte for byte what `serde_json::to_writer` would produce.
fn write_compact(out: &mut impl io::Write, value: &Value) -> io::Result<()> {
    let mut stack = vec![Piece::Value(value)];
    while let Some(piece) = stack.pop() {
        match piece {
            Piece::Text(text) => out.write_all(text)?,
            Piece::Key(key) => {
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(b":")?;
            }
            Piece::Value(Value::Array(items)) => {
                out.write_all(b"[")?;
                stack.push(Piece::Text(b"]"));
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push(Piece::Value(item));
                    if index > 0 {
                        stack.push(Piece::Text(b","));
                    }
                }
            }
            Piece::Value(Value::Object(map)) => {
                out.write_all(b"{")?;
                stack.push(Piece::Text(b"}"));
                for (index, (key, item)) in map.iter().enumerate().rev() {
                    stack.push(Piece::Value(item));
                    stack.push(Piece::Key(key));
                    if index > 0 {
                        stack.push(Piece::Text(b","));
                    }
                }
            }
            Piece::Value(scalar) => serde_json::to_writer(&mut *out, scalar)?,
        }
    }
    Ok(())
}

struct Counter(usize);

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How many levels [`depth_within`] and [`dismantle`] go down by recursion before they continue from an explicit
/// stack: shallow values, the common case, cost no allocation, and no input costs more than this many frames.
const RECURSION: usize = 32;

/// The depth of the deepest value in `value` (root 0), or `None` as soon as it exceeds `limit`.
///
/// Recursion is bounded (containers further down are measured from an explicit stack), so a value nested far deeper
/// than the stack allows is measured safely.
pub fn depth_within(value: &Value, limit: usize) -> Option<usize> {
    let mut deepest = 0;
    let mut deferred = Vec::new();
    depth_at(value, 0, 0, limit, &mut deepest, &mut deferred)?;
    while let Some((v, d)) = deferred.pop() {
        depth_at(v, d, 0, limit, &mut deepest, &mut deferred)?;
    }
    Some(deepest)
}

/// [`depth_within`] below `value` at `depth`, `level` frames into the current recursion.
fn depth_at<'v>(
    value: &'v Value,
    depth: usize,
    level: usize,
    limit: usize,
    deepest: &mut usize,
    deferred: &mut Vec<(&'v Value, usize)>,
) -> Option<()> {
    if depth > limit {
        return None;
    }
    *deepest = (*deepest).max(depth);
    let mut children = |v: &'v Value| {
        if level >= RECURSION {
            deferred.push((v, depth + 1));
            Some(())
        } else {
            depth_at(v, depth + 1, level + 1, limit, deepest, deferred)
        }
    };
    match value {
        Value::Array(items) => items.iter().try_for_each(&mut children),
        Value::Object(map) => map.values().try_for_each(&mut children),
        _ => Some(()),
    }
}

/// Drops `value` with bounded recursion (containers further down are freed from an explicit stack), so a value
/// nested deeper than the stack allows is freed safely.
pub fn dismantle(value: Value) {
    let mut deferred = Vec::new();
    dismantle_at(value, 0, &mut deferred);
    while let Some(v) = deferred.pop() {
        dismantle_at(v, 0, &mut deferred);
    }
}

/// [`dismantle`] of `value`, `level` frames into the current recursion.
fn dismantle_at(value: Value, level: usize, deferred: &mut Vec<Value>) {
    let child = |v: Value, deferred: &mut Vec<Value>| match v {
        Value::Array(_) | Value::Object(_) if level >= RECURSION => deferred.push(v),
        Value::Array(_) | Value::Object(_) => dismantle_at(v, level + 1, deferred),
        _ => {}
    };
    match value {
        Value::Array(items) => {
            for v in items {
                child(v, deferred);
            }
        }
        Value::Object(map) => {
            for (_, v) in map {
                child(v, deferred);
            }
        }
        _ => {}
    }
}
