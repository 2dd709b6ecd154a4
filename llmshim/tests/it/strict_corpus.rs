//! Strict mode over the shared corpus: strict on every target, or demoted or fallen back only where a list says why.
//!
//! Each schema is normalized with strict requested, under the current keyword profile (the default), through a
//! normalizer with fixed environment flags and no memo. A strict result must pass the strict acceptance check
//! against that profile's strict keep-list, the core structural check with strict on, and the 2020-12 meta-schema.
//! The current profile keeps more than the conservative one (OpenAI's bounds, lengths, patterns and formats), so the
//! test also counts the strict results the conservative keep-list would refuse, and requires some: the check reads
//! the list in effect. A result that is not strict must carry a reason: a demotion keeps a non-strict schema that
//! passes the target's structural check, a fallback is the fallback schema. Demotions and
//! fallbacks happen only where `tests/corpus/expected-strict.json` ([`EXPECTED`]) names the schema and the target,
//! with the outcome's kind, pointer and message; a new one, a changed one, or a listed one that became strict fails
//! the test, so the list can only shrink. The corpus must hold the published [`SCHEMAS`] schemas.

use std::collections::BTreeMap;
use std::path::Path;

use llmshim::schema::{
    Env, EnvFlags, FallbackReason, Keywords, Normalizer, Options, Target, check_with,
};
use llmshim_benches::fallbacks::{Expected, Observed};
use llmshim_benches::golden::Mode;
use llmshim_benches::testdata;
use serde_json::{Value, json};

/// The targets with a strict profile that the corpus is normalized for.
const TARGETS: [Target; 3] = [
    Target::OpenAiChat,
    Target::OpenAiResponses,
    Target::Anthropic,
];

/// The expected list of results that are not strict, relative to the crate.
const EXPECTED: &str = "tests/corpus/expected-strict.json";

/// How many schemas the strict corpus holds: every MCP tool `inputSchema` (725) and every generated schema (120).
/// The README publishes this count; the test fails when it runs on fewer.
const SCHEMAS: usize = 845;

/// A strict result.
struct Strict {
    /// The conservative strict keep-list would refuse it: it holds a keyword only the current profile keeps.
    beyond_conservative: bool,
    /// Kept strict with some part removed or given a type (the report says narrowed).
    narrowed: bool,
}

/// Per target: strict outputs, how many of them are narrowed, demotions and fallbacks; the README publishes these
/// counts.
const PUBLISHED: [(&str, usize, usize, usize, usize); 3] = [
    ("chat", 843, 15, 0, 2),
    ("responses", 843, 15, 0, 2),
    ("anthropic", 841, 25, 2, 2),
];

/// A result that is not strict.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// A non-strict schema with the strict failure as its reason.
    Demoted(FallbackReason),
    /// The fallback schema, also after the non-strict pass failed.
    Fallback(FallbackReason),
}

impl Outcome {
    /// The outcome as the expected list names it: `demoted <kind>` or `fallback <kind>`, the pointer and the message.
    fn observed(&self, case: String) -> Observed {
        let (what, reason) = match self {
            Outcome::Demoted(reason) => ("demoted", reason),
            Outcome::Fallback(reason) => ("fallback", reason),
        };
        Observed::new(
            case,
            format!("{what} {}", reason.kind.as_str()),
            reason.pointer.clone(),
            reason.message.clone(),
        )
    }
}

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

/// Normalizes one schema strictly for `target`; `Ok(Ok(_))` is a strict result, `Ok(Err(_))` is what happened
/// instead, and `Err` says which invariant the result breaks.
fn run(
    normalizer: &Normalizer,
    target: Target,
    schema: &Value,
) -> Result<Result<Strict, Outcome>, String> {
    let options = Options::for_target(target)
        .with_keywords(Keywords::Current)
        .with_strict(true);
    let mut out = schema.clone();
    let report = normalizer.normalize_with(&options, &mut out);
    if report.strict {
        // Anthropic strict takes no references: its recursion is unrolled (the OpenAI targets keep it).
        if target == Target::Anthropic
            && !llmshim_benches::refs::reference_problems(&out, false).is_empty()
        {
            return Err(format!(
                "an Anthropic strict output keeps a reference: {out}"
            ));
        }
        let strict = crate::support::strict_problems(&options, &out);
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
        let narrow = options.clone().with_keywords(Keywords::Conservative);
        return Ok(Ok(Strict {
            beyond_conservative: !crate::support::strict_problems(&narrow, &out).is_empty(),
            narrowed: report.narrowed,
        }));
    }
    let Some(reason) = &report.fallback_reason else {
        return Err(format!("not strict and no reason: {report:?}"));
    };
    if report.used_fallback {
        if out != json!({"type": "object", "properties": {}}) {
            return Err(format!("a fallback that is not the fallback schema: {out}"));
        }
        return Ok(Err(Outcome::Fallback(reason.clone())));
    }
    let relaxed = check_with(&options.with_strict(false), &out);
    if !relaxed.is_empty() {
        return Err(format!(
            "the demoted output fails the non-strict check: {relaxed:?}"
        ));
    }
    Ok(Err(Outcome::Demoted(reason.clone())))
}

#[test]
fn strict_corpus_is_strict_or_demoted_only_where_listed() {
    let Some(root) = testdata::require("strict_corpus") else {
        return;
    };
    let corpus = corpus(&root);
    assert_eq!(
        corpus.len(),
        SCHEMAS,
        "the strict corpus holds {} schemas, expected {SCHEMAS} (every MCP tool inputSchema and generated schema of \
         the snapshot benches/testdata.manifest lists); the test data at {} is partial or another snapshot",
        corpus.len(),
        root.display()
    );

    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let mut problems = Vec::new();
    let mut counts: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut beyond: BTreeMap<String, usize> = BTreeMap::new();
    let mut ran = Vec::new();
    let mut observed = Vec::new();
    for (id, schema) in &corpus {
        for target in TARGETS {
            let name = format!("{id} @ {}", target.name());
            let count = counts.entry(target.name().to_owned()).or_default();
            match run(&normalizer, target, schema) {
                Ok(Ok(strict)) => {
                    count[0] += 1;
                    count[3] += usize::from(strict.narrowed);
                    *beyond.entry(target.name().to_owned()).or_default() +=
                        usize::from(strict.beyond_conservative);
                }
                Ok(Err(outcome)) => {
                    count[usize::from(matches!(outcome, Outcome::Fallback(_))) + 1] += 1;
                    observed.push(outcome.observed(name.clone()));
                }
                Err(err) => problems.push(format!("{name}: {err}")),
            }
            ran.push(name);
        }
    }
    let mut counted = Vec::new();
    for target in TARGETS {
        let [ok, demoted, fallback, narrowed] =
            counts.get(target.name()).copied().unwrap_or_default();
        let wider = beyond.get(target.name()).copied().unwrap_or_default();
        eprintln!(
            "suite: strict corpus on {}: {ok} strict ({narrowed} of them narrowed), {demoted} demoted, {fallback} \
             fallback; {wider} strict outputs hold a keyword only the current keyword profile keeps",
            target.name()
        );
        counted.push((target.name(), ok, narrowed, demoted, fallback));
        // The README publishes these counts.
        let published = match target {
            Target::Anthropic => 132,
            _ => 260,
        };
        if wider != published {
            problems.push(format!(
                "{}: {wider} strict outputs hold a keyword beyond the conservative keep-list, the README says \
                 {published}",
                target.name()
            ));
        }
    }
    if counted != PUBLISHED {
        problems.push(format!(
            "the strict, narrowed, demoted and fallback counts differ from those the README publishes: \
             {counted:?}, published {PUBLISHED:?}"
        ));
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    let expected = Expected::load(&path).unwrap_or_else(|err| panic!("{err}"));
    if let Err(report) =
        expected.check_or_bless(&path, Mode::from_env(), "strict corpus", &ran, &observed)
    {
        problems.push(format!("{report}\n(the list is {EXPECTED})"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
