//! The `llmshim` command as a library: argument grammar, option building, batch lines and the subcommands.
//!
//! The binary `llmshim` is a thin wrapper around [`run::main_with`]; everything it does lives here so that it can
//! be tested and fuzzed without a process. It uses only the public API of the `llmshim` facade.
//!
//! ```text
//! llmshim normalize --target <T> [OPTIONS] [FILE]
//! llmshim tools     --target <T> [OPTIONS] [FILE]
//! llmshim output    --target <T> [OPTIONS] [FILE]
//! llmshim mcp-tool  [OPTIONS] [FILE]
//! llmshim explain   --target <T> [--diff] [--format text|tsv] [--color auto|always|never] [OPTIONS] [FILE]
//! llmshim check     [--target <T>]... [--json] [--color auto|always|never] [OPTIONS] [FILE]
//! llmshim validate  --schema <FILE> [--max-errors <N>] [--no-format-assertion] [FILE]
//! llmshim recover   --target <T> --error <FILE> [OPTIONS] [FILE]
//! llmshim batch     [FILE]
//! ```
//!
//! # Examples
//!
//! Run a command line against in-memory streams:
//!
//! ```
//! use llmshim_cli::run::{main_with, Io};
//!
//! let mut stdin = &br#"{"type": "object", "properties": {"email": {"type": "string", "format": "email"}}}"#[..];
//! let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
//! let mut io = Io { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr };
//! let code = main_with(["llmshim", "explain", "--target", "google"], &mut io);
//! assert_eq!(code, 0);
//! let text = String::from_utf8(stdout).unwrap();
//! let (schema, changes) = text.split_once("\n\n").unwrap();
//! assert!(schema.contains("\"description\": \"(format: email)\""));
//! assert!(changes.starts_with("/properties/email/format: moved `format` into the node's description"));
//! ```
//!
//! Answer batch lines, each with its own options and environment:
//!
//! ```
//! use llmshim::schema::EnvFlags;
//! use llmshim_cli::batch::Runner;
//!
//! let runner = Runner::new(EnvFlags::default());
//! let line = r#"{"api": "mcp_tool", "input": {"name": "echo", "inputSchema": {"type": "string"}}}"#;
//! let answer = runner.answer(line).unwrap();
//! assert_eq!(answer["report"]["fallback_reason"]["kind"], "not_object");
//! assert!(runner.answer(r#"{"api": "normalize", "target": "chat", "options": {"colour": true}, "input": {}}"#).is_err());
//! ```
//!
//! # Should I use this crate?
//!
//! Use the `llmshim` binary from scripts and shells, and `llmshim batch` to run whole corpora through the library
//! from another language. Rust programs should depend on the `llmshim` facade instead: this crate adds only
//! command-line parsing and JSON-lines plumbing on top of it.

pub mod api;
pub mod args;
pub mod batch;
pub mod console;
pub mod diff;
pub mod error;
pub mod explain;
pub mod input;
pub mod json;
pub mod options;
pub mod recover;
pub mod report;
pub mod run;
pub mod table;
