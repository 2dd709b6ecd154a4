//! Keyword arguments to `Options`: the target by its command-line name, `strict`, and the options of the batch
//! lines by their snake-case names.

use llmshim::schema::{Keywords, Nullable, Options, Recursion, Target};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

/// The option names `**options` accepts, in the contract's order.
pub(crate) const NAMES: [&str; 11] = [
    "nullable",
    "rewrite_one_of",
    "strip_lookarounds",
    "bypass",
    "max_depth",
    "max_nodes",
    "max_literal_bytes",
    "diagnostics",
    "structured_output",
    "keywords",
    "recursion",
];

/// Why options could not be built: an unknown name (a `TypeError` in Python) or a bad value (an `OptionError`).
#[derive(Debug)]
pub(crate) enum OptionProblem {
    UnknownName(String),
    BadValue(String),
}

/// The target named `name` (`chat`, `responses`, `anthropic`, `google`, `cca` or `mcp`).
pub(crate) fn target(name: &str) -> Result<Target, OptionProblem> {
    name.parse::<Target>().map_err(|_| {
        OptionProblem::BadValue(format!(
            "unknown target {name:?} (expected chat, responses, anthropic, google, cca or mcp)"
        ))
    })
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

fn apply(options: &mut Options, name: &str, value: &Bound<'_, PyAny>) -> Result<(), OptionProblem> {
    let flag = || {
        value
            .cast::<PyBool>()
            .map(PyBoolMethods::is_true)
            .map_err(|_| OptionProblem::BadValue(format!("option {name:?} must be a bool")))
    };
    let count = || {
        if value.cast::<PyBool>().is_ok() {
            return Err(OptionProblem::BadValue(format!(
                "option {name:?} must be a non-negative int"
            )));
        }
        value.extract::<usize>().map_err(|_| {
            OptionProblem::BadValue(format!("option {name:?} must be a non-negative int"))
        })
    };
    match name {
        "nullable" => {
            let text = value
                .cast::<PyString>()
                .ok()
                .and_then(|t| t.to_cow().ok().map(|t| t.to_ascii_lowercase()))
                .unwrap_or_default();
            options.nullable = match text.as_str() {
                "preserve" => Nullable::Preserve,
                "marker" => Nullable::Marker,
                "remove" => Nullable::Remove,
                _ => {
                    return Err(OptionProblem::BadValue(
                        "option \"nullable\" must be \"preserve\", \"marker\" or \"remove\""
                            .to_owned(),
                    ));
                }
            };
        }
        "keywords" => {
            let text = value
                .cast::<PyString>()
                .ok()
                .and_then(|t| t.to_cow().ok().map(|t| t.to_ascii_lowercase()))
                .unwrap_or_default();
            options.keywords = text.parse::<Keywords>().map_err(|_| {
                OptionProblem::BadValue(
                    "option \"keywords\" must be \"current\" or \"conservative\"".to_owned(),
                )
            })?;
        }
        "rewrite_one_of" => options.rewrite_one_of = flag()?,
        "strip_lookarounds" => options.strip_lookarounds = flag()?,
        "bypass" => options.bypass = flag()?,
        "max_depth" => options.budget.max_depth = count()?,
        "max_nodes" => options.budget.max_nodes = count()?,
        "max_literal_bytes" => options.budget.max_literal_bytes = count()?,
        "diagnostics" => options.diagnostics = flag()?,
        "structured_output" => options.structured_output = flag()?,
        "recursion" => {
            let text = value
                .cast::<PyString>()
                .ok()
                .and_then(|t| t.to_cow().ok().map(std::borrow::Cow::into_owned))
                .unwrap_or_default();
            let mode = text.parse::<Recursion>().map_err(|_| {
                OptionProblem::BadValue(
                    "option \"recursion\" must be \"fallback\", \"keep-refs\", \"keep-refs:optional-only\", \"unroll\" or \"unroll:<N>\" with N >= 1"
                        .to_owned(),
                )
            })?;
            options.recursion = Some(mode);
        }
        _ => {
            return Err(OptionProblem::UnknownName(format!(
                "unknown option {name:?} (expected one of {})",
                NAMES.join(", ")
            )));
        }
    }
    Ok(())
}
