//! Pattern subsets: which regular-expression constructs a provider's pattern engine leaves out, and the scanner that
//! finds them in a `pattern`.
//!
//! A keep-list that keeps `pattern` under a condition names a [`PatternSubset`]; the pattern rules lift a pattern
//! that uses a construct outside it (`target.pattern-subset`), and the structural check refuses one that is left.
//! The scanner reads a pattern as characters: a `\` consumes itself and the next character, `[` opens a character
//! class that the next unescaped `]` closes (classes do not nest), and everything else is one character. It is a
//! scanner, not a regex engine: it looks for constructs, it never matches text.

/// The constructs a provider's pattern engine does not take, each left out when its flag is set.
///
/// `PatternSubset::new()` leaves nothing out except malformed patterns (a trailing lone `\`, unbalanced
/// parentheses, a character class left open), which no engine compiles.
///
/// ```
/// use llmshim_core::pattern_subset::PatternSubset;
///
/// const ENGINE: PatternSubset = PatternSubset::new().without_lookarounds().with_max_repeat(1000);
/// assert!(ENGINE.admits(r"^[a-z]{2,8}$"));
/// assert!(!ENGINE.admits("^(?!tmp)[a-z]+$"));
/// assert!(!ENGINE.admits("^a{1,1001}$"));
/// assert!(!ENGINE.admits("(a"));
/// assert!(PatternSubset::new().admits(r"(a)\1"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct PatternSubset {
    /// Lookahead and lookbehind groups, outside a class: `(?=`, `(?!`, `(?<=`, `(?<!`.
    pub lookarounds: bool,
    /// Backreferences: `\1` to `\9` outside a class, and `\k` anywhere.
    pub backreferences: bool,
    /// Word boundaries `\b` and `\B` outside a class (inside one, `[\b]` is a backspace).
    pub boundaries: bool,
    /// Unicode property escapes `\p` and `\P`, anywhere.
    pub property_escapes: bool,
    /// Named groups `(?<name>`, outside a class.
    pub named_groups: bool,
    /// The largest bound a `{n}`, `{n,}` or `{n,m}` repetition outside a class may have; `None` for no limit.
    pub max_repeat: Option<u64>,
}

/// A construct [`PatternSubset::offence`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Offence {
    /// A lookahead or lookbehind group.
    Lookaround,
    /// A backreference.
    Backreference,
    /// A word boundary.
    Boundary,
    /// A Unicode property escape.
    PropertyEscape,
    /// A named group.
    NamedGroup,
    /// A repetition with a bound over the subset's limit.
    LargeRepeat,
    /// A trailing lone `\`, unbalanced parentheses or a class left open.
    Malformed,
}

impl Offence {
    /// A lowercase phrase for messages.
    pub const fn as_str(self) -> &'static str {
        match self {
            Offence::Lookaround => "a lookaround",
            Offence::Backreference => "a backreference",
            Offence::Boundary => "a word boundary",
            Offence::PropertyEscape => "a unicode property escape",
            Offence::NamedGroup => "a named group",
            Offence::LargeRepeat => "a repetition bound over the engine's limit",
            Offence::Malformed => "a malformed pattern",
        }
    }
}

impl PatternSubset {
    /// A subset that leaves out nothing but malformed patterns.
    pub const fn new() -> Self {
        PatternSubset {
            lookarounds: false,
            backreferences: false,
            boundaries: false,
            property_escapes: false,
            named_groups: false,
            max_repeat: None,
        }
    }

    /// Leaves out lookahead and lookbehind groups.
    #[must_use]
    pub const fn without_lookarounds(mut self) -> Self {
        self.lookarounds = true;
        self
    }

    /// Leaves out backreferences.
    #[must_use]
    pub const fn without_backreferences(mut self) -> Self {
        self.backreferences = true;
        self
    }

    /// Leaves out the word boundaries `\b` and `\B`.
    #[must_use]
    pub const fn without_boundaries(mut self) -> Self {
        self.boundaries = true;
        self
    }

    /// Leaves out Unicode property escapes.
    #[must_use]
    pub const fn without_property_escapes(mut self) -> Self {
        self.property_escapes = true;
        self
    }

    /// Leaves out named groups.
    #[must_use]
    pub const fn without_named_groups(mut self) -> Self {
        self.named_groups = true;
        self
    }

    /// Leaves out repetitions with a bound over `max`.
    #[must_use]
    pub const fn with_max_repeat(mut self, max: u64) -> Self {
        self.max_repeat = Some(max);
        self
    }

    /// The subset that leaves out what either `self` or `other` leaves out.
    #[must_use]
    pub const fn union(self, other: PatternSubset) -> Self {
        let max_repeat = match (self.max_repeat, other.max_repeat) {
            (Some(a), Some(b)) => Some(if a < b { a } else { b }),
            (Some(a), None) => Some(a),
            (None, b) => b,
        };
        PatternSubset {
            lookarounds: self.lookarounds || other.lookarounds,
            backreferences: self.backreferences || other.backreferences,
            boundaries: self.boundaries || other.boundaries,
            property_escapes: self.property_escapes || other.property_escapes,
            named_groups: self.named_groups || other.named_groups,
            max_repeat,
        }
    }

    /// Whether `pattern` is well formed and uses no construct this subset leaves out.
    pub fn admits(&self, pattern: &str) -> bool {
        self.offence(pattern).is_none()
    }

    /// The first construct of `pattern` this subset leaves out, in pattern order; `Malformed` when the pattern ends
    /// with a lone `\`, closes a parenthesis it never opened, or leaves a parenthesis or a class open.
    pub fn offence(&self, pattern: &str) -> Option<Offence> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut depth = 0usize;
        let mut in_class = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' {
                let Some(&n) = chars.get(i + 1) else {
                    return Some(Offence::Malformed);
                };
                if let Some(offence) = self.escape(n, in_class) {
                    return Some(offence);
                }
                i += 2;
                continue;
            }
            if in_class {
                in_class = c != ']';
                i += 1;
                continue;
            }
            match c {
                '[' => in_class = true,
                '(' => {
                    depth += 1;
                    if let Some(offence) = self.group(&chars, i) {
                        return Some(offence);
                    }
                }
                ')' => match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return Some(Offence::Malformed),
                },
                '{' => {
                    if let (Some(max), Some(bound)) = (self.max_repeat, largest_bound(&chars, i))
                        && bound > max
                    {
                        return Some(Offence::LargeRepeat);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if in_class || depth != 0 {
            return Some(Offence::Malformed);
        }
        None
    }

    /// The offence of the escape `\n`, if this subset leaves it out.
    fn escape(&self, n: char, in_class: bool) -> Option<Offence> {
        if self.property_escapes && matches!(n, 'p' | 'P') {
            return Some(Offence::PropertyEscape);
        }
        if self.backreferences && (n == 'k' || (!in_class && ('1'..='9').contains(&n))) {
            return Some(Offence::Backreference);
        }
        if self.boundaries && !in_class && matches!(n, 'b' | 'B') {
            return Some(Offence::Boundary);
        }
        None
    }

    /// The offence of the group opening at `i` (which holds `(`), if this subset leaves it out.
    fn group(&self, chars: &[char], i: usize) -> Option<Offence> {
        match (chars.get(i + 1), chars.get(i + 2), chars.get(i + 3)) {
            (Some('?'), Some('=' | '!'), _) | (Some('?'), Some('<'), Some('=' | '!'))
                if self.lookarounds =>
            {
                Some(Offence::Lookaround)
            }
            (Some('?'), Some('<'), next)
                if self.named_groups && !matches!(next, Some('=' | '!')) =>
            {
                Some(Offence::NamedGroup)
            }
            _ => None,
        }
    }
}

/// The largest bound of the repetition `{n}`, `{n,}` or `{n,m}` opening at `i` (which holds `{`); `None` when the
/// brace opens no repetition (it is then a literal character). Bounds too large for `u64` count as `u64::MAX`.
fn largest_bound(chars: &[char], i: usize) -> Option<u64> {
    let mut j = i + 1;
    let (low, next) = number(chars, j)?;
    j = next;
    let mut bound = low;
    match chars.get(j) {
        Some('}') => return Some(bound),
        Some(',') => j += 1,
        _ => return None,
    }
    if let Some((high, next)) = number(chars, j) {
        bound = bound.max(high);
        j = next;
    }
    (chars.get(j) == Some(&'}')).then_some(bound)
}

/// The decimal number starting at `j` and the index after it; `None` without a digit there.
fn number(chars: &[char], mut j: usize) -> Option<(u64, usize)> {
    let start = j;
    let mut value = 0u64;
    while let Some(d) = chars.get(j).and_then(|c| c.to_digit(10)) {
        value = value.saturating_mul(10).saturating_add(u64::from(d));
        j += 1;
    }
    (j > start).then_some((value, j))
}

#[cfg(test)]
mod tests {
    use super::{Offence, PatternSubset};

    const ALL: PatternSubset = PatternSubset::new()
        .without_lookarounds()
        .without_backreferences()
        .without_boundaries()
        .without_property_escapes()
        .without_named_groups()
        .with_max_repeat(1000);

    #[test]
    fn every_construct_is_found_outside_a_class() {
        let cases = [
            ("a(?=b)", Offence::Lookaround),
            ("a(?!b)", Offence::Lookaround),
            ("(?<=a)b", Offence::Lookaround),
            ("(?<!a)b", Offence::Lookaround),
            (r"(a)\1", Offence::Backreference),
            (r"(?:a)\9", Offence::Backreference),
            (r"\bword\b", Offence::Boundary),
            (r"\Bx", Offence::Boundary),
            (r"^\p{Lu}+$", Offence::PropertyEscape),
            (r"\P{L}", Offence::PropertyEscape),
            ("(?<year>[0-9]{4})", Offence::NamedGroup),
            ("a{1001}", Offence::LargeRepeat),
            ("a{2,5000}", Offence::LargeRepeat),
            ("a{1001,}", Offence::LargeRepeat),
            ("(a", Offence::Malformed),
            ("a)", Offence::Malformed),
            ("[a", Offence::Malformed),
            ("a\\", Offence::Malformed),
        ];
        for (pattern, offence) in cases {
            assert_eq!(ALL.offence(pattern), Some(offence), "{pattern}");
            // Only a malformed pattern is left out by the subset that leaves out nothing else.
            assert_eq!(
                PatternSubset::new().admits(pattern),
                offence != Offence::Malformed,
                "{pattern}"
            );
        }
    }

    #[test]
    fn inside_a_class_some_escapes_mean_something_else() {
        // A class `[\b]` is a backspace, `[\1]` an octal escape, `[(?=)]` three characters.
        for pattern in [r"[\b]x", r"[\1]", "[(?=)]", "[(?<n>)]", "[{2000}]"] {
            assert_eq!(ALL.offence(pattern), None, "{pattern}");
        }
        // `\p` and `\k` are left out anywhere.
        assert_eq!(ALL.offence(r"[\p{L}]"), Some(Offence::PropertyEscape));
        assert_eq!(ALL.offence(r"[\k]"), Some(Offence::Backreference));
    }

    #[test]
    fn escaped_and_literal_lookalikes_are_not_constructs() {
        for pattern in [
            r"\(?=x",
            r"\(?<n>x",
            r"a\{2000}",
            "a{,2000}",
            "a{x}",
            "{2000",
            r"\\b",
            "(?:a)",
            "(?i)abc",
            "a{1000}",
            "a{0,1000}",
        ] {
            assert_eq!(ALL.offence(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn each_flag_leaves_out_only_its_construct() {
        let lookaround = PatternSubset::new().without_lookarounds();
        assert!(!lookaround.admits("(?=a)"));
        assert!(lookaround.admits(r"\b(?<n>a)\k<n>\p{L}a{5000}"));
        let named = PatternSubset::new().without_named_groups();
        assert!(!named.admits("(?<n>a)"));
        assert!(named.admits("(?<=a)b"));
        assert_eq!(
            lookaround.union(named),
            PatternSubset::new()
                .without_lookarounds()
                .without_named_groups()
        );
        assert_eq!(
            PatternSubset::new()
                .with_max_repeat(10)
                .union(PatternSubset::new().with_max_repeat(5))
                .max_repeat,
            Some(5)
        );
    }

    #[test]
    fn huge_bounds_saturate() {
        assert_eq!(
            ALL.offence("a{99999999999999999999999999}"),
            Some(Offence::LargeRepeat)
        );
    }
}
