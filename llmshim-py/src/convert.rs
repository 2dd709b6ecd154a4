//! Python objects to `serde_json` values and back, from explicit stacks: no input depth can overflow the stack.
//!
//! Python to JSON accepts `dict` (string keys), `list`, `tuple`, `str`, `int`, `float`, `bool` and `None`, as
//! `json.dumps` does by default, and refuses anything else, a non-finite float, a dict key that is not a string, a
//! container that contains itself, and more than [`MAX_VALUES`] values in all (so a list that holds the same list
//! twice, forty levels down, cannot ask for 2^40 values). An `int` outside the 64-bit ranges becomes the nearest
//! float, as `serde_json` reads such a number from text. JSON to Python consumes the value, so nothing deep is
//! dropped recursively on the way.

use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// The most values one conversion from Python builds.
pub(crate) const MAX_VALUES: usize = 1 << 22;

/// Why a Python object is not JSON, and where: a JSON Pointer into the object.
#[derive(Debug)]
pub(crate) struct NotJson {
    pub(crate) message: String,
    pub(crate) pointer: String,
}

/// A container being converted: its children still to visit and the JSON built so far.
enum Open<'py> {
    Array {
        id: usize,
        items: Vec<Bound<'py, PyAny>>,
        next: usize,
        out: Vec<Value>,
    },
    Object {
        id: usize,
        members: Vec<(String, Bound<'py, PyAny>)>,
        next: usize,
        out: Map<String, Value>,
    },
}

impl Open<'_> {
    fn id(&self) -> usize {
        match self {
            Open::Array { id, .. } | Open::Object { id, .. } => *id,
        }
    }
}

/// The JSON value of `object`.
pub(crate) fn to_json(object: &Bound<'_, PyAny>) -> Result<Value, NotJson> {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut open_ids: HashSet<usize> = HashSet::new();
    let mut count = 0usize;
    let result = convert(object, &mut stack, &mut open_ids, &mut count);
    // After an error the stack holds the values built so far; free them without recursion.
    for frame in stack {
        match frame {
            Open::Array { out, .. } => dismantle(Value::Array(out)),
            Open::Object { out, .. } => dismantle(Value::Object(out)),
        }
    }
    result
}

fn convert<'py>(
    root: &Bound<'py, PyAny>,
    stack: &mut Vec<Open<'py>>,
    open_ids: &mut HashSet<usize>,
    count: &mut usize,
) -> Result<Value, NotJson> {
    let mut next = root.clone();
    loop {
        *count += 1;
        if *count > MAX_VALUES {
            return Err(not_json(
                stack,
                format!("the object holds more than {MAX_VALUES} values"),
            ));
        }
        let mut done = open(&next, stack, open_ids)?;
        loop {
            if let Some(value) = done.take() {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array { out, .. }) => out.push(value),
                    Some(Open::Object {
                        members, next, out, ..
                    }) => {
                        let key = std::mem::take(&mut members[*next - 1].0);
                        if let Some(replaced) = out.insert(key, value) {
                            dismantle(replaced);
                        }
                    }
                }
            }
            let child = match stack.last_mut() {
                Some(Open::Array { items, next, .. }) => {
                    let child = items.get(*next).cloned();
                    *next += 1;
                    child
                }
                Some(Open::Object { members, next, .. }) => {
                    let child = members.get(*next).map(|(_, v)| v.clone());
                    *next += 1;
                    child
                }
                None => None,
            };
            if let Some(child) = child {
                next = child;
                break;
            }
            let Some(frame) = stack.pop() else {
                return Ok(Value::Null);
            };
            open_ids.remove(&frame.id());
            done = Some(match frame {
                Open::Array { out, .. } => Value::Array(out),
                Open::Object { out, .. } => Value::Object(out),
            });
        }
    }
}

/// A scalar's value, or `None` after pushing a container's frame.
fn open<'py>(
    object: &Bound<'py, PyAny>,
    stack: &mut Vec<Open<'py>>,
    open_ids: &mut HashSet<usize>,
) -> Result<Option<Value>, NotJson> {
    if object.is_none() {
        return Ok(Some(Value::Null));
    }
    if let Ok(flag) = object.cast::<PyBool>() {
        return Ok(Some(Value::Bool(flag.is_true())));
    }
    if let Ok(text) = object.cast::<PyString>() {
        return match text.to_cow() {
            Ok(text) => Ok(Some(Value::String(text.into_owned()))),
            Err(_) => Err(not_json(
                stack,
                "the string is not valid unicode (a lone surrogate)".to_owned(),
            )),
        };
    }
    if object.cast::<PyInt>().is_ok() {
        return integer(object, stack).map(Some);
    }
    if let Ok(float) = object.cast::<PyFloat>() {
        return match Number::from_f64(float.value()) {
            Some(number) => Ok(Some(Value::Number(number))),
            None => Err(not_json(
                stack,
                format!("the float {} is not a JSON number", float.value()),
            )),
        };
    }
    let id = object.as_ptr() as usize;
    let items = if let Ok(list) = object.cast::<PyList>() {
        Some(list.iter().collect::<Vec<_>>())
    } else if let Ok(tuple) = object.cast::<PyTuple>() {
        Some(tuple.iter().collect::<Vec<_>>())
    } else {
        None
    };
    if let Some(items) = items {
        enter(id, stack, open_ids)?;
        stack.push(Open::Array {
            id,
            out: Vec::with_capacity(items.len()),
            items,
            next: 0,
        });
        return Ok(None);
    }
    if let Ok(dict) = object.cast::<PyDict>() {
        let mut members = Vec::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                let type_name = type_name(&key);
                return Err(not_json(
                    stack,
                    format!("a dict key is a {type_name}, not a string"),
                ));
            };
            let Ok(key) = key.to_cow() else {
                return Err(not_json(
                    stack,
                    "a dict key is not valid unicode (a lone surrogate)".to_owned(),
                ));
            };
            members.push((key.into_owned(), value));
        }
        enter(id, stack, open_ids)?;
        stack.push(Open::Object {
            id,
            out: Map::new(),
            members,
            next: 0,
        });
        return Ok(None);
    }
    Err(not_json(
        stack,
        format!("a {} is not JSON", type_name(object)),
    ))
}

/// Marks the container `id` as open; a container already open contains itself.
fn enter(id: usize, stack: &[Open<'_>], open_ids: &mut HashSet<usize>) -> Result<(), NotJson> {
    if open_ids.insert(id) {
        Ok(())
    } else {
        Err(not_json(stack, "the object contains itself".to_owned()))
    }
}

/// An `int` as a JSON number: `i64`, then `u64`, then the nearest float.
fn integer(object: &Bound<'_, PyAny>, stack: &[Open<'_>]) -> Result<Value, NotJson> {
    if let Ok(n) = object.extract::<i64>() {
        return Ok(Value::from(n));
    }
    if let Ok(n) = object.extract::<u64>() {
        return Ok(Value::from(n));
    }
    match object.extract::<f64>().ok().and_then(Number::from_f64) {
        Some(number) => Ok(Value::Number(number)),
        None => Err(not_json(
            stack,
            "the integer is too large for a JSON number".to_owned(),
        )),
    }
}

fn type_name(object: &Bound<'_, PyAny>) -> String {
    object
        .get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string())
}

/// The error `message` at the child being converted, located by the open containers.
fn not_json(stack: &[Open<'_>], message: String) -> NotJson {
    let mut pointer = String::new();
    for frame in stack {
        pointer.push('/');
        match frame {
            Open::Array { next, .. } => pointer.push_str(&next.saturating_sub(1).to_string()),
            Open::Object { members, next, .. } => {
                let key = members
                    .get(next.saturating_sub(1))
                    .map_or("", |(k, _)| k.as_str());
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
        }
    }
    NotJson { message, pointer }
}

/// A container being filled on the Python side, and the JSON children still to move into it.
enum Fill<'py> {
    List(Bound<'py, PyList>, std::vec::IntoIter<Value>),
    Dict(Bound<'py, PyDict>, serde_json::map::IntoIter),
}

/// The Python object of `value` (dicts keep the key order), consuming it.
pub(crate) fn to_python(py: Python<'_>, value: Value) -> PyResult<Bound<'_, PyAny>> {
    let mut stack: Vec<Fill<'_>> = Vec::new();
    let result = fill(py, value, &mut stack);
    for frame in stack {
        match frame {
            Fill::List(_, rest) => rest.for_each(dismantle),
            Fill::Dict(_, rest) => rest.for_each(|(_, v)| dismantle(v)),
        }
    }
    result
}

fn fill<'py>(
    py: Python<'py>,
    root: Value,
    stack: &mut Vec<Fill<'py>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (root, frame) = shell(py, root)?;
    stack.extend(frame);
    loop {
        let frame = match stack.last_mut() {
            None => return Ok(root),
            Some(Fill::List(list, rest)) => {
                let Some(child) = rest.next() else {
                    stack.pop();
                    continue;
                };
                let (object, frame) = shell(py, child)?;
                list.append(&object)?;
                frame
            }
            Some(Fill::Dict(dict, rest)) => {
                let Some((key, child)) = rest.next() else {
                    stack.pop();
                    continue;
                };
                let (object, frame) = shell(py, child)?;
                dict.set_item(key, &object)?;
                frame
            }
        };
        stack.extend(frame);
    }
}

/// The Python object for `value`: a scalar whole, or an empty container and the frame that fills it.
fn shell(py: Python<'_>, value: Value) -> PyResult<(Bound<'_, PyAny>, Option<Fill<'_>>)> {
    Ok(match value {
        Value::Null => (py.None().into_bound(py), None),
        Value::Bool(flag) => (PyBool::new(py, flag).to_owned().into_any(), None),
        Value::Number(number) => (number_object(py, &number)?, None),
        Value::String(text) => (PyString::new(py, &text).into_any(), None),
        Value::Array(items) => {
            let list = PyList::empty(py);
            (
                list.clone().into_any(),
                Some(Fill::List(list, items.into_iter())),
            )
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            (
                dict.clone().into_any(),
                Some(Fill::Dict(dict, map.into_iter())),
            )
        }
    })
}

fn number_object<'py>(py: Python<'py>, number: &Number) -> PyResult<Bound<'py, PyAny>> {
    if let Some(n) = number.as_i64() {
        Ok(n.into_pyobject(py)?.into_any())
    } else if let Some(n) = number.as_u64() {
        Ok(n.into_pyobject(py)?.into_any())
    } else {
        Ok(PyFloat::new(py, number.as_f64().unwrap_or(f64::NAN)).into_any())
    }
}

/// Drops `value` from an explicit stack, so that a value nested deeper than the stack allows is freed safely.
pub(crate) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}
