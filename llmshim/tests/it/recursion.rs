//! Recursion modes beyond the golden cases: a custom rule set that keeps only optional cycles, output schemas whose
//! kept definitions move to the wrapper, strict nulls restored through kept references, and the resolver-only API
//! on the SchemaStore schemas that cycle.

use llmshim::schema::validate::restore_optional_omissions;
use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalizer, Options, Recursion, Target};
use llmshim_benches::{refs, testdata};
use llmshim_core::TargetRules;
use llmshim_core::rules::RuleSet;
use llmshim_resolve::{Cycles, ErrorKind, Resources, dereference};
use serde_json::{Value, json};

fn normalizer() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

fn normalize(options: &Options, input: &Value) -> (Value, llmshim::schema::Normalization) {
    let mut out = input.clone();
    let report = normalizer().normalize_with(options, &mut out);
    (out, report)
}

/// A custom target that keeps a cycle only through an optional property and unrolls the others, as Gemini's JSON
/// Schema dialect asks.
#[derive(Debug)]
struct OptionalOnly;

static OPTIONAL_ONLY_RULES: RuleSet = RuleSet::new().with_recursion(
    Recursion::KeepRefs {
        optional_only: true,
    },
    Recursion::KeepRefs {
        optional_only: true,
    },
);

impl TargetRules for OptionalOnly {
    fn id(&self) -> &'static str {
        "optional-only"
    }

    fn rules(&self) -> &RuleSet {
        &OPTIONAL_ONLY_RULES
    }
}

static OPTIONAL_ONLY: OptionalOnly = OptionalOnly;

#[test]
fn a_custom_rule_set_keeps_optional_cycles_and_unrolls_required_ones() {
    let target = Target::custom(&OPTIONAL_ONLY);
    // Tree recurses through the optional `kids`; Link through `links`, which every link requires (an empty array
    // ends it, but no optional property does), and its `note` may be null.
    let input = json!({"type": "object", "properties": {
        "tree": {"$ref": "#/$defs/Tree"},
        "chain": {"$ref": "#/$defs/Link"}
    }, "required": ["tree"], "$defs": {
        "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}},
        "Link": {"type": "object", "properties": {"links": {"type": "array", "items": {"$ref": "#/$defs/Link"}}},
                 "required": ["links"]}
    }});
    for strict in [false, true] {
        let options = Options::for_target(target).with_strict(strict);
        let (out, report) = normalize(&options, &input);
        assert!(!report.used_fallback, "strict {strict}: {report:?}");
        assert_eq!(report.strict, strict);
        // Tree is kept; Link is unrolled to depth 3, and the cut below it climbs through the required `links` of
        // every level to the optional `chain` of the root, which is removed.
        let mut expected = json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Tree"}},
            "required": ["tree"], "description": "(recursive chain: omitted below depth 3)"});
        if strict {
            expected["additionalProperties"] = json!(false);
        }
        expected["$defs"] = json!({"Tree": out["$defs"]["Tree"].clone()});
        assert_eq!(out, expected, "strict {strict}");
        let tree = &out["$defs"]["Tree"];
        assert!(
            tree["properties"]["kids"]
                .to_string()
                .contains("#/$defs/Tree"),
            "{tree}"
        );
        assert!(refs::reference_problems(&out, true).is_empty(), "{out}");
        let (again, again_report) = normalize(&options, &out);
        assert!(
            !again_report.changed && again == out,
            "strict {strict}: {again}"
        );
    }
}

#[test]
fn a_kept_cycle_whose_output_no_longer_crosses_an_optional_property_is_unrolled() {
    // `Value` recurses through `items` (no property) and through the optional `extra` of its `if`, so on the input
    // its cycle is one that google-json keeps; but the target lifts `if`, and in the output the cycle would cross no
    // optional property, so that a second pass would unroll it. The walk checks its kept cycles on its output and
    // unrolls this one at once: the output is a fixed point.
    let input = json!({"type": "object", "properties": {"value": {"$ref": "#/$defs/Value"}}, "required": ["value"],
    "$defs": {"Value": {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Value"}}],
        "if": {"properties": {"extra": {"$ref": "#/$defs/Value"}}}
    }}});
    let options = Options::for_target(Target::GoogleJsonSchema).with_diagnostics(true);
    let (out, report) = normalize(&options, &input);
    assert!(!report.used_fallback && report.narrowed, "{report:?}");
    assert!(out.get("$defs").is_none(), "{out}");
    assert!(
        report
            .changes
            .iter()
            .any(|c| c.rule == "resolve.unroll-recursion"),
        "{report:?}"
    );
    let deepest = &out["properties"]["value"]["anyOf"][1]["items"]["anyOf"][1]["items"];
    assert_eq!(deepest["anyOf"], json!([{"type": "string"}]), "{out}");
    assert!(
        deepest["description"]
            .as_str()
            .is_some_and(|d| d.ends_with("(recursive anyOf: omitted below depth 3)")),
        "{out}"
    );
    let (again, again_report) = normalize(&options, &out);
    assert!(!again_report.changed && again == out, "{again}");

    // The minimal case the property test found: the cycle's optional property `name` holds an unresolved
    // reference, which the walk omits, so the output's cycle runs through `items` only.
    let input = json!({"allOf": [{"$ref": "#/$defs/Node"}], "$defs": {
        "Node": {"type": "object", "properties": {}, "required": [], "$ref": "#/$defs/Tag"},
        "Tag": {"type": "array", "items": {"properties": {"name": {"properties": {"name": {"$ref": "#/$defs/Tag"}},
            "required": [], "$ref": "#/$defs/Item"}}, "required": [], "$ref": "#/$defs/Node"}}
    }});
    let (out, report) = normalize(&options, &input);
    assert!(
        !report.used_fallback && out.get("$defs").is_none(),
        "{out}: {report:?}"
    );
    let (again, again_report) = normalize(&options, &out);
    assert!(!again_report.changed && again == out, "{out}\n{again}");
}

#[test]
fn a_wrapped_output_schema_moves_its_definitions_and_root_references() {
    // A recursive array output: kept on Mcp in the first pass, wrapped under `response`, whose root references now
    // point to `response`; the target's pass then keeps or unrolls that reference like any other.
    let original =
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}});
    let normalizer = normalizer();
    for target in [Target::OpenAiChat, Target::Mcp, Target::Google] {
        for strict in [false, true] {
            let options = Options::for_target(target).with_strict(strict);
            let output = normalizer.normalize_output_with(&options, &original);
            assert!(
                output.wrapped && !output.normalization.used_fallback,
                "{target}: {output:?}"
            );
            let kept = options
                .recursion_for(output.normalization.strict)
                .keeps_refs();
            let problems = refs::reference_problems(&output.schema, kept);
            assert!(
                problems.is_empty(),
                "{target}: {problems:?} in {}",
                output.schema
            );
            if kept {
                assert_eq!(
                    output.schema["properties"]["response"]["items"]["anyOf"][1],
                    json!({"$ref": "#/$defs/response"}),
                    "{target}"
                );
            }
        }
    }
}

#[test]
fn restoring_strict_nulls_follows_kept_references() {
    // Under strict, an optional property of a kept definition becomes a null alternative; the model's null there is
    // an omission, restored by walking the resolved schema through its kept references.
    let resolved = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {
        "Node": {"type": "object", "properties": {"name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["name"]}
    }});
    let mut value = json!({"root": {"name": "a", "children": [{"name": "b", "children": null}]}});
    restore_optional_omissions(&resolved, &mut value);
    assert_eq!(
        value,
        json!({"root": {"name": "a", "children": [{"name": "b"}]}})
    );
}

#[test]
fn the_resolver_keeps_cycles_within_the_budget_where_the_pipeline_does() {
    let Some(_) =
        testdata::require("the_resolver_keeps_cycles_within_the_budget_where_the_pipeline_does")
    else {
        return;
    };
    let (mut cycling, mut kept, mut same_names) = (0, 0, 0);
    let mut problems = Vec::new();
    for entry in testdata::schemastore_entries() {
        let original = testdata::read_json(&entry.schema).expect("SchemaStore schemas parse");
        let mut resolved = original.clone();
        let options = llmshim_resolve::Options::default().with_cycles(Cycles::KeepRefs);
        let result = dereference(&mut resolved, &Resources::new(), &options);
        let mut without = original.clone();
        let plain = dereference(
            &mut without,
            &Resources::new(),
            &llmshim_resolve::Options::default(),
        );
        if !matches!(&plain, Err(e) if e.kind() == ErrorKind::Cycle) {
            continue;
        }
        cycling += 1;
        let (out, report) = normalize(&Options::for_target(Target::Mcp), &original);
        let pipeline_over_budget = report.fallback_reason.as_ref().is_some_and(|r| {
            report.used_fallback
                && matches!(
                    r.kind,
                    FallbackKind::BudgetNodes
                        | FallbackKind::BudgetLiteral
                        | FallbackKind::BudgetDepth
                )
        });
        match result {
            Ok(()) => {
                kept += 1;
                let names = |v: &Value| {
                    v.get("$defs")
                        .and_then(Value::as_object)
                        .map(|d| d.keys().cloned().collect::<Vec<_>>())
                };
                // Where the pipeline kept the same cycles, it named the definitions alike.
                if !report.used_fallback && names(&out) == names(&resolved) {
                    same_names += 1;
                }
                let problems_here = refs::reference_problems(&resolved, true);
                if !problems_here.is_empty() {
                    problems.push(format!("{}: {problems_here:?}", entry.name));
                }
            }
            Err(e) if e.kind() == ErrorKind::Budget && !pipeline_over_budget => {
                problems.push(format!(
                    "{}: dereference exceeds the budget ({e}) where the pipeline does not",
                    entry.name
                ));
            }
            Err(_) => {}
        }
    }
    eprintln!(
        "suite: schemastore dereference with kept cycles: {cycling} cycling schemas, {kept} dereferenced,          {same_names} with the pipeline's definition names"
    );
    assert!(cycling > 0 && kept > 0, "{cycling} cycling, {kept} kept");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A fragment lifted into a description during the walk may hold a kept recursive site; the text names the site by
/// its final reference, never by the walk's internal marker (found by the loss property on google-json, seed
/// 5551212).
#[test]
fn a_lifted_fragment_names_a_kept_site_by_its_final_reference() {
    let input = json!({
        "properties": {},
        "required": [],
        "additionalProperties": {"properties": {}, "required": [], "additionalProperties": {"$ref": "#/$defs/Tag"}},
        "$defs": {
            "Node": {"properties": {}, "required": [], "additionalProperties": {"anyOf": [{"$ref": "#/$defs/Tag"}]}},
            "Tag": {"allOf": [
                {"properties": {"$ref": {"type": "string"}}, "required": []},
                {"properties": {"$ref": {"$ref": "#/$defs/Node"}}, "required": []}
            ]}
        }
    });
    let (out, report) = normalize(&Options::for_target(Target::GoogleJsonSchema), &input);
    assert!(!report.used_fallback, "{report:?}");
    let text = out.to_string();
    assert!(!text.contains("llmshim-kept"), "{text}");
    let lifted =
        &out["additionalProperties"]["additionalProperties"]["properties"]["$ref"]["description"];
    assert_eq!(
        lifted,
        &json!(r##"(allOf: [{"type":"string"},{"$ref":"#/$defs/Node"}])"##),
        "{text}"
    );
}
