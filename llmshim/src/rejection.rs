//! From a provider's 400 back to the one tool it rejects: [`locate`] reads the body, [`degrade`] changes only that
//! tool, one step per call, so that the request can be sent again at once.
//!
//! A provider that rejects one tool schema rejects the whole request. Its body names the culprit: by index
//! (`tools[26].function.parameters`, `tools.27.custom.input_schema`, `function_declarations[80]`), by name
//! (`Invalid schema for function 'x'`), often with the location and keyword inside the schema. [`locate`] turns
//! such a body into a [`Rejection`], and gives `None` for a body it does not recognise or one that names a tool
//! the request does not have: it never guesses.
//!
//! ```
//! use llmshim::rejection::{degrade, locate, Site, Step};
//! use llmshim::schema::{Options, Target};
//! use serde_json::json;
//!
//! let mut request = json!({"model": "m", "tools": [
//!     {"type": "function", "function": {"name": "ok", "parameters": {"type": "object", "properties": {}}}},
//!     {"type": "function", "function": {"name": "search", "strict": true, "parameters": {
//!         "type": "object",
//!         "properties": {"q": {"type": "string", "maxLength": 80}},
//!         "required": ["q"],
//!         "additionalProperties": false
//!     }}}
//! ]});
//! let body = r#"{"error": {"message": "Invalid schema for function 'search': In context=('properties', 'q'), 'maxLength' is not permitted.", "type": "invalid_request_error", "param": "tools[1].function.parameters", "code": "invalid_function_parameters"}}"#;
//!
//! let rejection = locate(Target::OpenAiChat, &request, body).expect("the body names tool 1");
//! assert_eq!(rejection.site, Site::Tool { index: 1, declaration: None });
//! assert_eq!(rejection.pointer.as_deref(), Some("/properties/q"));
//! assert_eq!(rejection.keyword.as_deref(), Some("maxLength"));
//!
//! let report = degrade(&Options::for_target(Target::OpenAiChat), &mut request, &rejection);
//! assert_eq!(report.step, Some(Step::Keyword));
//! let q = &request["tools"][1]["function"]["parameters"]["properties"]["q"];
//! assert_eq!(q, &json!({"type": "string", "description": "(maxLength: 80)"}));
//! assert_eq!(request["tools"][1]["function"]["strict"], true);
//! ```

mod anthropic;
mod degrade;
mod found;
mod gemini;
mod openai;
mod text;
mod wire;

use serde_json::{Map, Value};

pub use degrade::{DegradeReport, MAX_KEYWORD_STEPS, Step, degrade};

use crate::schema::Target;
use found::{Found, Subject};
use text::Text;
use wire::{Dialect, Wire};

/// At most this many errors of one body are checked against the request.
const MAX_ERRORS: usize = 1024;

/// What a provider's rejection names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Rejection {
    /// The tool (or declaration), or the structured-output schema.
    pub site: Site,
    /// The JSON Pointer of the rejected node inside that schema, when the body names a location; it stops above a
    /// step the request's schema does not have.
    pub pointer: Option<String>,
    /// The offending keyword, when the body names one, in the spelling the request uses.
    pub keyword: Option<String>,
    /// The provider's sentence, as read from the body (at most 1,000 bytes).
    pub message: String,
}

/// The thing a rejection names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Site {
    /// A tool: its index in the request's `tools` and, for Gemini-style targets, the index in that tool's
    /// `functionDeclarations`.
    Tool {
        /// The index in `tools`.
        index: usize,
        /// The index in the tool's `functionDeclarations`, for the Gemini targets and Code Assist.
        declaration: Option<usize>,
    },
    /// The structured-output schema (`response_format`, `text.format`, `output_config.format`,
    /// `generationConfig.responseSchema` or `responseJsonSchema`).
    OutputSchema,
}

impl Rejection {
    /// A rejection of `site` with no location, no keyword and an empty message; set the other fields with the
    /// `with_` methods.
    pub fn new(site: Site) -> Rejection {
        Rejection {
            site,
            pointer: None,
            keyword: None,
            message: String::new(),
        }
    }

    /// The same rejection with a location inside the schema.
    #[must_use]
    pub fn with_pointer(mut self, pointer: impl Into<String>) -> Rejection {
        self.pointer = Some(pointer.into());
        self
    }

    /// The same rejection with an offending keyword.
    #[must_use]
    pub fn with_keyword(mut self, keyword: impl Into<String>) -> Rejection {
        self.keyword = Some(keyword.into());
        self
    }

    /// The same rejection with the provider's sentence.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Rejection {
        self.message = message.into();
        self
    }

    /// The JSON form the command line prints: `{"site": "tool"|"output_schema", "tool": i|null,
    /// "declaration": j|null, "pointer": p|null, "keyword": k|null, "message": m}`.
    ///
    /// ```
    /// use llmshim::rejection::{Rejection, Site};
    /// use serde_json::json;
    ///
    /// let r = Rejection::new(Site::Tool { index: 2, declaration: None }).with_keyword("pattern");
    /// assert_eq!(r.to_json(), json!({"site": "tool", "tool": 2, "declaration": null, "pointer": null,
    ///                                "keyword": "pattern", "message": ""}));
    /// assert_eq!(Rejection::from_json(&r.to_json()), Some(r));
    /// ```
    pub fn to_json(&self) -> Value {
        let (site, tool, declaration) = match self.site {
            Site::Tool { index, declaration } => (
                "tool",
                Value::from(index),
                declaration.map_or(Value::Null, Value::from),
            ),
            Site::OutputSchema => ("output_schema", Value::Null, Value::Null),
        };
        let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::String);
        let mut map = Map::new();
        map.insert("site".to_owned(), Value::from(site));
        map.insert("tool".to_owned(), tool);
        map.insert("declaration".to_owned(), declaration);
        map.insert("pointer".to_owned(), text(&self.pointer));
        map.insert("keyword".to_owned(), text(&self.keyword));
        map.insert("message".to_owned(), Value::String(self.message.clone()));
        Value::Object(map)
    }

    /// Reads the JSON form of [`Rejection::to_json`]; `None` when `value` is not one (a missing `message` reads as
    /// empty).
    pub fn from_json(value: &Value) -> Option<Rejection> {
        let index = |key: &str| match value.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => v.as_u64().and_then(|n| usize::try_from(n).ok()).map(Some),
        };
        let text = |key: &str| match value.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => v.as_str().map(|s| Some(s.to_owned())),
        };
        let site = match value.get("site")?.as_str()? {
            "tool" => Site::Tool {
                index: index("tool")??,
                declaration: index("declaration")?,
            },
            "output_schema" => Site::OutputSchema,
            _ => return None,
        };
        Some(Rejection {
            site,
            pointer: text("pointer")?,
            keyword: text("keyword")?,
            message: text("message")?.unwrap_or_default(),
        })
    }
}

/// Reads a provider's error `body` (raw text, the provider's JSON envelope, or either quoted inside a log line)
/// for the wire `request` that `target`'s tool translation produced, and names the tool, location and keyword it
/// rejects; `None` when the body is not a rejection this target's provider writes, or names a tool the request
/// does not have.
///
/// Recognised: OpenAI `param` values `tools[<i>].function.parameters`, `tools[<i>].parameters`, `response_format`
/// and `text.format`, `Invalid schema for function '<name>'`, `In context=(…)` and `Found at $.…`; Anthropic
/// `tools.<i>.custom.input_schema`, `tools.<i>.input_schema` and `output_config.format.schema`; Gemini and Vertex
/// `tools[<i>].function_declarations[<j>]…` (bare or after `GenerateContentRequest.`), `properties[<n>].value`
/// read as the request's `n`-th property, `` `<name>` functionDeclaration ``, and `generation_config.response_schema`;
/// Code Assist the same after `request.`, and an Anthropic body forwarded inside its error, where `tools.<n>` is
/// the `n`-th declaration counting across the tools. Of a body with several errors, the first that names
/// something the request has is taken.
///
/// Only the first 4 MiB of a body are read, and every step is bounded: a hostile body ends in `None` or an answer,
/// never a panic.
pub fn locate(target: Target, request: &Value, body: &str) -> Option<Rejection> {
    let wire = Wire::new(target.rules().rules().envelope);
    if !wire.answered() {
        return None;
    }
    let text = Text::new(body);
    let mut found: Vec<Found> = Vec::new();
    if wire.speaks(Dialect::OpenAi) {
        found.extend(openai::read(&text));
    }
    if wire.speaks(Dialect::Anthropic) {
        found.extend(anthropic::read(&text));
    }
    if wire.speaks(Dialect::Gemini) {
        found.extend(gemini::read(&text, &wire.gemini_prefixes()));
    }
    // Errors with their sentence first, each group in body order.
    found.sort_by_key(|f| (f.bare, f.at));
    found
        .iter()
        .take(MAX_ERRORS)
        .find_map(|f| settle(&wire, request, &text, f))
}

/// Checks one error against the request: its site must exist (and carry the name the body also gives).
fn settle(wire: &Wire, request: &Value, text: &Text, found: &Found) -> Option<Rejection> {
    let site = match &found.subject {
        Subject::Site(site) => Some(*site),
        Subject::Nth(n) if wire.declarations() => wire.nth_declaration(request, *n),
        Subject::Nth(n) => Some(Site::Tool {
            index: *n,
            declaration: None,
        }),
        Subject::Name(name) => wire.find_by_name(request, name),
        Subject::Location => only_site_with(wire, request, found),
    }?;
    if !wire.has(request, site) {
        return None;
    }
    if let Some(name) = &found.name
        && wire.name(request, site) != Some(name.as_str())
    {
        return None;
    }
    let schema = wire.schema(request, site);
    let (pointer, node) = match &found.path {
        Some(path) => {
            let resolved = found::resolve(schema, path);
            (Some(resolved.pointer), resolved.node)
        }
        None => (None, schema),
    };
    Some(Rejection {
        site,
        pointer,
        keyword: found::keyword(&found.keyword, node),
        message: text.line_at(found.at),
    })
}

/// The one site whose schema has the body's location in full, with the keyword there; `None` when no site or
/// several have it.
fn only_site_with(wire: &Wire, request: &Value, found: &Found) -> Option<Site> {
    let path = found.path.as_ref()?;
    let mut only = None;
    for site in wire.sites(request) {
        let resolved = found::resolve(wire.schema(request, site), path);
        if !resolved.complete {
            continue;
        }
        let Some(keyword) = found::keyword(&found.keyword, resolved.node) else {
            continue;
        };
        if resolved.node.and_then(|n| n.get(&keyword)).is_none() {
            continue;
        }
        if only.is_some() {
            return None;
        }
        only = Some(site);
    }
    only
}
