//! The command-line grammar, as clap derive types.

use std::path::PathBuf;

use clap::builder::BoolValueParser;
use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use llmshim::schema::{Keywords, Nullable, Recursion, Target};

use crate::options::{parse_keywords, parse_nullable, parse_recursion, parse_target};

/// `llmshim`: make one JSON Schema work on every LLM provider.
#[derive(Debug, Parser)]
#[command(
    name = "llmshim",
    version,
    about = "Make one JSON Schema work on every LLM provider",
    long_about = long_about()
)]
#[non_exhaustive]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// One subcommand.
#[derive(Debug, Subcommand)]
#[non_exhaustive]
pub enum Command {
    /// Normalize a schema for a target: `{"output": <schema>, "report": R}`.
    Normalize(TargetArgs),
    /// Translate a request's `tools` into the target's native tools: `{"output": <request>, "report": R}`.
    ///
    /// `--strict` is the strict request for tools without their own boolean `strict`.
    Tools(TargetArgs),
    /// Prepare an output schema for a target: `{"output": <schema>, "report": R, "wrapped": bool}`.
    Output(TargetArgs),
    /// Normalize an MCP tool's `inputSchema` (the target is always mcp): `{"output": <tool>, "report": R}`.
    McpTool(McpToolArgs),
    /// Explain what normalizing a schema for a target does: the resulting schema, then one sentence per change.
    ///
    /// The schema is indented (coloured on a terminal), or with --diff a unified diff from the input; then one line
    /// `<pointer>: <what happened>. Why: <reason> (<rule>)` per change in document order, the root written
    /// `(root)`; then, for a fallback or a strict demotion, the line that says where and why. `--format tsv` prints
    /// the tab-separated form instead: `changed=<b> used_fallback=<b> strict=<b> bypassed=<b>`, then
    /// `<kind>\t<rule>\t<pointer>` per change in the order performed, then `reason\t<kind>\t<pointer>\t<message>`
    /// when there is a reason.
    Explain(ExplainArgs),
    /// Normalize a schema for several targets (every built-in target by default) and report each.
    ///
    /// On a terminal: a table, one row per target (unchanged, rewritten with the number of changes, narrowed,
    /// demoted or fallback with the reason). With --json, or when standard output is not a terminal:
    /// `{"results": [{"target": T, "report": R}…]}`. Exit status 1 when some target falls back.
    Check(CheckArgs),
    /// Validate an instance against a schema locally: `{"valid": bool, "errors": [<line>…]}`; exit status 1 when
    /// the instance is invalid.
    Validate(ValidateArgs),
    /// Read a provider's rejection of a request and degrade the one tool it names by one step:
    /// `{"output": <request>, "rejection": J|null, "step": "keyword"|"strict"|"node"|"fallback"|null}`; exit status 1
    /// when the body is not recognised.
    ///
    /// FILE is the rejected wire request as `tools` produced it; `--error` names the file holding the provider's
    /// error body (raw text or JSON, as received).
    Recover(RecoverArgs),
    /// Run JSON lines `{"api", "target", "strict", "options", "env", "input"}`, one output line per input line.
    Batch(BatchArgs),
}

/// The normalization flags shared by `normalize`, `tools`, `output`, `mcp-tool`, `explain` and `check`.
///
/// Each flag that is given overrides `Options::for_target(T)`.
#[derive(Clone, Debug, Default, Args)]
#[non_exhaustive]
pub struct OptionArgs {
    /// Request strict enforcement.
    #[arg(long)]
    pub strict: bool,
    /// The nullability policy (default: the target's).
    #[arg(long, value_name = "preserve|marker|remove", value_parser = parse_nullable)]
    pub nullable: Option<Nullable>,
    /// Turn `oneOf` into `anyOf` (default: the target's).
    #[arg(long, value_name = "true|false", action = ArgAction::Set, value_parser = BoolValueParser::new())]
    pub rewrite_one_of: Option<bool>,
    /// Delete lookaround groups from `pattern` (default: the target's).
    #[arg(long, value_name = "true|false", action = ArgAction::Set, value_parser = BoolValueParser::new())]
    pub strip_lookarounds: Option<bool>,
    /// Do nothing; the report says `bypassed`.
    #[arg(long)]
    pub bypass: bool,
    /// The nesting limit (default 96).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// The visit limit (default 32768).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<usize>,
    /// The literal and URI byte limit (default 8388608).
    #[arg(long, value_name = "N")]
    pub max_literal_bytes: Option<usize>,
    /// Record every change in the report (`changes`).
    #[arg(long)]
    pub diagnostics: bool,
    /// Which keywords the keep-lists keep: what the provider enforces today (`current`, the default) or the narrow
    /// subsets every model accepts (`conservative`: fine-tuned OpenAI models, Azure, OpenAI-compatible servers).
    #[arg(long, value_name = "current|conservative", value_parser = parse_keywords)]
    pub keywords: Option<Keywords>,
    /// What recursive references become (default: the target's): kept as references into root `$defs`, unrolled
    /// N times (3 without `:N`), or the fallback.
    #[arg(long, value_name = "fallback|keep-refs|unroll[:N]", value_parser = parse_recursion)]
    pub recursion: Option<Recursion>,
    /// Run with `LLMSHIM_NO_SCHEMA_CACHE` on: the memo is neither read nor written.
    #[arg(long)]
    pub no_cache: bool,
    /// Indent the JSON output by two spaces.
    #[arg(long)]
    pub pretty: bool,
}

/// The arguments of the subcommands that take one target.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct TargetArgs {
    /// The target.
    #[arg(long, value_name = "T", value_parser = parse_target, help = target_help())]
    pub target: Target,
    /// The normalization flags.
    #[command(flatten)]
    pub options: OptionArgs,
    /// The input document; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// When to colour the text of `explain`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
#[non_exhaustive]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The text forms of `explain`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
#[non_exhaustive]
pub enum ExplainFormat {
    /// The resulting schema and one sentence per change.
    #[default]
    Text,
    /// The flags line, one tab-separated line per change, and the reason line.
    Tsv,
}

/// The arguments of `explain`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct ExplainArgs {
    /// The target.
    #[arg(long, value_name = "T", value_parser = parse_target, help = target_help())]
    pub target: Target,
    /// Show a unified diff from the input to the resulting schema instead of the schema.
    #[arg(long)]
    pub diff: bool,
    /// The output form.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
    /// When to colour the text.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The normalization flags (diagnostics are always on; --pretty changes nothing).
    #[command(flatten)]
    pub options: OptionArgs,
    /// The schema; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `mcp-tool`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct McpToolArgs {
    /// The normalization flags.
    #[command(flatten)]
    pub options: OptionArgs,
    /// The MCP tool; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `check`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct CheckArgs {
    /// A target to check (repeatable); every built-in target when none is given.
    #[arg(long = "target", value_name = "T", value_parser = parse_target, help = check_target_help())]
    pub targets: Vec<Target>,
    /// Print the JSON answer even on a terminal.
    #[arg(long)]
    pub json: bool,
    /// When to colour the table.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The normalization flags.
    #[command(flatten)]
    pub options: OptionArgs,
    /// The schema; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `validate`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct ValidateArgs {
    /// The schema file (`-` for standard input, when the instance comes from a file).
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// The most error lines to report (default 8).
    #[arg(long, value_name = "N")]
    pub max_errors: Option<usize>,
    /// Do not assert `format` (formats are asserted by default).
    #[arg(long)]
    pub no_format_assertion: bool,
    /// Indent the JSON output by two spaces.
    #[arg(long)]
    pub pretty: bool,
    /// The instance; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `recover`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct RecoverArgs {
    /// The target the request was translated for.
    #[arg(long, value_name = "T", value_parser = parse_target, help = target_help())]
    pub target: Target,
    /// The file holding the provider's error body (`-` for standard input, when the request comes from a file).
    #[arg(long, value_name = "FILE")]
    pub error: PathBuf,
    /// The normalization flags (`--diagnostics`, `--bypass`, the budgets and `--pretty` apply).
    #[command(flatten)]
    pub options: OptionArgs,
    /// The rejected request; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `batch`.
#[derive(Clone, Debug, Args)]
#[non_exhaustive]
pub struct BatchArgs {
    /// The JSON lines; standard input when `-` or absent.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The long help: what the command reads and writes, its exit status, and the built-in targets (from the facade's
/// table of built-in targets).
fn long_about() -> String {
    format!(
        "Make one JSON Schema work on every LLM provider.\n\nInput is one JSON document from FILE, or standard input \
         when FILE is `-` or absent (`batch` reads JSON lines). Output is one compact JSON line on standard output \
         (indented with --pretty); diagnostics go to standard error.\n\nExit status: 0 on success (fallbacks \
         included); 1 when `validate` finds the instance invalid, `check` reports a fallback for some target, or \
         `recover` does not recognise the error body; 2 for usage errors, unreadable or invalid input, a `validate` \
         schema that does not compile, or any `batch` line error.\n\nTargets: {}.",
        target_names(", ")
    )
}

/// The command-line names of the built-in targets, joined by `separator`.
fn target_names(separator: &str) -> String {
    Target::builtins()
        .iter()
        .map(|row| row.name)
        .collect::<Vec<_>>()
        .join(separator)
}

/// The help of `--target`.
fn target_help() -> String {
    format!("The target: {}", Target::names_sentence())
}

/// The help of `check --target`.
fn check_target_help() -> String {
    format!(
        "A target to check (repeatable; {}); every built-in target when none is given",
        Target::names_sentence()
    )
}
