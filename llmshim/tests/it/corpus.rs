//! Every schema of the shared test data through every target: no panic, checked outputs, idempotence, key order.
//!
//! The corpus is every MCP tool `inputSchema` and `outputSchema` of `mcp-tools/*.json` (tools and variants), every
//! schema of `generated/{pydantic,zod,zod4}.json` (zod 4 in both of its targets) and the SchemaStore schemas of
//! `schemastore/index.json`, normalized non-strictly for each built-in target with fixed, empty
//! environment flags and no memo. The tests check, for every output:
//!
//! - nothing panics, in the first normalization or the second;
//! - an output that is not the fallback passes the target's structural check (`check_with`);
//! - normalizing the output again reports `changed: false` and returns identical bytes; the only exception, matched
//!   exactly, is the fallback `{"type":"object","properties":{}}` on Google and Cloud Code Assist, which a second pass
//!   turns into `{"type":"object"}` (those targets remove empty `properties`) with `changed: true` and no fallback;
//! - no `$ref`, `$defs` or `definitions` survives in a schema position, except, on the targets that keep recursive
//!   references, a lone `$ref` to `#` or to a member of the root's `$defs`;
//! - the order of every surviving property is the order of the input's `properties`;
//! - a fallback happens only where `tests/corpus/expected-fallbacks.json` names the schema and the target, with the
//!   fallback's kind, pointer and message; a new fallback, a listed entry that no longer falls back, and one that
//!   falls back elsewhere or for another reason all fail;
//! - the corpus holds exactly the published number of schemas per source ([`SOURCE_COUNTS`]).
//!
//! Every SchemaStore schema runs; the workspace's dev profile optimizes the hot crates so that the biggest ones
//! take milliseconds, not seconds. The work is shared by this file's tests and the oracle tests through one lazily computed corpus, spread over
//! the available cores.

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;

use llmshim::schema::{Env, EnvFlags, Normalization, Normalizer, Options, Target, check_with};
use llmshim_benches::fallbacks::{Expected, Observed};
use llmshim_benches::golden::Mode;
use llmshim_benches::{refs, testdata};
use serde_json::Value;

/// The number of built-in targets.
pub(crate) const COLUMNS: usize = Target::BUILTIN.len();

/// The built-in targets, non-strict, in the command line's order.
pub(crate) const TARGETS: [Target; COLUMNS] = Target::BUILTIN;

/// The expected-fallback list, relative to the crate.
const EXPECTED_FALLBACKS: &str = "tests/corpus/expected-fallbacks.json";

/// One schema of the corpus and its stable id (`mcp-tools/<file>/tools/<name>/inputSchema`, ...).
pub(crate) struct Schema {
    pub(crate) id: String,
    pub(crate) input: Value,
}

/// One normalization: the output and its report, or the panic message.
pub(crate) type Outcome = Result<(Value, Normalization), String>;

/// One schema normalized for one target, then its output normalized again.
pub(crate) struct Run {
    pub(crate) target: Target,
    pub(crate) first: Outcome,
    pub(crate) again: Option<Outcome>,
}

/// A corpus schema with one run per target, in [`TARGETS`] order.
pub(crate) struct Entry {
    pub(crate) schema: Schema,
    pub(crate) runs: Vec<Run>,
}

/// The normalized corpus.
pub(crate) struct Corpus {
    pub(crate) entries: Vec<Entry>,
}

/// Normalizes a copy of `input` for `target` (non-strict defaults), catching a panic as its message.
pub(crate) fn normalize(target: Target, input: &Value) -> Outcome {
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let options = Options::for_target(target);
    let mut value = input.clone();
    catch_unwind(AssertUnwindSafe(|| {
        let report = normalizer.normalize_with(&options, &mut value);
        (value, report)
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "a panic without a message".to_owned())
    })
}

/// Whether `value` is exactly the fallback schema `{"type":"object","properties":{}}`.
pub(crate) fn is_fallback_value(value: &Value) -> bool {
    bytes(value) == r#"{"type":"object","properties":{}}"#
}

/// Compact JSON, so that comparisons see key order.
pub(crate) fn bytes(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value serializes")
}

/// Reads the corpus: MCP tool schemas (tools, then variants), generated schemas, then SchemaStore schemas.
fn schemas() -> Vec<Schema> {
    let mut out = Vec::new();
    for file in testdata::mcp_tool_files() {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .expect("a corpus file has a name");
        let value = testdata::read_json(&file).expect("MCP corpus files parse");
        for tool in value["tools"].as_array().expect("a tools array") {
            let name = tool["name"].as_str().expect("a tool has a name");
            push_tool(&mut out, &format!("mcp-tools/{stem}/tools/{name}"), tool);
        }
        for variant in value["variants"].as_array().into_iter().flatten() {
            let snap = variant["snap"]
                .as_str()
                .expect("a variant names its snapshot");
            push_tool(
                &mut out,
                &format!("mcp-tools/{stem}/variants/{snap}"),
                &variant["tool"],
            );
        }
    }
    let root = testdata::root().expect("the caller checked the data with `require`");
    for (file, member, label) in [
        ("pydantic.json", "schemas", "pydantic"),
        ("zod.json", "schemas", "zod"),
        ("zod4.json", "schemas", "zod4"),
        ("zod4.json", "schemas_draft7", "zod4-draft7"),
    ] {
        let value = testdata::read_json(root.join("generated").join(file))
            .expect("generated corpus files parse");
        let map = value[member].as_object().expect("a map of schemas");
        for (name, schema) in map {
            out.push(Schema {
                id: format!("generated/{label}/{name}"),
                input: schema.clone(),
            });
        }
    }
    for entry in testdata::schemastore_entries() {
        let id = format!("schemastore/{}", entry.name);
        let input = testdata::read_json(&entry.schema).expect("SchemaStore schemas parse");
        out.push(Schema { id, input });
    }
    out
}

fn push_tool(out: &mut Vec<Schema>, prefix: &str, tool: &Value) {
    for key in ["inputSchema", "outputSchema"] {
        if let Some(schema) = tool.get(key) {
            out.push(Schema {
                id: format!("{prefix}/{key}"),
                input: schema.clone(),
            });
        }
    }
}

fn run_entry(schema: Schema) -> Entry {
    let runs = TARGETS
        .iter()
        .map(|&target| {
            let first = normalize(target, &schema.input);
            let again = first.as_ref().ok().map(|(out, _)| normalize(target, out));
            Run {
                target,
                first,
                again,
            }
        })
        .collect();
    Entry { schema, runs }
}

/// The whole corpus, normalized once for every target and shared by the tests of this binary; `None` when the
/// test data is absent (after `require` printed its line, or panicked under `LLMSHIM_REQUIRE_TESTDATA`).
pub(crate) fn corpus(what: &str) -> Option<&'static Corpus> {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    testdata::require(what)?;
    Some(CORPUS.get_or_init(|| {
        let schemas = schemas();
        let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        // Interleaved shards balance the large schemas between the workers; the order is restored afterwards.
        let mut shards: Vec<Vec<(usize, Schema)>> = (0..workers).map(|_| Vec::new()).collect();
        for (at, schema) in schemas.into_iter().enumerate() {
            shards[at % workers].push((at, schema));
        }
        let mut done: Vec<(usize, Entry)> = std::thread::scope(|scope| {
            let handles: Vec<_> = shards
                .into_iter()
                .map(|shard| {
                    scope.spawn(move || {
                        shard
                            .into_iter()
                            .map(|(at, schema)| (at, run_entry(schema)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a corpus worker does not panic"))
                .collect()
        });
        done.sort_by_key(|(at, _)| *at);
        Corpus {
            entries: done.into_iter().map(|(_, entry)| entry).collect(),
        }
    }))
}

/// Every schema position of `value` with its pointer: map-child values, single children and array-child
/// entries.
pub(crate) fn schema_nodes<'a>(
    value: &'a Value,
    pointer: &str,
    out: &mut Vec<(String, &'a Value)>,
) {
    out.push((pointer.to_owned(), value));
    let Some(map) = value.as_object() else {
        return;
    };
    for key in ["properties", "patternProperties", "dependentSchemas"] {
        if let Some(Value::Object(members)) = map.get(key) {
            for (name, child) in members {
                schema_nodes(child, &format!("{pointer}/{key}/{}", escape(name)), out);
            }
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
        if let Some(child) = map.get(key) {
            schema_nodes(child, &format!("{pointer}/{key}"), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(entries)) = map.get(key) {
            for (at, child) in entries.iter().enumerate() {
                schema_nodes(child, &format!("{pointer}/{key}/{at}"), out);
            }
        }
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The names of the cases that ran, the fallbacks observed, and the counts per target.
struct Tally {
    ran: Vec<String>,
    observed: Vec<Observed>,
    schemas: [usize; COLUMNS],
    fallbacks: [usize; COLUMNS],
    narrowed: [usize; COLUMNS],
    changed: [usize; COLUMNS],
}

fn tally(corpus: &Corpus) -> Tally {
    let mut t = Tally {
        ran: Vec::new(),
        observed: Vec::new(),
        schemas: [0; COLUMNS],
        fallbacks: [0; COLUMNS],
        narrowed: [0; COLUMNS],
        changed: [0; COLUMNS],
    };
    for entry in &corpus.entries {
        for (column, run) in entry.runs.iter().enumerate() {
            let case = format!("{} @ {}", entry.schema.id, run.target.name());
            t.schemas[column] += 1;
            match &run.first {
                // A panic is never an accepted outcome; it shows up here as an unlisted kind as well as in
                // `corpus_never_panics`.
                Err(message) => {
                    t.observed
                        .push(Observed::new(case.clone(), "panic", "", message.clone()));
                }
                Ok((_, report)) => {
                    if report.changed {
                        t.changed[column] += 1;
                    }
                    if report.narrowed && !report.used_fallback {
                        t.narrowed[column] += 1;
                    }
                    if let Some(reason) = report
                        .fallback_reason
                        .as_ref()
                        .filter(|_| report.used_fallback)
                    {
                        t.fallbacks[column] += 1;
                        t.observed.push(Observed::new(
                            case.clone(),
                            reason.kind.as_str(),
                            reason.pointer.clone(),
                            reason.message.clone(),
                        ));
                    }
                }
            }
            t.ran.push(case);
        }
    }
    t
}

/// How many schemas each source of the corpus holds in the shared test data (`SOURCES.md`): the MCP tool schemas
/// (`inputSchema` and `outputSchema` of tools and variants), the generated schemas and the SchemaStore schemas.
/// The README publishes these counts; the corpus tests fail when they run on fewer.
pub(crate) const SOURCE_COUNTS: [(&str, usize); 3] =
    [("mcp-tools", 867), ("generated", 120), ("schemastore", 80)];

/// Checks that the corpus holds exactly [`SOURCE_COUNTS`] schemas per source, naming the source that differs.
pub(crate) fn assert_complete(corpus: &Corpus) {
    let mut problems = Vec::new();
    for (source, expected) in SOURCE_COUNTS {
        let prefix = format!("{source}/");
        let found = corpus
            .entries
            .iter()
            .filter(|e| e.schema.id.starts_with(&prefix))
            .count();
        if found != expected {
            problems.push(format!("{source}: {found} schemas, expected {expected}"));
        }
    }
    let total: usize = SOURCE_COUNTS.iter().map(|(_, n)| n).sum();
    assert!(
        problems.is_empty() && corpus.entries.len() == total,
        "the corpus is not the published one ({} schemas, expected {total}): {}; the test data folder {} is \
         partial or another snapshot, and the counts in the README and in SOURCE_COUNTS are for the snapshot that \
         benches/testdata.manifest lists",
        corpus.entries.len(),
        problems.join("; "),
        testdata::root_path().display()
    );
}

/// Per target, the schemas that fall back and those that are narrowed instead (kept, with some part the target
/// cannot express removed or given a type); the README publishes these counts.
const PUBLISHED: [(&str, usize, usize); COLUMNS] = [
    ("chat", 28, 4),
    ("responses", 35, 3),
    ("anthropic", 28, 4),
    ("google", 35, 53),
    ("google-json", 27, 7),
    ("cca", 30, 124),
    ("mcp", 15, 5),
];

#[test]
fn corpus_fallbacks_are_exactly_the_expected_ones() {
    let Some(corpus) = corpus("corpus_fallbacks_are_exactly_the_expected_ones") else {
        return;
    };
    assert_complete(corpus);
    let t = tally(corpus);
    let mut note = String::new();
    let _ = writeln!(
        note,
        "corpus: {} schemas x {COLUMNS} targets",
        corpus.entries.len()
    );
    for (column, target) in TARGETS.iter().enumerate() {
        let _ = writeln!(
            note,
            "corpus {:<11} schemas {:>5}  fallbacks {:>4}  narrowed {:>4}  changed {:>5}",
            target.name(),
            t.schemas[column],
            t.fallbacks[column],
            t.narrowed[column],
            t.changed[column]
        );
    }
    eprint!("{note}");
    let counted: Vec<(&str, usize, usize)> = TARGETS
        .iter()
        .enumerate()
        .map(|(column, target)| (target.name(), t.fallbacks[column], t.narrowed[column]))
        .collect();
    assert_eq!(
        counted, PUBLISHED,
        "the fallbacks and narrowed schemas per target differ from those the README publishes"
    );

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED_FALLBACKS);
    let expected = Expected::load(&path).unwrap_or_else(|err| panic!("{err}"));
    if let Err(report) =
        expected.check_or_bless(&path, Mode::from_env(), "corpus", &t.ran, &t.observed)
    {
        panic!(
            "{report}\n(the list is {EXPECTED_FALLBACKS}; its `about` says how to write an entry)"
        );
    }
}

#[test]
fn corpus_never_panics() {
    let Some(corpus) = corpus("corpus_never_panics") else {
        return;
    };
    let mut panics = Vec::new();
    for entry in &corpus.entries {
        for run in &entry.runs {
            let first = run.first.as_ref().err();
            let again = run.again.as_ref().and_then(|a| a.as_ref().err());
            for (pass, message) in [("first", first), ("again", again)] {
                if let Some(message) = message {
                    panics.push(format!(
                        "{} @ {} ({pass} pass): {message}",
                        entry.schema.id,
                        run.target.name()
                    ));
                }
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn corpus_outputs_pass_their_target_check() {
    let Some(corpus) = corpus("corpus_outputs_pass_their_target_check") else {
        return;
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for entry in &corpus.entries {
        for run in &entry.runs {
            let Ok((out, report)) = &run.first else {
                continue;
            };
            if report.used_fallback {
                if !is_fallback_value(out) {
                    problems.push(format!(
                        "{} @ {}: used_fallback but the output is {}",
                        entry.schema.id,
                        run.target.name(),
                        bytes(out)
                    ));
                }
                continue;
            }
            checked += 1;
            let violations = check_with(&Options::for_target(run.target), out);
            if !violations.is_empty() {
                problems.push(format!(
                    "{} @ {}: {violations:?}",
                    entry.schema.id,
                    run.target.name()
                ));
            }
        }
    }
    assert!(checked > 0, "nothing was checked");
    assert!(
        problems.is_empty(),
        "{} outputs fail their target's check:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn corpus_reports_agree_with_the_outputs() {
    let Some(corpus) = corpus("corpus_reports_agree_with_the_outputs") else {
        return;
    };
    let mut problems = Vec::new();
    for entry in &corpus.entries {
        for run in &entry.runs {
            let Ok((out, report)) = &run.first else {
                continue;
            };
            let case = format!("{} @ {}", entry.schema.id, run.target.name());
            // `changed` is value inequality; without strict a reason exists exactly for a fallback.
            if report.changed != (*out != entry.schema.input) {
                problems.push(format!(
                    "{case}: changed is {} but the value {}",
                    report.changed,
                    if report.changed {
                        "is equal"
                    } else {
                        "differs"
                    }
                ));
            }
            if report.used_fallback != report.fallback_reason.is_some()
                || report.strict
                || report.bypassed
                || !report.changes.is_empty()
            {
                problems.push(format!(
                    "{case}: inconsistent report {}",
                    report.to_json(true)
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} reports disagree with their outputs:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Outputs that are known not to be fixed points, each with its reason; a listed case that becomes a fixed point fails
/// the test (the list only shrinks).
/// Empty: the last entry, `schemastore/intlayer.json @ google-json` (a kept cycle whose optional property the target
/// lifts, which a second pass unrolled), became a fixed point once the walk checks its kept cycles on its output.
const NOT_FIXED_POINTS: [(&str, &str); 0] = [];

#[test]
fn corpus_normalization_is_idempotent() {
    let Some(corpus) = corpus("corpus_normalization_is_idempotent") else {
        return;
    };
    let mut problems = Vec::new();
    let mut listed_seen = 0;
    for entry in &corpus.entries {
        for run in &entry.runs {
            let (Ok((out, first)), Some(Ok((again, second)))) = (&run.first, &run.again) else {
                continue;
            };
            let case = format!("{} @ {}", entry.schema.id, run.target.name());
            let google_family = matches!(run.target, Target::Google | Target::CloudCodeAssist);
            if first.used_fallback && google_family {
                // The one tolerated exception, matched exactly: the fallback is not itself rewritten, so a second
                // pass removes its empty `properties` on Google and Cloud Code Assist and says so, and nothing else.
                if bytes(out) != r#"{"type":"object","properties":{}}"#
                    || bytes(again) != r#"{"type":"object"}"#
                    || !second.changed
                    || second.used_fallback
                {
                    problems.push(format!(
                        "{case}: the fallback {} normalized again gives {} ({})",
                        bytes(out),
                        bytes(again),
                        second.to_json(false)
                    ));
                }
                continue;
            }
            let fixed = !second.changed && !second.used_fallback && bytes(again) == bytes(out);
            if NOT_FIXED_POINTS.iter().any(|(listed, _)| *listed == case) {
                listed_seen += 1;
                if fixed {
                    problems.push(format!(
                        "{case}: listed in NOT_FIXED_POINTS but is a fixed point now; remove it from the list"
                    ));
                }
                continue;
            }
            if !fixed {
                problems.push(format!(
                    "{case}: normalizing the output again gives report {} and {}",
                    second.to_json(false),
                    if bytes(again) == bytes(out) {
                        "identical bytes".to_owned()
                    } else {
                        format!("different bytes:\n    {}\n    {}", bytes(out), bytes(again))
                    }
                ));
            }
        }
    }
    assert_eq!(
        listed_seen,
        NOT_FIXED_POINTS.len(),
        "every case of NOT_FIXED_POINTS runs"
    );
    assert!(
        problems.is_empty(),
        "{} outputs are not fixed points:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn corpus_outputs_keep_references_only_in_the_kept_form() {
    let Some(corpus) = corpus("corpus_outputs_keep_references_only_in_the_kept_form") else {
        return;
    };
    let mut problems = Vec::new();
    let mut with_references = [0_usize; COLUMNS];
    for entry in &corpus.entries {
        for (column, run) in entry.runs.iter().enumerate() {
            let Ok((out, _)) = &run.first else {
                continue;
            };
            // Chat, Responses, Anthropic and Mcp keep recursive references, google-json those whose cycle crosses an
            // optional property; Google and Code Assist unroll them.
            let kept = Options::for_target(run.target)
                .recursion_for(false)
                .keeps_refs();
            if out.get("$defs").is_some() {
                with_references[column] += 1;
            }
            for problem in refs::reference_problems(out, kept) {
                problems.push(format!(
                    "{} @ {}: {problem}",
                    entry.schema.id,
                    run.target.name()
                ));
            }
        }
    }
    for (column, target) in TARGETS.iter().enumerate() {
        eprintln!(
            "suite: corpus {} outputs with kept recursive references: {}",
            target.name(),
            with_references[column]
        );
    }
    assert!(
        with_references[0] > 0,
        "no output kept a recursive reference"
    );
    // google-json keeps the cycles that cross an optional property, so its outputs hold references too, and the
    // check above (every `$ref` a lone `#` or a member of the root `$defs`) is not vacuous for it.
    let google_json = TARGETS
        .iter()
        .position(|t| *t == Target::GoogleJsonSchema)
        .expect("google-json is a built-in target");
    assert!(
        with_references[google_json] > 0,
        "no google-json output kept a recursive reference"
    );
    assert!(
        problems.is_empty(),
        "{} references or definitions out of place:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Compares the order of the surviving property names of `input` and `output` at the same position, then
/// descends into every property both keep, and into `items`.
fn order_problems(input: &Value, output: &Value, pointer: &str, problems: &mut Vec<String>) {
    let (Some(input), Some(output)) = (input.as_object(), output.as_object()) else {
        return;
    };
    if let (Some(Value::Object(before)), Some(Value::Object(after))) =
        (input.get("properties"), output.get("properties"))
    {
        let kept: Vec<&String> = before.keys().filter(|k| after.contains_key(*k)).collect();
        let found: Vec<&String> = after.keys().filter(|k| before.contains_key(*k)).collect();
        if kept != found {
            problems.push(format!(
                "{pointer}/properties: input order {kept:?}, output order {found:?}"
            ));
        }
        for name in kept {
            order_problems(
                &before[name],
                &after[name],
                &format!("{pointer}/properties/{}", escape(name)),
                problems,
            );
        }
    }
    if let (Some(before), Some(after)) = (input.get("items"), output.get("items")) {
        order_problems(before, after, &format!("{pointer}/items"), problems);
    }
}

#[test]
fn corpus_keeps_the_input_property_order() {
    let Some(corpus) = corpus("corpus_keeps_the_input_property_order") else {
        return;
    };
    let mut problems = Vec::new();
    let mut compared = 0;
    for entry in &corpus.entries {
        for run in &entry.runs {
            let Ok((out, report)) = &run.first else {
                continue;
            };
            if report.used_fallback {
                continue;
            }
            compared += 1;
            let mut found = Vec::new();
            order_problems(&entry.schema.input, out, "", &mut found);
            problems.extend(
                found
                    .into_iter()
                    .map(|p| format!("{} @ {}: {p}", entry.schema.id, run.target.name())),
            );
        }
    }
    assert!(compared > 0, "nothing was compared");
    assert!(
        problems.is_empty(),
        "{} property maps lost the input order:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_order_check_sees_a_swap_and_the_reference_scan_sees_nested_refs() {
    // The helpers themselves must be able to fail, or the corpus tests above could not.
    let input =
        serde_json::json!({"properties": {"a": {"properties": {"x": {}, "y": {}}}, "b": {}}});
    let swapped =
        serde_json::json!({"properties": {"a": {"properties": {"y": {}, "x": {}}}, "b": {}}});
    let mut problems = Vec::new();
    order_problems(&input, &swapped, "", &mut problems);
    assert_eq!(
        problems,
        [r#"/properties/a/properties: input order ["x", "y"], output order ["y", "x"]"#]
    );
    let mut nodes = Vec::new();
    let value = serde_json::json!({"properties": {"$ref": {"anyOf": [{"$ref": "#/x"}]}}, "default": {"$ref": 1}});
    schema_nodes(&value, "", &mut nodes);
    let with_ref: Vec<&str> = nodes
        .iter()
        .filter(|(_, node)| node.get("$ref").is_some())
        .map(|(pointer, _)| pointer.as_str())
        .collect();
    assert_eq!(with_ref, ["/properties/$ref/anyOf/0"]);
}

/// Set in the child process of [`a_partial_test_data_folder_fails_the_corpus_tests_naming_what_is_missing`].
const PARTIAL_PROBE: &str = "LLMSHIM_PARTIAL_PROBE";

#[test]
fn a_partial_test_data_folder_fails_the_corpus_tests_naming_what_is_missing() {
    // A copy of the shared test data without the last 20 MCP tool files and one SchemaStore file (links to the real
    // files, in a temporary folder); this test binary runs one corpus test on it in a child process, as CI would run
    // the whole suite, and that test must fail with a message naming the missing files.
    if std::env::var_os(PARTIAL_PROBE).is_some() {
        return;
    }
    let Some(root) = testdata::require("a partial test data folder") else {
        return;
    };
    let manifest = testdata::manifest();
    let mcp: Vec<&String> = manifest
        .iter()
        .filter(|p| p.starts_with("mcp-tools/"))
        .collect();
    let mut left_out: Vec<&String> = mcp[mcp.len().saturating_sub(20)..].to_vec();
    left_out.extend(manifest.iter().find(|p| p.starts_with("schemastore/")));
    assert_eq!(
        left_out.len(),
        21,
        "the manifest lists MCP and SchemaStore files"
    );
    let dir = std::env::temp_dir().join(format!("llmshim-partial-testdata-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for path in &manifest {
        if left_out.contains(&path) {
            continue;
        }
        let link = dir.join(path);
        std::fs::create_dir_all(link.parent().expect("a file has a folder"))
            .expect("temporary folder");
        std::os::unix::fs::symlink(root.join(path), &link).expect("a link in the temporary folder");
    }
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "corpus::corpus_normalization_is_idempotent",
            "--exact",
            "--test-threads=1",
        ])
        .env(testdata::ENV_TESTDATA, &dir)
        .env(testdata::ENV_REQUIRE, "1")
        .env(PARTIAL_PROBE, "1")
        .output()
        .expect("the test binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.status.success(),
        "the corpus test passed on a partial folder:\n{text}"
    );
    assert!(
        text.contains("TEST DATA INCOMPLETE")
            && text.contains(&format!("lacks 21 of {} files", manifest.len()))
            && text.contains("mcp-tools: 20 missing: ")
            && text.contains(left_out[0].as_str())
            && text.contains(&format!("schemastore: 1 missing: {}", left_out[20])),
        "the failure does not name what is missing:\n{text}"
    );
}
