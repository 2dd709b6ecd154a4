//! One plain-English sentence per change: what happened to which keyword, where its value went, and why.
//!
//! The pointer of a change names either a keyword of a schema node (`/properties/zip/pattern`), a schema node itself
//! (`/properties/zip`, the root `""`), or a value inside a keyword (`/required/2`); which one is read from the
//! tokens, since a property may be called `pattern` too. The sentence then says, by the change's kind, what became
//! of it, reading the output where the value went (for a lift, the node's description now) and the input for what
//! a `$ref` pointed to. The reason is the rule's one line from the project's rule reference
//! ([`llmshim::rules::reason`]), followed by the rule id.

use std::io::{self, Write};

use llmshim::rules;
use llmshim::schema::{Change, ChangeKind};
use serde_json::Value;

use crate::explain::order::tokens;

/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "allOf", "oneOf", "prefixItems"];

/// Keywords whose value is one schema (`items` may also be a draft-07 list).
const SCHEMA_VALUES: [&str; 11] = [
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];

/// Rules whose changes always name a whole node, even where its pointer ends in a keyword that holds one schema
/// (`/items` for the item schema, closed by `strict.close-object`).
const NODE_RULES: [&str; 9] = [
    "strict.close-object",
    "strict.nullable-optional",
    "strict.demoted",
    "openai.strict-limits",
    "anthropic.request-budget",
    "output.wrap",
    "resolve.unroll-recursion",
    "target.omit-property",
    "walk.narrow-any",
];

/// The longest value or description a sentence quotes, in bytes; longer ones are cut with `…`.
const QUOTE_LIMIT: usize = 120;

/// What a pointer's last token names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A schema node: the root, a property, a list entry, a keyword's subschema.
    Node,
    /// A keyword of the schema node at the pointer's parent.
    Keyword(String),
    /// A value inside the keyword's value (an entry of `required` or `enum`, a key of `default`).
    Entry {
        /// The keyword the value belongs to.
        keyword: String,
        /// The last token.
        token: String,
    },
}

/// Reads what `pointer` names by following its tokens from the root schema.
///
/// ```
/// use llmshim_cli::explain::sentence::{classify, Target};
///
/// assert_eq!(classify(""), Target::Node);
/// assert_eq!(classify("/properties/pattern"), Target::Node);
/// assert_eq!(classify("/properties/zip/pattern"), Target::Keyword("pattern".into()));
/// assert_eq!(classify("/anyOf/1/type"), Target::Keyword("type".into()));
/// assert_eq!(classify("/items/0"), Target::Node);
/// assert_eq!(
///     classify("/required/2"),
///     Target::Entry { keyword: "required".into(), token: "2".into() }
/// );
/// ```
pub fn classify(pointer: &str) -> Target {
    /// Where the next token stands.
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        Schema,
        Map,
        List,
        Items,
        Data,
    }
    /// Where the token after the keyword `token` stands; remembers a keyword whose value is data.
    fn after(token: &str, keyword: &mut String) -> At {
        if SCHEMA_MAPS.contains(&token) {
            At::Map
        } else if SCHEMA_LISTS.contains(&token) {
            At::List
        } else if token == "items" {
            At::Items
        } else if SCHEMA_VALUES.contains(&token) {
            At::Schema
        } else {
            token.clone_into(keyword);
            At::Data
        }
    }
    let mut at = At::Schema;
    let mut keyword = String::new();
    let mut target = Target::Node;
    for token in tokens(pointer) {
        (target, at) = match at {
            At::Map | At::List => (Target::Node, At::Schema),
            // A draft-07 list of `items` has index tokens; anything else is a keyword of the one item schema.
            At::Items if token.parse::<usize>().is_ok() => (Target::Node, At::Schema),
            At::Schema | At::Items => {
                let next = after(&token, &mut keyword);
                (Target::Keyword(token), next)
            }
            At::Data => (
                Target::Entry {
                    keyword: keyword.clone(),
                    token,
                },
                At::Data,
            ),
        };
    }
    target
}

/// A writer that takes at most a fixed number of bytes and then refuses, so that quoting a value costs no more
/// than the quote.
pub(crate) struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
}

impl Bounded {
    /// A writer that takes `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        Bounded {
            bytes: Vec::new(),
            limit,
        }
    }

    /// The bytes taken.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        if room == 0 {
            return Err(io::Error::other("quote limit reached"));
        }
        let taken = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `value` as compact JSON, cut to `QUOTE_LIMIT` bytes with `…` when longer.
pub fn quote(value: &Value) -> String {
    let mut sink = Bounded::new(QUOTE_LIMIT + 1);
    let complete =
        crate::json::write(&mut sink, value, false).is_ok() && sink.bytes.len() <= QUOTE_LIMIT;
    let mut text = String::from_utf8_lossy(&sink.bytes).into_owned();
    if !complete {
        let mut end = QUOTE_LIMIT.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// A description as a JSON string; a long one keeps its end, where lifted text is appended, after a `…`.
pub fn quote_description(description: &str) -> String {
    if description.len() <= QUOTE_LIMIT {
        return Value::String(description.to_owned()).to_string();
    }
    let mut start = description.len() - QUOTE_LIMIT;
    while !description.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", Value::String(description[start..].to_owned()))
}

/// The value at `pointer` in `document`, following the tokens one at a time.
fn at<'v>(document: &'v Value, pointer: &[String]) -> Option<&'v Value> {
    pointer.iter().try_fold(document, |node, token| match node {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// The sentence for `change` (without the pointer and the reason): what happened and where the value went.
///
/// `input` is the schema before normalization and `output` after it.
///
/// ```
/// use llmshim::schema::{Change, ChangeKind};
/// use llmshim_cli::explain::sentence::what;
/// use serde_json::json;
///
/// let input = json!({"properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}});
/// let output = json!({"properties": {"zip": {"type": "string", "description": "(pattern: ^[0-9]{5}$)"}}});
/// let lift = Change::new("/properties/zip/pattern", "target.keyword", ChangeKind::Lifted);
/// assert_eq!(
///     what(&lift, &input, &output),
///     "moved `pattern` into the node's description, which now reads \"(pattern: ^[0-9]{5}$)\""
/// );
/// ```
pub fn what(change: &Change, input: &Value, output: &Value) -> String {
    let path = tokens(&change.pointer);
    let now = at(output, &path);
    let before = at(input, &path);
    // Closing an object drops a schema its `additionalProperties` held: a keyword-level change of a node rule.
    if change.rule == "strict.close-object" && change.kind == ChangeKind::Dropped {
        return match before.filter(|v| v.is_object()) {
            Some(schema) => format!(
                "replaced the schema of `additionalProperties`, {}, by `false`, so properties not listed are refused",
                quote(schema)
            ),
            None => "replaced the schema of `additionalProperties` by `false`, so properties not listed are refused"
                .to_owned(),
        };
    }
    // An object whose union of closed objects carries it loses its own `type` instead of being closed empty.
    if change.rule == "strict.close-object" && path.last().is_some_and(|t| t == "type") {
        return "dropped the object's own `type` instead of closing it empty: its `anyOf` branches are closed objects, \
                which carry it"
            .to_owned();
    }
    // An object whose own properties went into each branch of its union, which now carries it.
    if change.rule == "strict.close-object" && path.last().is_some_and(|t| t == "properties") {
        return "moved the object's own properties into each branch of its `anyOf`, beside the branch's, and closed \
                each branch on both: closed apart, the object and a branch declaring other names would admit nothing"
            .to_owned();
    }
    if NODE_RULES.contains(&change.rule.as_ref()) {
        return node_sentence(change, now);
    }
    match classify(&change.pointer) {
        Target::Keyword(keyword) => keyword_sentence(change, &keyword, &path, before, now, output),
        Target::Entry { keyword, token } => {
            let verb = match change.kind {
                ChangeKind::Dropped => "removed",
                ChangeKind::Lifted => "moved into the description",
                ChangeKind::Added => "added",
                ChangeKind::Upgraded => "upgraded",
                ChangeKind::Relaxed => "loosened",
                ChangeKind::Narrowed => "narrowed",
                _ => "rewrote",
            };
            format!("{verb} entry `{token}` of `{keyword}`")
        }
        Target::Node => node_sentence(change, now),
    }
}

/// The sentence for a change of one keyword.
fn keyword_sentence(
    change: &Change,
    keyword: &str,
    path: &[String],
    before: Option<&Value>,
    now: Option<&Value>,
    output: &Value,
) -> String {
    let k = format!("`{keyword}`");
    match change.rule.as_ref() {
        "walk.one-of-to-any-of" => return "renamed `oneOf` to `anyOf`".to_owned(),
        "walk.split-type-array" => {
            return format!("split the type array of {k} into an `anyOf` of one-type branches");
        }
        "walk.nullable-marker" => {
            return match now {
                Some(value) => format!("rewrote {k} as {} with `nullable: true`", quote(value)),
                None => format!("rewrote {k} with `nullable: true`"),
            };
        }
        "google.isolate-any-of" => {
            return format!("moved the node's other keywords into the branches of {k}");
        }
        "cca.merge-combinator" => return format!("merged the branches of {k} into the node"),
        "google.collapse-nullable" => {
            return format!("collapsed {k} into its one branch that is not null");
        }
        "target.narrow-union" => {
            return format!(
                "kept only the first branch of {k} that the target accepts; the description names the others"
            );
        }
        "walk.nullable-remove" => {
            return format!("removed the `null` branch of {k}, so null is no longer accepted");
        }
        "google.const-to-enum" => {
            return format!("turned {k} into a one-value `enum`");
        }
        "resolve.keep-recursive-ref" => {
            return match now.and_then(Value::as_str) {
                Some("#") => "kept the recursive reference to the whole schema as `#`".to_owned(),
                Some(reference) => format!(
                    "kept the recursive reference as {}, a definition in the root's `$defs`",
                    quote(&Value::String(reference.to_owned()))
                ),
                None => "kept the recursive reference into the root's `$defs`".to_owned(),
            };
        }
        _ => {}
    }
    match change.kind {
        ChangeKind::Lifted => {
            let parent = &path[..path.len().saturating_sub(1)];
            match at(output, parent)
                .and_then(|node| node.get("description"))
                .and_then(Value::as_str)
            {
                Some(description) => format!(
                    "moved {k} into the node's description, which now reads {}",
                    quote_description(description)
                ),
                None => format!("moved {k} into the description"),
            }
        }
        ChangeKind::Dropped => format!("removed {k}"),
        ChangeKind::Narrowed | ChangeKind::Relaxed if change.rule == "google.array-items" => {
            match now {
                Some(value) => {
                    format!("added {k}: {}, so the array holds only those", quote(value))
                }
                None => format!("added {k}"),
            }
        }
        ChangeKind::Rewritten if keyword == "$ref" && now.is_none() => {
            match before.and_then(Value::as_str) {
                Some(reference) => format!(
                    "replaced the reference {} by the schema it names",
                    quote(&Value::String(reference.to_owned()))
                ),
                None => "replaced the reference by the schema it names".to_owned(),
            }
        }
        ChangeKind::Rewritten => match now {
            Some(value) => format!("rewrote {k}, now {}", quote(value)),
            None => format!("replaced {k} by other keywords of the node"),
        },
        ChangeKind::Relaxed => match now {
            Some(value) => format!("loosened {k}, now {}", quote(value)),
            None => format!("removed {k}, so the node accepts more values"),
        },
        ChangeKind::Added => match now {
            Some(value) => format!("added {k}: {}", quote(value)),
            None => format!("added {k}"),
        },
        ChangeKind::Upgraded => match now {
            Some(value) => format!("upgraded {k} to the 2020-12 form, now {}", quote(value)),
            None => format!("upgraded {k} to its 2020-12 form"),
        },
        ChangeKind::Narrowed => match now {
            Some(value) => format!("narrowed {k}, now {}", quote(value)),
            None => format!("removed {k}, so the node accepts fewer values"),
        },
        _ => format!("changed {k}"),
    }
}

/// The sentence for a change of a whole node (the root, a property, a branch).
fn node_sentence(change: &Change, now: Option<&Value>) -> String {
    match (change.rule.as_ref(), change.kind) {
        ("strict.close-object", _) => {
            "closed the object: `additionalProperties: false`, and every property required".to_owned()
        }
        ("strict.nullable-optional", _) => {
            "let this optional property be null (an `anyOf` with a null branch), so that it can be required"
                .to_owned()
        }
        ("strict.demoted", _) => {
            "gave up strict mode: the schema was normalized again without it".to_owned()
        }
        ("openai.strict-limits" | "anthropic.request-budget", _) => {
            "gave up strict mode: the strict form passes the provider's limits".to_owned()
        }
        ("output.wrap", _) => {
            "wrapped the schema as the `response` property of an object".to_owned()
        }
        ("resolve.unroll-recursion", _) => {
            "cut the recursion here after a fixed number of expansions; the enclosing node's description says what \
             was omitted"
                .to_owned()
        }
        ("target.omit-property", _) => {
            "could not express this part for the target, so the nearest optional property or union branch around it \
             was removed; the enclosing node's description names it as `(omitted <name>: <kind>)`"
                .to_owned()
        }
        ("walk.narrow-any", _) => {
            "gave this node, which accepted any value, `type: \"string\"` where the target needs a type; its \
             description says `(type: any)`"
                .to_owned()
        }
        (_, ChangeKind::Dropped) => "removed this node".to_owned(),
        (_, ChangeKind::Lifted) => "moved this node into the description".to_owned(),
        (_, ChangeKind::Added) => match now {
            Some(value) => format!("added this node: {}", quote(value)),
            None => "added this node".to_owned(),
        },
        (_, ChangeKind::Relaxed) => "loosened this node".to_owned(),
        (_, ChangeKind::Upgraded) => "upgraded this node to the 2020-12 form".to_owned(),
        (_, ChangeKind::Narrowed) => "narrowed this node".to_owned(),
        _ => "rewrote this node".to_owned(),
    }
}

/// The reason of the rule behind `change` and its id: `Why: <reason> (<rule>)`, or the id alone for a rule the
/// reference does not know (a custom target's).
pub fn why(change: &Change) -> String {
    match rules::reason(&change.rule) {
        Some(reason) => format!("Why: {reason} ({})", change.rule),
        None => format!("({})", change.rule),
    }
}
