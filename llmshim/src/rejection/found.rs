//! What one error of a body names, before it is checked against the request, and how its location is read in the
//! request's schema.

use llmshim_core::KeywordClass;
use llmshim_core::pointer::push_token;
use serde_json::Value;

use super::Site;
use super::text::camel;

/// What one error of a body names.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// Where the error starts in the cleaned text, for ordering and for the message.
    pub(crate) at: usize,
    /// The tool, declaration or output schema, as the body gives it.
    pub(crate) subject: Subject,
    /// The location inside the schema; `None` when the body names none.
    pub(crate) path: Option<Vec<Segment>>,
    /// The offending keyword, as the body gives it.
    pub(crate) keyword: Hint,
    /// A bare path (a field-violation entry) without the sentence that says what is wrong; such errors are used
    /// only when no error of the body has its sentence.
    pub(crate) bare: bool,
    /// A tool name the body gives besides an index: the site must carry it.
    pub(crate) name: Option<String>,
}

/// How a body names the thing it rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// A site given by its indices.
    Site(Site),
    /// The `n`-th declaration counting across the tools (an Anthropic body forwarded by Code Assist).
    Nth(usize),
    /// A tool or declaration given by its name.
    Name(String),
    /// Only a location: the request must have exactly one schema with the keyword there.
    Location,
}

/// One step of a location inside a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    /// A schema keyword, possibly in protobuf spelling (`any_of`); read in the spelling the request uses.
    Field(String),
    /// A member name taken literally (a property name, a `$defs` name).
    Member(String),
    /// The `n`-th member of an object in the request's order (Gemini's protobuf map position).
    Position(usize),
    /// An array index.
    Index(usize),
    /// A dotted Vertex path step: a property of the node, else its `items`.
    Loose(String),
}

/// The keyword a body names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Hint {
    /// None.
    None,
    /// Exactly as written (Gemini's `Unknown name "<k>"` repeats what the request sent).
    Named(String),
    /// A field name, read in the spelling the request uses at the node (`any_of` is `anyOf`).
    Field(String),
    /// One of several the body lists (`oneOf, allOf, or anyOf`): the one the node has, when it has exactly one.
    Among(&'static [&'static str]),
}

/// A location read in a schema: the pointer of the deepest schema node reached, that node, and whether every
/// step was found.
pub(crate) struct Resolved<'v> {
    pub(crate) pointer: String,
    pub(crate) node: Option<&'v Value>,
    pub(crate) complete: bool,
}

/// Follows `segments` in `schema` as far as they lead. The pointer stops above the first step the schema lacks,
/// at a schema node: a missing property or branch leaves it at the object or union holding it, not at the
/// `properties` map or the `anyOf` array.
pub(crate) fn resolve<'v>(schema: Option<&'v Value>, segments: &[Segment]) -> Resolved<'v> {
    let mut pointer = String::new();
    let mut node = schema;
    // The pointer length and node before the last step that entered a map or list of subschemas.
    let mut holder: Option<(usize, Option<&'v Value>)> = None;
    for segment in segments {
        let Some(current) = node else {
            break;
        };
        let before = (pointer.len(), node);
        let next = match segment {
            Segment::Field(name) => field_key(current, name).and_then(|k| {
                let v = current.get(&k)?;
                push_token(&mut pointer, &k);
                Some(v)
            }),
            Segment::Member(name) => current.get(name.as_str()).inspect(|_| {
                push_token(&mut pointer, name);
            }),
            Segment::Position(n) => {
                current
                    .as_object()
                    .and_then(|m| m.iter().nth(*n))
                    .map(|(k, v)| {
                        push_token(&mut pointer, k);
                        v
                    })
            }
            Segment::Index(i) => current.as_array().and_then(|a| a.get(*i)).inspect(|_| {
                push_token(&mut pointer, &i.to_string());
            }),
            Segment::Loose(name) => {
                if let Some(v) = current.get("properties").and_then(|p| p.get(name.as_str())) {
                    push_token(&mut pointer, "properties");
                    push_token(&mut pointer, name);
                    Some(v)
                } else if name == "items" {
                    current
                        .get("items")
                        .inspect(|_| push_token(&mut pointer, "items"))
                } else {
                    None
                }
            }
        };
        let Some(v) = next else {
            if let Some((len, above)) = holder {
                pointer.truncate(len);
                node = above;
            }
            return Resolved {
                pointer,
                node,
                complete: false,
            };
        };
        holder = match segment {
            Segment::Field(name) if holds_subschemas(name) => Some(before),
            _ => None,
        };
        node = Some(v);
    }
    if let Some((len, above)) = holder {
        // A location that ends on a map or list of subschemas names the node holding it.
        pointer.truncate(len);
        node = above;
    }
    Resolved {
        pointer,
        node,
        complete: true,
    }
}

/// Whether the keyword `name` (in either spelling) holds a map or a list of subschemas.
fn holds_subschemas(name: &str) -> bool {
    !matches!(
        llmshim_core::keyword::class_of(&camel(name)),
        KeywordClass::SingleChild | KeywordClass::Literal
    )
}

/// The key under which `node` holds the keyword `name`: as written, else in JSON spelling; `None` when neither.
fn field_key(node: &Value, name: &str) -> Option<String> {
    let map = node.as_object()?;
    if map.contains_key(name) {
        return Some(name.to_owned());
    }
    let json = camel(name);
    map.contains_key(&json).then_some(json)
}

/// The keyword `hint` names at `node`.
pub(crate) fn keyword(hint: &Hint, node: Option<&Value>) -> Option<String> {
    match hint {
        Hint::None => None,
        Hint::Named(k) => Some(k.clone()),
        Hint::Field(k) => Some(
            node.and_then(|n| field_key(n, k))
                .unwrap_or_else(|| camel(k)),
        ),
        Hint::Among(set) => {
            let map = node?.as_object()?;
            let mut present = set.iter().filter(|k| map.contains_key(**k));
            let first = present.next()?;
            present.next().is_none().then(|| (*first).to_owned())
        }
    }
}
