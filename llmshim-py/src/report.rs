//! Reports as JSON for the Python layer, which turns them into its typed objects.

use llmshim::schema::Normalization;
use llmshim::tools::ToolsReport;
use serde_json::{Map, Value};

/// A report with every field: the outcome's name, the five flags (`narrowed` last), `fallback_reason` (`null` when there is none)
/// and `changes` (empty unless diagnostics were on).
pub(crate) fn normalization(report: &Normalization) -> Value {
    let mut map = Map::new();
    map.insert(
        "outcome".to_owned(),
        Value::String(report.outcome().as_str().to_owned()),
    );
    map.insert("changed".to_owned(), Value::Bool(report.changed));
    map.insert(
        "used_fallback".to_owned(),
        Value::Bool(report.used_fallback),
    );
    map.insert("strict".to_owned(), Value::Bool(report.strict));
    map.insert("bypassed".to_owned(), Value::Bool(report.bypassed));
    map.insert("narrowed".to_owned(), Value::Bool(report.narrowed));
    let reason = report.fallback_reason.as_ref().map_or(Value::Null, |r| {
        let mut reason = Map::new();
        reason.insert("kind".to_owned(), Value::String(r.kind.as_str().to_owned()));
        reason.insert("pointer".to_owned(), Value::String(r.pointer.clone()));
        reason.insert("message".to_owned(), Value::String(r.message.clone()));
        Value::Object(reason)
    });
    map.insert("fallback_reason".to_owned(), reason);
    let changes = report
        .changes
        .iter()
        .map(|c| {
            let mut change = Map::new();
            change.insert("pointer".to_owned(), Value::String(c.pointer.clone()));
            change.insert("rule".to_owned(), Value::String(c.rule.to_string()));
            change.insert("kind".to_owned(), Value::String(c.kind.to_string()));
            Value::Object(change)
        })
        .collect();
    map.insert("changes".to_owned(), Value::Array(changes));
    Value::Object(map)
}

/// A request's report: the summary and one entry per function tool.
pub(crate) fn tools(report: &ToolsReport) -> Value {
    let mut map = Map::new();
    map.insert("summary".to_owned(), normalization(&report.summary));
    let tools = report
        .tools
        .iter()
        .map(|t| {
            let mut tool = Map::new();
            tool.insert("index".to_owned(), Value::from(t.index));
            tool.insert(
                "name".to_owned(),
                t.name.clone().map_or(Value::Null, Value::String),
            );
            tool.insert("pointer".to_owned(), Value::String(t.pointer()));
            tool.insert("report".to_owned(), normalization(&t.normalization));
            tool.insert(
                "strict".to_owned(),
                t.strict.map_or(Value::Null, Value::Bool),
            );
            Value::Object(tool)
        })
        .collect();
    map.insert("tools".to_owned(), Value::Array(tools));
    Value::Object(map)
}
