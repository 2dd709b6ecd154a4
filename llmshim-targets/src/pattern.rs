//! Pattern analysis for step W20: lookaround removal and the OpenAI dialect check, on one scanner.
//!
//! The scanner reads a pattern as characters: a `\` consumes itself and the next character, `[` opens a character
//! class that the next unescaped `]` closes (classes do not nest), and everything else is one character.

/// Why a pattern could not be scanned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The pattern ends with a lone `\`.
    #[error("the pattern ends with a lone backslash")]
    TrailingBackslash,
    /// Parentheses do not balance.
    #[error("unbalanced parentheses")]
    Unbalanced,
    /// A character class is still open at the end.
    #[error("a character class is not closed")]
    OpenClass,
}

/// Deletes every lookahead and lookbehind group, contents included; named and non-capturing groups stay.
///
/// ```
/// use llmshim_targets::pattern::strip_lookarounds;
///
/// assert_eq!(strip_lookarounds(r"^(?=.{8,}$)(?!bad(?=word))[a-z]+$").as_deref(), Ok("^[a-z]+$"));
/// assert_eq!(strip_lookarounds(r"(?<=\$)\d+(?!\.)").as_deref(), Ok(r"\d+"));
/// assert_eq!(strip_lookarounds("a(?=[)(]b)c").as_deref(), Ok("ac"));
/// assert_eq!(strip_lookarounds(r"\(\?=text[(?=)]").as_deref(), Ok(r"\(\?=text[(?=)]"));
/// assert!(strip_lookarounds("(a").is_err());
/// ```
///
/// # Errors
///
/// A trailing lone `\`, unbalanced parentheses, or a class still open at the end.
pub fn strip_lookarounds(pattern: &str) -> Result<String, PatternError> {
    let chars: Vec<char> = pattern.chars().collect();
    check_balance(&chars)?;
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            out.push(c);
            if let Some(&n) = chars.get(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        }
        if in_class {
            if c == ']' {
                in_class = false;
            }
            out.push(c);
            i += 1;
            continue;
        }
        if c == '[' {
            in_class = true;
            out.push(c);
            i += 1;
            continue;
        }
        if c == '(' && lookaround_at(&chars, i).is_some() {
            i = group_end(&chars, i)? + 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// Whether `pattern` holds a lookahead or lookbehind group outside a character class.
///
/// ```
/// use llmshim_targets::pattern::has_lookaround;
///
/// assert!(has_lookaround("^(?!tmp)[a-z]+$"));
/// assert!(has_lookaround(r"(?<=\$)\d+"));
/// assert!(!has_lookaround("^[(?=)]x$"));
/// assert!(!has_lookaround(r"\(?=x"));
/// assert!(!has_lookaround("(?<name>a)"));
/// ```
pub fn has_lookaround(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 2;
                continue;
            }
            ']' if in_class => in_class = false,
            '[' if !in_class => in_class = true,
            '(' if !in_class && lookaround_at(&chars, i).is_some() => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether OpenAI's pattern engine accepts `pattern`: none of the constructs `openai.pattern-dialect` lists
/// appears.
///
/// ```
/// use llmshim_targets::pattern::openai_accepts;
///
/// assert!(openai_accepts(r"^[a-z]+\d{2}$"));
/// assert!(!openai_accepts(r"^\p{Lu}+$"));
/// assert!(!openai_accepts(r"(?<name>a)\k<name>"));
/// assert!(!openai_accepts(r"(a)\1"));
/// assert!(openai_accepts(r"(?i)abc"));
/// assert!(!openai_accepts(r"a(?i)bc"));
/// assert!(!openai_accepts(r"(?<=a+)b"));
/// assert!(openai_accepts(r"(?<=a)b"));
/// ```
pub fn openai_accepts(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let Some(&n) = chars.get(i + 1) else {
                return false; // (i) a trailing lone backslash
            };
            let offends = matches!(n, 'p' | 'P' | 'k' | 'c')
                || (!in_class && ('1'..='9').contains(&n))
                || (n == 'u' && chars.get(i + 2) == Some(&'{'))
                || (n.is_ascii_alphabetic() && !"bBdDfnrsStvwWxu".contains(n));
            if offends {
                return false;
            }
            i += 2;
            continue;
        }
        if in_class {
            if c == ']' {
                in_class = false;
            }
            i += 1;
            continue;
        }
        if c == '[' {
            if chars.get(i + 1) == Some(&'^') && chars.get(i + 2) == Some(&']') {
                return false; // (e) the class [^]
            }
            in_class = true;
            i += 1;
            continue;
        }
        if c == '(' && chars.get(i + 1) == Some(&'?') {
            if chars.get(i + 2) == Some(&'<') && !matches!(chars.get(i + 3), Some('=' | '!')) {
                return false; // (c) a named group
            }
            if i > 0 && inline_flags_at(&chars, i) {
                return false; // (g) a global flag group after the start
            }
            if lookaround_at(&chars, i) == Some(Look::Behind) {
                let Ok(end) = group_end(&chars, i) else {
                    return false;
                };
                let body = &chars[i + 4..end];
                if quantified(body) {
                    return false; // (h) a lookbehind with a quantifier or alternation
                }
            }
        }
        i += 1;
    }
    true
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Ahead,
    Behind,
}

/// The kind of lookaround opening at `i` (which holds `(`), if any.
fn lookaround_at(chars: &[char], i: usize) -> Option<Look> {
    match (chars.get(i + 1), chars.get(i + 2), chars.get(i + 3)) {
        (Some('?'), Some('=' | '!'), _) => Some(Look::Ahead),
        (Some('?'), Some('<'), Some('=' | '!')) => Some(Look::Behind),
        _ => None,
    }
}

/// Whether `(?` at `i` starts a group of one or more flag letters closed at once by `)`.
fn inline_flags_at(chars: &[char], i: usize) -> bool {
    let mut j = i + 2;
    let start = j;
    while let Some(c) = chars.get(j) {
        if "aiLmsux".contains(*c) {
            j += 1;
        } else {
            break;
        }
    }
    j > start && chars.get(j) == Some(&')')
}

/// Whether a lookbehind body holds an unescaped `*`, `+`, `?`, `{` or `|`.
fn quantified(body: &[char]) -> bool {
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            '\\' => i += 2,
            '*' | '+' | '?' | '{' | '|' => return true,
            _ => i += 1,
        }
    }
    false
}

/// The index of the `)` that closes the group opening at `start`.
fn group_end(chars: &[char], start: usize) -> Result<usize, PatternError> {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            i += 2;
            continue;
        }
        if in_class {
            in_class = c != ']';
        } else if c == '[' {
            in_class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth -= 1;
            if depth == 0 {
                return Ok(i);
            }
        }
        i += 1;
    }
    Err(PatternError::Unbalanced)
}

/// Checks the whole pattern: no trailing lone `\`, balanced parentheses outside classes, no open class.
fn check_balance(chars: &[char]) -> Result<(), PatternError> {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            if i + 1 >= chars.len() {
                return Err(PatternError::TrailingBackslash);
            }
            i += 2;
            continue;
        }
        if in_class {
            in_class = c != ']';
        } else if c == '[' {
            in_class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.checked_sub(1).ok_or(PatternError::Unbalanced)?;
        }
        i += 1;
    }
    if in_class {
        return Err(PatternError::OpenClass);
    }
    if depth != 0 {
        return Err(PatternError::Unbalanced);
    }
    Ok(())
}
