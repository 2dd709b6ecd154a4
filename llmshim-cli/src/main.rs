//! The `llmshim` command (not yet implemented: it arrives with the issue "The llmshim CLI and the release benchmark").

fn main() {
    std::process::exit(2);
}
