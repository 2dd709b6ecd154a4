//! The four normalizing operations shared by the subcommands and the batch lines, and the JSON they answer with.

use std::fmt;
use std::str::FromStr;

use llmshim::schema::{Normalization, Normalizer, Options};
use serde_json::{Map, Value};

use crate::recover::{Recovery, answer, recover};

/// One normalizing operation: what the input is and which facade entry point handles it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// A schema, through `Normalizer::normalize_with`.
    Normalize,
    /// An MCP tool, through `Normalizer::normalize_mcp_tool_with` (the target is always Mcp).
    McpTool,
    /// An output schema, through `Normalizer::normalize_output_with`.
    Output,
    /// A request with `tools`, through `Normalizer::normalize_native_tools`.
    Tools,
    /// `{"request", "error"}`: a rejected wire request and the provider's error body, through
    /// `llmshim::rejection::locate` and `degrade`.
    Recover,
}

impl Api {
    /// Every api, in the contract's order.
    pub const ALL: [Api; 5] = [
        Api::Normalize,
        Api::McpTool,
        Api::Output,
        Api::Tools,
        Api::Recover,
    ];

    /// The batch name: `normalize`, `mcp_tool`, `output`, `tools` or `recover`.
    pub const fn name(self) -> &'static str {
        match self {
            Api::Normalize => "normalize",
            Api::McpTool => "mcp_tool",
            Api::Output => "output",
            Api::Tools => "tools",
            Api::Recover => "recover",
        }
    }

    /// Runs the operation on `input` with `normalizer` and `options`.
    ///
    /// ```
    /// use llmshim::schema::{Normalizer, Options, Target};
    /// use llmshim_cli::api::Api;
    /// use serde_json::json;
    ///
    /// let outcome = Api::Output.run(&Normalizer::default(), &Options::for_target(Target::Google), json!({"type": "string"}));
    /// assert_eq!(outcome.wrapped, Some(true));
    /// assert_eq!(outcome.output["properties"]["response"], json!({"type": "string"}));
    /// ```
    pub fn run(self, normalizer: &Normalizer, options: &Options, mut input: Value) -> Outcome {
        match self {
            Api::Normalize => {
                let report = normalizer.normalize_with(options, &mut input);
                Outcome {
                    output: input,
                    report,
                    wrapped: None,
                    recovery: None,
                }
            }
            Api::McpTool => {
                let report = normalizer.normalize_mcp_tool_with(options, &mut input);
                Outcome {
                    output: input,
                    report,
                    wrapped: None,
                    recovery: None,
                }
            }
            Api::Output => {
                let out = normalizer.normalize_output_with(options, &input);
                // The original may be nested far deeper than a recursive drop can go.
                crate::json::dismantle(input);
                Outcome {
                    output: out.schema,
                    report: out.normalization,
                    wrapped: Some(out.wrapped),
                    recovery: None,
                }
            }
            Api::Tools => {
                let report = normalizer.normalize_native_tools(options, &mut input);
                Outcome {
                    output: input,
                    report: report.summary,
                    wrapped: None,
                    recovery: None,
                }
            }
            Api::Recover => {
                let (mut request, body) = recover_input(input);
                let recovery = recover(options, &mut request, &body);
                Outcome {
                    output: request,
                    report: recovery.report.clone(),
                    wrapped: None,
                    recovery: Some(recovery),
                }
            }
        }
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Api {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Api::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            format!("unknown api {s:?} (expected normalize, mcp_tool, output, tools or recover)")
        })
    }
}

/// What one operation produced: the output value, the report and, for `output`, whether it was wrapped.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// The schema, tool or request after normalization.
    pub output: Value,
    /// The report; for `tools` the request summary.
    pub report: Normalization,
    /// For `output`, whether the schema was wrapped under `response`.
    pub wrapped: Option<bool>,
    /// For `recover`, what the body named and the step taken.
    pub recovery: Option<Recovery>,
}

impl Outcome {
    /// The answer `{"output": …, "report": R}`, with `"wrapped"` after `report` for `output`; `R` lists `changes`
    /// when `diagnostics` is on. For `recover` it is `{"output": …, "rejection": J|null, "step": …}`.
    pub fn into_json(self, diagnostics: bool) -> Value {
        if let Some(recovery) = &self.recovery {
            return answer(self.output, recovery);
        }
        let mut map = Map::new();
        map.insert("output".to_owned(), self.output);
        map.insert("report".to_owned(), self.report.to_json(diagnostics));
        if let Some(wrapped) = self.wrapped {
            map.insert("wrapped".to_owned(), Value::Bool(wrapped));
        }
        Value::Object(map)
    }
}

/// The request and the error body of a `recover` input `{"request", "error"}`; a missing member reads as `null` or
/// an empty body (batch lines are checked before they get here).
fn recover_input(input: Value) -> (Value, String) {
    let Value::Object(mut map) = input else {
        return (input, String::new());
    };
    let request = map.remove("request").unwrap_or(Value::Null);
    let body = match map.remove("error") {
        Some(Value::String(s)) => s,
        _ => String::new(),
    };
    (request, body)
}
