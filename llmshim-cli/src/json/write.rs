//! Writing a `serde_json::Value` of any nesting depth as JSON text, byte for byte as `serde_json` writes it.
//!
//! Compact output is `serde_json::to_writer`'s; pretty output is `serde_json::to_writer_pretty`'s (two spaces per
//! level, `": "` after keys, `[]` and `{}` for empty containers). Containers are walked from a heap stack; scalars
//! and keys are written by `serde_json` itself, so escapes and number formatting are its own.

use std::io::{self, Write};

use serde_json::Value;

use crate::console::Paint;

/// One piece of output still to be written.
enum Piece<'a> {
    /// A value, at a nesting level (for pretty indentation of its members).
    Value(&'a Value, usize),
    /// A member's key and the separator after it.
    Key(&'a str),
    /// Fixed text.
    Text(&'static [u8]),
    /// A line break and the indentation of a level (pretty output only).
    Break(usize),
}

/// Writes `value` as compact JSON, or indented by two spaces per level when `pretty`, without a trailing newline.
///
/// # Errors
///
/// The writer's error.
///
/// ```
/// use llmshim_cli::json::write;
/// use serde_json::json;
///
/// let value = json!({"a": [1, {}], "b": "é\n", "c": []});
/// let mut compact = Vec::new();
/// write(&mut compact, &value, false).unwrap();
/// assert_eq!(compact, serde_json::to_vec(&value).unwrap());
/// let mut pretty = Vec::new();
/// write(&mut pretty, &value, true).unwrap();
/// assert_eq!(pretty, serde_json::to_vec_pretty(&value).unwrap());
/// ```
pub fn write(out: &mut dyn Write, value: &Value, pretty: bool) -> io::Result<()> {
    write_with(out, value, pretty, Paint::new(false))
}

/// Writes `value` indented by two spaces per level, without a trailing newline, with keys, strings and other
/// scalars coloured by `paint` (byte for byte [`write()`]'s pretty text when `paint` is off).
///
/// # Errors
///
/// The writer's error.
///
/// ```
/// use llmshim_cli::console::Paint;
/// use llmshim_cli::json::write_painted;
/// use serde_json::json;
///
/// let mut plain = Vec::new();
/// write_painted(&mut plain, &json!({"a": [true]}), Paint::new(false)).unwrap();
/// assert_eq!(plain, b"{\n  \"a\": [\n    true\n  ]\n}");
/// let mut coloured = Vec::new();
/// write_painted(&mut coloured, &json!({"a": "b"}), Paint::new(true)).unwrap();
/// assert_eq!(
///     String::from_utf8(coloured).unwrap(),
///     "{\n  \u{1b}[34m\"a\"\u{1b}[0m: \u{1b}[32m\"b\"\u{1b}[0m\n}"
/// );
/// ```
pub fn write_painted(out: &mut dyn Write, value: &Value, paint: Paint) -> io::Result<()> {
    write_with(out, value, true, paint)
}

/// The writer behind [`write()`] and [`write_painted`].
fn write_with(out: &mut dyn Write, value: &Value, pretty: bool, paint: Paint) -> io::Result<()> {
    let mut stack = vec![Piece::Value(value, 0)];
    while let Some(piece) = stack.pop() {
        match piece {
            Piece::Text(text) => out.write_all(text)?,
            Piece::Break(level) => {
                out.write_all(b"\n")?;
                for _ in 0..level {
                    out.write_all(b"  ")?;
                }
            }
            Piece::Key(key) if paint.is_on() => {
                out.write_all(paint.key(&serde_json::to_string(key)?).as_bytes())?;
                out.write_all(if pretty { b": " } else { b":" })?;
            }
            Piece::Key(key) => {
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(if pretty { b": " } else { b":" })?;
            }
            Piece::Value(Value::Array(items), level) if !items.is_empty() => {
                out.write_all(b"[")?;
                stack.push(Piece::Text(b"]"));
                if pretty {
                    stack.push(Piece::Break(level));
                }
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push(Piece::Value(item, level + 1));
                    if pretty {
                        stack.push(Piece::Break(level + 1));
                    }
                    if index > 0 {
                        stack.push(Piece::Text(b","));
                    }
                }
            }
            Piece::Value(Value::Object(map), level) if !map.is_empty() => {
                out.write_all(b"{")?;
                stack.push(Piece::Text(b"}"));
                if pretty {
                    stack.push(Piece::Break(level));
                }
                for (index, (key, item)) in map.iter().enumerate().rev() {
                    stack.push(Piece::Value(item, level + 1));
                    stack.push(Piece::Key(key));
                    if pretty {
                        stack.push(Piece::Break(level + 1));
                    }
                    if index > 0 {
                        stack.push(Piece::Text(b","));
                    }
                }
            }
            Piece::Value(Value::Array(_), _) => out.write_all(b"[]")?,
            Piece::Value(Value::Object(_), _) => out.write_all(b"{}")?,
            Piece::Value(scalar, _) if paint.is_on() => {
                let text = serde_json::to_string(scalar)?;
                let painted = if scalar.is_string() {
                    paint.string(&text)
                } else {
                    paint.literal(&text)
                };
                out.write_all(painted.as_bytes())?;
            }
            Piece::Value(scalar, _) => serde_json::to_writer(&mut *out, scalar)?,
        }
    }
    Ok(())
}
