//! The native module `llmshim._native` of the Python package `llmshim`: JSON in and out of the facade.
//!
//! The Python package (`python/llmshim/__init__.py`) wraps these functions with keyword arguments, typed reports and
//! documented exceptions; use it, not this module. Every function converts its Python input to JSON from an explicit
//! stack (no depth limit, cycles and non-JSON objects refused with the pointer to them), releases the GIL while the
//! facade works, and hands the result back the same way, so no input can overflow a stack.
//!
//! ```python
//! import llmshim
//!
//! schema = {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}
//! out, report = llmshim.normalize(schema, "google")
//! assert out["properties"]["name"] == {"type": "string", "nullable": True}
//! assert report.changed and not report.used_fallback
//! ```

mod convert;
mod options;
mod rejection;
mod report;

use llmshim::schema::{self, Normalizer, Options};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::convert::{NotJson, dismantle, to_json, to_python};
use crate::options::OptionProblem;

/// The Python exception `llmshim.<class>` with its message and JSON Pointer.
fn error(py: Python<'_>, class: &str, message: &str, pointer: &str) -> PyErr {
    let raised = py
        .import("llmshim")
        .and_then(|module| module.getattr(class))
        .and_then(|class| class.call1((message, pointer)));
    match raised {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

fn not_json(py: Python<'_>, problem: &NotJson) -> PyErr {
    error(py, "InputError", &problem.message, &problem.pointer)
}

fn option_error(py: Python<'_>, problem: OptionProblem) -> PyErr {
    match problem {
        OptionProblem::UnknownName(message) => PyTypeError::new_err(message),
        OptionProblem::BadValue(message) => error(py, "OptionError", &message, ""),
    }
}

/// The options for `target`, `strict` and the keyword arguments.
fn options_for(
    py: Python<'_>,
    target: &str,
    strict: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Options> {
    let target = options::target(target).map_err(|p| option_error(py, p))?;
    options::build(target, strict, options).map_err(|p| option_error(py, p))
}

/// The JSON value of a Python argument.
fn json_of(py: Python<'_>, object: &Bound<'_, PyAny>) -> PyResult<Value> {
    to_json(object).map_err(|p| not_json(py, &p))
}

/// Normalizes a schema for a target: `(schema, report)`.
#[pyfunction]
#[pyo3(signature = (schema, target, strict = false, options = None))]
fn normalize<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    target: &str,
    strict: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let options = options_for(py, target, strict, options)?;
    let mut value = json_of(py, schema)?;
    let (value, report) = py.detach(move || {
        let report = schema::normalize_with(&options, &mut value);
        (value, report::normalization(&report))
    });
    Ok((to_python(py, value)?, to_python(py, report)?))
}

/// Turns a request's tools into the target's native array: `(request, tools report)`.
#[pyfunction]
#[pyo3(signature = (request, target, strict = false, options = None))]
fn normalize_tools<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    target: &str,
    strict: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let options = options_for(py, target, strict, options)?;
    let mut value = json_of(py, request)?;
    let (value, report) = py.detach(move || {
        let report = llmshim::tools::normalize_native_tools(&options, &mut value);
        (value, report::tools(&report))
    });
    Ok((to_python(py, value)?, to_python(py, report)?))
}

/// Prepares a structured-output schema: `(schema, report, wrapped)`.
#[pyfunction]
#[pyo3(signature = (schema, target, strict = false, options = None))]
fn prepare_output<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    target: &str,
    strict: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, bool)> {
    let options = options_for(py, target, strict, options)?;
    let original = json_of(py, schema)?;
    let (value, report, wrapped) = py.detach(move || {
        let out = Normalizer::default().normalize_output_with(&options, &original);
        dismantle(original);
        (
            out.schema,
            report::normalization(&out.normalization),
            out.wrapped,
        )
    });
    Ok((to_python(py, value)?, to_python(py, report)?, wrapped))
}

/// Normalizes a schema for each named target (every built-in one when `targets` is `None`): `[(target, report)]`.
#[pyfunction]
#[pyo3(signature = (schema, targets = None, strict = false, options = None))]
fn check<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    targets: Option<Vec<String>>,
    strict: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<(String, Bound<'py, PyAny>)>> {
    let names = targets.unwrap_or_else(|| {
        schema::Target::BUILTIN
            .iter()
            .map(ToString::to_string)
            .collect()
    });
    let mut results = Vec::with_capacity(names.len());
    for name in names {
        let options = options_for(py, &name, strict, options)?;
        // Each target normalizes its own copy, converted afresh (the conversion never recurses; a clone would).
        let mut value = json_of(py, schema)?;
        let report = py.detach(move || {
            let report = schema::normalize_with(&options, &mut value);
            dismantle(value);
            report::normalization(&report)
        });
        results.push((name, to_python(py, report)?));
    }
    Ok(results)
}

/// Validates an instance against a schema locally: `(valid, error lines)`.
#[pyfunction]
fn validate<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    instance: &Bound<'py, PyAny>,
) -> PyResult<(bool, Vec<String>)> {
    let schema = json_of(py, schema)?;
    let instance = json_of(py, instance)?;
    let outcome = py.detach(move || {
        let compiled = schema::validate::compile(&schema);
        let outcome = compiled.map(|validator| schema::validate::errors(&validator, &instance));
        dismantle(schema);
        dismantle(instance);
        outcome
    });
    match outcome {
        Ok(errors) => Ok((errors.is_empty(), errors)),
        Err(err) => Err(error(
            py,
            "SchemaError",
            &format!("the schema does not compile: {err}"),
            err.pointer(),
        )),
    }
}

/// Reads a provider's error body for the wire `request` that `target`'s tool translation produced: the rejection's
/// dict form, or `None` when the body names nothing the request has.
#[pyfunction]
fn locate<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    body: &[u8],
    target: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let target = options::target(target).map_err(|p| option_error(py, p))?;
    let request = json_of(py, request)?;
    let body = String::from_utf8_lossy(body).into_owned();
    let found = py.detach(move || {
        let found = llmshim::rejection::locate(target, &request, &body);
        dismantle(request);
        found.map(|r| r.to_json())
    });
    found.map(|r| to_python(py, r)).transpose()
}

/// Degrades the one tool a rejection names by one step: `(request, degrade report)`.
#[pyfunction]
#[pyo3(signature = (request, rejection, target, options = None))]
fn degrade<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    rejection: &Bound<'py, PyAny>,
    target: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let options = options_for(py, target, false, options)?;
    let rejection = rejection::read(&json_of(py, rejection)?)
        .map_err(|p| error(py, "InputError", &p.message, &p.pointer))?;
    let mut value = json_of(py, request)?;
    let (value, report) = py.detach(move || {
        let report = llmshim::rejection::degrade(&options, &mut value, &rejection);
        (value, rejection::degraded(&report))
    });
    Ok((to_python(py, value)?, to_python(py, report)?))
}

/// The native module: the functions above, and the limits the package documents.
#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(normalize, module)?)?;
    module.add_function(wrap_pyfunction!(normalize_tools, module)?)?;
    module.add_function(wrap_pyfunction!(prepare_output, module)?)?;
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(locate, module)?)?;
    module.add_function(wrap_pyfunction!(degrade, module)?)?;
    module.add("MAX_KEYWORD_STEPS", llmshim::rejection::MAX_KEYWORD_STEPS)?;
    module.add("MAX_VALUES", convert::MAX_VALUES)?;
    module.add("OPTION_NAMES", options::names())?;
    module.add("TARGETS", options::target_names())?;
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
