//! `llmshim check`: one schema normalized for several targets, one report each, as a table or as JSON.

use llmshim::schema::{Normalizer, Target};
use serde_json::{Map, Value};

use crate::args::CheckArgs;
use crate::console::Console;
use crate::error::CliError;
use crate::input::read_document;
use crate::json;
use crate::report::write_json;
use crate::run::{Io, Status};
use crate::table::{Verdict, write_table};

/// Normalizes the schema for each `--target` (every built-in target when none is given) and writes the table on a
/// terminal, the JSON answer with `--json` or otherwise; status 1 when some target falls back.
pub(crate) fn run(args: &CheckArgs, io: &mut Io<'_>, console: Console) -> Result<Status, CliError> {
    let schema = read_document(args.file.as_deref(), io.stdin)?;
    let targets: &[Target] = if args.targets.is_empty() {
        &Target::BUILTIN
    } else {
        &args.targets
    };
    let table = console.is_terminal() && !args.json;
    let normalizer = Normalizer::new(args.options.env());
    let mut results = Vec::with_capacity(targets.len());
    let mut rows = Vec::with_capacity(targets.len());
    let mut fell_back = false;
    for &target in targets {
        let mut options = args.options.options(target);
        if table {
            // The table counts changes, which only diagnostics record.
            options = options.with_diagnostics(true);
        }
        let mut copy = json::deep_clone(&schema);
        let report = normalizer.normalize_with(&options, &mut copy);
        json::dismantle(copy);
        if let (true, Some(reason)) = (report.used_fallback, &report.fallback_reason) {
            fell_back = true;
            if !table {
                // A note that cannot be written must not change the answer.
                let _ = writeln!(
                    io.stderr,
                    "llmshim: {target} falls back: {} at {:?}: {}",
                    reason.kind, reason.pointer, reason.message
                );
            }
        }
        if table {
            rows.push((target.to_string(), Verdict::of(&report)));
        } else {
            let mut result = Map::new();
            result.insert("target".to_owned(), Value::String(target.to_string()));
            result.insert("report".to_owned(), report.to_json(options.diagnostics));
            results.push(Value::Object(result));
        }
    }
    json::dismantle(schema);
    if table {
        write_table(io.stdout, &rows, args.color.paint(console))?;
    } else {
        let mut answer = Map::new();
        answer.insert("results".to_owned(), Value::Array(results));
        write_json(io.stdout, &Value::Object(answer), args.options.pretty)?;
    }
    Ok(if fell_back {
        Status::Failure
    } else {
        Status::Success
    })
}
