//! `llmshim explain`: one schema normalized for one target with diagnostics on, told as text.

use llmshim::schema::Normalizer;

use crate::args::{ExplainArgs, ExplainFormat};
use crate::console::Console;
use crate::error::CliError;
use crate::explain::{Form, write_text};
use crate::input::read_document;
use crate::json;
use crate::report::write_explain;
use crate::run::{Io, Status};

/// Normalizes the schema with diagnostics forced on and writes the text form, or the tab-separated form with
/// `--format tsv`; a fallback is not an error here (status 0), the text says why.
pub(crate) fn run(
    args: &ExplainArgs,
    io: &mut Io<'_>,
    console: Console,
) -> Result<Status, CliError> {
    let options = args.options.options(args.target).with_diagnostics(true);
    let input = read_document(args.file.as_deref(), io.stdin)?;
    let mut output = json::deep_clone(&input);
    let report = Normalizer::new(args.options.env()).normalize_with(&options, &mut output);
    let written = match args.format {
        ExplainFormat::Tsv => write_explain(io.stdout, &report),
        ExplainFormat::Text => {
            let form = if args.diff { Form::Diff } else { Form::Schema };
            write_text(
                io.stdout,
                &input,
                &output,
                &report,
                form,
                args.color.paint(console),
            )
        }
    };
    json::dismantle(input);
    json::dismantle(output);
    written?;
    Ok(Status::Success)
}
