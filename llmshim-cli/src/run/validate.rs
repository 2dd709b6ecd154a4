//! `llmshim validate`: an instance checked against a schema, locally, with the validator's error lines.

use llmshim::schema::validate::{self, Resources};
use serde_json::{Map, Value};

use crate::args::ValidateArgs;
use crate::error::CliError;
use crate::input::{is_stdin, read_document};
use crate::json;
use crate::report::write_json;
use crate::run::{Io, Status};

/// Compiles `--schema` and validates the instance; status 1 when it is invalid, 2 when the schema does not compile.
pub(crate) fn run(args: &ValidateArgs, io: &mut Io<'_>) -> Result<Status, CliError> {
    if is_stdin(Some(&args.schema)) && is_stdin(args.file.as_deref()) {
        return Err(CliError::Usage(
            "--schema - needs the instance in a FILE: standard input can be read only once"
                .to_owned(),
        ));
    }
    let schema = read_document(Some(&args.schema), io.stdin)?;
    let mut options = validate::Options::default().with_assert_formats(!args.no_format_assertion);
    if let Some(n) = args.max_errors {
        options = options.with_max_errors(n);
    }
    let compiled = validate::compile_with(&schema, &Resources::new(), &options);
    // Documents of any depth are freed without recursion, whatever the outcome.
    json::dismantle(schema);
    let validator = compiled.map_err(CliError::Compile)?;
    let instance = read_document(args.file.as_deref(), io.stdin)?;
    let errors = validate::errors(&validator, &instance);
    json::dismantle(instance);
    let valid = errors.is_empty();
    let mut answer = Map::new();
    answer.insert("valid".to_owned(), Value::Bool(valid));
    answer.insert(
        "errors".to_owned(),
        Value::Array(errors.into_iter().map(Value::String).collect()),
    );
    write_json(io.stdout, &Value::Object(answer), args.pretty)?;
    Ok(if valid {
        Status::Success
    } else {
        Status::Failure
    })
}
