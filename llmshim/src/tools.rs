//! Native tool translation: every accepted tool shape in, the target's native tools array out (contract §8.2, §9).

mod report;

use llmshim_core::rules::Envelope;
use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason, Normalization, json};
use serde_json::{Map, Value};

pub use report::{ToolReport, ToolsReport};

use crate::schema::pipeline::fallback;
use crate::schema::{Normalizer, Options, Target};

/// Translates `request.tools` into `options.target`'s native tools array, normalizing every tool's schema on its
/// own (one bad tool falls back alone), with the process environment and memo. See [`Normalizer`] for the variant
/// with a chosen environment and memo.
///
/// ```
/// use llmshim::schema::{Options, Target};
/// use llmshim::tools::normalize_native_tools;
/// use serde_json::json;
///
/// let mut request = json!({"tools": [
///     {"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}
/// ]});
/// let report = normalize_native_tools(&Options::for_target(Target::Google), &mut request);
/// assert_eq!(request, json!({"tools": [{"functionDeclarations": [{"name": "ping"}]}]}));
/// assert!(report.summary.changed);
/// ```
pub fn normalize_native_tools(options: &Options, request: &mut Value) -> ToolsReport {
    Normalizer::default().normalize_native_tools(options, request)
}

/// Converts every raw MCP tool (`name`, `description`, `inputSchema`) in `request.tools` into a canonical chat tool,
/// normalizing its `inputSchema` for MCP first (contract §8.2); other tools are untouched.
pub fn prepare_request(request: &mut Value) -> ToolsReport {
    Normalizer::default().prepare_request(request)
}

/// The shape of one element of `tools` (contract §9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Chat,
    Flat,
    Anthropic,
    Mcp,
    GoogleEntry,
    Other,
}

fn classify(tool: &Value, envelope: Envelope) -> Shape {
    let Some(map) = tool.as_object() else {
        return Shape::Other;
    };
    if map.get("function").is_some_and(Value::is_object) {
        Shape::Chat
    } else if map.get("type").and_then(Value::as_str) == Some("function") {
        Shape::Flat
    } else if map.contains_key("input_schema") {
        Shape::Anthropic
    } else if envelope == Envelope::Mcp && map.contains_key("inputSchema") {
        Shape::Mcp
    } else if matches!(
        envelope,
        Envelope::FunctionDeclarations | Envelope::CodeAssist
    ) && map.get("functionDeclarations").is_some_and(Value::is_array)
    {
        Shape::GoogleEntry
    } else {
        Shape::Other
    }
}

/// The shape a target's envelope edits in place.
fn native_shape(envelope: Envelope) -> Shape {
    match envelope {
        Envelope::Chat => Shape::Chat,
        Envelope::Flat => Shape::Flat,
        Envelope::Anthropic => Shape::Anthropic,
        Envelope::Mcp => Shape::Mcp,
        _ => Shape::GoogleEntry,
    }
}

/// One function tool on its way through: where it came from, its normalized schema and its report.
#[derive(Debug)]
struct Pending {
    shape: Shape,
    from_mcp: bool,
    index: usize,
    declaration: Option<usize>,
    requested: bool,
    /// The tool has a schema key.
    has_schema: bool,
    /// The schema was moved out of the tool (its slot holds `null` until [`assemble`] puts the result back), so
    /// whether the tool changed is the report's `changed`, not a comparison with the slot.
    taken: bool,
    /// The schema before normalization, kept only where the Anthropic request budget may normalize it again.
    original: Option<Value>,
    schema: Option<Value>,
    report: Normalization,
}

impl Pending {
    /// Where the schema stood in the input request; `prefix` is `/request` inside a Code Assist envelope.
    fn pointer(&self, prefix: &str) -> String {
        let mut p = String::from(prefix);
        p.push_str(&self.relative_pointer());
        p
    }

    fn relative_pointer(&self) -> String {
        let tokens: &[&str] = match self.shape {
            _ if self.from_mcp => &["inputSchema"],
            Shape::Chat => &["function", "parameters"],
            Shape::Flat => &["parameters"],
            Shape::Anthropic => &["input_schema"],
            Shape::Mcp => &["inputSchema"],
            _ => &[],
        };
        match self.declaration {
            Some(d) => report::schema_pointer(
                self.index,
                &["functionDeclarations", &d.to_string(), "parameters"],
            ),
            None => report::schema_pointer(self.index, tokens),
        }
    }
}

fn schema_of(tool: &Value, shape: Shape) -> Option<&Value> {
    match shape {
        Shape::Chat => tool.get("function").and_then(|f| f.get("parameters")),
        Shape::Flat | Shape::GoogleEntry => tool.get("parameters"),
        Shape::Anthropic => tool.get("input_schema"),
        Shape::Mcp => tool.get("inputSchema"),
        Shape::Other => None,
    }
}

/// The schema of a tool of a shape that [`assemble`] edits or rebuilds, for moving it out.
fn schema_slot(tool: &mut Value, shape: Shape) -> Option<&mut Value> {
    match shape {
        Shape::Chat => tool.get_mut("function")?.get_mut("parameters"),
        Shape::Flat => tool.get_mut("parameters"),
        Shape::Anthropic => tool.get_mut("input_schema"),
        Shape::Mcp => tool.get_mut("inputSchema"),
        Shape::GoogleEntry | Shape::Other => None,
    }
}

fn own_strict(tool: &Value, shape: Shape) -> Option<bool> {
    match shape {
        Shape::Chat => tool
            .get("function")
            .and_then(|f| f.get("strict"))
            .and_then(Value::as_bool),
        Shape::Mcp => None,
        _ => tool.get("strict").and_then(Value::as_bool),
    }
}

fn field<'a>(tool: &'a Value, shape: Shape, key: &str) -> Option<&'a Value> {
    match shape {
        Shape::Chat => tool.get("function").and_then(|f| f.get(key)),
        _ => tool.get(key),
    }
}

impl Normalizer {
    /// [`normalize_native_tools`] with this normalizer's environment and memo.
    pub fn normalize_native_tools(&self, options: &Options, request: &mut Value) -> ToolsReport {
        // The environment is read once per request; every schema of the request sees the same flags.
        let flags = self.env().read();
        self.with_flags(flags).native_tools(options, request, flags)
    }

    fn native_tools(
        &self,
        options: &Options,
        request: &mut Value,
        flags: crate::schema::EnvFlags,
    ) -> ToolsReport {
        let envelope = options.target.rules().rules().envelope;
        let bypassed = options.bypass || flags.no_schema_normalization;
        let mut changed = false;
        let mut pre: Vec<(usize, Normalization)> = Vec::new();
        if envelope != Envelope::Mcp {
            // §8.2 runs first with MCP options; the caller's bypass, budgets and diagnostics apply to it too.
            let mcp = Options::for_target(Target::Mcp)
                .with_bypass(options.bypass)
                .with_budget(options.budget)
                .with_diagnostics(options.diagnostics);
            pre = self.convert_mcp_tools(&mcp, tools_of(request, envelope), &mut changed);
        }
        let prefix = if envelope == Envelope::CodeAssist
            && request.get("request").is_some_and(Value::is_object)
        {
            "/request"
        } else {
            ""
        };
        let mut report = ToolsReport::default();
        if let Some(tools) = tools_of(request, envelope) {
            let mut pending = self.normalize_tools(options, envelope, tools, bypassed, &pre);
            for p in &mut pending {
                if let Some((_, first)) = pre.iter().find(|(i, _)| *i == p.index) {
                    p.from_mcp = true;
                    merge_pre(&mut p.report, first);
                }
            }
            if let Some(budget) = options
                .target
                .rules()
                .rules()
                .strict
                .and_then(|s| s.anthropic_budget)
            {
                self.apply_request_budget(
                    options,
                    request_output_schema(request),
                    &mut pending,
                    budget,
                );
            }
            changed |= assemble(
                tools_of(request, envelope),
                envelope,
                &mut pending,
                &mut report,
                prefix,
            );
        }
        if envelope == Envelope::CodeAssist {
            changed |= code_assist_envelope(request);
        }
        report.summarize(changed, bypassed);
        report
    }

    /// [`prepare_request`] with this normalizer's environment and memo.
    pub fn prepare_request(&self, request: &mut Value) -> ToolsReport {
        let mut changed = false;
        let pre = self.convert_mcp_tools(
            &Options::for_target(Target::Mcp),
            tools_of(request, Envelope::Chat),
            &mut changed,
        );
        let mut report = ToolsReport::default();
        for (index, normalization) in pre {
            let name = request
                .get("tools")
                .and_then(|t| t.get(index))
                .and_then(|t| t.get("function"))
                .and_then(|f| f.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            report.tools.push(ToolReport {
                index,
                name,
                pointer: report::schema_pointer(index, &["inputSchema"]),
                normalization,
                strict: None,
            });
        }
        let bypassed = self.env().read().no_schema_normalization;
        report.summarize(changed, bypassed);
        report
    }

    /// §8.2: raw MCP tools become canonical chat tools after §8.1; returns each converted tool's report.
    fn convert_mcp_tools(
        &self,
        options: &Options,
        tools: Option<&mut Vec<Value>>,
        changed: &mut bool,
    ) -> Vec<(usize, Normalization)> {
        let mut out = Vec::new();
        let Some(tools) = tools else {
            return out;
        };
        for (index, tool) in tools.iter_mut().enumerate() {
            if !llmshim_mcp::is_mcp_tool(tool) {
                continue;
            }
            let normalization = self.normalize_mcp_tool_with(options, tool);
            *tool = llmshim_mcp::into_chat_tool(std::mem::take(tool));
            *changed = true;
            out.push((index, normalization));
        }
        out
    }

    /// §9.3 steps 1 to 4 for every function tool (and every Google declaration) of `tools`.
    fn normalize_tools(
        &self,
        options: &Options,
        envelope: Envelope,
        tools: &mut [Value],
        bypassed: bool,
        pre: &[(usize, Normalization)],
    ) -> Vec<Pending> {
        let mut pending = Vec::new();
        for (index, tool) in tools.iter_mut().enumerate() {
            let shape = classify(tool, envelope);
            match shape {
                Shape::Other => {}
                Shape::GoogleEntry => {
                    let Some(Value::Array(decls)) = tool.get("functionDeclarations") else {
                        continue;
                    };
                    for (d, decl) in decls.iter().enumerate() {
                        if !decl.is_object() {
                            continue;
                        }
                        let mut p = self.normalize_one(options, shape, decl, false, bypassed);
                        // A declaration's schema was copied, not moved: its entry is edited in place.
                        p.index = index;
                        p.declaration = Some(d);
                        pending.push(p);
                    }
                }
                _ => {
                    // A raw MCP tool whose schema already fell back in the §8.2 pass is sent non-strict, like any
                    // other tool that fell back: the model could only call it with an empty object.
                    let fell_back = pre.iter().any(|(i, r)| *i == index && r.used_fallback);
                    let requested = own_strict(tool, shape).unwrap_or(options.strict);
                    let mut p = self.normalize_moved(
                        options,
                        shape,
                        tool,
                        requested && !fell_back,
                        bypassed,
                    );
                    p.requested = requested;
                    p.index = index;
                    pending.push(p);
                }
            }
        }
        pending
    }

    /// [`Normalizer::normalize_one`] for a tool whose schema [`assemble`] puts back or moves into a rebuilt tool: the
    /// schema is moved out of the tool instead of copied (a schema too deep to walk stays where it is).
    fn normalize_moved(
        &self,
        options: &Options,
        shape: Shape,
        tool: &mut Value,
        requested: bool,
        bypassed: bool,
    ) -> Pending {
        let movable = schema_slot(tool, shape)
            .is_some_and(|s| json::depth_within(s, HARD_MAX_DEPTH).is_some());
        if !movable {
            return self.normalize_one(options, shape, tool, requested, bypassed);
        }
        let schema = schema_slot(tool, shape).map(std::mem::take);
        let mut p = self.normalize_schema(options, shape, schema, requested, bypassed);
        p.taken = true;
        p
    }

    fn normalize_one(
        &self,
        options: &Options,
        shape: Shape,
        tool: &Value,
        requested: bool,
        bypassed: bool,
    ) -> Pending {
        if schema_of(tool, shape).is_some_and(|s| json::depth_within(s, HARD_MAX_DEPTH).is_none()) {
            // Too deep to copy, compare or drop recursively: it falls back without being touched (even under
            // bypass, since no provider accepts such a schema), and the placeholder original is never read as one.
            let mut report = Normalization::default();
            report.changed = true;
            report.used_fallback = true;
            report.fallback_reason = Some(FallbackReason::new(
                FallbackKind::BudgetDepth,
                "",
                format!("the schema is nested deeper than {HARD_MAX_DEPTH} levels"),
            ));
            return Pending {
                shape,
                from_mcp: false,
                index: 0,
                declaration: None,
                requested,
                has_schema: true,
                taken: false,
                original: None,
                schema: Some(fallback()),
                report,
            };
        }
        self.normalize_schema(
            options,
            shape,
            schema_of(tool, shape).cloned(),
            requested,
            bypassed,
        )
    }

    /// Normalizes a tool's schema (or its absence) into a pending tool; the schema is within the walker's depth.
    fn normalize_schema(
        &self,
        options: &Options,
        shape: Shape,
        mut schema: Option<Value>,
        requested: bool,
        bypassed: bool,
    ) -> Pending {
        let mut report = Normalization::default();
        let has_schema = schema.is_some();
        let budgeted = requested
            && options
                .target
                .rules()
                .rules()
                .strict
                .is_some_and(|s| s.anthropic_budget.is_some());
        let original = if budgeted { schema.clone() } else { None };
        if let Some(s) = schema.as_mut() {
            report = self.normalize_with(&options.clone().with_strict(requested), s);
            if !bypassed && s.get("type").and_then(Value::as_str) != Some("object") {
                *s = fallback();
                report = not_object();
            }
        } else if bypassed {
            report.bypassed = true;
        }
        Pending {
            shape,
            from_mcp: false,
            index: 0,
            declaration: None,
            requested,
            has_schema,
            taken: false,
            original,
            schema,
            report,
        }
    }

    /// §9.3 step 5: strict tools beyond the Anthropic request budget are normalized again without strict.
    fn apply_request_budget(
        &self,
        options: &Options,
        output: Option<&Value>,
        pending: &mut [Pending],
        budget: llmshim_core::rules::AnthropicBudget,
    ) {
        let (mut tools, mut optional, mut unions) = (0usize, 0usize, 0usize);
        if let Some(schema) = output {
            optional += llmshim_strict::optional_count(schema);
            unions += llmshim_strict::union_count(schema);
        }
        for p in pending.iter_mut() {
            if !p.report.strict {
                continue;
            }
            let Some(schema) = &p.schema else {
                continue;
            };
            let (o, u) = (
                llmshim_strict::optional_count(schema),
                llmshim_strict::union_count(schema),
            );
            let over = if tools + 1 > budget.max_strict_tools {
                Some(format!(
                    "more than {} strict tools in one request",
                    budget.max_strict_tools
                ))
            } else if optional + o > budget.max_optional {
                Some(format!(
                    "more than {} optional parameters in one request ({})",
                    budget.max_optional,
                    optional + o
                ))
            } else if unions + u > budget.max_unions {
                Some(format!(
                    "more than {} union-typed parameters in one request ({})",
                    budget.max_unions,
                    unions + u
                ))
            } else {
                None
            };
            match over {
                None => {
                    tools += 1;
                    optional += o;
                    unions += u;
                }
                Some(message) => {
                    let mut schema = p.original.clone().unwrap_or(Value::Null);
                    let mut report =
                        self.normalize_with(&options.clone().with_strict(false), &mut schema);
                    if !report.bypassed
                        && schema.get("type").and_then(Value::as_str) != Some("object")
                    {
                        schema = fallback();
                        report = not_object();
                    }
                    report.strict = false;
                    if report.fallback_reason.is_none() {
                        report.fallback_reason = Some(FallbackReason::new(
                            FallbackKind::ProviderLimit,
                            "",
                            message,
                        ));
                    }
                    if options.diagnostics {
                        report.changes.push(Change::new(
                            "",
                            "anthropic.request-budget",
                            ChangeKind::Relaxed,
                        ));
                    }
                    p.schema = Some(schema);
                    p.report = report;
                }
            }
        }
    }
}

/// The report of a schema replaced by the fallback because it does not describe an object (§9.3 step 4).
///
/// `changed` is always true: an input equal to the fallback normalizes to an object and never gets here.
fn not_object() -> Normalization {
    let mut report = Normalization::default();
    report.changed = true;
    report.used_fallback = true;
    report.fallback_reason = Some(FallbackReason::new(
        FallbackKind::NotObject,
        "",
        "tool parameters must describe an object",
    ));
    report
}

/// Carries a raw MCP tool's first-pass fallback into its final report.
fn merge_pre(report: &mut Normalization, first: &Normalization) {
    report.changed |= first.changed;
    if !first.changes.is_empty() {
        let later = std::mem::take(&mut report.changes);
        report.changes = first.changes.iter().cloned().chain(later).collect();
    }
    if first.used_fallback {
        report.used_fallback = true;
        if report.fallback_reason.is_none() {
            report.fallback_reason.clone_from(&first.fallback_reason);
        }
    }
}

/// The `tools` array of a request, inside the Code Assist envelope when there is one.
fn tools_of(request: &mut Value, envelope: Envelope) -> Option<&mut Vec<Value>> {
    let holder = if envelope == Envelope::CodeAssist
        && request.get("request").is_some_and(Value::is_object)
    {
        request.get_mut("request")?
    } else {
        request
    };
    holder.get_mut("tools")?.as_array_mut()
}

/// The structured-output schema an Anthropic request already carries.
fn request_output_schema(request: &Value) -> Option<&Value> {
    request
        .get("output_config")?
        .get("format")?
        .get("schema")
        .filter(|s| s.is_object())
}

/// §9.3 step 6: the `strict` value a tool is sent with, if any.
fn strict_key(envelope: Envelope, p: &Pending) -> Option<bool> {
    if !p.has_schema {
        return (envelope == Envelope::Flat).then_some(false);
    }
    match envelope {
        Envelope::Chat | Envelope::Anthropic if p.requested => Some(p.report.strict),
        Envelope::Chat if p.report.used_fallback => Some(false),
        Envelope::Flat => Some(p.report.strict),
        _ => None,
    }
}

/// §9.4: writes every pending tool into the native array; returns whether anything changed.
fn assemble(
    tools: Option<&mut Vec<Value>>,
    envelope: Envelope,
    pending: &mut [Pending],
    out: &mut ToolsReport,
    prefix: &str,
) -> bool {
    let Some(tools) = tools else {
        return false;
    };
    let before = std::mem::take(tools);
    out.tools.reserve(pending.len());
    let mut changed = false;
    let declarations = matches!(
        envelope,
        Envelope::FunctionDeclarations | Envelope::CodeAssist
    );
    let mut gathered: Vec<Value> = Vec::new();
    let mut gathered_at: Option<usize> = None;
    let mut result: Vec<Value> = Vec::with_capacity(before.len());
    // `pending` is in tool order, so each tool's entries are the next run of the same index.
    let mut next = 0;
    for (index, mut tool) in before.into_iter().enumerate() {
        let shape = classify(&tool, envelope);
        let start = next;
        while pending.get(next).is_some_and(|p| p.index == index) {
            next += 1;
        }
        let mine = pending.get_mut(start..next).unwrap_or_default();
        if shape == Shape::Other {
            result.push(tool);
            continue;
        }
        if shape == Shape::GoogleEntry {
            for p in mine {
                let sent = edit_declaration(&mut tool, p, envelope);
                changed |= sent;
                record(out, &tool, p, None, prefix);
            }
            result.push(tool);
            continue;
        }
        let Some(p) = mine.first_mut() else {
            result.push(tool);
            continue;
        };
        let strict = strict_key(envelope, p);
        if declarations {
            record(out, &tool, p, None, prefix);
            let decl = declaration(tool, shape, p, envelope);
            gathered_at.get_or_insert(result.len());
            gathered.push(decl);
            changed = true;
        } else if shape == native_shape(envelope) {
            changed |= edit_in_place(&mut tool, shape, p, envelope, strict);
            record(out, &tool, p, strict, prefix);
            result.push(tool);
        } else {
            record(out, &tool, p, strict, prefix);
            result.push(build(tool, shape, p, envelope, strict));
            changed = true;
        }
    }
    if let Some(at) = gathered_at {
        let mut entry = Map::new();
        entry.insert("functionDeclarations".to_owned(), Value::Array(gathered));
        result.insert(at.min(result.len()), Value::Object(entry));
    }
    *tools = result;
    changed
}

/// Moves the tool's report into `out`; nothing reads it from `p` afterwards.
fn record(
    out: &mut ToolsReport,
    tool: &Value,
    p: &mut Pending,
    strict: Option<bool>,
    prefix: &str,
) {
    let name = match p.declaration {
        Some(d) => tool
            .get("functionDeclarations")
            .and_then(|a| a.get(d))
            .and_then(|d| d.get("name")),
        None => field(tool, p.shape, "name"),
    };
    out.tools.push(ToolReport {
        index: p.index,
        name: name.and_then(Value::as_str).map(str::to_owned),
        pointer: p.pointer(prefix),
        normalization: std::mem::take(&mut p.report),
        strict,
    });
}

/// Sets `key` on `map` to `value`, reporting whether the map changed.
fn put(map: &mut Map<String, Value>, key: &str, value: Value) -> bool {
    if map.get(key) == Some(&value) {
        return false;
    }
    // The replaced value is taken apart without recursion: it may be a schema too deep to drop recursively.
    if let Some(old) = map.insert(key.to_owned(), value) {
        json::dismantle(old);
    }
    true
}

fn take(map: &mut Map<String, Value>, key: &str) -> bool {
    json::remove(map, key).map(json::dismantle).is_some()
}

/// A tool already in the target's shape: the schema is replaced, `strict` follows §9.3, other fields stay.
fn edit_in_place(
    tool: &mut Value,
    shape: Shape,
    p: &mut Pending,
    envelope: Envelope,
    strict: Option<bool>,
) -> bool {
    let mut changed = false;
    let Some(map) = tool.as_object_mut() else {
        return false;
    };
    if envelope != Envelope::Anthropic {
        changed |= take(map, "cache_control");
    }
    let (holder, key) = match shape {
        Shape::Chat => match map.get_mut("function").and_then(Value::as_object_mut) {
            Some(f) => (f, "parameters"),
            None => return changed,
        },
        Shape::Flat => (map, "parameters"),
        Shape::Anthropic => (map, "input_schema"),
        _ => (map, "inputSchema"),
    };
    if let Some(schema) = p.schema.take() {
        if p.taken {
            // The slot holds the `null` left when the schema was moved out; the report says whether it changed.
            changed |= p.report.changed;
            holder.insert(key.to_owned(), schema);
        } else {
            changed |= put(holder, key, schema);
        }
    }
    match strict {
        Some(s) => changed |= put(holder, "strict", Value::Bool(s)),
        // Mcp never carries `strict`, and a tool without a schema gets none: nothing was enforced.
        None if envelope == Envelope::Mcp || !p.has_schema => {
            changed |= take(holder, "strict");
        }
        None => {}
    }
    changed
}

/// The fields a rebuilt tool keeps, moved out of the tool they came from.
struct Parts {
    name: Value,
    description: Option<Value>,
    cache_control: Option<Value>,
}

/// Takes `tool` apart into the fields a rebuilt tool keeps (the name and description of a chat tool come from its
/// `function`); every other field is dropped without recursion. One pass over the members, no lookups.
fn parts(tool: Value, shape: Shape) -> Parts {
    let mut parts = Parts {
        name: Value::Null,
        description: None,
        cache_control: None,
    };
    let Value::Object(map) = tool else {
        json::dismantle(tool);
        return parts;
    };
    let chat = shape == Shape::Chat;
    for (key, value) in map {
        match (key.as_str(), value) {
            ("function", Value::Object(function)) if chat => {
                for (key, value) in function {
                    match key.as_str() {
                        "name" => parts.name = value,
                        "description" => parts.description = Some(value),
                        _ => json::dismantle(value),
                    }
                }
            }
            ("name", value) if !chat => parts.name = value,
            ("description", value) if !chat => parts.description = Some(value),
            ("cache_control", value) => parts.cache_control = Some(value),
            (_, value) => json::dismantle(value),
        }
    }
    parts
}

/// A map holding `name`, then `description` when there is one, with room for `more` further keys.
fn named(name: Value, description: Option<Value>, more: usize) -> Map<String, Value> {
    let mut m = Map::with_capacity(2 + more);
    m.insert("name".to_owned(), name);
    if let Some(d) = description {
        m.insert("description".to_owned(), d);
    }
    m
}

/// A tool of another shape, rebuilt in the target's envelope (§9.4 field order); `tool` is consumed.
fn build(
    tool: Value,
    shape: Shape,
    p: &mut Pending,
    envelope: Envelope,
    strict: Option<bool>,
) -> Value {
    let Parts {
        name,
        description,
        mut cache_control,
    } = parts(tool, shape);
    let schema = p.schema.take();
    let m = match envelope {
        Envelope::Chat => {
            let mut f = named(name, description, 2);
            if let Some(s) = schema {
                f.insert("parameters".to_owned(), s);
            }
            if let Some(s) = strict {
                f.insert("strict".to_owned(), Value::Bool(s));
            }
            let mut m = Map::with_capacity(2);
            m.insert("type".to_owned(), Value::String("function".to_owned()));
            m.insert("function".to_owned(), Value::Object(f));
            m
        }
        Envelope::Flat => {
            let mut m = Map::with_capacity(5);
            m.insert("type".to_owned(), Value::String("function".to_owned()));
            m.extend(named(name, description, 0));
            if let Some(s) = schema {
                m.insert("parameters".to_owned(), s);
            }
            m.insert("strict".to_owned(), Value::Bool(strict.unwrap_or(false)));
            m
        }
        Envelope::Anthropic => {
            let mut m = named(name, description, 3);
            if let Some(s) = schema {
                m.insert("input_schema".to_owned(), s);
            }
            if let Some(s) = strict {
                m.insert("strict".to_owned(), Value::Bool(s));
            }
            // Only an Anthropic tool carries a prompt-cache marker over.
            if let Some(c) = cache_control.take() {
                m.insert("cache_control".to_owned(), c);
            }
            m
        }
        _ => {
            let mut m = named(name, description, 1);
            if let Some(s) = schema {
                m.insert("inputSchema".to_owned(), s);
            }
            m
        }
    };
    if let Some(c) = cache_control {
        json::dismantle(c);
    }
    Value::Object(m)
}

/// A function declaration built from a tool of another shape (§9.4); `tool` is consumed.
fn declaration(tool: Value, shape: Shape, p: &mut Pending, envelope: Envelope) -> Value {
    let Parts {
        name,
        description,
        cache_control,
    } = parts(tool, shape);
    if let Some(c) = cache_control {
        json::dismantle(c);
    }
    let mut m = named(name, description, 1);
    if let Some(s) = p.schema.take().map_or_else(
        || absent_parameters(envelope),
        |schema| declaration_parameters(schema, envelope),
    ) {
        m.insert("parameters".to_owned(), s);
    }
    Value::Object(m)
}

/// What a declaration without any schema member gets: Code Assist sends `{"type":"object"}`, as for an empty
/// schema (a Claude model behind it needs an input schema); Google sends nothing.
fn absent_parameters(envelope: Envelope) -> Option<Value> {
    (envelope == Envelope::CodeAssist).then(|| {
        let mut m = Map::new();
        m.insert("type".to_owned(), Value::String("object".to_owned()));
        Value::Object(m)
    })
}

/// The empty-object rule: Google omits such parameters, Code Assist sends `{"type":"object"}`.
fn declaration_parameters(schema: Value, envelope: Envelope) -> Option<Value> {
    let empty = schema.get("type").and_then(Value::as_str) == Some("object")
        && schema
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
    match (empty, envelope) {
        (true, Envelope::CodeAssist) => absent_parameters(envelope),
        (true, _) => None,
        (false, _) => Some(schema),
    }
}

/// A declaration inside an existing `functionDeclarations` entry, edited in place.
fn edit_declaration(entry: &mut Value, p: &mut Pending, envelope: Envelope) -> bool {
    let Some(decl) = p
        .declaration
        .and_then(|d| {
            entry
                .get_mut("functionDeclarations")
                .and_then(|a| a.get_mut(d))
        })
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    let mut changed = take(decl, "strict");
    if let Some(schema) = p.schema.take() {
        match declaration_parameters(schema, envelope) {
            Some(s) => changed |= put(decl, "parameters", s),
            None => changed |= take(decl, "parameters"),
        }
    } else if !decl.contains_key("parametersJsonSchema")
        && let Some(s) = absent_parameters(envelope)
    {
        changed |= put(decl, "parameters", s);
    }
    changed
}

/// §9.5: the request moves into the Code Assist envelope unless it already is one.
fn code_assist_envelope(request: &mut Value) -> bool {
    let Some(map) = request.as_object_mut() else {
        return false;
    };
    if map.get("request").is_some_and(Value::is_object) {
        return false;
    }
    let mut envelope = Map::new();
    for key in ["model", "project", "user_prompt_id"] {
        if let Some(v) = json::remove(map, key) {
            envelope.insert(key.to_owned(), v);
        }
    }
    envelope.insert("request".to_owned(), Value::Object(std::mem::take(map)));
    *map = envelope;
    true
}
