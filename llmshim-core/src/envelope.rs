//! Tool envelopes as values: how a target's tools are laid out on the wire, read and written.
//!
//! Every provider wraps a function tool differently: OpenAI Chat nests it under `function`, Responses keeps it flat
//! and always sends `strict`, Anthropic names the schema `input_schema` and carries a prompt-cache marker, Gemini
//! gathers declarations into one `functionDeclarations` entry and omits an empty schema, Code Assist wraps the whole
//! request. An [`Envelope`] says all of that as data, so the tool translation in `llmshim` is one generic
//! procedure, and a custom target can bring an envelope of its own.
//!
//! ```
//! use llmshim_core::envelope::{Envelope, Layout, StrictKey, ToolShape};
//! use serde_json::json;
//!
//! // `{"kind": "tool", "name", "description", "input"}`, never a `strict` key.
//! const MINE: Envelope = Envelope::new(Layout::Tool(ToolShape::new("input").with_tag("kind", "tool")))
//!     .with_strict(StrictKey::Never);
//!
//! let tool = json!({"kind": "tool", "name": "f", "input": {"type": "object"}});
//! assert!(MINE.native(&tool));
//! assert_eq!(MINE.schema(&tool, None), Some(&json!({"type": "object"})));
//! assert_eq!(MINE.schema_pointer(None), "/input");
//!
//! let chat = json!({"type": "function", "function": {"name": "f", "parameters": {}, "strict": true}});
//! assert_eq!(Envelope::CHAT.schema_pointer(None), "/function/parameters");
//! assert_eq!(Envelope::CHAT.strict(&chat, None), Some(true));
//! ```

use serde_json::{Map, Value};

use crate::json;
use crate::pointer::push_token;
use crate::report::Normalization;

/// Where one function tool keeps its fields: an optional tag member, an optional holder object, and the schema key.
///
/// A tool has this shape when its holder is an object (if the shape has a holder), else when its tag member has the
/// tag value (if the shape has a tag), else when it has the schema key. Name, description, schema and `strict` live
/// in the holder when there is one, otherwise in the tool itself; a rebuilt tool writes the tag first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolShape {
    /// A member with a fixed string value, such as `"type": "function"`.
    pub tag: Option<(&'static str, &'static str)>,
    /// The member that holds the tool's fields, such as Chat's `function`.
    pub holder: Option<&'static str>,
    /// The key that holds the schema, such as `parameters` or `input_schema`.
    pub schema: &'static str,
    /// Other keys under which a function of this shape may hold its schema in another dialect of the same provider
    /// (Gemini's `parameters` and `parametersJsonSchema`): a function without the schema key is read from the first
    /// of them it has, and its translated schema is written under [`ToolShape::schema`] in that key's place.
    pub alternates: &'static [&'static str],
    /// Keys under which a function may hold a schema in a dialect this target does not write (Code Assist and
    /// Gemini's `parametersJsonSchema`): the translation leaves such a key as it is, and a function that has one is
    /// given no schema under [`ToolShape::schema`].
    pub kept: &'static [&'static str],
}

impl ToolShape {
    /// A shape whose fields, schema under `schema` included, sit in the tool itself.
    pub const fn new(schema: &'static str) -> Self {
        ToolShape {
            tag: None,
            holder: None,
            schema,
            alternates: &[],
            kept: &[],
        }
    }

    /// Sets the other keys a function's schema may be read from.
    #[must_use]
    pub const fn with_alternates(mut self, alternates: &'static [&'static str]) -> Self {
        self.alternates = alternates;
        self
    }

    /// Sets the keys of schemas in a dialect this target leaves as they are.
    #[must_use]
    pub const fn with_kept(mut self, kept: &'static [&'static str]) -> Self {
        self.kept = kept;
        self
    }

    /// Sets the tag member and its value.
    #[must_use]
    pub const fn with_tag(mut self, key: &'static str, value: &'static str) -> Self {
        self.tag = Some((key, value));
        self
    }

    /// Sets the member that holds the fields.
    #[must_use]
    pub const fn with_holder(mut self, holder: &'static str) -> Self {
        self.holder = Some(holder);
        self
    }

    /// Whether `tool` has this shape.
    pub fn matches(&self, tool: &Value) -> bool {
        let Some(map) = tool.as_object() else {
            return false;
        };
        match (self.holder, self.tag) {
            (Some(holder), _) => json::member(map, holder).is_some_and(Value::is_object),
            (None, Some((key, value))) => {
                json::member(map, key).and_then(Value::as_str) == Some(value)
            }
            (None, None) => json::has(map, self.schema),
        }
    }

    /// The object that holds the tool's fields: the holder member, or the tool itself.
    pub fn fields<'a>(&self, tool: &'a Value) -> Option<&'a Map<String, Value>> {
        match self.holder {
            Some(holder) => json::member(tool.as_object()?, holder)?.as_object(),
            None => tool.as_object(),
        }
    }

    /// [`ToolShape::fields`], mutably.
    pub fn fields_mut<'a>(&self, tool: &'a mut Value) -> Option<&'a mut Map<String, Value>> {
        match self.holder {
            Some(holder) => json::member_mut(tool.as_object_mut()?, holder)?.as_object_mut(),
            None => tool.as_object_mut(),
        }
    }

    /// The key that holds the schema in a function's `fields`: the shape's schema key when present, else the first
    /// alternate present; `None` when the function has no schema.
    ///
    /// ```
    /// use llmshim_core::envelope::ToolShape;
    /// use serde_json::json;
    ///
    /// let shape = ToolShape::new("parametersJsonSchema").with_alternates(&["parameters"]);
    /// let declaration = json!({"name": "f", "parameters": {"type": "object"}});
    /// let fields = declaration.as_object().unwrap();
    /// assert_eq!(shape.schema_key(fields), Some("parameters"));
    /// assert_eq!(shape.schema(&declaration), Some(&json!({"type": "object"})));
    /// ```
    pub fn schema_key(&self, fields: &Map<String, Value>) -> Option<&'static str> {
        if json::has(fields, self.schema) {
            return Some(self.schema);
        }
        self.alternates
            .iter()
            .copied()
            .find(|k| json::has(fields, k))
    }

    /// The tool's schema, when it has one (under the schema key or an alternate).
    pub fn schema<'a>(&self, tool: &'a Value) -> Option<&'a Value> {
        let fields = self.fields(tool)?;
        json::member(fields, self.schema)
            .or_else(|| self.alternates.iter().find_map(|k| json::member(fields, k)))
    }

    /// The tool's schema, mutably.
    pub fn schema_mut<'a>(&self, tool: &'a mut Value) -> Option<&'a mut Value> {
        let fields = self.fields_mut(tool)?;
        let key = self.schema_key(fields)?;
        json::member_mut(fields, key)
    }

    /// The tool's own boolean `strict`, when it has one.
    pub fn strict(&self, tool: &Value) -> Option<bool> {
        json::member(self.fields(tool)?, STRICT).and_then(Value::as_bool)
    }

    /// Appends the pointer tokens of the schema inside a tool of this shape to `pointer`.
    pub fn push_schema_tokens(&self, pointer: &mut String) {
        self.push_tokens_of(pointer, self.schema);
    }

    /// Appends the pointer tokens of the member `key` (the schema key or an alternate) inside a tool of this shape.
    pub fn push_tokens_of(&self, pointer: &mut String, key: &str) {
        if let Some(holder) = self.holder {
            push_token(pointer, holder);
        }
        push_token(pointer, key);
    }
}

/// How a target's functions sit in the request's `tools` array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[expect(
    clippy::exhaustive_enums,
    reason = "the tool translation matches every variant, so a new one must be a deliberate, breaking change"
)]
pub enum Layout {
    /// Each function is one element of `tools`, of this shape.
    Tool(ToolShape),
    /// Functions are declarations, of the given shape, in the array member `list` of an element of `tools`; the
    /// translated tools of other shapes are gathered into one new element where the first of them stood.
    Declarations {
        /// The array member that holds the declarations, such as `functionDeclarations`.
        list: &'static str,
        /// The shape of one declaration.
        declaration: ToolShape,
    },
}

/// When a translated tool carries a `strict` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[expect(
    clippy::exhaustive_enums,
    reason = "the tool translation matches every variant, so a new one must be a deliberate, breaking change"
)]
pub enum StrictKey {
    /// Never: an existing `strict` is removed, since nothing is enforced.
    Never,
    /// When strict was requested for the tool: the report's `strict`.
    WhenRequested,
    /// When strict was requested (the report's `strict`), and `false` when the schema fell back though strict was
    /// not requested, so a fallback is never sent under a provider's strict default.
    WhenRequestedOrFallback,
    /// Always: the report's `strict`, and `false` for a tool without a schema, because the provider treats an absent
    /// `strict` as `true`.
    Always,
}

/// What a translated schema that is an object without properties (the fallback included) becomes, and what a
/// function without any schema gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[expect(
    clippy::exhaustive_enums,
    reason = "the tool translation matches every variant, so a new one must be a deliberate, breaking change"
)]
pub enum EmptySchema {
    /// It is sent as it is; a function without a schema stays without one.
    Keep,
    /// The schema key is left out (the provider rejects an empty `properties` map); a function without a schema
    /// stays without one.
    Omit,
    /// It is replaced by a fixed object of string members, in this order, such as `{"type": "object"}`, and a
    /// function without any schema gets that object too (a model that needs an input schema).
    Fixed(&'static [(&'static str, &'static str)]),
}

impl EmptySchema {
    /// What `schema` becomes: `None` when the schema key is left out.
    pub fn apply(self, schema: Value) -> Option<Value> {
        match self {
            EmptySchema::Keep => Some(schema),
            _ if !is_empty_object(&schema) => Some(schema),
            EmptySchema::Omit => None,
            EmptySchema::Fixed(members) => Some(fixed(members)),
        }
    }

    /// What a function without any schema gets: `None` when it stays without one.
    pub fn absent(self) -> Option<Value> {
        match self {
            EmptySchema::Keep | EmptySchema::Omit => None,
            EmptySchema::Fixed(members) => Some(fixed(members)),
        }
    }
}

/// The object of string members `members`, in order.
fn fixed(members: &[(&str, &str)]) -> Value {
    Value::Object(
        members
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Value::String((*v).to_owned())))
            .collect(),
    )
}

/// Whether `schema` has `type: "object"` and no or empty `properties`.
fn is_empty_object(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    json::member(map, "type").and_then(Value::as_str) == Some("object")
        && json::member(map, "properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
}

/// A request wrapper: the request body moves into `member`, and the `hoisted` members stay outside, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Wrapper {
    /// The member that holds the request body, such as `request`.
    pub member: &'static str,
    /// Top-level members moved out of the body and placed before `member`.
    pub hoisted: &'static [&'static str],
}

impl Wrapper {
    /// A wrapper with the body under `member` and the given hoisted members.
    pub const fn new(member: &'static str, hoisted: &'static [&'static str]) -> Self {
        Wrapper { member, hoisted }
    }
}

/// The key a translated tool's strictness is written under.
const STRICT: &str = "strict";

/// How a target's tools are read and written: the layout, the `strict` rule, the empty-schema rule, the extra
/// fields carried over and the request wrapper.
///
/// The envelope is part of a target's [`RuleSet`](crate::RuleSet); the translation in `llmshim::tools` reads only
/// this data. [`Envelope::CHAT`] is the canonical tool shape that every other shape is converted through; the other
/// built-in envelopes live with their targets in `llmshim-targets`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Envelope {
    /// Where the functions sit.
    pub layout: Layout,
    /// When `strict` is written.
    pub strict: StrictKey,
    /// What an empty object schema becomes.
    pub empty_schema: EmptySchema,
    /// Top-level fields of the source tool carried into a rebuilt tool, after the tool's own fields; the fields of
    /// [`Envelope::EXTRAS`] not listed here are dropped, also from a tool already in this envelope's shape.
    pub carries: &'static [&'static str],
    /// The request wrapper, if the target has one.
    pub wrapper: Option<Wrapper>,
}

impl Envelope {
    /// The fields that some envelope carries and every other one drops: Anthropic's prompt-cache marker.
    pub const EXTRAS: &'static [&'static str] = &["cache_control"];

    /// The canonical function tool, `{"type": "function", "function": {"name", "description", "parameters",
    /// "strict"}}`: `strict` when requested, and `false` after a fallback.
    pub const CHAT: Envelope = Envelope::new(Layout::Tool(
        ToolShape::new("parameters")
            .with_tag("type", "function")
            .with_holder("function"),
    ))
    .with_strict(StrictKey::WhenRequestedOrFallback);

    /// An envelope of the given layout that never writes `strict`, keeps empty schemas, carries nothing and has no
    /// request wrapper.
    pub const fn new(layout: Layout) -> Self {
        Envelope {
            layout,
            strict: StrictKey::Never,
            empty_schema: EmptySchema::Keep,
            carries: &[],
            wrapper: None,
        }
    }

    /// Sets the `strict` rule.
    #[must_use]
    pub const fn with_strict(mut self, strict: StrictKey) -> Self {
        self.strict = strict;
        self
    }

    /// Sets the empty-schema rule.
    #[must_use]
    pub const fn with_empty_schema(mut self, empty_schema: EmptySchema) -> Self {
        self.empty_schema = empty_schema;
        self
    }

    /// Sets the carried fields.
    #[must_use]
    pub const fn with_carries(mut self, carries: &'static [&'static str]) -> Self {
        self.carries = carries;
        self
    }

    /// Sets the request wrapper.
    #[must_use]
    pub const fn with_wrapper(mut self, wrapper: Option<Wrapper>) -> Self {
        self.wrapper = wrapper;
        self
    }

    /// The shape of one function: the tool's, or one declaration's.
    pub const fn function_shape(&self) -> ToolShape {
        match self.layout {
            Layout::Tool(shape) => shape,
            Layout::Declarations { declaration, .. } => declaration,
        }
    }

    /// Whether `tool` is already in this envelope's shape (for declarations: an element whose list member is an
    /// array).
    pub fn native(&self, tool: &Value) -> bool {
        match self.layout {
            Layout::Tool(shape) => shape.matches(tool),
            Layout::Declarations { list, .. } => tool.get(list).is_some_and(Value::is_array),
        }
    }

    /// The object holding the request body: the wrapper's member when the request already has it as an object,
    /// otherwise the request itself.
    pub fn body<'a>(&self, request: &'a Value) -> &'a Value {
        match self.wrapper {
            Some(w) => request
                .get(w.member)
                .filter(|b| b.is_object())
                .unwrap_or(request),
            None => request,
        }
    }

    /// Whether `request` already sits in this envelope's wrapper.
    pub fn wrapped(&self, request: &Value) -> bool {
        self.wrapper
            .is_some_and(|w| request.get(w.member).is_some_and(Value::is_object))
    }

    /// The wrapper member the request body sits in, when `request` is already wrapped.
    pub fn body_member(&self, request: &Value) -> Option<&'static str> {
        self.wrapper
            .filter(|_| self.wrapped(request))
            .map(|w| w.member)
    }

    /// The pointer of the request body inside `request`: `""`, or the wrapper member's when already wrapped.
    pub fn body_pointer(&self, request: &Value) -> String {
        let mut pointer = String::new();
        if let Some(member) = self.body_member(request) {
            push_token(&mut pointer, member);
        }
        pointer
    }

    /// The request's `tools` array, inside the wrapper when the request is wrapped.
    pub fn tools<'a>(&self, request: &'a Value) -> Option<&'a Vec<Value>> {
        self.body(request).get("tools")?.as_array()
    }

    /// [`Envelope::tools`], mutably.
    pub fn tools_mut<'a>(&self, request: &'a mut Value) -> Option<&'a mut Vec<Value>> {
        let wrapped = self.wrapped(request);
        let body = match self.wrapper {
            Some(w) if wrapped => request.get_mut(w.member)?,
            _ => request,
        };
        body.get_mut("tools")?.as_array_mut()
    }

    /// The declarations of a `tools` element in a declarations layout; `None` for other layouts or elements.
    pub fn declarations<'a>(&self, tool: &'a Value) -> Option<&'a Vec<Value>> {
        match self.layout {
            Layout::Tool(_) => None,
            Layout::Declarations { list, .. } => tool.get(list)?.as_array(),
        }
    }

    /// The function a wire tool holds: the tool itself, or its declaration number `declaration`.
    pub fn function<'a>(&self, tool: &'a Value, declaration: Option<usize>) -> Option<&'a Value> {
        match (self.layout, declaration) {
            (Layout::Tool(_), None) => Some(tool),
            (Layout::Declarations { list, .. }, Some(d)) => tool.get(list)?.get(d),
            _ => None,
        }
    }

    /// [`Envelope::function`], mutably.
    pub fn function_mut<'a>(
        &self,
        tool: &'a mut Value,
        declaration: Option<usize>,
    ) -> Option<&'a mut Value> {
        match (self.layout, declaration) {
            (Layout::Tool(_), None) => Some(tool),
            (Layout::Declarations { list, .. }, Some(d)) => tool.get_mut(list)?.get_mut(d),
            _ => None,
        }
    }

    /// The schema of a wire tool in this envelope (of its declaration `declaration` in a declarations layout).
    pub fn schema<'a>(&self, tool: &'a Value, declaration: Option<usize>) -> Option<&'a Value> {
        self.function_shape()
            .schema(self.function(tool, declaration)?)
    }

    /// [`Envelope::schema`], mutably: the slot to rewrite a wire tool's schema in place.
    pub fn schema_mut<'a>(
        &self,
        tool: &'a mut Value,
        declaration: Option<usize>,
    ) -> Option<&'a mut Value> {
        self.function_shape()
            .schema_mut(self.function_mut(tool, declaration)?)
    }

    /// The pointer of the schema inside a wire tool, such as `/function/parameters` or
    /// `/functionDeclarations/2/parameters`.
    pub fn schema_pointer(&self, declaration: Option<usize>) -> String {
        let mut pointer = String::new();
        if let (Layout::Declarations { list, .. }, Some(d)) = (self.layout, declaration) {
            push_token(&mut pointer, list);
            push_token(&mut pointer, &d.to_string());
        }
        self.function_shape().push_schema_tokens(&mut pointer);
        pointer
    }

    /// The `strict` a wire tool is sent with, when it carries a boolean one.
    pub fn strict(&self, tool: &Value, declaration: Option<usize>) -> Option<bool> {
        self.function_shape()
            .strict(self.function(tool, declaration)?)
    }

    /// Writes `strict` on a wire tool where this envelope keeps it; returns whether the tool changed. An envelope
    /// that never writes `strict` ([`StrictKey::Never`]) leaves the tool alone.
    pub fn set_strict(&self, tool: &mut Value, declaration: Option<usize>, strict: bool) -> bool {
        if self.strict == StrictKey::Never {
            return false;
        }
        let shape = self.function_shape();
        let Some(fields) = self
            .function_mut(tool, declaration)
            .and_then(|f| shape.fields_mut(f))
        else {
            return false;
        };
        if fields.get(STRICT) == Some(&Value::Bool(strict)) {
            return false;
        }
        fields.insert(STRICT.to_owned(), Value::Bool(strict));
        true
    }

    /// The `strict` value a translated tool is sent with: `requested` says whether strict was asked for, and
    /// `report` is its schema's report (`None` for a tool without a schema).
    ///
    /// ```
    /// use llmshim_core::Normalization;
    /// use llmshim_core::rules::Envelope;
    ///
    /// let mut fell_back = Normalization::default();
    /// fell_back.used_fallback = true;
    /// assert_eq!(Envelope::CHAT.strict_value(false, Some(&fell_back)), Some(false));
    /// assert_eq!(Envelope::CHAT.strict_value(false, Some(&Normalization::default())), None);
    /// assert_eq!(Envelope::CHAT.strict_value(true, None), None);
    /// ```
    pub fn strict_value(&self, requested: bool, report: Option<&Normalization>) -> Option<bool> {
        let Some(report) = report else {
            return (self.strict == StrictKey::Always).then_some(false);
        };
        match self.strict {
            StrictKey::Always => Some(report.strict),
            StrictKey::WhenRequested | StrictKey::WhenRequestedOrFallback if requested => {
                Some(report.strict)
            }
            StrictKey::WhenRequestedOrFallback if report.used_fallback => Some(false),
            StrictKey::Never | StrictKey::WhenRequested | StrictKey::WhenRequestedOrFallback => {
                None
            }
        }
    }

    /// Whether a rebuilt or edited tool keeps the extra field `key` of [`Envelope::EXTRAS`].
    pub fn keeps_extra(&self, key: &str) -> bool {
        self.carries.contains(&key)
    }
}
