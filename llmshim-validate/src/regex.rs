//! ECMA-262 patterns on fancy-regex: their translation and bounded matching.

use std::fmt::Write as _;

/// The ECMA-262 white-space and line-terminator set, as the inside of a character class.
const ECMA_SPACE: &str = "\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/// The message of a match that ran out of backtracking steps.
pub(crate) const BACKTRACK_MESSAGE: &str = "pattern evaluation exceeded the backtrack limit";

/// A compiled ECMA-262 pattern; matching searches, it is not implicitly anchored.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    source: Box<str>,
    matcher: Matcher,
}

/// How a pattern is matched: plain string operations for the literal shapes of [`Simple`], the regex otherwise.
#[derive(Debug, Clone)]
enum Matcher {
    Simple(Simple),
    Regex(fancy_regex::Regex),
}

/// The patterns that are a literal with optional anchors and an optional trailing `.*` or `.+`, such as `^x-`,
/// `^x-.*`, `^//.*`, `^.*$`, `^.+$`, `^name$` or `.*`, matched without a regex engine and with exactly the verdicts
/// the translated regex gives (`.` matches any character but the four ECMA line terminators).
#[derive(Debug, Clone)]
enum Simple {
    /// Matches every string (the empty pattern, `.*`, `^`, `$`, `.*$`, `^.*`).
    Always,
    /// `^L`, `^L.*`: the string starts with the literal.
    Prefix(Box<str>),
    /// `^L$`: the string is the literal.
    Exact(Box<str>),
    /// `L`, `L.*`: the literal occurs somewhere.
    Contains(Box<str>),
    /// `L$`: the string ends with the literal.
    Suffix(Box<str>),
    /// `^L.*$` (`at_least_one` false) and `^L.+$` (true): the literal, then a line without terminators.
    PrefixLine {
        literal: Box<str>,
        at_least_one: bool,
    },
    /// `^L.+`: the literal, then one character that is not a line terminator.
    PrefixAny(Box<str>),
}

/// What follows the literal of a [`Simple`] pattern, before an optional `$`.
#[derive(Debug, Clone, Copy)]
enum Tail {
    None,
    /// `.*`
    Star,
    /// `.+`
    Plus,
}

/// The ECMA-262 line terminators, the characters `.` does not match.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// The longest literal this fast path takes; longer ones go through the regex engine.
const MAX_SIMPLE_LITERAL: usize = 256;

impl Simple {
    /// Recognizes the literal shapes; `None` for everything else.
    fn parse(source: &str) -> Option<Simple> {
        let (anchored, rest) = match source.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, source),
        };
        let mut literal = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(&c) = chars.peek() {
            match c {
                '\\' => {
                    let mut ahead = chars.clone();
                    ahead.next();
                    let escaped = ahead.next()?;
                    // An escaped ASCII punctuation character is that character (ECMA identity escape).
                    if !escaped.is_ascii_punctuation() {
                        return None;
                    }
                    literal.push(escaped);
                    chars = ahead;
                }
                '^' | '$' | '.' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' => {
                    break;
                }
                _ => {
                    literal.push(c);
                    chars.next();
                }
            }
        }
        if literal.len() > MAX_SIMPLE_LITERAL {
            return None;
        }
        let tail: String = chars.collect();
        // A quantifier right after the literal would apply to its last character, not to the whole literal, so
        // only these tails are taken.
        let (tail, end) = match tail.as_str() {
            "" => (Tail::None, false),
            "$" => (Tail::None, true),
            ".*" => (Tail::Star, false),
            ".*$" => (Tail::Star, true),
            ".+" => (Tail::Plus, false),
            ".+$" => (Tail::Plus, true),
            _ => return None,
        };
        let literal: Box<str> = literal.into();
        let empty = literal.is_empty();
        // `.*` may match nothing, so it only matters when it must reach the end.
        Some(match (anchored, tail, end) {
            (false, Tail::None | Tail::Star, _) if empty => Simple::Always,
            (false, Tail::None | Tail::Star, false) => Simple::Contains(literal),
            (false, Tail::None, true) => Simple::Suffix(literal),
            (true, Tail::None | Tail::Star, false) => Simple::Prefix(literal),
            (true, Tail::None, true) => Simple::Exact(literal),
            (true, Tail::Star, true) => Simple::PrefixLine {
                literal,
                at_least_one: false,
            },
            (true, Tail::Plus, true) => Simple::PrefixLine {
                literal,
                at_least_one: true,
            },
            (true, Tail::Plus, false) => Simple::PrefixAny(literal),
            _ => return None,
        })
    }

    fn is_match(&self, text: &str) -> bool {
        match self {
            Simple::Always => true,
            Simple::Prefix(literal) => text.starts_with(&**literal),
            Simple::Exact(literal) => text == &**literal,
            Simple::Contains(literal) => text.contains(&**literal),
            Simple::Suffix(literal) => text.ends_with(&**literal),
            Simple::PrefixLine {
                literal,
                at_least_one,
            } => text.strip_prefix(&**literal).is_some_and(|rest| {
                (!*at_least_one || !rest.is_empty()) && !rest.chars().any(is_line_terminator)
            }),
            Simple::PrefixAny(literal) => text
                .strip_prefix(&**literal)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|c| !is_line_terminator(c)),
        }
    }
}

/// The outcome of one match attempt that did not give a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BacktrackLimit;

impl Pattern {
    /// Translates and compiles `source` with a backtracking limit.
    pub(crate) fn new(source: &str, backtrack_limit: usize) -> Result<Pattern, String> {
        if let Some(simple) = Simple::parse(source) {
            return Ok(Pattern {
                source: source.into(),
                matcher: Matcher::Simple(simple),
            });
        }
        let translated = translate(source)?;
        let regex = fancy_regex::RegexBuilder::new(&translated)
            .backtrack_limit(backtrack_limit)
            .build()
            .map_err(|e| {
                let reason = e.to_string().to_lowercase();
                format!("pattern {source:?} does not compile: {reason}")
            })?;
        Ok(Pattern {
            source: source.into(),
            matcher: Matcher::Regex(regex),
        })
    }

    /// The pattern as written in the schema.
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches somewhere in `text`.
    #[inline]
    pub(crate) fn is_match(&self, text: &str) -> Result<bool, BacktrackLimit> {
        match &self.matcher {
            Matcher::Simple(simple) => Ok(simple.is_match(text)),
            Matcher::Regex(regex) => regex.is_match(text).map_err(|_| BacktrackLimit),
        }
    }
}

/// Translates an ECMA-262 pattern to fancy-regex syntax.
pub(crate) fn translate(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if in_class {
            match c {
                ']' => {
                    in_class = false;
                    out.push(']');
                }
                '\\' => i = escape(&chars, i, true, &mut out)?,
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                '-' if chars.get(i) == Some(&'-') || out.ends_with('-') => out.push_str("\\-"),
                _ => out.push(c),
            }
            continue;
        }
        match c {
            '\\' => i = escape(&chars, i, false, &mut out)?,
            '[' => {
                let negated = chars.get(i) == Some(&'^');
                let after = if negated { i + 1 } else { i };
                if chars.get(after) == Some(&']') {
                    // `[^]` matches any character and `[]` matches none.
                    out.push_str(if negated { "[\\s\\S]" } else { "[^\\s\\S]" });
                    i = after + 1;
                } else {
                    out.push('[');
                    if negated {
                        out.push('^');
                    }
                    i = after;
                    in_class = true;
                }
            }
            '.' => out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            '{' => match quantifier_end(&chars, i) {
                Some(end) => {
                    out.push('{');
                    out.extend(&chars[i..end]);
                    i = end;
                }
                None => out.push_str("\\{"),
            },
            '}' | ']' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    if in_class {
        return Err(format!(
            "pattern {pattern:?} has an unterminated character class"
        ));
    }
    Ok(out)
}

/// The index just past a `{n}`, `{n,}` or `{n,m}` quantifier body starting at `start` (after `{`).
fn quantifier_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start;
    let digits = |i: &mut usize| {
        let from = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        *i > from
    };
    if !digits(&mut i) {
        return None;
    }
    if chars.get(i) == Some(&',') {
        i += 1;
        digits(&mut i);
    }
    (chars.get(i) == Some(&'}')).then_some(i + 1)
}

fn push_literal(out: &mut String, c: char) {
    let _ = write!(out, "\\x{{{:X}}}", u32::from(c));
}

fn hex_value(chars: &[char], from: usize, len: usize) -> Option<u32> {
    let digits = chars.get(from..from + len)?;
    digits.iter().try_fold(0u32, |acc, c| {
        acc.checked_mul(16)?.checked_add(c.to_digit(16)?)
    })
}

/// Translates the escape whose backslash ends just before `i`; returns the index after it.
fn escape(chars: &[char], i: usize, in_class: bool, out: &mut String) -> Result<usize, String> {
    let Some(&c) = chars.get(i) else {
        return Err("pattern ends with a lone backslash".to_owned());
    };
    let next = i + 1;
    let (open, close) = if in_class { ("", "") } else { ("[", "]") };
    match c {
        'd' => {
            let _ = write!(out, "{open}0-9{close}");
        }
        'w' => {
            let _ = write!(out, "{open}A-Za-z0-9_{close}");
        }
        's' => {
            let _ = write!(out, "{open}{ECMA_SPACE}{close}");
        }
        'D' => out.push_str("[^0-9]"),
        'W' => out.push_str("[^A-Za-z0-9_]"),
        'S' => {
            let _ = write!(out, "[^{ECMA_SPACE}]");
        }
        'b' if in_class => push_literal(out, '\u{8}'),
        'b' | 'B' if !in_class => {
            out.push('\\');
            out.push(c);
        }
        't' | 'n' | 'r' | 'f' => {
            out.push('\\');
            out.push(c);
        }
        'v' => out.push_str("\\x0B"),
        '0' if !chars.get(next).is_some_and(char::is_ascii_digit) => out.push_str("\\x00"),
        '1'..='9' if !in_class => {
            out.push('\\');
            let mut end = i;
            while chars.get(end).is_some_and(char::is_ascii_digit) {
                out.push(chars[end]);
                end += 1;
            }
            return Ok(end);
        }
        'c' => {
            if let Some(letter) = chars.get(next).filter(|l| l.is_ascii_alphabetic()) {
                push_literal(out, char::from((*letter as u8) % 32));
                return Ok(next + 1);
            }
            out.push_str("\\\\c");
        }
        'x' => {
            if let Some(code) = hex_value(chars, next, 2) {
                let _ = write!(out, "\\x{{{code:X}}}");
                return Ok(next + 2);
            }
            out.push('x');
        }
        'u' => return unicode_escape(chars, next, out),
        'k' if chars.get(next) == Some(&'<') && !in_class => {
            out.push_str("\\k");
        }
        'p' | 'P' if chars.get(next) == Some(&'{') => {
            out.push('\\');
            out.push(c);
            let mut end = next;
            while let Some(&d) = chars.get(end) {
                out.push(d);
                end += 1;
                if d == '}' {
                    break;
                }
            }
            return Ok(end);
        }
        _ if c.is_ascii_alphanumeric() => out.push(c),
        _ => push_literal(out, c),
    }
    Ok(next)
}

/// Translates `\uXXXX` (joining surrogate pairs) and `\u{X…}`; `from` is the index after `u`.
fn unicode_escape(chars: &[char], from: usize, out: &mut String) -> Result<usize, String> {
    if chars.get(from) == Some(&'{') {
        let end = (from + 1..chars.len()).find(|&k| chars.get(k) == Some(&'}'));
        if let Some(end) = end
            && let Some(code) = hex_value(chars, from + 1, end - from - 1)
        {
            let _ = write!(out, "\\x{{{code:X}}}");
            return Ok(end + 1);
        }
        out.push('u');
        return Ok(from);
    }
    let Some(unit) = hex_value(chars, from, 4) else {
        out.push('u');
        return Ok(from);
    };
    let after = from + 4;
    if (0xD800..0xDC00).contains(&unit) {
        let low = (chars.get(after) == Some(&'\\') && chars.get(after + 1) == Some(&'u'))
            .then(|| hex_value(chars, after + 2, 4))
            .flatten()
            .filter(|low| (0xDC00..0xE000).contains(low));
        if let Some(low) = low {
            let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            let _ = write!(out, "\\x{{{code:X}}}");
            return Ok(after + 6);
        }
    }
    if (0xD800..0xE000).contains(&unit) {
        return Err(format!("pattern has a lone surrogate \\u{unit:04X}"));
    }
    let _ = write!(out, "\\x{{{unit:X}}}");
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern, 1_000_000)
            .and_then(|p| p.is_match(text).map_err(|_| "limit".to_owned()))
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
    }

    #[test]
    fn translates_ecma_escapes() {
        assert!(matches(r"^\d$", "0"));
        assert!(!matches(r"^\d$", "\u{07c0}"));
        assert!(matches(r"^\D$", "\u{07c0}"));
        assert!(!matches(r"^\w$", "é"));
        assert!(matches(r"^\s$", "\u{feff}"));
        assert!(!matches(r"^\s$", "\u{2013}"));
        assert!(matches(r"^\S$", "\u{2013}"));
        assert!(matches(r"^\cC$", "\u{3}"));
        assert!(matches(r"^\u0041\x42$", "AB"));
        assert!(matches(r"^\ud83d\udc32$", "🐲"));
        assert!(matches(r"^[\d\-x]+$", "1-x"));
        assert!(matches(r"^[^]$", "\n"));
        assert!(!matches(r"^.$", "\n"));
        assert!(matches(r"^a{2}$", "aa"));
        assert!(matches(r"^a{$", "a{"));
        assert!(matches(r"^\/\a$", "/a"));
        assert!(matches(r"^(?<x>a)\k<x>$", "aa"));
        assert!(matches(r"^(a)\1$", "aa"));
        assert!(matches(r"a(?=b)", "ab"));
        assert!(matches(r"\p{Letter}cole", "école"));
        assert!(!matches(r"^abc$", "abc\n"));
        assert!(Pattern::new("(", 10).is_err());
        assert!(Pattern::new("[a", 10).is_err());
    }

    /// The translated pattern compiled by the regex engine, bypassing the literal fast path.
    fn by_regex(pattern: &str) -> fancy_regex::Regex {
        let translated = translate(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        fancy_regex::Regex::new(&translated).unwrap_or_else(|e| panic!("{pattern}: {e}"))
    }

    #[test]
    fn literal_shapes_match_exactly_like_the_regex() {
        let patterns = [
            "", ".*", "^", "$", ".*$", "^.*", "^$", "^x-", "^x-.*", "^//.*", "^.*$", "^.+$", "^.+",
            "x-", "x-.*", "name$", "^name$", "^a b$", "^\\$ref$", "^\\.git", "^é", "^x-.+$",
            "^x-.*$", "^x-.+", "a\\/b",
        ];
        let texts = [
            "",
            "x",
            "x-",
            "x-a",
            "ax-b",
            "x-\n",
            "x-a\nb",
            "x-\u{2028}",
            "x-\r",
            "//",
            "// c",
            "name",
            "aname",
            "name\n",
            "a b",
            "$ref",
            "$refs",
            ".git",
            ".gitx",
            "é",
            "éa",
            "a/b",
            "xa/b",
            "\n",
            "\u{2029}",
            "a\u{85}",
            "x-\u{85}",
            "\u{a0}",
        ];
        for pattern in patterns {
            assert!(
                Simple::parse(pattern).is_some(),
                "{pattern:?} takes the fast path"
            );
            let fast =
                Pattern::new(pattern, 1_000_000).unwrap_or_else(|e| panic!("{pattern}: {e}"));
            let regex = by_regex(pattern);
            for text in texts {
                assert_eq!(
                    fast.is_match(text),
                    regex.is_match(text).map_err(|_| BacktrackLimit),
                    "{pattern:?} on {text:?}"
                );
            }
        }
        for pattern in [
            "^a*", "a+$", "^(a)", "^a|b", "^a.", ".x", "^[a]", "^a{2}", "a$b", "^\\d", "^a.+$x",
        ] {
            assert!(
                Simple::parse(pattern).is_none(),
                "{pattern:?} goes to the regex engine"
            );
        }
    }
}
