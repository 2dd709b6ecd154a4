//! Keyword arguments to `Options`: the target by its command-line name, `strict`, and the options of the batch
//! lines by their snake-case names.

use llmshim::schema::{OPTION_NAMES, OptionError, Options, Target};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use serde_json::Value;

/// The option names `**options` accepts: the facade's names but `strict`, which is a parameter of its own.
pub(crate) fn names() -> Vec<&'static str> {
    OPTION_NAMES
        .into_iter()
        .filter(|name| *name != "strict")
        .collect()
}

/// Why options could not be built: an unknown name (a `TypeError` in Python) or a bad value (an `OptionError`).
#[derive(Debug)]
pub(crate) enum OptionProblem {
    UnknownName(String),
    BadValue(String),
}

/// The target named `name`: the command-line name of a built-in target (see `Target::builtins`).
pub(crate) fn target(name: &str) -> Result<Target, OptionProblem> {
    name.parse::<Target>().map_err(|_| {
        OptionProblem::BadValue(format!(
            "unknown target {name:?} (expected {})",
            Target::names_sentence()
        ))
    })
}

/// The names of the built-in targets, in the table's order.
pub(crate) fn target_names() -> Vec<&'static str> {
    Target::builtins().iter().map(|row| row.name).collect()
}

/// `Options::for_target(target)`, then `strict`, then each keyword argument.
pub(crate) fn build(
    target: Target,
    strict: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> Result<Options, OptionProblem> {
    let mut built = Options::for_target(target).with_strict(strict);
    let Some(options) = options else {
        return Ok(built);
    };
    for (name, value) in options.iter() {
        let name = name
            .cast::<PyString>()
            .ok()
            .and_then(|n| n.to_cow().ok().map(std::borrow::Cow::into_owned))
            .unwrap_or_default();
        apply(&mut built, &name, &value)?;
    }
    Ok(built)
}

/// Sets one keyword argument through `Options::set`, after reading the Python value as the JSON value it stands for.
fn apply(options: &mut Options, name: &str, value: &Bound<'_, PyAny>) -> Result<(), OptionProblem> {
    if name == "strict" {
        return Err(OptionProblem::UnknownName(format!(
            "unknown option {name:?} (strict is a parameter of its own)"
        )));
    }
    options.set(name, &json_of(value)).map_err(|e| match e {
        OptionError::UnknownName { .. } => OptionProblem::UnknownName(format!(
            "unknown option {name:?} (expected one of {})",
            names().join(", ")
        )),
        other => OptionProblem::BadValue(other.to_string()),
    })
}

/// The JSON value an option's Python value stands for: a bool, an int, a str; anything else (a float included, which
/// no option takes) reads as `null`, which every option refuses.
fn json_of(value: &Bound<'_, PyAny>) -> Value {
    if let Ok(flag) = value.cast::<PyBool>() {
        return Value::Bool(flag.is_true());
    }
    if let Ok(text) = value.cast::<PyString>() {
        return text
            .to_cow()
            .map_or(Value::Null, |t| Value::String(t.into_owned()));
    }
    if value.cast::<PyInt>().is_ok() {
        if let Ok(n) = value.extract::<u64>() {
            return Value::from(n);
        }
        if let Ok(n) = value.extract::<i64>() {
            return Value::from(n);
        }
    }
    Value::Null
}
