//! Reading an OpenAI rejection: `param` (`tools[<i>].function.parameters`, `tools[<i>].parameters`,
//! `response_format`, `text.format`), `Invalid schema for function '<name>'`, `In context=(…)`,
//! `Found at $.…`, and the keyword sentences.

use super::Site;
use super::found::{Found, Hint, Segment, Subject};
use super::text::{Text, index, is_word, until};

/// At most this many `tools[` occurrences are tried.
const MAX_ANCHORS: usize = 256;

/// Keywords whose value maps names to subschemas: the token after them is a member name.
const MAP_KEYWORDS: [&str; 5] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

/// The keywords OpenAI lists in its top-level sentence.
const TOP_LEVEL: &[&str] = &["oneOf", "anyOf", "allOf", "enum", "not"];

/// The errors an OpenAI body names (one body holds one error, possibly repeated in a log).
pub(crate) fn read(text: &Text) -> Vec<Found> {
    let name = function_name(text);
    let (path, keyword) = location(text);
    let mut found = Vec::new();
    for at in text.find_all("tools[", MAX_ANCHORS) {
        if text
            .before(at)
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == '.')
        {
            continue;
        }
        let Some(index) = tool_param(text.from(at + "tools[".len())) else {
            continue;
        };
        found.push(Found {
            at,
            subject: Subject::Site(Site::Tool {
                index,
                declaration: None,
            }),
            path: path.clone(),
            keyword: keyword.clone(),
            bare: false,
            name: name.as_ref().map(|(n, _)| n.clone()),
        });
    }
    // A body that gives both an index and a name is taken only by its index, and only when they agree.
    if found.is_empty() {
        let subject = match name {
            Some((n, at)) => Some((Subject::Name(n), at)),
            None => output(text).map(|at| (Subject::Site(Site::OutputSchema), at)),
        };
        if let Some((subject, at)) = subject {
            found.push(Found {
                at,
                subject,
                path: path.clone(),
                keyword: keyword.clone(),
                bare: false,
                name: None,
            });
        }
    }
    if found.is_empty()
        && let Some(at) = text.find_all("Found at $", 1).first().copied()
        && path.is_some()
    {
        found.push(Found {
            at,
            subject: Subject::Location,
            path,
            keyword,
            bare: false,
            name: None,
        });
    }
    found
}

/// `<i>].function.parameters` or `<i>].parameters`: the index.
fn tool_param(text: &str) -> Option<usize> {
    let (index, digits) = index(text)?;
    let rest = text.get(digits..)?.strip_prefix(']')?;
    for tail in [".function.parameters", ".parameters"] {
        if let Some(after) = rest.strip_prefix(tail)
            && !after.chars().next().is_some_and(is_word)
        {
            return Some(index);
        }
    }
    None
}

/// The name in `Invalid schema for function '<name>'` and where the sentence starts.
fn function_name(text: &Text) -> Option<(String, usize)> {
    let at = *text.find_all("Invalid schema for function ", 1).first()?;
    let rest = text.from(at + "Invalid schema for function ".len());
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let name = until(rest.get(1..)?, quote)?;
    (!name.is_empty()).then(|| (name.to_owned(), at))
}

/// Where the body says the structured-output schema is rejected.
fn output(text: &Text) -> Option<usize> {
    if let Some(at) = text
        .find_all("Invalid schema for response_format", 1)
        .first()
    {
        return Some(*at);
    }
    for at in text.find_all("param", 16) {
        let rest = text.from(at + "param".len());
        let value = rest.trim_start_matches(['"', '\'', ':', ' ']);
        if value.starts_with("response_format") || value.starts_with("text.format") {
            return Some(at);
        }
    }
    None
}

/// The location and keyword the body's sentences give.
fn location(text: &Text) -> (Option<Vec<Segment>>, Hint) {
    let mut path = None;
    let mut keyword = Hint::None;
    if let Some(at) = text.find_all("In context=(", 1).first() {
        path = context(text.from(at + "In context=(".len()));
    }
    if let Some(at) = text.find_all("Found at $", 1).first() {
        let rest = text.from(at + "Found at $".len());
        if let Some((segments, last)) = dotted(rest) {
            path = Some(segments);
            if let Some(k) = last {
                keyword = Hint::Field(k);
            }
        }
    }
    if let Some(at) = text.find_all(" is not permitted", 1).first() {
        let before = text.before(*at);
        if let Some(quote) = before
            .chars()
            .next_back()
            .filter(|c| matches!(c, '\'' | '"'))
        {
            let inner = before.get(..before.len() - 1).unwrap_or_default();
            if let Some(start) = inner.rfind(quote) {
                let k = inner.get(start + 1..).unwrap_or_default();
                if !k.is_empty() && k.len() <= 64 {
                    keyword = Hint::Field(k.to_owned());
                }
            }
        }
    }
    if keyword == Hint::None {
        if !text.find_all("is not a 'regex'", 1).is_empty() {
            keyword = Hint::Field("pattern".to_owned());
        } else if !text.find_all("is not a valid format", 1).is_empty() {
            keyword = Hint::Field("format".to_owned());
        } else if !text.find_all("at the top level", 1).is_empty()
            && !text.find_all("not have 'oneOf'", 1).is_empty()
        {
            keyword = Hint::Among(TOP_LEVEL);
            path.get_or_insert_with(Vec::new);
        }
    }
    (path, keyword)
}

/// The quoted tokens of `('properties', 'a', 'items')`, as a location; a trailing `'type', '<n>'` (a branch of a
/// type array) names the node that holds the type.
fn context(text: &str) -> Option<Vec<Segment>> {
    let mut tokens: Vec<&str> = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches([' ', ',']);
        if rest.starts_with(')') {
            break;
        }
        let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        let token = until(rest.get(1..)?, quote)?;
        tokens.push(token);
        if tokens.len() > 256 {
            return None;
        }
        rest = rest.get(token.len() + 2..)?;
    }
    if let [head @ .., "type", n] = tokens.as_slice()
        && index(n).is_some_and(|(_, d)| d == n.len())
    {
        tokens = head.to_vec();
    }
    Some(segments(&tokens))
}

/// Tokens of a location as segments: after a map keyword a member name, after an array keyword an index.
fn segments(tokens: &[&str]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut member = false;
    for token in tokens {
        if member {
            out.push(Segment::Member((*token).to_owned()));
            member = false;
            continue;
        }
        match index(token) {
            Some((i, d)) if d == token.len() => out.push(Segment::Index(i)),
            _ => {
                member = MAP_KEYWORDS.contains(token);
                out.push(Segment::Field((*token).to_owned()));
            }
        }
    }
    out
}

/// A `JSONPath` like `.properties.a.pattern` or `.items[0]`: the location and, when the last step is not a member
/// name or a container, that keyword.
fn dotted(text: &str) -> Option<(Vec<Segment>, Option<String>)> {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ','))
        .unwrap_or(text.len());
    let path = text.get(..end)?.trim_end_matches('.');
    let mut tokens: Vec<String> = Vec::new();
    for part in path.split('.').skip(1) {
        if tokens.len() > 256 {
            return None;
        }
        match part.split_once('[') {
            Some((name, idx)) => {
                if !name.is_empty() {
                    tokens.push(name.to_owned());
                }
                tokens.push(idx.trim_end_matches(']').to_owned());
            }
            None => tokens.push(part.to_owned()),
        }
    }
    let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let mut segs = segments(&refs);
    let keyword = match segs.last() {
        Some(Segment::Field(k)) if !is_container(k) => Some(k.clone()),
        _ => None,
    };
    if keyword.is_some() {
        segs.pop();
    }
    Some((segs, keyword))
}

/// Keywords a location passes through rather than ends on.
fn is_container(name: &str) -> bool {
    MAP_KEYWORDS.contains(&name)
        || matches!(
            name,
            "items" | "anyOf" | "oneOf" | "allOf" | "prefixItems" | "additionalProperties" | "not"
        )
}
