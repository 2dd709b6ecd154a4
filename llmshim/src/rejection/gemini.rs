//! Reading a Gemini or Vertex rejection: paths `tools[<i>].function_declarations[<j>]…` (bare, after
//! `GenerateContentRequest.`, or after Code Assist's `request.`), `generation_config.response_schema…`, the
//! `` `<name>` functionDeclaration `parameters.<p>` `` sentences, and the keyword each error's form gives.

use super::Site;
use super::found::{Found, Hint, Segment, Subject};
use super::text::{MAX_TOKEN_BYTES, Text, index, is_word, prefix, squash, until};

/// At most this many anchors of each kind are tried.
const MAX_ANCHORS: usize = 2048;

/// At most this many steps are read from one path.
const MAX_STEPS: usize = 256;

/// Combinators whose bracketed index names a branch.
const BRANCHES: [&str; 8] = [
    "any_of",
    "anyOf",
    "one_of",
    "oneOf",
    "all_of",
    "allOf",
    "prefix_items",
    "prefixItems",
];

/// The schema members of a declaration.
const SCHEMA_KEYS: [&str; 3] = [
    "parameters",
    "parameters_json_schema",
    "parametersJsonSchema",
];

/// The structured-output members of a generation config.
const OUTPUT_KEYS: [&str; 4] = [
    "response_schema",
    "responseSchema",
    "response_json_schema",
    "responseJsonSchema",
];

/// One step of a protobuf field path: a field name and its bracketed key or index.
#[derive(Debug)]
struct Step<'t> {
    name: &'t str,
    key: Option<&'t str>,
}

/// The errors a Gemini body names, in order.
pub(crate) fn read(text: &Text, prefixes: &[&str]) -> Vec<Found> {
    let mut found = Vec::new();
    for at in text.find_all("tools[", MAX_ANCHORS) {
        let Some(start) = prefixed(text, at, prefixes) else {
            continue;
        };
        let Some((steps, end)) = path(text.from(at)) else {
            continue;
        };
        let Some(site) = site(&steps) else {
            continue;
        };
        let schema_steps = match steps.get(2) {
            Some(s) if SCHEMA_KEYS.contains(&s.name) && s.key.is_none() => {
                Some(steps.get(3..).unwrap_or_default())
            }
            _ => None,
        };
        found.push(error(text, start, at + end, site, schema_steps));
    }
    for anchor in ["generation_config.", "generationConfig."] {
        for at in text.find_all(anchor, 16) {
            let Some(start) = prefixed(text, at, prefixes) else {
                continue;
            };
            let Some((steps, end)) = path(text.from(at)) else {
                continue;
            };
            if !steps.get(1).is_some_and(|s| OUTPUT_KEYS.contains(&s.name)) {
                continue;
            }
            let rest = steps.get(2..).unwrap_or_default();
            found.push(error(text, start, at + end, Site::OutputSchema, Some(rest)));
        }
    }
    found.extend(by_name(text));
    found.sort_by_key(|f| f.at);
    found
}

/// Where the path at `at` starts with its allowed prefix, or `None` when it is inside a longer word or behind a
/// prefix this target does not accept.
fn prefixed(text: &Text, at: usize, prefixes: &[&str]) -> Option<usize> {
    let before = text.before(at);
    prefixes.iter().find_map(|p| {
        let head = before.strip_suffix(p)?;
        let boundary = !head
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == '.');
        boundary.then_some(at - p.len())
    })
}

/// The steps of a path such as `tools[0].function_declarations[3].parameters.properties[2].value`, and the bytes it
/// takes.
fn path(text: &str) -> Option<(Vec<Step<'_>>, usize)> {
    let mut steps = Vec::new();
    let mut pos = 0;
    loop {
        let rest = text.get(pos..)?;
        let len = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if len == 0 || steps.len() >= MAX_STEPS {
            return None;
        }
        let name = rest.get(..len)?;
        pos += len;
        let mut key = None;
        if text.get(pos..)?.starts_with('[') {
            let inner = until(text.get(pos + 1..)?, ']')?;
            if inner.len() > MAX_TOKEN_BYTES {
                return None;
            }
            key = Some(inner);
            pos += inner.len() + 2;
        }
        steps.push(Step { name, key });
        let next = text.get(pos..)?;
        if next.starts_with('.') && next.get(1..).is_some_and(|n| n.starts_with(is_word)) {
            pos += 1;
        } else {
            return Some((steps, pos));
        }
    }
}

/// `tools[<i>].function_declarations[<j>]`: the declaration's site.
fn site(steps: &[Step<'_>]) -> Option<Site> {
    let tools = steps.first()?;
    let decls = steps.get(1)?;
    if tools.name != "tools"
        || !matches!(decls.name, "function_declarations" | "functionDeclarations")
    {
        return None;
    }
    let index = whole_index(tools.key?)?;
    let declaration = whole_index(decls.key?)?;
    Some(Site::Tool {
        index,
        declaration: Some(declaration),
    })
}

/// `text` as an index when it is nothing but digits that fit `usize`.
fn whole_index(text: &str) -> Option<usize> {
    index(text).and_then(|(v, d)| (d == text.len()).then_some(v))
}

/// One error: its site, its location (`None` for the declaration itself) and the keyword its form gives.
fn error(text: &Text, start: usize, end: usize, site: Site, steps: Option<&[Step<'_>]>) -> Found {
    let before = text.before(start);
    let after = text.from(end);
    let unknown = before
        .strip_suffix(" at '")
        .and_then(|b| b.strip_suffix('"'))
        .and_then(|b| {
            let open = b.rfind("Unknown name \"")?;
            let name = b.get(open + "Unknown name \"".len()..)?;
            (!name.is_empty() && name.len() <= MAX_TOKEN_BYTES && !name.contains('"'))
                .then_some(name)
        });
    let invalid_value = before.ends_with("Invalid value at '");
    let colon = after.starts_with(':');
    let bare = unknown.is_none() && !invalid_value && !colon;
    let mut keyword = Hint::None;
    let mut path = steps.map(|s| segments(s));
    if let Some(name) = unknown {
        keyword = Hint::Named(name.to_owned());
    } else if (invalid_value || colon)
        && let Some(s) = steps
        && let Some(last) = s.last().filter(|l| is_leaf(l))
    {
        keyword = Hint::Field(last.name.to_owned());
        path = Some(segments(s.get(..s.len() - 1).unwrap_or_default()));
    } else if invalid_value
        && let Some(field) = after
            .strip_prefix("' (")
            .and_then(|r| until(r, ')'))
            .filter(|f| !f.is_empty() && f.chars().all(is_word) && !f.starts_with("TYPE_"))
    {
        keyword = Hint::Field(field.to_owned());
    }
    Found {
        at: start,
        subject: Subject::Site(site),
        path,
        keyword,
        bare,
        name: None,
    }
}

/// Whether a path's last step is a keyword rather than a node: not a property, not a map value, not a branch.
fn is_leaf(step: &Step<'_>) -> bool {
    match (step.name, step.key) {
        ("value", None) | ("properties", Some(_)) => false,
        (name, Some(_)) if BRANCHES.contains(&name) => false,
        (name, _) => !SCHEMA_KEYS.contains(&name),
    }
}

/// The steps of a schema path as segments: `properties[<n>].value` is the `n`-th property (a protobuf map
/// position), `properties[<name>]` a property by name, a bracketed number an index.
fn segments(steps: &[Step<'_>]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(steps.len() * 2);
    let mut i = 0;
    while let Some(step) = steps.get(i) {
        i += 1;
        if step.name == "value" && step.key.is_none() {
            continue;
        }
        out.push(Segment::Field(step.name.to_owned()));
        let Some(key) = step.key else {
            continue;
        };
        let map_value = steps
            .get(i)
            .is_some_and(|n| n.name == "value" && n.key.is_none());
        match whole_index(key) {
            Some(n) if map_value => out.push(Segment::Position(n)),
            Some(n) if step.name != "properties" => out.push(Segment::Index(n)),
            _ => out.push(Segment::Member(key.to_owned())),
        }
    }
    out
}

/// Vertex's `` Unable to submit request because `<name>` functionDeclaration `parameters.<p>` schema … ``.
fn by_name(text: &Text) -> Vec<Found> {
    let anchor = "` functionDeclaration `";
    let mut found = Vec::new();
    for at in text.find_all(anchor, 16) {
        let before = text.before(at);
        let Some(open) = before.rfind('`') else {
            continue;
        };
        let name = before.get(open + 1..).unwrap_or_default();
        if name.is_empty() || name.len() > MAX_TOKEN_BYTES || name.contains('\n') {
            continue;
        }
        let rest = text.from(at + anchor.len());
        let Some(location) = until(rest, '`') else {
            continue;
        };
        let mut parts = location.split('.');
        let path = match parts.next() {
            Some(first) if SCHEMA_KEYS.contains(&first) => Some(
                parts
                    .take(MAX_STEPS)
                    .map(|p| Segment::Loose(p.to_owned()))
                    .collect(),
            ),
            _ => None,
        };
        let sentence = squash(prefix(rest.get(location.len()..).unwrap_or_default(), 300));
        let keyword = if sentence.contains("alongside any_of") {
            Hint::Field("any_of".to_owned())
        } else {
            Hint::None
        };
        found.push(Found {
            at: open,
            subject: Subject::Name(name.to_owned()),
            path,
            keyword,
            bare: false,
            name: None,
        });
    }
    found
}
