//! Strict mode over the shared corpus: strict on every target, or demoted or fallen back only where a list says why.
//!
//! Each schema is normalized with strict requested through a normalizer with fixed environment flags and no memo.
//! A strict result must pass the strict acceptance check, the core structural check with strict on, and the
//! 2020-12 meta-schema. A result that is not strict must carry a reason: a demotion keeps a non-strict schema that
//! passes the target's structural check (contract §6.2 P6), a fallback is the fallback schema (§6.3). Demotions and
//! fallbacks happen only where [`EXPECTED`] names the schema, the target and the reason kind; a new one, a changed
//! kind, or a listed one that became strict fails the test, so the list can only shrink.

use std::collections::BTreeMap;
use std::path::Path;

use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalizer, Options, Target, check_with};
use llmshim_benches::testdata;
use llmshim_benches::xfail::{self, XFail};
use serde_json::{Value, json};

use self::Outcome::{Demoted, Fallback};
use llmshim::schema::FallbackKind::{RefCycle, StrictUnsupported, TargetUnsupported};

/// The targets with a strict profile that the corpus is normalized for.
const TARGETS: [Target; 3] = [
    Target::OpenAiChat,
    Target::OpenAiResponses,
    Target::Anthropic,
];

/// A result that is not strict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// A non-strict schema with the strict failure as its reason (§6.2 P6).
    Demoted(FallbackKind),
    /// The fallback schema (§6.3), also after the non-strict pass failed.
    Fallback(FallbackKind),
}

/// A property that accepts any JSON value has no strict form.
const ANY_VALUE: &str = "a property accepts any JSON value (`{}`, or only a title or default): with neither `type` \
     nor `anyOf` a node fails strict (§5.5, S5), so the schema is demoted";
/// Items that accept any JSON value have no strict form.
const ANY_ITEMS: &str = "`items: {}` accepts any element: with neither `type` nor `anyOf` a node fails strict \
     (§5.5, S5), so the schema is demoted";
/// JSON Patch operations carry a `value` of any JSON type.
const PATCH_VALUE: &str = "the JSON Patch `value` accepts any JSON value: with neither `type` nor `anyOf` a node \
     fails strict (§5.5, S5), so the schema is demoted";
/// Branches made only of constraints become untyped once strict lifts them.
const FORMAT_BRANCHES: &str = "the `anyOf` branches hold only `format`, which strict lifts (§5.2); the untyped \
     branches fail strict (§5.5, S5), so the schema is demoted";
/// A `not` branch becomes untyped once strict lifts it.
const NOT_BRANCH: &str = "one `anyOf` branch is `{\"not\": {}}`; strict lifts `not` (§5.2) and the untyped branch \
     fails strict (§5.5, S5), so the schema is demoted";
/// Recursive schemas fall back on every target.
const RECURSIVE: &str = "a recursive schema: a reference cycle falls back (§3.4 step 3) in the strict and the \
     non-strict pass alike; recursion modes are planned (§3.8)";
/// An empty input schema is not an object root.
const EMPTY_ROOT: &str = "the input schema is `{}`: without `properties` no type is inferred, and these targets \
     need an object root (§4.3.3, S18), so even the non-strict pass falls back";

/// Every target of [`TARGETS`].
const ALL: &[Target] = &TARGETS;

/// The schemas that are not strict: (schema id, targets, outcome, reason).
const EXPECTED: &[(&str, &[Target], Outcome, &str)] = &[
    // Untyped nodes (§5.5, S5): demoted to the non-strict rules.
    (
        "generated/pydantic/apply_json_patch",
        ALL,
        Demoted(StrictUnsupported),
        PATCH_VALUE,
    ),
    (
        "generated/zod/apply_json_patch",
        ALL,
        Demoted(StrictUnsupported),
        PATCH_VALUE,
    ),
    (
        "generated/zod4/apply_json_patch",
        ALL,
        Demoted(StrictUnsupported),
        PATCH_VALUE,
    ),
    (
        "generated/zod4-draft7/apply_json_patch",
        ALL,
        Demoted(StrictUnsupported),
        PATCH_VALUE,
    ),
    (
        "mcp-tools/github-mcp-server/projects_write",
        ALL,
        Demoted(StrictUnsupported),
        ANY_VALUE,
    ),
    (
        "mcp-tools/lmb-basic-memory/write_note",
        ALL,
        Demoted(StrictUnsupported),
        ANY_VALUE,
    ),
    (
        "mcp-tools/lmb-desktopcommandermcp/set_config_value",
        ALL,
        Demoted(StrictUnsupported),
        ANY_VALUE,
    ),
    (
        "mcp-tools/lmb-mcp-server-chart/generate_histogram_chart",
        ALL,
        Demoted(StrictUnsupported),
        NOT_BRANCH,
    ),
    (
        "mcp-tools/lmb-random-number-mcp/random_choices",
        ALL,
        Demoted(StrictUnsupported),
        ANY_ITEMS,
    ),
    (
        "mcp-tools/lmb-random-number-mcp/random_sample",
        ALL,
        Demoted(StrictUnsupported),
        ANY_ITEMS,
    ),
    (
        "mcp-tools/lmb-random-number-mcp/random_shuffle",
        ALL,
        Demoted(StrictUnsupported),
        ANY_ITEMS,
    ),
    (
        "mcp-tools/lmb-whois-mcp/whois_ip",
        ALL,
        Demoted(StrictUnsupported),
        FORMAT_BRANCHES,
    ),
    // Reference cycles (§3.4 step 3): the fallback schema.
    (
        "generated/pydantic/create_task_tree",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/pydantic/sync_directory",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod/create_task_tree",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod/sync_directory",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod4/create_task_tree",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod4/sync_directory",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod4-draft7/create_task_tree",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "generated/zod4-draft7/sync_directory",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "mcp-tools/lmb-mcp-server-chart/generate_fishbone_diagram",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "mcp-tools/lmb-mcp-server-chart/generate_mind_map",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "mcp-tools/lmb-mcp-server-chart/generate_organization_chart",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    (
        "mcp-tools/lmb-mcp-server-chart/generate_treemap_chart",
        ALL,
        Fallback(RefCycle),
        RECURSIVE,
    ),
    // Roots that are not objects (§4.3.3, S18): the fallback schema.
    (
        "mcp-tools/sentry-mcp/whoami",
        ALL,
        Fallback(TargetUnsupported),
        EMPTY_ROOT,
    ),
    (
        "mcp-tools/vscode-copilot-chat/copilot_testFailure",
        ALL,
        Fallback(TargetUnsupported),
        EMPTY_ROOT,
    ),
];

/// Every MCP tool's `inputSchema` and every generated schema, each with its id.
fn corpus(root: &Path) -> Vec<(String, Value)> {
    let read = |path: &Path| {
        testdata::read_json(path).unwrap_or_else(|err| panic!("corrupt test data: {err}"))
    };
    let mut found = Vec::new();
    for file in testdata::mcp_tool_files() {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let doc = read(&file);
        for tool in doc["tools"].as_array().into_iter().flatten() {
            let name = tool["name"].as_str().expect("a tool name");
            found.push((
                format!("mcp-tools/{stem}/{name}"),
                tool["inputSchema"].clone(),
            ));
        }
    }
    for (generator, member, id) in [
        ("pydantic", "schemas", "pydantic"),
        ("zod", "schemas", "zod"),
        ("zod4", "schemas", "zod4"),
        ("zod4", "schemas_draft7", "zod4-draft7"),
    ] {
        let doc = read(&root.join("generated").join(format!("{generator}.json")));
        let schemas = doc[member]
            .as_object()
            .unwrap_or_else(|| panic!("generated/{generator}.json has no {member}"));
        for (name, schema) in schemas {
            found.push((format!("generated/{id}/{name}"), schema.clone()));
        }
    }
    found
}

/// Normalizes one schema strictly for `target`; `Ok(None)` is a strict result, `Ok(Some(_))` is what happened
/// instead, and `Err` says which invariant the result breaks.
fn run(normalizer: &Normalizer, target: Target, schema: &Value) -> Result<Option<Outcome>, String> {
    let options = Options::for_target(target).with_strict(true);
    let mut out = schema.clone();
    let report = normalizer.normalize_with(&options, &mut out);
    if report.strict {
        let strict = llmshim_strict::check(&out);
        let core = check_with(&options, &out);
        if report.used_fallback || report.fallback_reason.is_some() {
            return Err(format!("strict with a fallback or a reason: {report:?}"));
        }
        if !strict.is_empty() || !core.is_empty() {
            return Err(format!(
                "the strict output fails the checks: strict {strict:?}, core {core:?}: {out}"
            ));
        }
        if let Err(err) = jsonschema::draft202012::meta::validate(&out) {
            return Err(format!("not a valid 2020-12 schema ({err}): {out}"));
        }
        return Ok(None);
    }
    let Some(reason) = &report.fallback_reason else {
        return Err(format!("not strict and no reason: {report:?}"));
    };
    if report.used_fallback {
        if out != json!({"type": "object", "properties": {}}) {
            return Err(format!("a fallback that is not the fallback schema: {out}"));
        }
        return Ok(Some(Fallback(reason.kind)));
    }
    let relaxed = check_with(&options.with_strict(false), &out);
    if !relaxed.is_empty() {
        return Err(format!(
            "the demoted output fails the non-strict check: {relaxed:?}"
        ));
    }
    Ok(Some(Demoted(reason.kind)))
}

#[test]
fn strict_corpus_is_strict_or_demoted_only_where_listed() {
    let Some(root) = testdata::require("strict_corpus") else {
        return;
    };
    let corpus = corpus(&root);
    assert!(corpus.len() > 700, "found only {} schemas", corpus.len());

    // The expected-failure list names one case per schema and target; its reason says what and why.
    let mut outcomes: BTreeMap<String, Outcome> = BTreeMap::new();
    let mut list: Vec<(&'static str, &'static str)> = Vec::new();
    for &(id, targets, outcome, reason) in EXPECTED {
        for target in targets {
            let name = format!("{id} @{target}");
            outcomes.insert(name.clone(), outcome);
            list.push((String::leak(name), reason));
        }
    }
    let list: XFail = list.leak();

    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let mut problems = Vec::new();
    let mut counts: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    let mut strict = xfail::Run::new();
    for (id, schema) in &corpus {
        for target in TARGETS {
            let name = format!("{id} @{target}");
            let count = counts.entry(target.to_string()).or_default();
            let result = run(&normalizer, target, schema);
            strict.record(name.clone(), matches!(result, Ok(None)));
            match result {
                Ok(None) => count[0] += 1,
                Ok(Some(outcome)) => {
                    count[usize::from(matches!(outcome, Fallback(_))) + 1] += 1;
                    match outcomes.get(&name) {
                        Some(listed) if *listed != outcome => {
                            problems
                                .push(format!("{name}: listed as {listed:?}, found {outcome:?}"));
                        }
                        Some(_) => {}
                        None => problems.push(format!("{name}: {outcome:?}, not listed")),
                    }
                }
                Err(err) => problems.push(format!("{name}: {err}")),
            }
        }
    }
    for (target, [ok, demoted, fallback]) in &counts {
        eprintln!(
            "suite: strict corpus on {target}: {ok} strict, {demoted} demoted, {fallback} fallback"
        );
    }
    if let Err(report) = strict.check("strict corpus", list) {
        problems.push(report);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
