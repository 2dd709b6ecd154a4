//! The four normalizing operations shared by the subcommands and the batch lines, and the JSON they answer with.

use std::fmt;
use std::str::FromStr;

use llmshim::schema::{Normalization, Normalizer, Options};
use serde_json::{Map, Value};

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
}

impl Api {
    /// Every api, in the contract's order.
    pub const ALL: [Api; 4] = [Api::Normalize, Api::McpTool, Api::Output, Api::Tools];

    /// The batch name: `normalize`, `mcp_tool`, `output` or `tools`.
    pub const fn name(self) -> &'static str {
        match self {
            Api::Normalize => "normalize",
            Api::McpTool => "mcp_tool",
            Api::Output => "output",
            Api::Tools => "tools",
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
                }
            }
            Api::McpTool => {
                let report = normalizer.normalize_mcp_tool_with(options, &mut input);
                Outcome {
                    output: input,
                    report,
                    wrapped: None,
                }
            }
            Api::Output => {
                let out = normalizer.normalize_output_with(options, &input);
                Outcome {
                    output: out.schema,
                    report: out.normalization,
                    wrapped: Some(out.wrapped),
                }
            }
            Api::Tools => {
                let report = normalizer.normalize_native_tools(options, &mut input);
                Outcome {
                    output: input,
                    report: report.summary,
                    wrapped: None,
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
            format!("unknown api {s:?} (expected normalize, mcp_tool, output or tools)")
        })
    }
}

/// What one operation produced: the output value, the report and, for `output`, whether it was wrapped.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// The schema, tool or request after normalization.
    pub output: Value,
    /// The report; for `tools` the request summary (contract §9.6).
    pub report: Normalization,
    /// For `output`, whether the schema was wrapped under `response`.
    pub wrapped: Option<bool>,
}

impl Outcome {
    /// The answer `{"output": …, "report": R}`, with `"wrapped"` after `report` for `output`; `R` lists `changes`
    /// when `diagnostics` is on.
    pub fn into_json(self, diagnostics: bool) -> Value {
        let mut map = Map::new();
        map.insert("output".to_owned(), self.output);
        map.insert("report".to_owned(), self.report.to_json(diagnostics));
        if let Some(wrapped) = self.wrapped {
            map.insert("wrapped".to_owned(), Value::Bool(wrapped));
        }
        Value::Object(map)
    }
}
