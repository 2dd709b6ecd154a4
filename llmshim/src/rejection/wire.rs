//! Reading and writing a wire request as `tools` produced it: where each target keeps its tools, a tool's schema,
//! its `strict` key and the structured-output schema.
//!
//! Everything a target contributes is one row of [`WIRES`], keyed by the target's envelope, so a new envelope is
//! one new row.

use llmshim_core::Envelope;
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

/// One envelope's row: how its rejections are written and where its request keeps what they name.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wire {
    pub(crate) envelope: Envelope,
    /// The provider dialects whose bodies name this envelope's tools; empty for an envelope no provider answers.
    pub(crate) dialects: &'static [Dialect],
    /// Path prefixes a Gemini body may put before `tools[...]`; `""` is the bare path.
    pub(crate) gemini_prefixes: &'static [&'static str],
    /// The request member holding the provider request (`request` for Code Assist).
    pub(crate) wrapper: Option<&'static str>,
    /// Tools are `functionDeclarations` entries, each holding several declarations.
    pub(crate) declarations: bool,
    /// An Anthropic body's `tools.<n>` counts declarations across the tools (a Claude model behind Code Assist).
    pub(crate) anthropic_counts_declarations: bool,
    /// The keys a declaration's schema may stand under, in order of preference.
    pub(crate) declaration_schema_keys: &'static [&'static str],
    /// What a declaration's schema becomes at the fallback: `None` omits it, else this exact value.
    pub(crate) declaration_fallback: Option<&'static str>,
    /// Where the structured-output schema may stand (paths of member names), with the member holding its `strict`.
    pub(crate) outputs: &'static [Output],
}

/// One place a request may hold its structured-output schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output {
    /// Member names from the provider request down to the schema.
    pub(crate) path: &'static [&'static str],
    /// Member names from the provider request down to the object holding `strict`, when the wire has one.
    pub(crate) strict_holder: Option<&'static [&'static str]>,
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

/// The rows, one per built-in envelope.
pub(crate) const WIRES: &[Wire] = &[
    Wire {
        envelope: Envelope::Chat,
        dialects: &[Dialect::OpenAi],
        gemini_prefixes: &[],
        wrapper: None,
        declarations: false,
        anthropic_counts_declarations: false,
        declaration_schema_keys: &[],
        declaration_fallback: None,
        outputs: CHAT_OUTPUT,
    },
    Wire {
        envelope: Envelope::Flat,
        dialects: &[Dialect::OpenAi],
        gemini_prefixes: &[],
        wrapper: None,
        declarations: false,
        anthropic_counts_declarations: false,
        declaration_schema_keys: &[],
        declaration_fallback: None,
        outputs: RESPONSES_OUTPUT,
    },
    Wire {
        envelope: Envelope::Anthropic,
        dialects: &[Dialect::Anthropic],
        gemini_prefixes: &[],
        wrapper: None,
        declarations: false,
        anthropic_counts_declarations: false,
        declaration_schema_keys: &[],
        declaration_fallback: None,
        outputs: ANTHROPIC_OUTPUT,
    },
    Wire {
        envelope: Envelope::FunctionDeclarations,
        dialects: &[Dialect::Gemini],
        gemini_prefixes: &["", "GenerateContentRequest."],
        wrapper: None,
        declarations: true,
        anthropic_counts_declarations: false,
        declaration_schema_keys: &["parameters", "parametersJsonSchema"],
        declaration_fallback: None,
        outputs: GEMINI_OUTPUT,
    },
    Wire {
        envelope: Envelope::CodeAssist,
        dialects: &[Dialect::Gemini, Dialect::Anthropic],
        gemini_prefixes: &["", "GenerateContentRequest.", "request."],
        wrapper: Some("request"),
        declarations: true,
        anthropic_counts_declarations: true,
        declaration_schema_keys: &["parameters", "parametersJsonSchema"],
        declaration_fallback: Some("object"),
        outputs: GEMINI_OUTPUT,
    },
    Wire {
        envelope: Envelope::Mcp,
        dialects: &[],
        gemini_prefixes: &[],
        wrapper: None,
        declarations: false,
        anthropic_counts_declarations: false,
        declaration_schema_keys: &[],
        declaration_fallback: None,
        outputs: &[],
    },
];

impl Wire {
    /// The row of `envelope`; `None` for an envelope without one.
    pub(crate) fn of(envelope: Envelope) -> Option<&'static Wire> {
        WIRES.iter().find(|w| w.envelope == envelope)
    }

    /// Whether this envelope's rejections may be written in `dialect`.
    pub(crate) fn speaks(&self, dialect: Dialect) -> bool {
        self.dialects.contains(&dialect)
    }

    /// The provider request: the Code Assist `request` member when there is one, else the request itself.
    pub(crate) fn inner<'v>(&self, request: &'v Value) -> &'v Value {
        match self.wrapper {
            Some(key) => match request.get(key) {
                Some(inner) if inner.is_object() => inner,
                _ => request,
            },
            None => request,
        }
    }

    fn inner_mut<'v>(&self, request: &'v mut Value) -> Option<&'v mut Value> {
        let wrapped = self
            .wrapper
            .is_some_and(|key| request.get(key).is_some_and(Value::is_object));
        match self.wrapper {
            Some(key) if wrapped => request.get_mut(key),
            _ => Some(request),
        }
    }

    /// The request's `tools` array.
    pub(crate) fn tools<'v>(&self, request: &'v Value) -> Option<&'v Vec<Value>> {
        self.inner(request).get("tools")?.as_array()
    }

    /// Whether `site` names something the request has: a function tool (or declaration), or the output schema.
    pub(crate) fn has(&self, request: &Value, site: Site) -> bool {
        match site {
            Site::OutputSchema => self.output(request).is_some(),
            Site::Tool { index, declaration } => {
                let Some(tool) = self.tools(request).and_then(|t| t.get(index)) else {
                    return false;
                };
                match (self.declarations, declaration) {
                    (true, Some(d)) => declarations_of(tool)
                        .and_then(|list| list.get(d))
                        .is_some_and(Value::is_object),
                    (false, None) => tool_name(tool).is_some(),
                    _ => false,
                }
            }
        }
    }

    /// The name of the tool or declaration at `site`.
    pub(crate) fn name<'v>(&self, request: &'v Value, site: Site) -> Option<&'v str> {
        let Site::Tool { index, declaration } = site else {
            return None;
        };
        let tool = self.tools(request)?.get(index)?;
        match declaration {
            Some(d) => declarations_of(tool)?.get(d)?.get("name")?.as_str(),
            None => tool_name(tool),
        }
    }

    /// The one site whose tool or declaration is named `name`; `None` when none or several are.
    pub(crate) fn find_by_name(&self, request: &Value, name: &str) -> Option<Site> {
        let mut found = None;
        for (index, tool) in self.tools(request)?.iter().enumerate() {
            if self.declarations {
                for (d, decl) in declarations_of(tool).into_iter().flatten().enumerate() {
                    if decl.get("name").and_then(Value::as_str) == Some(name) {
                        if found.is_some() {
                            return None;
                        }
                        found = Some(Site::Tool {
                            index,
                            declaration: Some(d),
                        });
                    }
                }
            } else if tool_name(tool) == Some(name) {
                if found.is_some() {
                    return None;
                }
                found = Some(Site::Tool {
                    index,
                    declaration: None,
                });
            }
        }
        found
    }

    /// The `n`-th declaration counting across the tools in order (how a Claude model behind Code Assist numbers
    /// them).
    pub(crate) fn nth_declaration(&self, request: &Value, n: usize) -> Option<Site> {
        let mut left = n;
        for (index, tool) in self.tools(request)?.iter().enumerate() {
            let count = declarations_of(tool).map_or(0, Vec::len);
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

    /// Every site with a schema, in request order (tools, then the output schema).
    pub(crate) fn sites(&self, request: &Value) -> Vec<Site> {
        let mut sites = Vec::new();
        for (index, tool) in self.tools(request).into_iter().flatten().enumerate() {
            if self.declarations {
                for d in 0..declarations_of(tool).map_or(0, Vec::len) {
                    sites.push(Site::Tool {
                        index,
                        declaration: Some(d),
                    });
                }
            } else if tool_name(tool).is_some() {
                sites.push(Site::Tool {
                    index,
                    declaration: None,
                });
            }
        }
        if self.output(request).is_some() {
            sites.push(Site::OutputSchema);
        }
        sites
    }

    /// The schema at `site`, when it has one.
    pub(crate) fn schema<'v>(&self, request: &'v Value, site: Site) -> Option<&'v Value> {
        match site {
            Site::OutputSchema => self.output(request).map(|(v, _)| v),
            Site::Tool { index, declaration } => {
                let tool = self.tools(request)?.get(index)?;
                match declaration {
                    Some(d) => {
                        let decl = declarations_of(tool)?.get(d)?;
                        self.declaration_schema_keys
                            .iter()
                            .find_map(|k| decl.get(*k))
                    }
                    None => SCHEMA_SLOTS.iter().find_map(|(holder, key)| match holder {
                        Some(h) => tool.get(h)?.get(key),
                        None => tool.get(key),
                    }),
                }
            }
        }
    }

    /// The structured-output schema and the place it stands.
    fn output<'v>(&self, request: &'v Value) -> Option<(&'v Value, &'static Output)> {
        let inner = self.inner(request);
        self.outputs.iter().find_map(|o| {
            let mut v = inner;
            for key in o.path {
                v = v.get(key)?;
            }
            v.is_object().then_some((v, o))
        })
    }

    /// The object holding the schema at `site` and the schema's key, for writing.
    pub(crate) fn slot_mut<'v>(
        &self,
        request: &'v mut Value,
        site: Site,
    ) -> Option<(&'v mut Map<String, Value>, &'static str)> {
        match site {
            Site::OutputSchema => {
                let (_, output) = self.output(request)?;
                let (last, parents) = output.path.split_last()?;
                let mut v = self.inner_mut(request)?;
                for key in parents {
                    v = v.get_mut(key)?;
                }
                Some((v.as_object_mut()?, last))
            }
            Site::Tool { index, declaration } => {
                let tool = self.inner_mut(request)?.get_mut("tools")?.get_mut(index)?;
                if let Some(d) = declaration {
                    let decl = tool
                        .get_mut("functionDeclarations")?
                        .get_mut(d)?
                        .as_object_mut()?;
                    let key = self
                        .declaration_schema_keys
                        .iter()
                        .copied()
                        .find(|k| decl.contains_key(*k))
                        .or_else(|| self.declaration_schema_keys.first().copied())?;
                    return Some((decl, key));
                }
                let (holder, key) =
                    SCHEMA_SLOTS
                        .iter()
                        .copied()
                        .find(|(holder, key)| match holder {
                            Some(h) => tool.get(h).is_some_and(|f| f.get(key).is_some()),
                            None => tool.get(key).is_some(),
                        })?;
                let map = match holder {
                    Some(h) => tool.get_mut(h)?.as_object_mut()?,
                    None => tool.as_object_mut()?,
                };
                Some((map, key))
            }
        }
    }

    /// The object holding `strict` for `site`, when the wire has one.
    pub(crate) fn strict_holder_mut<'v>(
        &self,
        request: &'v mut Value,
        site: Site,
    ) -> Option<&'v mut Map<String, Value>> {
        match site {
            Site::OutputSchema => {
                let (_, output) = self.output(request)?;
                let path = output.strict_holder?;
                let mut v = self.inner_mut(request)?;
                for key in path {
                    v = v.get_mut(key)?;
                }
                v.as_object_mut()
            }
            Site::Tool {
                declaration: Some(_),
                ..
            } => None,
            Site::Tool { index, .. } => {
                let tool = self.inner_mut(request)?.get_mut("tools")?.get_mut(index)?;
                if tool.get("function").is_some_and(Value::is_object) {
                    tool.get_mut("function")?.as_object_mut()
                } else {
                    tool.as_object_mut()
                }
            }
        }
    }
}

/// Where a function tool keeps its schema: (the member holding it, the key), in the order tool shapes are recognised (chat, flat, Anthropic, MCP).
const SCHEMA_SLOTS: [(Option<&str>, &str); 4] = [
    (Some("function"), "parameters"),
    (None, "parameters"),
    (None, "input_schema"),
    (None, "inputSchema"),
];

/// The declarations of a Gemini tool entry.
fn declarations_of(tool: &Value) -> Option<&Vec<Value>> {
    tool.get("functionDeclarations")
        .or_else(|| tool.get("function_declarations"))?
        .as_array()
}

/// The name of a function tool of any shape: a chat tool's `function.name`, else its own `name`.
fn tool_name(tool: &Value) -> Option<&str> {
    match tool.get("function") {
        Some(f) if f.is_object() => f.get("name")?.as_str(),
        _ => tool.get("name")?.as_str(),
    }
}
