//! The compiled validator and the structured validation error.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::eval::Run;
use crate::node::{Node, NodeId};
use crate::options::Options;

/// Whether any value inside `instance` sits deeper than `limit` (the root at depth 0).
///
/// Iterative, with one stack frame per open container, so any nesting is measured safely.
fn nested_deeper_than(instance: &Value, limit: usize) -> bool {
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
    nodes: Vec<Node>,
    root: NodeId,
    resources: Vec<ResourceInfo>,
    dynamic_scoping: bool,
    options: Options,
}

/// One reason an instance is invalid (contract §10.4).
///
/// Its `Display` is the line [`errors`](crate::errors) returns: `<instance pointer>: <message> (<schema pointer>)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ValidationError {
    /// Where in the instance (RFC 6901; the root is `""`).
    pub instance_pointer: String,
    /// The keyword path as traversed, `$ref` segments included.
    pub schema_pointer: String,
    /// Lowercase human text from the table of contract §10.4.
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
    pub(crate) fn new(
        nodes: Vec<Node>,
        root: NodeId,
        resources: Vec<ResourceInfo>,
        dynamic_scoping: bool,
        options: Options,
    ) -> Validator {
        Validator {
            nodes,
            root,
            resources,
            dynamic_scoping,
            options,
        }
    }

    /// The options the validator was compiled with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether `instance` is valid; stops at the first failure.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.run(instance, false).0
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
            &self.nodes,
            &self.resources,
            self.dynamic_scoping,
            collect,
            self.options.max_errors,
        );
        let valid = run.node(self.root, instance, None, None, None);
        (valid, run.errors)
    }
}
