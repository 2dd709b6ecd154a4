//! Reading and writing a wire request as `tools` produced it, through the target's [`Envelope`]: where the tools,
//! a tool's schema and its `strict` stand, what the fallback sends, and which provider's words a rejection is in.
//!
//! The envelope value says how tools are laid out; the only knowledge added here is one row per provider dialect
//! ([`DIALECTS`]): which envelopes a provider answers (recognised by their layout), and where that provider's
//! structured-output schema stands.

use llmshim_core::envelope::Layout;
use llmshim_core::{Envelope, json};
use serde_json::{Map, Value};

use super::Site;

/// Which provider's words a target's rejections are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAI Chat Completions and Responses (and OpenAI-compatible servers).
    OpenAi,
    /// Anthropic Messages (also on Bedrock and Vertex).
    Anthropic,
    /// Gemini and Vertex `GenerateContent`.
    Gemini,
}

/// One provider dialect: the envelopes it answers and where its structured-output schema stands.
struct DialectRow {
    dialect: Dialect,
    /// Whether a target with this envelope sends its tools to this provider.
    answers: fn(&Envelope) -> bool,
    /// Where the structured-output schema may stand, for an envelope this provider answers.
    outputs: fn(&Envelope) -> &'static [Output],
}

/// The providers, by the tool layouts they take: OpenAI's function tools (Chat's `function` holder, Responses'
/// flat `type: "function"`), Anthropic's `input_schema`, Gemini's declarations; a Claude model behind a wrapped
/// Gemini envelope (Code Assist) answers in Anthropic's words.
const DIALECTS: [DialectRow; 3] = [
    DialectRow {
        dialect: Dialect::OpenAi,
        answers: |e| matches!(e.layout, Layout::Tool(shape) if shape.tag == Some(("type", "function"))),
        outputs: |e| match e.layout {
            Layout::Tool(shape) if shape.holder.is_some() => CHAT_OUTPUT,
            _ => RESPONSES_OUTPUT,
        },
    },
    DialectRow {
        dialect: Dialect::Anthropic,
        answers: |e| match e.layout {
            Layout::Tool(shape) => shape.holder.is_none() && shape.schema == "input_schema",
            Layout::Declarations { .. } => e.wrapper.is_some(),
        },
        outputs: |_| ANTHROPIC_OUTPUT,
    },
    DialectRow {
        dialect: Dialect::Gemini,
        answers: |e| matches!(e.layout, Layout::Declarations { .. }),
        outputs: |_| GEMINI_OUTPUT,
    },
];

/// One place a request may hold its structured-output schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output {
    /// Member names from the provider request down to the schema.
    path: &'static [&'static str],
    /// Member names from the provider request down to the object holding `strict`, when the wire has one.
    strict_holder: Option<&'static [&'static str]>,
}

const CHAT_OUTPUT: &[Output] = &[Output {
    path: &["response_format", "json_schema", "schema"],
    strict_holder: Some(&["response_format", "json_schema"]),
}];
const RESPONSES_OUTPUT: &[Output] = &[Output {
    path: &["text", "format", "schema"],
    strict_holder: Some(&["text", "format"]),
}];
const ANTHROPIC_OUTPUT: &[Output] = &[
    Output {
        path: &["output_config", "format", "schema"],
        strict_holder: None,
    },
    Output {
        path: &["output_format", "schema"],
        strict_holder: None,
    },
];
const GEMINI_OUTPUT: &[Output] = &[
    Output {
        path: &["generationConfig", "responseSchema"],
        strict_holder: None,
    },
    Output {
        path: &["generationConfig", "responseJsonSchema"],
        strict_holder: None,
    },
    Output {
        path: &["generation_config", "response_schema"],
        strict_holder: None,
    },
    Output {
        path: &["generation_config", "response_json_schema"],
        strict_holder: None,
    },
];

/// The prefixes a Gemini body may put before `tools[...]`, besides the request wrapper's member.
const GEMINI_PREFIXES: [&str; 2] = ["", "GenerateContentRequest."];

/// A target's wire request as the rejection code reads it.
#[derive(Clone, Debug)]
pub(crate) struct Wire {
    envelope: Envelope,
    dialects: Vec<Dialect>,
    outputs: &'static [Output],
    gemini_prefixes: Vec<String>,
}

impl Wire {
    /// The wire of a target whose tools use `envelope`.
    pub(crate) fn new(envelope: Envelope) -> Wire {
        let rows: Vec<&DialectRow> = DIALECTS.iter().filter(|r| (r.answers)(&envelope)).collect();
        let mut gemini_prefixes: Vec<String> =
            GEMINI_PREFIXES.iter().map(|p| (*p).to_owned()).collect();
        if let Some(w) = envelope.wrapper {
            gemini_prefixes.push(format!("{}.", w.member));
        }
        Wire {
            envelope,
            dialects: rows.iter().map(|r| r.dialect).collect(),
            // The tool layout's own provider decides the output schema (Code Assist's is Gemini's).
            outputs: rows.last().map_or(&[], |r| (r.outputs)(&envelope)),
            gemini_prefixes,
        }
    }

    /// Whether any provider answers this envelope.
    pub(crate) fn answered(&self) -> bool {
        !self.dialects.is_empty()
    }

    /// Whether this envelope's rejections may be written in `dialect`.
    pub(crate) fn speaks(&self, dialect: Dialect) -> bool {
        self.dialects.contains(&dialect)
    }

    /// The prefixes a Gemini body may put before `tools[...]`.
    pub(crate) fn gemini_prefixes(&self) -> Vec<&str> {
        self.gemini_prefixes.iter().map(String::as_str).collect()
    }

    /// Whether functions are declarations inside `tools` elements (an Anthropic body forwarded by such a target
    /// counts `tools.<n>` across the declarations).
    pub(crate) fn declarations(&self) -> bool {
        matches!(self.envelope.layout, Layout::Declarations { .. })
    }

    /// The function (tool or declaration) at `site`.
    fn function<'v>(&self, request: &'v Value, site: Site) -> Option<&'v Value> {
        let Site::Tool { index, declaration } = site else {
            return None;
        };
        let tool = self.envelope.tools(request)?.get(index)?;
        self.envelope
            .function(tool, declaration)
            .filter(|f| f.is_object())
    }

    /// The name of a function of this envelope's shape.
    fn function_name<'v>(&self, function: &'v Value) -> Option<&'v str> {
        self.envelope
            .function_shape()
            .fields(function)?
            .get("name")?
            .as_str()
    }

    /// Whether `site` names something the request has: a named function, or the output schema.
    pub(crate) fn has(&self, request: &Value, site: Site) -> bool {
        match site {
            Site::OutputSchema => self.output(request).is_some(),
            Site::Tool { .. } => self
                .function(request, site)
                .and_then(|f| self.function_name(f))
                .is_some(),
        }
    }

    /// The name of the tool or declaration at `site`.
    pub(crate) fn name<'v>(&self, request: &'v Value, site: Site) -> Option<&'v str> {
        self.function_name(self.function(request, site)?)
    }

    /// Every function site, in request order.
    fn function_sites(&self, request: &Value) -> Vec<Site> {
        let mut sites = Vec::new();
        for (index, tool) in self
            .envelope
            .tools(request)
            .into_iter()
            .flatten()
            .enumerate()
        {
            match self.envelope.declarations(tool) {
                Some(list) => sites.extend((0..list.len()).map(|d| Site::Tool {
                    index,
                    declaration: Some(d),
                })),
                None if !self.declarations() => sites.push(Site::Tool {
                    index,
                    declaration: None,
                }),
                None => {}
            }
        }
        sites
    }

    /// The one site whose function is named `name`; `None` when none or several are.
    pub(crate) fn find_by_name(&self, request: &Value, name: &str) -> Option<Site> {
        let mut found = None;
        for site in self.function_sites(request) {
            if self.name(request, site) == Some(name) {
                if found.is_some() {
                    return None;
                }
                found = Some(site);
            }
        }
        found
    }

    /// The `n`-th declaration counting across the tools in order.
    pub(crate) fn nth_declaration(&self, request: &Value, n: usize) -> Option<Site> {
        let mut left = n;
        for (index, tool) in self.envelope.tools(request)?.iter().enumerate() {
            let count = self.envelope.declarations(tool).map_or(0, Vec::len);
            if left < count {
                return Some(Site::Tool {
                    index,
                    declaration: Some(left),
                });
            }
            left -= count;
        }
        None
    }

    /// Every site with a function or the output schema, in request order.
    pub(crate) fn sites(&self, request: &Value) -> Vec<Site> {
        let mut sites: Vec<Site> = self
            .function_sites(request)
            .into_iter()
            .filter(|s| self.has(request, *s))
            .collect();
        if self.output(request).is_some() {
            sites.push(Site::OutputSchema);
        }
        sites
    }

    /// The key under which a function's fields hold its schema: the shape's, else an alternate or a kept key (a
    /// schema in the provider's other dialect) that is present, else the shape's (absent).
    fn schema_key(&self, fields: &Map<String, Value>) -> &'static str {
        let shape = self.envelope.function_shape();
        shape
            .schema_key(fields)
            .or_else(|| shape.kept.iter().copied().find(|k| fields.contains_key(*k)))
            .unwrap_or(shape.schema)
    }

    /// The schema at `site`, when it has one.
    pub(crate) fn schema<'v>(&self, request: &'v Value, site: Site) -> Option<&'v Value> {
        match site {
            Site::OutputSchema => self.output(request).map(|(v, _)| v),
            Site::Tool { .. } => {
                let fields = self
                    .envelope
                    .function_shape()
                    .fields(self.function(request, site)?)?;
                fields.get(self.schema_key(fields))
            }
        }
    }

    /// The structured-output schema and the place it stands.
    fn output<'v>(&self, request: &'v Value) -> Option<(&'v Value, &'static Output)> {
        let body = self.envelope.body(request);
        self.outputs.iter().find_map(|o| {
            let mut v = body;
            for key in o.path {
                v = v.get(key)?;
            }
            v.is_object().then_some((v, o))
        })
    }

    /// The request body, mutably: inside the wrapper when the request is wrapped.
    fn body_mut<'v>(&self, request: &'v mut Value) -> Option<&'v mut Value> {
        let wrapped = self.envelope.wrapped(request);
        match self.envelope.wrapper {
            Some(w) if wrapped => request.get_mut(w.member),
            _ => Some(request),
        }
    }

    /// The object holding the schema at `site` and the schema's key, for writing; the key may be absent from it.
    pub(crate) fn slot_mut<'v>(
        &self,
        request: &'v mut Value,
        site: Site,
    ) -> Option<(&'v mut Map<String, Value>, &'static str)> {
        match site {
            Site::OutputSchema => {
                let (_, output) = self.output(request)?;
                let (last, parents) = output.path.split_last()?;
                let mut v = self.body_mut(request)?;
                for key in parents {
                    v = v.get_mut(key)?;
                }
                Some((v.as_object_mut()?, last))
            }
            Site::Tool { index, declaration } => {
                let tool = self.envelope.tools_mut(request)?.get_mut(index)?;
                let function = self.envelope.function_mut(tool, declaration)?;
                let fields = self.envelope.function_shape().fields_mut(function)?;
                let key = self.schema_key(fields);
                Some((fields, key))
            }
        }
    }

    /// Whether the site is sent with `strict: true`.
    pub(crate) fn strict(&self, request: &Value, site: Site) -> bool {
        let strict = match site {
            Site::OutputSchema => self.output(request).and_then(|(_, o)| {
                let mut v = self.envelope.body(request);
                for key in o.strict_holder? {
                    v = v.get(key)?;
                }
                v.get("strict")?.as_bool()
            }),
            Site::Tool { index, declaration } => self
                .envelope
                .tools(request)
                .and_then(|t| t.get(index))
                .and_then(|t| self.envelope.strict(t, declaration)),
        };
        strict == Some(true)
    }

    /// Sends the site with `strict: false`; returns whether it changed.
    pub(crate) fn clear_strict(&self, request: &mut Value, site: Site) -> bool {
        if !self.strict(request, site) {
            return false;
        }
        match site {
            Site::OutputSchema => {
                let Some(path) = self.output(request).and_then(|(_, o)| o.strict_holder) else {
                    return false;
                };
                let Some(mut v) = self.body_mut(request) else {
                    return false;
                };
                for key in path {
                    let Some(next) = v.get_mut(key) else {
                        return false;
                    };
                    v = next;
                }
                v.as_object_mut()
                    .is_some_and(|m| m.insert("strict".to_owned(), Value::Bool(false)).is_some())
            }
            Site::Tool { index, declaration } => self
                .envelope
                .tools_mut(request)
                .and_then(|t| t.get_mut(index))
                .is_some_and(|t| self.envelope.set_strict(t, declaration, false)),
        }
    }

    /// What the fallback sends at `site`: `None` when the schema key is left out.
    pub(crate) fn fallback(&self, site: Site) -> Option<Value> {
        match site {
            Site::OutputSchema => Some(fallback()),
            Site::Tool { .. } => self.envelope.empty_schema.apply(fallback()),
        }
    }

    /// Whether `schema` (or its absence) is what the fallback sends at `site`.
    pub(crate) fn at_fallback(&self, schema: Option<&Value>, site: Site) -> bool {
        match (schema, self.fallback(site)) {
            (None, None) => true,
            (Some(s), Some(f)) => *s == f,
            _ => false,
        }
    }
}

/// The fallback schema every target falls back to.
pub(crate) fn fallback() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("object".to_owned()));
    m.insert("properties".to_owned(), Value::Object(Map::new()));
    Value::Object(m)
}

/// Puts `value` under `key` (or removes the key for `None`), taking the replaced value apart without recursion.
pub(crate) fn put(slot: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    let old = match value {
        Some(v) => slot.insert(key.to_owned(), v),
        None => json::remove(slot, key),
    };
    if let Some(old) = old {
        json::dismantle(old);
    }
}
