//! The real MCP tool corpus translated for every target, one request per server.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use llmshim::schema::{
    Env, EnvFlags, FallbackKind, Normalization, Normalizer, Options, Outcome, Target, check,
    check_with,
};

use llmshim::tools::ToolsReport;
use llmshim_benches::fallbacks::{Expected, Observed};
use llmshim_benches::golden::Mode;
use llmshim_benches::{readme, testdata, workload};
use serde_json::{Value, json};

fn plain() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("a value serializes")
}

/// The expected list of tools that fall back or are demoted, relative to the crate.
const EXPECTED: &str = "tests/corpus/expected-tools.json";

/// The MCP corpus of the shared test data: servers (one request each) and their tools; the README publishes both.
const SERVERS: usize = 63;
/// See [`SERVERS`].
const TOOLS: usize = 725;
/// The README's per-target counts of tools sent with their `inputSchema` unchanged (plain: no fallback, and the
/// report says the schema did not change) stand between these markers, written as `<target> <count>` joined by
/// commas; the test fails when they differ from the run, and `UPDATE_EXPECT=1` rewrites them.
const UNCHANGED_START: &str = "<!-- tools-unchanged:start -->";
/// See [`UNCHANGED_START`].
const UNCHANGED_END: &str = "<!-- tools-unchanged:end -->";

/// Compares the README's unchanged-tool counts with `counts` (rewriting them when blessing); a difference is a
/// problem.
fn readme_unchanged(counts: &str) -> Option<String> {
    readme::check_section(
        UNCHANGED_START,
        UNCHANGED_END,
        counts,
        "counts of tools sent unchanged",
    )
    .err()
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the translated request.
// ---------------------------------------------------------------------------------------------------------------

/// What a target sent for the tool at `position`: name, description, schema (`None` when omitted) and `strict`.
#[derive(Debug)]
struct Sent<'a> {
    name: Option<&'a Value>,
    description: Option<&'a Value>,
    schema: Option<&'a Value>,
    strict: Option<&'a Value>,
}

fn declarations(tools: &Value) -> Option<&Value> {
    tools.get(0).and_then(|e| e.get("functionDeclarations"))
}

fn sent(target: Target, out: &Value, position: usize) -> Sent<'_> {
    let (tool, schema_key) = match target {
        Target::OpenAiChat => (out["tools"][position].get("function"), "parameters"),
        Target::OpenAiResponses => (out["tools"].get(position), "parameters"),
        Target::Anthropic => (out["tools"].get(position), "input_schema"),
        Target::Google => (
            declarations(&out["tools"]).and_then(|d| d.get(position)),
            "parameters",
        ),
        Target::GoogleJsonSchema => (
            declarations(&out["tools"]).and_then(|d| d.get(position)),
            "parametersJsonSchema",
        ),
        Target::CloudCodeAssist => (
            declarations(&out["request"]["tools"]).and_then(|d| d.get(position)),
            "parameters",
        ),
        _ => (out["tools"].get(position), "inputSchema"),
    };
    let tool = tool.unwrap_or_else(|| panic!("{target}: no tool at {position}"));
    Sent {
        name: tool.get("name"),
        description: tool.get("description"),
        schema: tool.get(schema_key),
        strict: tool.get("strict"),
    }
}

fn fallback() -> Value {
    json!({"type": "object", "properties": {}})
}

/// What a fallen-back tool sends: nothing (both Gemini dialects), `{"type":"object"}` (Code Assist), or the fallback
/// as the target translates it. A raw MCP tool that falls back in the MCP ingestion pass carries the fallback into its
/// canonical chat tool, which a strict target then closes and reports strict (so `strict` says which it was).
fn sent_fallback(normalizer: &Normalizer, target: Target, strict: bool) -> Option<Value> {
    match target {
        Target::Google | Target::GoogleJsonSchema => None,
        Target::CloudCodeAssist => Some(json!({"type": "object"})),
        _ => {
            let mut schema = fallback();
            let options = Options::for_target(target).with_strict(strict);
            let report = normalizer.normalize_with(&options, &mut schema);
            assert_eq!(report.strict, strict, "{target}");
            Some(schema)
        }
    }
}

/// The `strict` key the envelope must write, given the report.
fn strict_key(target: Target, requested: bool, report: &Normalization) -> Option<bool> {
    match target {
        Target::OpenAiChat | Target::Anthropic if requested => Some(report.strict),
        Target::OpenAiChat if report.used_fallback => Some(false),
        Target::OpenAiResponses => Some(report.strict),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------------------------
// An independent model of the Anthropic request budget.
// ---------------------------------------------------------------------------------------------------------------

/// Every schema object of `schema`, following the schema positions (a literal is never entered).
fn schema_nodes(schema: &Value) -> Vec<&serde_json::Map<String, Value>> {
    let mut nodes = Vec::new();
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        let Value::Object(map) = value else {
            continue;
        };
        nodes.push(map);
        for key in ["properties", "patternProperties", "dependentSchemas"] {
            if let Some(Value::Object(children)) = map.get(key) {
                stack.extend(children.values());
            }
        }
        for key in [
            "items",
            "contains",
            "additionalProperties",
            "unevaluatedProperties",
            "unevaluatedItems",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
        ] {
            stack.extend(map.get(key));
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if let Some(Value::Array(children)) = map.get(key) {
                stack.extend(children);
            }
        }
    }
    nodes
}

fn union_count(schema: &Value) -> usize {
    schema_nodes(schema)
        .into_iter()
        .filter(|m| m.contains_key("anyOf") || m.get("type").is_some_and(Value::is_array))
        .count()
}

fn optional_count(schema: &Value) -> usize {
    schema_nodes(schema)
        .into_iter()
        .map(|m| {
            let Some(Value::Object(properties)) = m.get("properties") else {
                return 0;
            };
            let required: BTreeSet<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            properties
                .keys()
                .filter(|k| !required.contains(k.as_str()))
                .count()
        })
        .sum()
}

/// The positions of the tools the budget must demote, computed from each tool's solo strict normalization.
fn simulated_budget(normalizer: &Normalizer, request: &Value) -> BTreeSet<usize> {
    let mut converted = request.clone();
    // A raw MCP tool that falls back in the MCP conversion pass is sent non-strict and is never charged.
    let fell_back: BTreeSet<usize> = normalizer
        .prepare_request(&mut converted)
        .tools
        .iter()
        .filter(|t| t.normalization.used_fallback)
        .map(|t| t.index)
        .collect();
    let strict = Options::for_target(Target::Anthropic).with_strict(true);
    let (mut tools, mut optional, mut unions) = (0usize, 0usize, 0usize);
    let mut demoted = BTreeSet::new();
    for (i, tool) in converted["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .enumerate()
    {
        if fell_back.contains(&i) {
            continue;
        }
        let mut schema = tool["function"]["parameters"].clone();
        let report = normalizer.normalize_with(&strict, &mut schema);
        if !report.strict || schema.get("type").and_then(Value::as_str) != Some("object") {
            continue;
        }
        let (o, u) = (optional_count(&schema), union_count(&schema));
        if tools < 20 && optional + o <= 24 && unions + u <= 16 {
            tools += 1;
            optional += o;
            unions += u;
        } else {
            demoted.insert(i);
        }
    }
    demoted
}

// ---------------------------------------------------------------------------------------------------------------
// The corpus run.
// ---------------------------------------------------------------------------------------------------------------

/// Counts of one configuration, printed to stderr.
#[derive(Debug, Default)]
struct Counts {
    servers: usize,
    tools: usize,
    fallbacks: usize,
    demotions: usize,
    budget: usize,
    strict_sent: usize,
    omitted: usize,
    meta_checked: usize,
    unchanged: usize,
}

/// What one configuration gives: the case names that ran, the fallbacks and demotions observed, the counts, and
/// every translated request with its report.
type ConfigRun = (
    Vec<String>,
    Vec<Observed>,
    Counts,
    Vec<(Value, ToolsReport)>,
);

/// Translates every server's request for one configuration and records one case per tool.
fn run_config(
    corpus: &[(String, Value)],
    target: Target,
    strict: bool,
    problems: &mut Vec<String>,
) -> ConfigRun {
    let config = format!("{target}{}", if strict { "+strict" } else { "" });
    let normalizer = plain();
    let options = Options::for_target(target).with_strict(strict);
    let mut ran = Vec::new();
    let mut observed = Vec::new();
    let mut counts = Counts::default();
    let mut outputs = Vec::new();
    for (server, request) in corpus {
        counts.servers += 1;
        let mut out = request.clone();
        let Ok(report) = catch_unwind(AssertUnwindSafe(|| {
            normalizer.normalize_native_tools(&options, &mut out)
        })) else {
            problems.push(format!("{config}/{server}: panicked"));
            continue;
        };
        let tools = request["tools"].as_array().expect("tools");
        if report.tools.len() != tools.len() {
            problems.push(format!(
                "{config}/{server}: {} tool reports for {} tools",
                report.tools.len(),
                tools.len()
            ));
            continue;
        }
        let budget = if target == Target::Anthropic && strict {
            simulated_budget(&normalizer, request)
        } else {
            BTreeSet::new()
        };
        for (i, (tool, t)) in tools.iter().zip(&report.tools).enumerate() {
            counts.tools += 1;
            let name = tool["name"].as_str().expect("corpus tools have names");
            let case = format!("{config}/{server}/{name}");
            let mut fail = |what: String| problems.push(format!("{case}: {what}"));
            let n = &t.normalization;
            let wire = sent(target, &out, i);
            if t.index != i || t.name.as_deref() != Some(name) || wire.name != tool.get("name") {
                fail(format!(
                    "index or name: {} {:?} {:?}",
                    t.index, t.name, wire.name
                ));
            }
            let description = tool.get("description").or_else(|| tool.get("title"));
            if wire.description != description {
                fail("description not from the current tool".to_owned());
            }
            // The envelope's `strict` key and the one the report records.
            let written = wire.strict.map(|s| s.as_bool().expect("a boolean strict"));
            if written != strict_key(target, strict, n) || t.strict != written {
                fail(format!("strict key {written:?}, report {:?}", t.strict));
            }
            counts.strict_sent += usize::from(written == Some(true));
            counts.unchanged += usize::from(!n.changed && !n.used_fallback);
            // The schema: the fallback, or one the target's check accepts.
            let schema = wire.schema.cloned();
            if n.used_fallback {
                counts.fallbacks += 1;
                if schema != sent_fallback(&normalizer, target, n.strict) {
                    fail(format!("fell back but sent {schema:?}"));
                }
            } else if schema.is_none() {
                if matches!(target, Target::Google | Target::GoogleJsonSchema) {
                    counts.omitted += 1;
                } else {
                    fail("no schema sent".to_owned());
                }
            }
            // Every schema sent passes the target's check, and the strict check when it is sent as strict.
            if let Some(schema) = &schema {
                let found = check(target, schema);
                let strict_found =
                    check_with(&Options::for_target(target).with_strict(n.strict), schema);
                if !found.is_empty() || !strict_found.is_empty() {
                    fail(format!("check: {found:?} {strict_found:?}"));
                }
            }
            if let Some(schema) = &schema
                && matches!(
                    target,
                    Target::Anthropic
                        | Target::CloudCodeAssist
                        | Target::GoogleJsonSchema
                        | Target::Mcp
                )
            {
                counts.meta_checked += 1;
                if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
                    fail(format!("2020-12 meta-schema: {error}"));
                }
            }
            // Demotions by the Anthropic request budget are checked against the model above, not listed.
            let by_budget = n
                .fallback_reason
                .as_ref()
                .is_some_and(|r| r.kind == FallbackKind::ProviderLimit && !n.used_fallback);
            if by_budget != budget.contains(&i) {
                fail(format!(
                    "budget demotion {by_budget}, model says {}",
                    budget.contains(&i)
                ));
            }
            if by_budget {
                counts.budget += 1;
            } else if n.fallback_reason.is_some() && !n.used_fallback {
                counts.demotions += 1;
            }
            if let Some(reason) = n.fallback_reason.as_ref().filter(|_| !by_budget) {
                let what = if n.used_fallback {
                    "fallback"
                } else {
                    "demoted"
                };
                observed.push(Observed::new(
                    case.clone(),
                    format!("{what} {}", reason.kind.as_str()),
                    reason.pointer.clone(),
                    reason.message.clone(),
                ));
            }
            ran.push(case);
        }
        outputs.push((out, report));
    }
    (ran, observed, counts, outputs)
}

#[test]
fn every_corpus_tool_translates_for_every_target() {
    if testdata::require("tools_corpus::every_corpus_tool_translates_for_every_target").is_none() {
        return;
    }
    let corpus = workload::mcp_corpus().expect("the corpus is present");
    assert_eq!(
        (
            corpus.len(),
            corpus
                .iter()
                .map(|(_, r)| r["tools"].as_array().map_or(0, Vec::len))
                .sum::<usize>()
        ),
        (SERVERS, TOOLS),
        "the MCP corpus holds (servers, tools) {:?}, expected {:?}: the test data is partial or another snapshot",
        (
            corpus.len(),
            corpus
                .iter()
                .map(|(_, r)| r["tools"].as_array().map_or(0, Vec::len))
                .sum::<usize>()
        ),
        (SERVERS, TOOLS),
    );
    let mut problems = Vec::new();
    let mut total_tools = 0usize;
    let mut ran = Vec::new();
    let mut observed = Vec::new();
    let mut unchanged = Vec::new();
    for target in Target::BUILTIN {
        let mut by_strict = Vec::new();
        for strict in [false, true] {
            let config = format!("{target}{}", if strict { "+strict" } else { "" });
            let (config_ran, config_observed, counts, outputs) =
                run_config(&corpus, target, strict, &mut problems);
            eprintln!(
                "suite: tools corpus {config}: {} servers, {} tools, {} fallbacks, {} strict demotions, {} budget \
                 demotions, {} sent strict, {} parameters omitted, {} meta-schema checks, {} schemas unchanged",
                counts.servers,
                counts.tools,
                counts.fallbacks,
                counts.demotions,
                counts.budget,
                counts.strict_sent,
                counts.omitted,
                counts.meta_checked,
                counts.unchanged
            );
            if !strict {
                unchanged.push(format!("{target} {}", counts.unchanged));
            }
            total_tools = counts.tools;
            ran.extend(config_ran);
            observed.extend(config_observed);
            by_strict.push(outputs);
        }
        // Targets without a strict profile (both Gemini dialects, Code Assist) ignore a strict request, so both runs
        // send the same bytes and reports.
        if target.rules().rules().strict.is_none() {
            for ((plain_out, plain_report), (strict_out, strict_report)) in
                by_strict[0].iter().zip(&by_strict[1])
            {
                if text(plain_out) != text(strict_out) || plain_report != strict_report {
                    problems.push(format!("{target}: a strict request changed the output"));
                }
            }
        }
    }
    assert_eq!(total_tools, TOOLS);
    assert_eq!(unchanged.len(), Target::BUILTIN.len());
    if let Some(problem) = readme_unchanged(&unchanged.join(", ")) {
        problems.push(problem);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    let expected = Expected::load(&path).unwrap_or_else(|err| panic!("{err}"));
    if let Err(report) =
        expected.check_or_bless(&path, Mode::from_env(), "tools corpus", &ran, &observed)
    {
        problems.push(format!("{report}\n(the list is {EXPECTED})"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------------------------
// One broken tool among fifty.
// ---------------------------------------------------------------------------------------------------------------

/// 49 corpus tools spread over the whole corpus.
fn forty_nine_tools(corpus: &[(String, Value)]) -> Vec<Value> {
    let all: Vec<&Value> = corpus
        .iter()
        .flat_map(|(_, request)| request["tools"].as_array().expect("tools"))
        .collect();
    (0..49).map(|i| all[i * all.len() / 49].clone()).collect()
}

/// The tool at `position` as sent: the envelope's element, or the declaration for Google and Code Assist.
fn sent_tool(target: Target, out: &Value, position: usize) -> Value {
    match target {
        Target::Google | Target::GoogleJsonSchema => {
            out["tools"][0]["functionDeclarations"][position].clone()
        }
        Target::CloudCodeAssist => {
            out["request"]["tools"][0]["functionDeclarations"][position].clone()
        }
        _ => out["tools"][position].clone(),
    }
}

fn translate(normalizer: &Normalizer, options: &Options, tools: &[Value]) -> (Value, ToolsReport) {
    let mut out = json!({"tools": tools});
    let report = normalizer.normalize_native_tools(options, &mut out);
    (out, report)
}

/// A broken tool, and what stands in its place when the Anthropic request budget makes tools depend on each other:
/// a well-formed tool that is charged to the budget exactly as the broken one is, or nothing when the broken one is
/// not sent strict.
struct Broken {
    tool: Value,
    stand_in: Option<Value>,
}

fn broken_tools() -> Vec<Broken> {
    // A raw MCP tool falls back in the MCP ingestion pass and a chat tool in the object check; either is sent
    // non-strict, so neither is charged to the Anthropic request budget and no stand-in is needed.
    let raw = |name: &str, schema: Value| Broken {
        tool: json!({"name": name, "description": "deliberately broken", "inputSchema": schema}),
        stand_in: None,
    };
    vec![
        raw(
            "broken_ref",
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}, "required": ["a"]}),
        ),
        raw("broken_type", json!({"type": "string"})),
        raw(
            "broken_shape",
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": []}}}),
        ),
        Broken {
            tool: json!({"type": "function", "function": {"name": "broken_chat", "parameters": {"$ref": "#/nope"}}}),
            stand_in: None,
        },
    ]
}

/// The sent tool, its report and its `strict` value, for every tool of a translated request.
type Translated = Vec<(Value, Normalization, Option<bool>)>;

fn translated(target: Target, out: &Value, report: &ToolsReport) -> Translated {
    report
        .tools
        .iter()
        .enumerate()
        .map(|(position, t)| {
            (
                sent_tool(target, out, position),
                t.normalization.clone(),
                t.strict,
            )
        })
        .collect()
}

#[test]
fn one_broken_tool_leaves_the_other_forty_nine_byte_identical() {
    if testdata::require("tools_corpus::one_broken_tool_leaves_the_other_forty_nine_byte_identical")
        .is_none()
    {
        return;
    }
    let corpus = workload::mcp_corpus().expect("the corpus is present");
    let good = forty_nine_tools(&corpus);
    let at = 20usize;
    let normalizer = plain();
    let mut compared = 0usize;
    for target in Target::BUILTIN {
        for strict in [false, true] {
            let options = Options::for_target(target).with_strict(strict);
            let solo = |tool: &Value| {
                let (out, report) = translate(&normalizer, &options, std::slice::from_ref(tool));
                translated(target, &out, &report).remove(0)
            };
            let alone: Translated = good.iter().map(solo).collect();
            // Anthropic strict tools share one request budget, so there each tool is compared with the same
            // request in which the broken tool is replaced by its stand-in; elsewhere with the tool alone.
            let shared_budget = target == Target::Anthropic && strict;
            for broken in broken_tools() {
                let label = format!("{target} strict={strict} {}", text(&broken.tool));
                let mut tools = good.clone();
                tools.insert(at, broken.tool.clone());
                assert_eq!(tools.len(), 50);
                let (out, report) = translate(&normalizer, &options, &tools);
                let actual = translated(target, &out, &report);
                assert_eq!(actual.len(), 50, "{label}");
                // The broken tool falls back on its own, exactly as it does alone.
                assert!(actual[at].1.used_fallback, "{label}");
                let broken_alone = solo(&broken.tool);
                assert_eq!(text(&actual[at].0), text(&broken_alone.0), "{label}");
                let reference: Translated = if shared_budget {
                    let mut tools = good.clone();
                    if let Some(stand_in) = &broken.stand_in {
                        tools.insert(at, stand_in.clone());
                    }
                    let (out, report) = translate(&normalizer, &options, &tools);
                    let mut all = translated(target, &out, &report);
                    if broken.stand_in.is_some() {
                        let stand_in = all.remove(at);
                        assert_eq!(text(&stand_in.0), text(&actual[at].0), "{label}");
                    }
                    all
                } else {
                    alone.clone()
                };
                for (j, expected) in reference.iter().enumerate() {
                    let position = if j < at { j } else { j + 1 };
                    let (tool, normalization, sent_strict) = &actual[position];
                    assert_eq!(text(tool), text(&expected.0), "{label}: tool {j}");
                    assert_eq!(normalization, &expected.1, "{label}: tool {j}");
                    assert_eq!(sent_strict, &expected.2, "{label}: tool {j}");
                    compared += 1;
                }
            }
        }
    }
    eprintln!(
        "suite: tools corpus: {compared} tools compared with their reference translation beside a broken one"
    );
    assert_eq!(
        compared,
        Target::BUILTIN.len() * 2 * broken_tools().len() * 49
    );
}

/// The Anthropic request budget demotes a quarter of the corpus's strict tools, normalizing each again from the
/// original it kept; on a memo hit the hit is not applied until the budget has decided (its counters remembered by
/// the entry), and a demoted tool's input is normalized again as it is. A memo of its own, first missed and then hit
/// twice, must give every request and report exactly as the uncached translation does.
#[test]
fn the_cached_anthropic_strict_translation_equals_the_uncached_one() {
    if testdata::require(
        "tools_corpus::the_cached_anthropic_strict_translation_equals_the_uncached_one",
    )
    .is_none()
    {
        return;
    }
    let corpus = workload::mcp_corpus().expect("the corpus is present");
    let options = Options::for_target(Target::Anthropic).with_strict(true);
    let cached = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(std::sync::Arc::new(
        llmshim::schema::SchemaMemo::new(llmshim::cache::Limits::default().with_max_entries(4_096)),
    ));
    let mut demoted = 0;
    for (name, request) in &corpus {
        let mut expected = request.clone();
        let expected_report = plain().normalize_native_tools(&options, &mut expected);
        demoted += expected_report
            .tools
            .iter()
            .filter(|t| matches!(t.normalization.outcome(), Outcome::Demoted(_)))
            .count();
        for pass in ["miss", "first hit", "second hit"] {
            let mut out = request.clone();
            let report = cached.normalize_native_tools(&options, &mut out);
            assert_eq!(text(&out), text(&expected), "{name}: {pass}: request");
            assert_eq!(report, expected_report, "{name}: {pass}: report");
        }
    }
    // The budget was exercised, so the kept originals and the unapplied inputs were read.
    assert!(demoted > 100, "only {demoted} demotions on the corpus");
}
