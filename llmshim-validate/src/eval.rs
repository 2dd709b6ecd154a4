//! Evaluating an instance against the compiled nodes: one recursive walk with a dynamic scope and an error sink.
//!
//! The walk runs in one of two modes: deciding validity only (stopping at the first failure), or collecting
//! errors up to the cap. Inside `anyOf`, `oneOf`, `not`, `if`, `contains` and `propertyNames` subschema failures
//! are expected, so those subschemas run silently and the keyword reports one error of its own.

mod applicators;
mod arrays;
mod assertions;
pub(crate) mod evaluated;
mod fast;
mod objects;
pub(crate) mod path;

use serde_json::Value;

use crate::node::{Dispatch, Keyword, Known, Node, NodeId, Tables};
use crate::validator::{Program, ResourceInfo, ValidationError};
use evaluated::Evaluated;
use path::{Path, render};

/// How deeply subschema applications may nest before evaluation stops with an error.
///
/// It bounds the stack a validation uses: a reference cycle that never moves to a child instance, or a very long
/// chain of in-place applicators, ends here instead of overflowing the stack.
pub(crate) const MAX_EVAL_DEPTH: u32 = 512;

/// The state of one validation.
pub(crate) struct Run<'s> {
    nodes: &'s [Node],
    keywords: &'s [Keyword],
    tables: &'s Tables,
    dispatches: &'s [Dispatch],
    resources: &'s [ResourceInfo],
    dynamic_scoping: bool,
    collect: bool,
    max_errors: usize,
    silent: u32,
    depth: u32,
    /// Subschema applications left before the work budget is spent.
    remaining: u64,
    /// Whether the work budget ran out; every verdict after that is meaningless.
    pub(crate) exhausted: bool,
    scope: Vec<u32>,
    pub(crate) errors: Vec<ValidationError>,
}

impl<'s> Run<'s> {
    pub(crate) fn new(
        program: &'s Program,
        collect: bool,
        max_errors: usize,
        max_evaluations: u64,
    ) -> Run<'s> {
        Run {
            nodes: &program.nodes,
            keywords: &program.keywords,
            tables: &program.tables,
            dispatches: &program.dispatches,
            resources: &program.resources,
            dynamic_scoping: program.dynamic_scoping,
            collect,
            max_errors: max_errors.max(1),
            silent: 0,
            depth: 0,
            remaining: max_evaluations,
            exhausted: false,
            scope: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Whether evaluation may stop at the first failure: nothing more will be recorded.
    #[inline]
    fn fail_fast(&self) -> bool {
        !self.collect || self.silent > 0 || self.errors.len() >= self.max_errors
    }

    /// Counts one subschema application against the work budget; `false` once it is spent.
    ///
    /// After that every node fails at once without looking further, so the walk unwinds in time proportional to
    /// the schema and instance it is in, and the caller replaces the verdict with the budget error.
    #[inline]
    fn charge(&mut self) -> bool {
        if self.remaining == 0 {
            self.exhausted = true;
            return false;
        }
        self.remaining -= 1;
        true
    }

    /// Whether an error reported now would be recorded.
    fn records(&self) -> bool {
        self.collect && self.silent == 0 && self.errors.len() < self.max_errors
    }

    /// Records an error at `instance`, with the schema location `schema` extended by `key`.
    fn error(
        &mut self,
        instance: Option<&Path<'_>>,
        schema: Option<&Path<'_>>,
        key: Option<&str>,
        message: impl FnOnce() -> String,
    ) {
        if self.records() {
            self.errors.push(ValidationError {
                instance_pointer: render(instance, None),
                schema_pointer: render(schema, key),
                message: message(),
            });
        }
    }

    /// Evaluates `id` at `instance` in silent mode, where failures are expected and never recorded.
    fn silently<'v>(
        &mut self,
        id: NodeId,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        self.silent += 1;
        let valid = self.node(id, instance, ip, sp, evaluated);
        self.silent -= 1;
        valid
    }

    /// Evaluates the node `id` at `instance`; `evaluated`, when given, receives what the node evaluated.
    ///
    /// When nothing will be recorded and no annotations are wanted, only the verdict matters, and the boolean
    /// walk of [`Run::valid`] gives it.
    #[inline]
    pub(crate) fn node<'v>(
        &mut self,
        id: NodeId,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        if evaluated.is_none() && self.fail_fast() {
            return self.valid(id, instance);
        }
        self.node_full(id, instance, ip, sp, evaluated)
    }

    /// Evaluates the node `id` with locations and annotations, recording errors when [`Run::records`] allows.
    fn node_full<'v>(
        &mut self,
        id: NodeId,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let nodes = self.nodes;
        let Some(node) = nodes.get(id as usize) else {
            return true;
        };
        if !self.charge() {
            return false;
        }
        if self.depth >= MAX_EVAL_DEPTH {
            self.error(ip, sp, None, || {
                format!("schema evaluation exceeds {MAX_EVAL_DEPTH} nested subschemas")
            });
            return false;
        }
        self.depth += 1;
        let pushed = self.dynamic_scoping && self.scope.last() != Some(&node.resource);
        if pushed {
            self.scope.push(node.resource);
        }
        let valid = if node.unevaluated {
            let mut local = Evaluated::default();
            let valid = self.keywords(node, instance, ip, sp, Some(&mut local));
            if valid && let Some(parent) = evaluated {
                parent.merge(local);
            }
            valid
        } else {
            self.keywords(node, instance, ip, sp, evaluated)
        };
        if pushed {
            self.scope.pop();
        }
        self.depth -= 1;
        valid
    }

    fn keywords<'v>(
        &mut self,
        node: &'s Node,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        mut evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        let mut valid = true;
        for keyword in node.keywords(self.keywords) {
            if !self.keyword(keyword, instance, ip, sp, evaluated.as_deref_mut()) {
                valid = false;
                if self.fail_fast() {
                    break;
                }
            }
        }
        valid
    }

    fn keyword<'v>(
        &mut self,
        keyword: &'s Keyword,
        instance: &'v Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
        evaluated: Option<&mut Evaluated<'v>>,
    ) -> bool {
        match keyword {
            Keyword::False => {
                self.error(ip, sp, None, || "no value is allowed here".to_owned());
                false
            }
            Keyword::Items {
                prefix,
                prefix_key,
                rest,
                rest_key,
            } => self.items(
                prefix,
                prefix_key.as_str(),
                *rest,
                rest_key.as_str(),
                instance,
                ip,
                sp,
                evaluated,
            ),
            Keyword::Contains {
                node,
                min,
                min_key,
                max,
                annotate,
            } => self.contains(
                *node,
                *min,
                min_key.as_str(),
                *max,
                *annotate,
                instance,
                ip,
                sp,
                evaluated,
            ),
            Keyword::UnevaluatedItems(node) => {
                self.unevaluated_items(*node, instance, ip, sp, evaluated)
            }
            Keyword::Properties { table, .. } => {
                self.properties(*table, instance, ip, sp, evaluated)
            }
            Keyword::PatternProperties { entries, .. } => {
                self.pattern_properties(entries, instance, ip, sp, evaluated)
            }
            Keyword::AdditionalProperties {
                node,
                is_false,
                properties,
                patterns,
            } => {
                let known = Known::of(self.keywords, *properties, patterns);
                self.additional_properties(*node, *is_false, known, instance, ip, sp, evaluated)
            }
            Keyword::UnevaluatedProperties { node, is_false } => {
                self.unevaluated_properties(*node, *is_false, instance, ip, sp, evaluated)
            }
            Keyword::PropertyNames(node) => self.property_names(*node, instance, ip, sp),
            Keyword::Dependencies { key, entries } => {
                self.dependencies(key.as_str(), entries, instance, ip, sp, evaluated)
            }
            Keyword::AllOf { nodes, .. } => self.all_of(nodes, instance, ip, sp, evaluated),
            Keyword::AnyOf(nodes) => self.any_of(nodes, instance, ip, sp, evaluated),
            Keyword::OneOf(nodes) => self.one_of(nodes, instance, ip, sp, evaluated),
            Keyword::Not(node) => self.not(*node, instance, ip, sp),
            Keyword::If {
                condition,
                then,
                otherwise,
            } => self.if_then_else(*condition, *then, *otherwise, instance, ip, sp, evaluated),
            Keyword::Ref {
                key,
                target,
                dynamic,
            } => {
                let target = self.dynamic_target(*target, dynamic);
                let child = Path::key(sp, key.as_str());
                self.node(target, instance, ip, Some(&child), evaluated)
            }
            _ => self.assertion(keyword, instance, ip, sp),
        }
    }
}
