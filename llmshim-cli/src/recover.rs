//! `recover`: a provider's rejection body read back to one tool of the rejected request, which is degraded by one
//! step; shared by the subcommand and the batch api.

use llmshim::rejection::{Rejection, Step, degrade, locate};
use llmshim::schema::{Normalization, Options};
use serde_json::{Map, Value};

/// What one recovery did: the rejection the body names, if recognised, and the step taken.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recovery {
    /// The rejection `locate` read from the body; `None` when the body is not recognised.
    pub rejection: Option<Rejection>,
    /// The step `degrade` took; `None` when nothing changed.
    pub step: Option<Step>,
    /// `degrade`'s report of the degraded schema.
    pub report: Normalization,
}

/// Locates `body` in `request` for `options.target` and degrades the tool it names by one step.
///
/// ```
/// use llmshim::schema::{Options, Target};
/// use llmshim_cli::recover::{answer, recover};
/// use serde_json::json;
///
/// let mut request = json!({"tools": [{"name": "t", "input_schema": {"type": "object", "properties": {}, "anyOf": [{"required": ["a"]}]}}]});
/// let body = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"}}"#;
/// let recovery = recover(&Options::for_target(Target::Anthropic), &mut request, body);
/// let out = answer(request, &recovery);
/// assert_eq!(out["step"], "keyword");
/// assert_eq!(out["rejection"]["keyword"], "anyOf");
/// assert_eq!(out["output"]["tools"][0]["input_schema"]["description"], "(anyOf: [{\"required\":[\"a\"]}]) (rejected: anyOf)");
/// ```
pub fn recover(options: &Options, request: &mut Value, body: &str) -> Recovery {
    let rejection = locate(options.target, request, body);
    let (step, report) = match &rejection {
        Some(r) => {
            let d = degrade(options, request, r);
            (d.step, d.report)
        }
        None => (None, Normalization::default()),
    };
    Recovery {
        rejection,
        step,
        report,
    }
}

/// The answer `{"output": <request>, "rejection": J|null, "step": "keyword"|"strict"|"node"|"fallback"|null}`.
pub fn answer(output: Value, recovery: &Recovery) -> Value {
    let mut map = Map::new();
    map.insert("output".to_owned(), output);
    map.insert(
        "rejection".to_owned(),
        recovery
            .rejection
            .as_ref()
            .map_or(Value::Null, Rejection::to_json),
    );
    map.insert(
        "step".to_owned(),
        recovery
            .step
            .map_or(Value::Null, |s| Value::String(s.name().to_owned())),
    );
    Value::Object(map)
}
