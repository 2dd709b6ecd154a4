//! Parsing one batch line into an operation, its options, its environment and its input.

use std::fmt;

use llmshim::schema::{EnvFlags, Options, Target};
use serde_json::{Map, Value};

use crate::api::Api;
use crate::batch::env::line_flags;
use crate::json::{self, dismantle};
use crate::options::parse_target;

/// One parsed batch line, ready to run.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Line {
    /// The operation.
    pub api: Api,
    /// `Options::for_target(target)`, then `strict`, then each member of `options`.
    pub options: Options,
    /// The flags for this line: the process values overridden by the line's `env`.
    pub env: EnvFlags,
    /// The line's `input`.
    pub input: Value,
}

/// Why a line could not be run; its message becomes the line's `{"error": …}` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LineError {
    /// Lowercase human text.
    pub message: String,
}

impl LineError {
    fn new(message: impl Into<String>) -> Self {
        LineError {
            message: message.into(),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LineError {}

impl From<String> for LineError {
    fn from(message: String) -> Self {
        LineError { message }
    }
}

/// Parses one non-blank batch line, with `process` as the flags the line's `env` starts from.
///
/// `api` is required; `target` is required except for `mcp_tool` (which defaults to `mcp`); `strict` defaults to
/// false, `options` and `env` to `{}` (`null` counts as absent for these three); other keys are ignored.
///
/// # Errors
///
/// A [`LineError`] when the text is not JSON, not an object, names an unknown api, target or option, lacks `api`,
/// `target` or `input`, or has a member of the wrong type.
///
/// ```
/// use llmshim::schema::{EnvFlags, Target};
/// use llmshim_cli::api::Api;
/// use llmshim_cli::batch::line::parse_line;
///
/// let text = r#"{"name": "x", "api": "normalize", "target": "chat", "strict": true,
///               "options": {"diagnostics": true}, "env": {"LLMSHIM_NO_STRICT": "1"}, "input": {"type": "object"}}"#;
/// let line = parse_line(text, EnvFlags::default()).unwrap();
/// assert_eq!(line.api, Api::Normalize);
/// assert_eq!(line.options.target, Target::OpenAiChat);
/// assert!(line.options.strict && line.options.diagnostics);
/// assert!(line.env.no_strict);
///
/// let err = parse_line(r#"{"api": "normalize", "target": "gemini", "input": {}}"#, EnvFlags::default()).unwrap_err();
/// assert!(err.message.contains("unknown target"));
/// ```
pub fn parse_line(text: &str, process: EnvFlags) -> Result<Line, LineError> {
    let value: Value = json::from_str(text)
        .map_err(|e| LineError::new(format!("the line is not valid JSON: {e}")))?;
    let Value::Object(map) = value else {
        dismantle(value);
        return Err(LineError::new("the line is not a JSON object"));
    };
    // The members other than `input` may be nested deep too (ignored keys, bad values): free them without recursion
    // whatever the outcome.
    let mut rest = map;
    let input = rest.remove("input");
    let line = members(&rest, process, input);
    dismantle(Value::Object(rest));
    line
}

/// The line from its members other than `input`, and its `input`.
fn members(
    map: &Map<String, Value>,
    process: EnvFlags,
    input: Option<Value>,
) -> Result<Line, LineError> {
    match (line_settings(map, process), input) {
        (Ok((Api::Recover, _, _)), Some(input))
            if !(input.get("request").is_some()
                && input.get("error").is_some_and(Value::is_string)) =>
        {
            dismantle(input);
            Err(LineError::new(
                "api recover takes {\"request\": <request>, \"error\": \"<body>\"} as its input",
            ))
        }
        (Ok((api, options, env)), Some(input)) => Ok(Line {
            api,
            options,
            env,
            input,
        }),
        (Ok(_), None) => Err(LineError::new("missing \"input\"")),
        (Err(err), input) => {
            if let Some(input) = input {
                dismantle(input);
            }
            Err(err)
        }
    }
}

/// The api, options and environment a line's members name.
fn line_settings(
    map: &Map<String, Value>,
    process: EnvFlags,
) -> Result<(Api, Options, EnvFlags), LineError> {
    let api = match map.get("api") {
        None => {
            return Err(LineError::new(
                "missing \"api\" (normalize, mcp_tool, output, tools or recover)",
            ));
        }
        Some(Value::String(name)) => name.parse::<Api>()?,
        Some(_) => return Err(LineError::new("\"api\" must be a string")),
    };
    let target = match map.get("target") {
        None | Some(Value::Null) if api == Api::McpTool => Target::Mcp,
        None | Some(Value::Null) => {
            return Err(LineError::new(format!("missing \"target\" for api {api}")));
        }
        Some(Value::String(name)) => parse_target(name)?,
        Some(_) => return Err(LineError::new("\"target\" must be a string")),
    };
    let mut options = Options::for_target(target);
    match map.get("strict") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(on)) => options = options.with_strict(*on),
        Some(_) => return Err(LineError::new("\"strict\" must be a boolean")),
    }
    if let Some(members) = object(map, "options")? {
        for (name, value) in members {
            options
                .set(name, value)
                .map_err(|e| LineError::new(e.to_string()))?;
        }
    }
    let env = match object(map, "env")? {
        Some(env) => line_flags(process, env)?,
        None => process,
    };
    Ok((api, options, env))
}

/// The object at `key`: `None` when it is absent or `null`.
fn object<'a>(
    map: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, LineError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(_) => Err(LineError::new(format!("{key:?} must be an object"))),
    }
}
