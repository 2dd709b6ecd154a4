//! Output schemas: references resolved, non-object types wrapped under `response`, then the target's rules.

use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason, Normalization, json};
use serde_json::{Map, Value};

use crate::schema::pipeline::fallback;
use crate::schema::{Normalizer, Options, Target};

/// A structured-output schema ready to send, with the report and whether it was wrapped.
///
/// Where callers put `schema`: Responses `text.format` and Chat `response_format.json_schema` (each with `strict`
/// set to `normalization.strict`), Anthropic `output_config.format`, Google `generationConfig.responseSchema` and
/// Gemini's JSON Schema dialect `generationConfig.responseJsonSchema`, each with `responseMimeType:
/// "application/json"`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OutputSchema {
    /// The wire schema.
    pub schema: Value,
    /// The original output type was not an object and now stands under `properties.response`.
    pub wrapped: bool,
    /// What happened; `used_fallback` says whether either pass fell back.
    pub normalization: Normalization,
}

impl OutputSchema {
    /// The model's value with the wrapper removed: a clone of its `response` member when wrapped (`None` when the
    /// value is not an object or lacks it), else a clone of the value.
    ///
    /// ```
    /// use llmshim::schema::{normalize_output_for, Target};
    /// use serde_json::json;
    ///
    /// let out = normalize_output_for(Target::OpenAiResponses, &json!({"type": "array", "items": {"type": "string"}}), true);
    /// assert!(out.wrapped);
    /// assert_eq!(out.unwrap(&json!({"response": ["a"]})), Some(json!(["a"])));
    /// assert_eq!(out.unwrap(&json!(["a"])), None);
    /// ```
    pub fn unwrap(&self, value: &Value) -> Option<Value> {
        if self.wrapped {
            value.as_object()?.get("response").cloned()
        } else {
            Some(value.clone())
        }
    }
}

/// Prepares an output schema for `target`: a first MCP pass resolves references against the original root, a
/// non-object result is wrapped as `{"type":"object","properties":{"response":…},"required":["response"]}`, and a
/// second pass applies the target's rules with `structured_output` set. It does not validate a model's output; see
/// `schema::validate` for that, against the original schema.
pub fn normalize_output_for(target: Target, original: &Value, strict: bool) -> OutputSchema {
    Normalizer::default()
        .normalize_output_with(&Options::for_target(target).with_strict(strict), original)
}

impl Normalizer {
    /// [`normalize_output_for`] with this normalizer and the caller's options: `target` and `strict` select the
    /// second pass, whose other fields come from `options`; `bypass`, the budgets and `diagnostics` apply to the
    /// first pass too.
    pub fn normalize_output_with(&self, options: &Options, original: &Value) -> OutputSchema {
        let first_options = Options::for_target(Target::Mcp)
            .with_bypass(options.bypass)
            .with_budget(options.budget)
            .with_diagnostics(options.diagnostics);
        if json::depth_within(original, HARD_MAX_DEPTH).is_none() {
            // Too deep to copy: the fallback, with the depth budget as the reason.
            let normalization = Normalization::fell_back(
                FallbackReason::new(
                    FallbackKind::BudgetDepth,
                    "",
                    format!("the schema is nested deeper than {HARD_MAX_DEPTH} levels"),
                ),
                true,
            );
            return OutputSchema {
                schema: fallback(),
                wrapped: false,
                normalization,
            };
        }
        let mut schema = original.clone();
        let first = self.normalize_with(&first_options, &mut schema);
        let wrapped = schema.get("type").and_then(Value::as_str) != Some("object");
        if wrapped {
            schema = wrap(schema);
        }
        let second_options = options.clone().with_structured_output(true);
        let mut second = self.normalize_with(&second_options, &mut schema);
        let budget = options
            .target
            .rules()
            .rules()
            .strict
            .and_then(|s| s.anthropic_budget);
        if let Some(budget) = budget.filter(|_| !second.bypassed) {
            let (optional, unions) = llmshim_strict::budget_counts(&schema);
            if unions > budget.max_unions || optional > budget.max_optional {
                schema = fallback();
                second = Normalization::fell_back(
                    FallbackReason::new(
                        FallbackKind::ProviderLimit,
                        "",
                        format!(
                            "the output schema has {unions} union-typed and {optional} optional parameters; \
                             anthropic accepts at most {} and {}",
                            budget.max_unions, budget.max_optional
                        ),
                    ),
                    true,
                );
            }
        }
        let mut normalization = second.clone();
        normalization.used_fallback = first.used_fallback || second.used_fallback;
        normalization.changed = first.changed || wrapped || second.changed;
        normalization.narrowed = first.narrowed || second.narrowed;
        normalization.fallback_reason = if first.used_fallback {
            first.fallback_reason.clone()
        } else {
            second.fallback_reason.clone()
        };
        let mut changes = first.changes;
        if wrapped && options.diagnostics {
            changes.push(Change::new("", "output.wrap", ChangeKind::Added));
        }
        changes.extend(second.changes);
        normalization.changes = changes;
        OutputSchema {
            schema,
            wrapped,
            normalization,
        }
    }
}

/// Wraps a non-object schema under `response`; kept definitions move to the wrapper's root, and a kept reference
/// to the old root now points to `response`.
fn wrap(mut schema: Value) -> Value {
    let definitions = schema
        .as_object_mut()
        .and_then(|map| llmshim_core::json::remove(map, "$defs"));
    llmshim_core::defs::redirect_root_references(&mut schema, "#/properties/response");
    let definitions = definitions.map(|mut defs| {
        if let Value::Object(members) = &mut defs {
            for member in members.values_mut() {
                llmshim_core::defs::redirect_root_references(member, "#/properties/response");
            }
        }
        defs
    });
    let mut properties = Map::new();
    properties.insert("response".to_owned(), schema);
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("object".to_owned()));
    m.insert("properties".to_owned(), Value::Object(properties));
    m.insert(
        "required".to_owned(),
        Value::Array(vec![Value::String("response".to_owned())]),
    );
    if let Some(definitions) = definitions {
        m.insert("$defs".to_owned(), definitions);
    }
    Value::Object(m)
}
