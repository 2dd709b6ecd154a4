//! Reading one JSON document of any nesting depth into a `serde_json::Value`, exactly as `serde_json` reads it.
//!
//! Containers are tracked on a heap stack instead of the call stack. Each string, key and number token is found by
//! its delimiters and handed to `serde_json` itself, so escapes, surrogates, control characters, integer ranges and
//! float rounding follow `serde_json` to the bit; a repeated key keeps its first position and its last value, as
//! `serde_json`'s order-preserving map does.

use std::fmt;

use serde_json::{Map, Value};

use super::dismantle;

/// Why a text is not one JSON document, and where (1-based line and column of the offending byte).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// Lowercase human text.
    pub message: String,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in bytes.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for ParseError {}

/// Reads `text` as exactly one JSON document (whitespace around it allowed), nested to any depth.
///
/// # Errors
///
/// A [`ParseError`] when the text is not one JSON document.
///
/// ```
/// use llmshim_cli::json::from_str;
/// use serde_json::json;
///
/// assert_eq!(from_str(r#" {"a": [1, 2.5, "x\n"], "a": null} "#).unwrap(), json!({"a": null}));
/// let err = from_str("[1, 2").unwrap_err();
/// assert_eq!((err.line, err.column), (1, 6));
/// assert!(from_str(&"[".repeat(1_000_000)).is_err());
/// ```
pub fn from_str(text: &str) -> Result<Value, ParseError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        stack: Vec::new(),
    };
    let result = reader.document();
    // On an error the stack still holds the containers read so far; free them without recursion.
    for frame in reader.stack.drain(..) {
        match frame {
            Frame::Array(items) => dismantle(Value::Array(items)),
            Frame::Object(map, _) => dismantle(Value::Object(map)),
        }
    }
    result
}

/// A container still open: its members so far and, for an object, the key of the member being read.
enum Frame {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
}

impl Reader<'_> {
    /// The whole document: one value, then only whitespace.
    fn document(&mut self) -> Result<Value, ParseError> {
        loop {
            self.skip_whitespace();
            let mut finished = match self.peek() {
                None => return Err(self.error("eof while parsing a value")),
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        self.stack.push(Frame::Array(Vec::new()));
                        continue;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let key = self.key()?;
                        self.stack.push(Frame::Object(Map::new(), key));
                        continue;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(_) => return Err(self.error("expected value")),
            };
            // Hand the finished value to its container; close containers until one expects another member.
            loop {
                self.skip_whitespace();
                match self.stack.last_mut() {
                    None => {
                        return if self.pos < self.bytes.len() {
                            dismantle(finished);
                            Err(self.error("trailing characters"))
                        } else {
                            Ok(finished)
                        };
                    }
                    Some(Frame::Array(items)) => {
                        items.push(finished);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                finished = match self.stack.pop() {
                                    Some(Frame::Array(items)) => Value::Array(items),
                                    _ => return Err(self.error("unbalanced containers")),
                                };
                            }
                            None => return Err(self.error("eof while parsing a list")),
                            Some(_) => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                    Some(Frame::Object(map, key)) => {
                        if let Some(replaced) = map.insert(std::mem::take(key), finished) {
                            dismantle(replaced);
                        }
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_whitespace();
                                let next = self.key()?;
                                if let Some(Frame::Object(_, key)) = self.stack.last_mut() {
                                    *key = next;
                                }
                                break;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                finished = match self.stack.pop() {
                                    Some(Frame::Object(map, _)) => Value::Object(map),
                                    _ => return Err(self.error("unbalanced containers")),
                                };
                            }
                            None => return Err(self.error("eof while parsing an object")),
                            Some(_) => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// A member's key and the colon after it; the reader stands on the key's opening quote.
    fn key(&mut self) -> Result<String, ParseError> {
        match self.peek() {
            Some(b'"') => {}
            None => return Err(self.error("eof while parsing an object")),
            Some(_) => return Err(self.error("key must be a string")),
        }
        let key = self.string()?;
        self.skip_whitespace();
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(key)
            }
            None => Err(self.error("eof while parsing an object")),
            Some(_) => Err(self.error("expected `:`")),
        }
    }

    /// A string token, decoded by `serde_json`; the reader stands on the opening quote.
    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        let mut end = start + 1;
        let mut plain = true;
        loop {
            match self.bytes.get(end) {
                None => {
                    self.pos = self.bytes.len();
                    return Err(self.error("eof while parsing a string"));
                }
                Some(b'"') => break,
                Some(b'\\') => {
                    plain = false;
                    end += 2;
                }
                Some(&byte) => {
                    plain &= byte >= 0x20;
                    end += 1;
                }
            }
        }
        let token = self.token(start, end + 1)?;
        if plain {
            // No escape and no control character: the text between the quotes is the string, as `serde_json` takes it.
            let text = token[1..token.len() - 1].to_owned();
            self.pos = end + 1;
            return Ok(text);
        }
        let decoded = serde_json::from_str::<String>(token);
        self.delegated(start, end + 1, decoded)
    }

    /// A number token, decoded by `serde_json`; the reader stands on its first byte.
    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        let mut end = start;
        // Every byte a number may hold; in valid JSON the next byte is whitespace, `,`, `]`, `}` or the end, so
        // taking this run whole never takes too much, and a run that is not one number is an error either way.
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(end) {
            end += 1;
        }
        let token = self.token(start, end)?;
        let decoded = serde_json::from_str::<Value>(token);
        // A token cut short (`-`, `1.`, `2e`) is reported by `serde_json` as the end of its input; here the
        // document goes on, so call it what it is.
        self.delegated(start, end, decoded).map_err(|mut err| {
            if err.message.starts_with("eof") {
                "invalid number".clone_into(&mut err.message);
            }
            err
        })
    }

    /// `word` (`true`, `false` or `null`) as `value`.
    fn literal(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    /// The text of `start..end`, which begins and ends on ASCII delimiters and so on character boundaries.
    fn token(&mut self, start: usize, end: usize) -> Result<&str, ParseError> {
        if let Some(token) = self.text.get(start..end) {
            Ok(token)
        } else {
            self.pos = start;
            Err(self.error("invalid token"))
        }
    }

    /// The result of `serde_json` reading the token `start..end`: the value, with the reader after the token, or
    /// `serde_json`'s message placed at the token's position in the document.
    fn delegated<T>(
        &mut self,
        start: usize,
        end: usize,
        decoded: Result<T, serde_json::Error>,
    ) -> Result<T, ParseError> {
        match decoded {
            Ok(value) => {
                self.pos = end;
                Ok(value)
            }
            Err(err) => {
                let column = err.column().saturating_sub(1);
                self.pos = if err.line() <= 1 {
                    start + column
                } else {
                    start
                };
                let text = err.to_string();
                let message = text
                    .rsplit_once(" at line ")
                    .map_or(text.as_str(), |(head, _)| head)
                    .to_lowercase();
                Err(self.error(&message))
            }
        }
    }

    /// An error at the reader's position.
    fn error(&self, message: &str) -> ParseError {
        let pos = self.pos.min(self.bytes.len());
        let before = &self.bytes[..pos];
        let line = before.split(|&b| b == b'\n').count();
        let column = pos
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        ParseError {
            message: message.to_owned(),
            line,
            column,
        }
    }
}
