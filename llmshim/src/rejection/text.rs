//! The body as plain text: escapes of any nesting level collapsed in one bounded pass, and the scanning helpers
//! the provider readers share.

/// Only this many bytes of a body are read; a rejection names its tool near the start of the body, and reading
/// stops here so that a huge body costs a bounded amount of work.
pub(crate) const MAX_BODY_BYTES: usize = 4 << 20;

/// A name, a bracketed segment or a quoted value longer than this is not one the readers accept.
pub(crate) const MAX_TOKEN_BYTES: usize = 1024;

/// The cleaned text of a body.
///
/// Providers' bodies reach a gateway raw, inside their JSON envelope, inside another program's JSON log (escaped
/// once more), or as an SDK's rendering of a dictionary. Every run of backslashes before a character is dropped
/// (`\\\"` and `\"` both become `"`), `\n`, `\r` and `\t` of any level become line breaks or spaces, and `\uXXXX`
/// becomes its character (U+FFFD when it is not one), so the readers see the provider's own words however often
/// they were escaped.
#[derive(Debug)]
pub(crate) struct Text {
    pub(crate) text: String,
}

impl Text {
    /// Cleans the first [`MAX_BODY_BYTES`] of `body`.
    pub(crate) fn new(body: &str) -> Text {
        let body = prefix(body, MAX_BODY_BYTES);
        let mut text = String::with_capacity(body.len());
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '\\' {
                text.push(c);
                continue;
            }
            while chars.peek() == Some(&'\\') {
                chars.next();
            }
            match chars.next() {
                Some('n' | 'r') => text.push('\n'),
                Some('t') => text.push(' '),
                Some('u') => {
                    let mut code = 0u32;
                    let mut digits = 0;
                    while digits < 4 {
                        match chars.peek().and_then(|d| d.to_digit(16)) {
                            Some(d) => {
                                code = code * 16 + d;
                                digits += 1;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    if digits == 4 {
                        text.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                    } else {
                        text.push('u');
                    }
                }
                Some(other) => text.push(other),
                None => {}
            }
        }
        Text { text }
    }

    /// Every byte offset where `needle` starts, in order, at most `limit` of them.
    pub(crate) fn find_all(&self, needle: &str, limit: usize) -> Vec<usize> {
        let mut found = Vec::new();
        let mut from = 0;
        while found.len() < limit {
            let Some(rest) = self.text.get(from..) else {
                break;
            };
            let Some(at) = rest.find(needle) else {
                break;
            };
            found.push(from + at);
            from += at + needle.len().max(1);
        }
        found
    }

    /// The text from `at` on.
    pub(crate) fn from(&self, at: usize) -> &str {
        self.text.get(at..).unwrap_or_default()
    }

    /// The text before `at`.
    pub(crate) fn before(&self, at: usize) -> &str {
        self.text.get(..at).unwrap_or_default()
    }

    /// The line around `at`, trimmed of spaces, quotes, commas and a leading `"message":`, at most 1,000 bytes.
    pub(crate) fn line_at(&self, at: usize) -> String {
        let start = self.before(at).rfind('\n').map_or(0, |i| i + 1);
        let end = self.from(at).find('\n').map_or(self.text.len(), |i| at + i);
        let line = self.text.get(start..end).unwrap_or_default();
        let mut line =
            line.trim_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ','));
        for key in [
            "message\": \"",
            "message': '",
            "message\":\"",
            "message': \"",
        ] {
            if let Some(rest) = line.strip_prefix(key) {
                line = rest;
            }
        }
        prefix(line, 1000).to_owned()
    }
}

/// Reads a decimal index at the start of `text`: its value and the bytes it took; `None` for no digits or a value
/// beyond `usize`.
pub(crate) fn index(text: &str) -> Option<(usize, usize)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let value = text.get(..digits)?.parse::<usize>().ok()?;
    Some((value, digits))
}

/// The text up to (not including) the first `close` in `text`, if it comes within [`MAX_TOKEN_BYTES`] and on the
/// same line.
pub(crate) fn until(text: &str, close: char) -> Option<&str> {
    let end = text.find(close)?;
    let token = text.get(..end)?;
    (end <= MAX_TOKEN_BYTES && !token.contains('\n')).then_some(token)
}

/// The first `max` bytes of `text` at most, cut on a character boundary.
pub(crate) fn prefix(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// `text` with every run of white space (a terminal's wrapping included) as one space.
pub(crate) fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// Whether `c` may continue a word, so that a match preceded by it is inside a longer word.
pub(crate) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Converts a protobuf field name (`any_of`, `max_items`) into the JSON spelling (`anyOf`, `maxItems`).
pub(crate) fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_of_any_level_collapse() {
        let t = Text::new(r#"a \"b\" \\\"c\\\" d\\nnext\u0027q\u0027 \uZZ"#);
        assert_eq!(t.text, "a \"b\" \"c\" d\nnext'q' uZZ");
    }

    #[test]
    fn indices_beyond_usize_are_refused() {
        assert_eq!(index("12]"), Some((12, 2)));
        assert_eq!(index("x"), None);
        assert_eq!(index("99999999999999999999999999]"), None);
    }

    #[test]
    fn protobuf_names_become_json_names() {
        assert_eq!(camel("any_of"), "anyOf");
        assert_eq!(camel("additional_properties"), "additionalProperties");
        assert_eq!(camel("items"), "items");
        assert_eq!(camel("_x"), "_x");
    }
}
