//! The `llmshim` binary: parses the command line and runs it against the process's standard streams.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use llmshim_cli::console::Console;
use llmshim_cli::run::{Io, main_on};

fn main() -> ExitCode {
    let console = Console::detect(io::stdout().is_terminal());
    let mut stdin = io::stdin().lock();
    let mut stdout = BufWriter::new(io::stdout().lock());
    let mut stderr = io::stderr().lock();
    let code = main_on(
        std::env::args_os(),
        &mut Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
        },
        console,
    );
    // The run already flushed and reported any write failure; a failure here changes nothing.
    let _ = stdout.flush();
    ExitCode::from(code)
}
