//! An independent oracle: every corpus output validates against the JSON Schema 2020-12 meta-schema.
//!
//! Our own structural check is written against the contract; this test asks the `jsonschema`
//! crate instead. ANT-4 and CCA-4 require every output for Anthropic, Cloud Code Assist and MCP to
//! be a valid 2020-12 schema (Anthropic and a Claude model behind Cloud Code Assist validate `input_schema`
//! against the 2020-12 meta-schema; MCP-2 names 2020-12 the dialect); the Chat and Responses outputs are held
//! to the same bar, and so are the outputs for Gemini's JSON Schema fields, which take JSON Schema. The outputs
//! are those of the shared corpus run of `corpus.rs` (the fallback included), so the same SchemaStore size limit
//! applies.
//!
//! The meta-schema is always 2020-12 (`jsonschema::draft202012::meta`), whatever `$schema` says: the walker
//! removes `$schema` or sets it to 2020-12, and the providers judge by 2020-12 anyway.

use std::fmt::Write as _;

use llmshim::schema::Target;
use serde_json::{Value, json};

use crate::corpus::{self, TARGETS};

/// The targets whose outputs the oracle judges.
const JUDGED: [Target; 6] = [
    Target::Anthropic,
    Target::CloudCodeAssist,
    Target::GoogleJsonSchema,
    Target::Mcp,
    Target::OpenAiChat,
    Target::OpenAiResponses,
];

/// The first meta-schema violation of `schema`, as `<instance path>: <message>`, or `None` when it is valid.
fn meta_violation(schema: &Value) -> Option<String> {
    jsonschema::draft202012::meta::validate(schema)
        .err()
        .map(|error| format!("{}: {error}", error.instance_path()))
}

#[test]
fn the_oracle_rejects_what_2020_12_forbids() {
    // The oracle must be able to fail, and it must judge by 2020-12 whatever `$schema` says.
    assert_eq!(
        meta_violation(&json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        None
    );
    for bad in [
        json!({"type": "object", "properties": {"a": {"type": "text"}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}}),
        json!({"type": "object", "required": "a"}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}]}),
        json!({"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": true}}}),
    ] {
        assert!(meta_violation(&bad).is_some(), "2020-12 forbids {bad}");
    }
}

#[test]
fn every_output_is_a_valid_2020_12_schema() {
    let Some(corpus) = corpus::corpus("every_output_is_a_valid_2020_12_schema") else {
        return;
    };
    let mut judged = [0_usize; corpus::COLUMNS];
    let mut problems = Vec::new();
    for entry in &corpus.entries {
        for run in &entry.runs {
            if !JUDGED.contains(&run.target) {
                continue;
            }
            // A panic is reported by `corpus::corpus_never_panics`.
            let Ok((out, _)) = &run.first else {
                continue;
            };
            let column = TARGETS
                .iter()
                .position(|t| *t == run.target)
                .expect("a built-in target");
            judged[column] += 1;
            if let Some(violation) = meta_violation(out) {
                problems.push(format!(
                    "{} @ {}: {violation}",
                    entry.schema.id,
                    run.target.name()
                ));
            }
        }
    }
    let mut note = String::new();
    for (column, target) in TARGETS.iter().enumerate() {
        if JUDGED.contains(target) {
            let _ = writeln!(
                note,
                "oracle {:<9} outputs judged {:>5} against the 2020-12 meta-schema",
                target.name(),
                judged[column]
            );
        }
    }
    eprint!("{note}");
    assert!(
        judged.iter().sum::<usize>() > 0,
        "the oracle judged nothing"
    );
    assert!(
        problems.is_empty(),
        "{} outputs are not valid 2020-12 schemas:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A validator of the oracle with format assertion off (the drafts disagree on it), auto-detecting the draft.
fn oracle(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The verdicts that differ between the reference and our output by a rule that is not about references:
/// (schema, instance file name, reason).
const DIFFERING_VERDICTS: &[(&str, &str, &str)] = &[(
    "netlify.json",
    "config.yml.json",
    "type inference (`walk.infer-type`): `widget` has `properties` and no `type`, so normalization types it \
     `object`; the instance's string widgets pass the original, which constrains only objects there",
)];

/// Kept references keep meaning: on every SchemaStore schema with JSON instances (YAML instances need a parser
/// this crate does not have), the oracle gives each instance the same verdict against our Mcp output as against
/// the Mcp output of the first plan (recursion `fallback`) wherever both exist and differ, and as against the
/// original where the first plan fell back; [`DIFFERING_VERDICTS`] lists, with reasons, the verdicts another rule
/// changes.
#[test]
fn kept_references_keep_every_schemastore_verdict() {
    use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Recursion};
    use llmshim_benches::testdata;

    if testdata::require("kept_references_keep_every_schemastore_verdict").is_none() {
        return;
    }
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let normalize = |schema: &Value, recursion: Option<Recursion>| {
        let mut out = schema.clone();
        let mut options = Options::for_target(Target::Mcp);
        if let Some(mode) = recursion {
            options = options.with_recursion(mode);
        }
        let report = normalizer.normalize_with(&options, &mut out);
        (out, report)
    };
    let (mut schemas, mut against_first, mut against_original, mut instances) = (0, 0, 0, 0);
    let mut unbuildable = Vec::new();
    let mut problems = Vec::new();
    for entry in testdata::schemastore_entries() {
        let files: Vec<_> = entry
            .valid
            .iter()
            .chain(&entry.invalid)
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        if files.is_empty() {
            continue;
        }
        let original = testdata::read_json(&entry.schema).expect("SchemaStore schemas parse");
        let (ours, report) = normalize(&original, None);
        if report.used_fallback {
            continue;
        }
        let (first, first_report) = normalize(&original, Some(Recursion::Fallback));
        let reference = if first_report.used_fallback {
            against_original += 1;
            original
        } else if first == ours {
            continue;
        } else {
            against_first += 1;
            first
        };
        schemas += 1;
        let (Ok(ours_v), Ok(reference_v)) = (oracle(&ours), oracle(&reference)) else {
            unbuildable.push(entry.name.clone());
            continue;
        };
        for file in files {
            let Ok(instance) = testdata::read_json(file) else {
                continue;
            };
            instances += 1;
            let (a, b) = (ours_v.is_valid(&instance), reference_v.is_valid(&instance));
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let listed = DIFFERING_VERDICTS
                .iter()
                .any(|(s, i, _)| *s == entry.name && *i == name);
            if (a != b) != listed {
                problems.push(format!(
                    "{} / {name}: ours says {a}, the reference says {b}{}",
                    entry.name,
                    if listed { " (listed as differing)" } else { "" }
                ));
            }
        }
    }
    eprintln!(
        "suite: schemastore verdicts with kept references: {schemas} schemas ({against_first} against the first \
         plan's output, {against_original} against the original), {instances} instances, {} unbuildable",
        unbuildable.len()
    );
    assert!(against_original > 0, "no recursive schema was compared");
    assert!(
        problems.is_empty(),
        "{} verdicts differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
