//! Rejections and degrade reports as JSON for the Python layer: a `Rejection` read from the dict form the Python
//! `Rejection` class gives (with the pointer of a bad member), and `degrade`'s report written for it.

use llmshim::rejection::{DegradeReport, Rejection, Site};
use serde_json::{Map, Value};

use crate::report;

/// Why a dict is not a rejection, and which member: a JSON Pointer into the dict.
#[derive(Debug)]
pub(crate) struct NotRejection {
    pub(crate) message: String,
    pub(crate) pointer: String,
}

fn bad(member: &str, message: &str) -> NotRejection {
    NotRejection {
        message: message.to_owned(),
        pointer: if member.is_empty() {
            String::new()
        } else {
            format!("/{member}")
        },
    }
}

/// An index member: `None` when absent or null, an error when it is not a non-negative integer.
fn index(map: &Map<String, Value>, member: &str) -> Result<Option<usize>, NotRejection> {
    match map.get(member) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| {
                bad(
                    member,
                    &format!("`{member}` must be a non-negative int or None"),
                )
            }),
    }
}

/// A text member: `None` when absent or null, an error when it is not a string.
fn text(map: &Map<String, Value>, member: &str) -> Result<Option<String>, NotRejection> {
    match map.get(member) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad(member, &format!("`{member}` must be a str or None"))),
    }
}

/// The rejection `value` describes: `{"site": "tool"|"output_schema", "tool", "declaration", "pointer", "keyword",
/// "message"}`, the form `Rejection::to_json` writes; `tool` is required for a tool site.
pub(crate) fn read(value: &Value) -> Result<Rejection, NotRejection> {
    let Some(map) = value.as_object() else {
        return Err(bad(
            "",
            "a rejection must be a llmshim.Rejection or its dict form",
        ));
    };
    let site = match map.get("site").and_then(Value::as_str) {
        Some("tool") => Site::Tool {
            index: index(map, "tool")?
                .ok_or_else(|| bad("tool", "a tool rejection needs the tool's index"))?,
            declaration: index(map, "declaration")?,
        },
        Some("output_schema") => Site::OutputSchema,
        _ => return Err(bad("site", "`site` must be \"tool\" or \"output_schema\"")),
    };
    let mut rejection =
        Rejection::new(site).with_message(text(map, "message")?.unwrap_or_default());
    if let Some(pointer) = text(map, "pointer")? {
        rejection = rejection.with_pointer(pointer);
    }
    if let Some(keyword) = text(map, "keyword")? {
        rejection = rejection.with_keyword(keyword);
    }
    Ok(rejection)
}

/// `degrade`'s report: the site as in a rejection (`site`, `tool`, `declaration`), the step's name (`null` when
/// nothing changed), the degraded schema's report and why nothing changed.
pub(crate) fn degraded(result: &DegradeReport) -> Value {
    let site = Rejection::new(result.site).to_json();
    let mut map = Map::new();
    for member in ["site", "tool", "declaration"] {
        map.insert(
            member.to_owned(),
            site.get(member).cloned().unwrap_or(Value::Null),
        );
    }
    map.insert(
        "step".to_owned(),
        result
            .step
            .map_or(Value::Null, |s| Value::String(s.name().to_owned())),
    );
    map.insert("report".to_owned(), report::normalization(&result.report));
    map.insert(
        "reason".to_owned(),
        result.reason.clone().map_or(Value::Null, Value::String),
    );
    Value::Object(map)
}
