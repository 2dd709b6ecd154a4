//! Dereferences a JSON Schema file (default: the bundled pydantic-style example) and prints the result.
//!
//! Run it from the repository root: `cargo run -p llmshim-resolve --example dereference -- [FILE]`.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "an example program reports on the terminal"
)]

use std::process::ExitCode;

use llmshim_resolve::{Cycles, Options, Resources, dereference};

fn main() -> ExitCode {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/pydantic-order.json"
        )
        .to_owned()
    });
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut schema: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{path} is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    let options = Options::default().with_cycles(Cycles::KeepRefs);
    match dereference(&mut schema, &Resources::new(), &options) {
        Ok(()) => {
            match serde_json::to_string_pretty(&schema) {
                Ok(text) => println!("{text}"),
                Err(e) => eprintln!("cannot print the result: {e}"),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot dereference {path}: {e}");
            ExitCode::from(1)
        }
    }
}
