//! RFC 6901 JSON Pointers, the location every report and error carries.

use std::fmt;

/// An owned RFC 6901 JSON Pointer such as `/properties/a~1b`; the root is the empty string.
///
/// ```
/// use llmshim_core::Pointer;
///
/// let mut p = Pointer::root();
/// p.push("properties");
/// p.push("a/b");
/// p.push_index(3);
/// assert_eq!(p.as_str(), "/properties/a~1b/3");
/// assert_eq!(Pointer::parse("/properties/a~1b/3").map(|p| p.segments()),
///            Some(vec!["properties".to_owned(), "a/b".to_owned(), "3".to_owned()]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Pointer(String);

impl Pointer {
    /// The root pointer, `""`.
    pub fn root() -> Self {
        Pointer(String::new())
    }

    /// Parses an escaped pointer; `None` when it is neither empty nor starts with `/`.
    pub fn parse(text: &str) -> Option<Self> {
        (text.is_empty() || text.starts_with('/')).then(|| Pointer(text.to_owned()))
    }

    /// Appends one unescaped reference token.
    pub fn push(&mut self, token: &str) {
        push_token(&mut self.0, token);
    }

    /// Appends an array index.
    pub fn push_index(&mut self, index: usize) {
        use fmt::Write as _;
        let _ = write!(self.0, "/{index}");
    }

    /// Returns a new pointer with one more token.
    #[must_use]
    pub fn join(&self, token: &str) -> Self {
        let mut next = self.clone();
        next.push(token);
        next
    }

    /// The escaped text of the pointer.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The unescaped reference tokens, in order.
    pub fn segments(&self) -> Vec<String> {
        if self.0.is_empty() {
            return Vec::new();
        }
        self.0.split('/').skip(1).map(unescape).collect()
    }

    /// Consumes the pointer and returns its escaped text.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<Pointer> for String {
    fn from(p: Pointer) -> String {
        p.0
    }
}

/// Appends `/` and the escaped `token` to an escaped pointer held in `buf`.
pub fn push_token(buf: &mut String, token: &str) {
    buf.push('/');
    // Almost every token (a keyword, a property name) escapes nothing: one scan of its bytes, then one copy.
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        buf.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => buf.push_str("~0"),
            '/' => buf.push_str("~1"),
            c => buf.push(c),
        }
    }
}

/// Unescapes one reference token (`~1` to `/`, then `~0` to `~`).
pub fn unescape(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_owned()
    }
}
