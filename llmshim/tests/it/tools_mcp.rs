//! Raw MCP tools in a native tools request: each is translated as the canonical chat tool
//! `llmshim_mcp::into_chat_tool` makes of it, byte for byte, on every target that does not read MCP tools as they
//! are, custom envelopes included, though the translation builds the target's tool from the MCP tool directly.

use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
use llmshim::tools::ToolsReport;
use llmshim_core::TargetRules;
use llmshim_core::envelope::{EmptySchema, Layout, StrictKey, ToolShape};
use llmshim_core::rules::{Envelope, RuleSet};
use serde_json::{Value, json};

/// A custom target whose tools are `{"kind": "fn", "spec": {...}}` and carry the prompt-cache marker.
#[derive(Debug)]
struct Held;

static HELD_RULES: RuleSet = RuleSet::new().with_envelope(
    Envelope::new(Layout::Tool(
        ToolShape::new("schema")
            .with_tag("kind", "fn")
            .with_holder("spec"),
    ))
    .with_strict(StrictKey::Always)
    .with_empty_schema(EmptySchema::Fixed(&[("type", "object"), ("x", "y")]))
    .with_carries(&["cache_control"]),
);

impl TargetRules for Held {
    fn id(&self) -> &'static str {
        "held"
    }

    fn rules(&self) -> &RuleSet {
        &HELD_RULES
    }
}

static HELD: Held = Held;

/// A custom target with flat tools tagged `{"name": "tool"}`: the tag's key is also a field of every tool.
#[derive(Debug)]
struct NameTagged;

static NAME_TAGGED_RULES: RuleSet = RuleSet::new().with_envelope(
    Envelope::new(Layout::Tool(
        ToolShape::new("args").with_tag("name", "tool"),
    ))
    .with_strict(StrictKey::WhenRequested)
    .with_empty_schema(EmptySchema::Omit),
);

impl TargetRules for NameTagged {
    fn id(&self) -> &'static str {
        "name-tagged"
    }

    fn rules(&self) -> &RuleSet {
        &NAME_TAGGED_RULES
    }
}

static NAME_TAGGED: NameTagged = NameTagged;

/// Raw MCP tools in every member order and with every odd field, between tools of other kinds.
fn request() -> Value {
    let object = json!({"type": "object", "properties": {"q": {"type": "string", "format": "uuid"}},
        "required": ["q"], "additionalProperties": false});
    json!({"tools": [
        {"type": "web_search"},
        {"name": "plain", "description": "d", "inputSchema": object, "annotations": {"readOnlyHint": true}},
        {"annotations": {}, "description": "first", "inputSchema": object, "name": "late"},
        {"name": "titled", "title": "T", "inputSchema": object, "_meta": {"a": [1]}},
        {"title": "T", "description": null, "name": "nulled", "inputSchema": object},
        {"description": "nameless", "inputSchema": {"type": "object"}},
        {"title": "only", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "odd", "inputSchema": "not a schema", "cache_control": {"type": "ephemeral"},
         "outputSchema": {"type": "object"}},
        {"name": 5, "description": "n", "inputSchema": true, "cache_control": {"type": "ephemeral"}},
        {"type": "function", "function": {"name": "chat", "parameters": object}, "inputSchema": object},
        {"name": "strict", "inputSchema": object, "strict": false},
        {"cache_control": {"type": "ephemeral"}, "name": "cached", "description": "c", "title": "t",
         "inputSchema": object, "icons": []},
        {"name": "null", "inputSchema": null},
        {"type": "function", "function": {"name": "native", "parameters": object}},
        {"name": "missing"}
    ]})
}

/// `request` with every raw MCP tool converted to a chat tool first, as the translation once did.
fn converted(request: &Value) -> Value {
    let mut out = request.clone();
    if let Some(tools) = out.get_mut("tools").and_then(Value::as_array_mut) {
        for tool in tools.iter_mut() {
            if llmshim_mcp::is_mcp_tool(tool) {
                *tool = llmshim_mcp::into_chat_tool(std::mem::take(tool));
            }
        }
    }
    out
}

fn translate(normalizer: &Normalizer, options: &Options, request: &Value) -> (String, ToolsReport) {
    let mut out = request.clone();
    let report = normalizer.normalize_native_tools(options, &mut out);
    (
        serde_json::to_string(&out).expect("a value serializes"),
        report,
    )
}

/// Compares the translation of the raw request with the translation of its converted copy: the same bytes and the
/// same reports, but for where a raw tool's schema stood (its `inputSchema`).
fn assert_same(normalizer: &Normalizer, options: &Options, label: &str) {
    let raw = request();
    let (got, got_report) = translate(normalizer, options, &raw);
    let (want, want_report) = translate(normalizer, options, &converted(&raw));
    assert_eq!(got, want, "{label}");
    assert_eq!(got_report.tools.len(), want_report.tools.len(), "{label}");
    for (g, w) in got_report.tools.iter().zip(&want_report.tools) {
        let mcp = raw["tools"][g.index].get("inputSchema").is_some();
        assert_eq!(g.index, w.index, "{label}");
        assert_eq!(g.name, w.name, "{label}: tool {}", g.index);
        assert_eq!(g.strict, w.strict, "{label}: tool {}", g.index);
        assert_eq!(
            g.normalization, w.normalization,
            "{label}: tool {}",
            g.index
        );
        let pointer = if mcp {
            format!("/tools/{}/inputSchema", g.index)
        } else {
            w.pointer()
        };
        assert_eq!(g.pointer(), pointer, "{label}");
    }
    let (g, w) = (&got_report.summary, &want_report.summary);
    assert_eq!(
        (g.changed, g.used_fallback, g.narrowed, g.strict, g.bypassed),
        (w.changed, w.used_fallback, w.narrowed, w.strict, w.bypassed),
        "{label}"
    );
    assert_eq!(g.changes.len(), w.changes.len(), "{label}");
}

#[test]
fn raw_mcp_tools_translate_as_the_chat_tools_converted_from_them() {
    let targets = Target::BUILTIN
        .into_iter()
        .filter(|t| *t != Target::Mcp)
        .chain([Target::custom(&HELD), Target::custom(&NAME_TAGGED)]);
    // A memo of its own, so the second translation of each request is a hit.
    let cached = Normalizer::new(Env::Fixed(EnvFlags::default()));
    let uncached = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    for target in targets {
        for strict in [false, true] {
            for bypass in [false, true] {
                let options = Options::for_target(target)
                    .with_strict(strict)
                    .with_bypass(bypass)
                    .with_diagnostics(true);
                let label = format!("{target:?} strict {strict} bypass {bypass}");
                assert_same(&uncached, &options, &label);
                for _ in 0..2 {
                    assert_same(&cached, &options, &label);
                }
            }
        }
    }
}

#[test]
fn an_mcp_tool_is_rebuilt_in_each_builtin_shape() {
    let mut request = json!({"tools": [
        {"annotations": {}, "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
         "name": "f", "cache_control": {"type": "ephemeral"}}
    ]});
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    normalizer.normalize_native_tools(&Options::for_target(Target::OpenAiResponses), &mut request);
    assert_eq!(
        serde_json::to_string(&request).expect("a value serializes"),
        r#"{"tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object","properties":{"a":{"type":"string"}}},"strict":false}]}"#
    );
    let mut request = json!({"tools": [
        {"title": "T", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
         "name": "f",
         "cache_control": {"type": "ephemeral"}}
    ]});
    normalizer.normalize_native_tools(
        &Options::for_target(Target::Anthropic).with_strict(true),
        &mut request,
    );
    assert_eq!(
        serde_json::to_string(&request).expect("a value serializes"),
        r#"{"tools":[{"name":"f","description":"T","input_schema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},"strict":true,"cache_control":{"type":"ephemeral"}}]}"#
    );
}
