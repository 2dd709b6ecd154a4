//! Prints the batch workload, the `llmshim batch` input that sends the MCP corpus through every target, one line each.
//!
//! `cargo xtask batch` runs this once to write the input it then times `llmshim batch` over; the lines come from
//! `llmshim_benches::workload::batch_lines`, the same the command line's corpus test counts. It reads the shared test
//! data (`LLMSHIM_TESTDATA`) and exits 1 with a message when the data is absent or incomplete.

// An example is a command: printing is how it answers.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use llmshim::schema::Target;
use llmshim_benches::testdata;
use llmshim_benches::workload::batch_lines;

fn main() -> ExitCode {
    let Some(root) = testdata::root() else {
        eprintln!(
            "batch_lines: no test data at {} (set LLMSHIM_TESTDATA)",
            testdata::root_path().display()
        );
        return ExitCode::from(1);
    };
    if let Err(missing) = testdata::check_complete(&root, &testdata::manifest()) {
        eprintln!("batch_lines: {missing}");
        return ExitCode::from(1);
    }
    let lines = batch_lines(&Target::BUILTIN.map(|t| t.to_string())).unwrap_or_default();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in &lines {
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(1);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(1);
    }
    eprintln!("batch_lines: {} lines", lines.len());
    ExitCode::SUCCESS
}
