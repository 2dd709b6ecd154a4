//! The compiled validator and the structured validation error.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::eval::Run;
use crate::node::{Dispatch, Keyword, Node, NodeId, Tables};
use crate::options::Options;

/// Limits up to this are measured recursively (at most this many frames of [`deeper_below`]); larger ones
/// iteratively.
const RECURSIVE_DEPTH_CHECK: usize = 256;

/// Whether any value inside `instance` sits deeper than `limit` (the root at depth 0).
#[inline]
fn nested_deeper_than(instance: &Value, limit: usize) -> bool {
    // Most instances are a flat object or array: its members sit at depth 1, and only a non-empty member
    // container calls for the full measure.
    let flat = match instance {
        Value::Object(map) => map.values().all(|v| !is_open(v)),
        Value::Array(items) => items.iter().all(|v| !is_open(v)),
        _ => return false,
    };
    if flat {
        return limit == 0 && !is_empty(instance);
    }
    nested_deeper_than_full(instance, limit)
}

/// [`nested_deeper_than`] for an instance with nested containers.
#[inline(never)]
fn nested_deeper_than_full(instance: &Value, limit: usize) -> bool {
    if limit <= RECURSIVE_DEPTH_CHECK {
        deeper_below(instance, 0, limit)
    } else {
        nested_deeper_than_iterative(instance, limit)
    }
}

/// Whether `value` is a non-empty container.
#[inline]
fn is_open(value: &Value) -> bool {
    match value {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    }
}

/// Whether `value` is an empty container (or a scalar).
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => true,
    }
}

/// Whether a value inside `container` (at depth `depth`) sits deeper than `limit`; recursion is bounded by
/// `limit`, since it stops one level past it.
fn deeper_below(container: &Value, depth: usize, limit: usize) -> bool {
    if depth >= limit {
        // Every child sits deeper than the limit.
        return match container {
            Value::Array(items) => !items.is_empty(),
            Value::Object(map) => !map.is_empty(),
            _ => false,
        };
    }
    // Only a non-empty child container can hold a value deeper than the limit.
    let child = |value: &Value| match value {
        Value::Array(items) if !items.is_empty() => deeper_below(value, depth + 1, limit),
        Value::Object(map) if !map.is_empty() => deeper_below(value, depth + 1, limit),
        _ => false,
    };
    match container {
        Value::Array(items) => items.iter().any(child),
        Value::Object(map) => map.values().any(child),
        _ => false,
    }
}

/// As [`nested_deeper_than`], iterative, with one stack frame per open container, so any nesting is measured
/// safely.
fn nested_deeper_than_iterative(instance: &Value, limit: usize) -> bool {
    enum Open<'a> {
        Array(std::slice::Iter<'a, Value>),
        Object(serde_json::map::Values<'a>),
    }
    let mut stack = match instance {
        Value::Array(items) if !items.is_empty() => vec![Open::Array(items.iter())],
        Value::Object(map) if !map.is_empty() => vec![Open::Object(map.values())],
        _ => return false,
    };
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Open::Array(items) => items.next(),
            Open::Object(members) => members.next(),
        };
        let Some(value) = next else {
            stack.pop();
            continue;
        };
        // The children of the top container sit at depth `stack.len()`.
        if stack.len() > limit {
            return true;
        }
        match value {
            Value::Array(items) if !items.is_empty() => stack.push(Open::Array(items.iter())),
            Value::Object(map) if !map.is_empty() => stack.push(Open::Object(map.values())),
            _ => {}
        }
    }
    false
}

/// One schema resource (a base URI) and the nodes dynamic references may land on inside it.
#[derive(Debug)]
pub(crate) struct ResourceInfo {
    pub(crate) uri: Arc<str>,
    /// `$dynamicAnchor` names and their nodes.
    pub(crate) dynamic_anchors: Vec<(Box<str>, NodeId)>,
    /// The resource's root when it has `$recursiveAnchor: true`.
    pub(crate) recursive_root: Option<NodeId>,
}

/// A schema compiled once and reusable for any number of instances, from any number of threads.
///
/// ```
/// use llmshim_validate::compile;
/// use serde_json::json;
///
/// let validator = compile(&json!({"type": "object", "required": ["name"]}))?;
/// assert!(validator.is_valid(&json!({"name": "Ada"})));
/// let errors = validator.validate(&json!({})).unwrap_err();
/// assert_eq!(errors[0].to_string(), r#": missing required property "name" (/required)"#);
/// # Ok::<(), llmshim_validate::Error>(())
/// ```
#[derive(Debug)]
pub struct Validator {
    program: Program,
    options: Options,
}

/// A compiled schema: the node and keyword arenas and the side tables the evaluator reads.
#[derive(Debug)]
pub(crate) struct Program {
    pub(crate) nodes: Vec<Node>,
    pub(crate) keywords: Vec<Keyword>,
    pub(crate) tables: Tables,
    pub(crate) dispatches: Vec<Dispatch>,
    pub(crate) resources: Vec<ResourceInfo>,
    pub(crate) root: NodeId,
    pub(crate) dynamic_scoping: bool,
}

/// One reason an instance is invalid.
///
/// Its `Display` is the line [`errors`](crate::errors) returns: `<instance pointer>: <message> (<schema pointer>)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ValidationError {
    /// Where in the instance (RFC 6901; the root is `""`).
    pub instance_pointer: String,
    /// The keyword path as traversed, `$ref` segments included.
    pub schema_pointer: String,
    /// Lowercase human text, one fixed message per failed keyword.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.instance_pointer, self.message, self.schema_pointer
        )
    }
}

impl Validator {
    pub(crate) fn new(program: Program, options: Options) -> Validator {
        Validator { program, options }
    }

    /// The options the validator was compiled with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether `instance` is valid; stops at the first failure.
    pub fn is_valid(&self, instance: &Value) -> bool {
        if nested_deeper_than(instance, self.options.max_instance_depth) {
            return false;
        }
        let mut run = Run::new(
            &self.program,
            false,
            self.options.max_errors,
            self.options.max_evaluations,
        );
        let valid = run.valid(self.program.root, instance);
        valid && !run.exhausted
    }

    /// Validates `instance`, returning at most `max_errors` errors (at least one when it is invalid).
    ///
    /// Errors come depth-first in schema-keyword order.
    ///
    /// # Errors
    ///
    /// The instance's errors when it is invalid.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<ValidationError>> {
        let (valid, mut errors) = self.run(instance, true);
        if valid {
            return Ok(());
        }
        if errors.is_empty() {
            // Every failure is reported somewhere; this keeps the promise of a non-empty list regardless.
            errors.push(ValidationError {
                instance_pointer: String::new(),
                schema_pointer: String::new(),
                message: "value is invalid".to_owned(),
            });
        }
        Err(errors)
    }

    fn run(&self, instance: &Value, collect: bool) -> (bool, Vec<ValidationError>) {
        let limit = self.options.max_instance_depth;
        if nested_deeper_than(instance, limit) {
            let error = ValidationError {
                instance_pointer: String::new(),
                schema_pointer: String::new(),
                message: format!("instance nesting exceeds {limit} levels"),
            };
            return (false, vec![error]);
        }
        let mut run = Run::new(
            &self.program,
            collect,
            self.options.max_errors,
            self.options.max_evaluations,
        );
        let valid = run.node(self.program.root, instance, None, None, None);
        if run.exhausted {
            // What was recorded before the budget ran out may blame branches that were cut short.
            let error = ValidationError {
                instance_pointer: String::new(),
                schema_pointer: String::new(),
                message: format!(
                    "validation exceeded its work budget of {} subschema applications",
                    self.options.max_evaluations
                ),
            };
            return (false, vec![error]);
        }
        (valid, run.errors)
    }
}
