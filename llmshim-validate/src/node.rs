//! The compiled form of a schema: an arena of nodes, each a list of keywords in evaluation order.

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use serde_json::{Number, Value};

use crate::format::Format;
use crate::regex::Pattern;

/// The index of a node in the validator's arena.
pub(crate) type NodeId = u32;

/// One compiled schema (object or boolean).
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// The keywords, in schema order, with `unevaluated*` last.
    pub(crate) keywords: Vec<Keyword>,
    /// The schema resource (base URI) the node belongs to, for dynamic scoping.
    pub(crate) resource: u32,
    /// Whether the node has `unevaluatedProperties` or `unevaluatedItems`, so its in-place subschemas must report
    /// what they evaluated.
    pub(crate) unevaluated: bool,
}

/// The JSON types a `type` keyword allows, as bit flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeSet(pub(crate) u8);

impl TypeSet {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOLEAN: u8 = 2;
    pub(crate) const OBJECT: u8 = 4;
    pub(crate) const ARRAY: u8 = 8;
    pub(crate) const NUMBER: u8 = 16;
    pub(crate) const STRING: u8 = 32;
    pub(crate) const INTEGER: u8 = 64;

    /// The flag of a type name.
    pub(crate) fn flag(name: &str) -> Option<u8> {
        Some(match name {
            "null" => TypeSet::NULL,
            "boolean" => TypeSet::BOOLEAN,
            "object" => TypeSet::OBJECT,
            "array" => TypeSet::ARRAY,
            "number" => TypeSet::NUMBER,
            "string" => TypeSet::STRING,
            "integer" => TypeSet::INTEGER,
            _ => return None,
        })
    }
}

/// One side of a dependency: required names or a schema (`dependentRequired`, `dependentSchemas`, `dependencies`).
#[derive(Debug)]
pub(crate) enum Dependency {
    Required(Vec<String>),
    Schema(NodeId),
}

/// What `additionalProperties` leaves alone: the sibling `properties` names and `patternProperties` patterns.
#[derive(Debug)]
pub(crate) struct Known {
    pub(crate) names: HashSet<String>,
    pub(crate) patterns: Vec<Arc<Pattern>>,
}

/// A numeric bound and its compact JSON text for messages.
#[derive(Debug)]
pub(crate) struct Bound {
    pub(crate) value: Number,
    pub(crate) key: &'static str,
}

/// How a `$dynamicRef` or `$recursiveRef` finds its target at run time.
#[derive(Debug)]
pub(crate) enum Dynamic {
    /// Behaves like `$ref`.
    Static,
    /// The outermost resource in the dynamic scope with a `$dynamicAnchor` of this name wins.
    Anchor(Box<str>),
    /// The outermost resource in the dynamic scope whose root has `$recursiveAnchor: true` wins.
    Recursive,
}

/// One compiled keyword.
#[derive(Debug)]
pub(crate) enum Keyword {
    /// The `false` schema.
    False,
    Type {
        types: TypeSet,
        names: Box<[&'static str]>,
    },
    Enum(Box<[Value]>),
    Const(Value),
    Minimum(Bound),
    Maximum(Bound),
    ExclusiveMinimum(Bound),
    ExclusiveMaximum(Bound),
    MultipleOf(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Arc<Pattern>),
    Format(Format),
    /// Draft-07 content assertions on strings.
    Content {
        base64: bool,
        json: bool,
    },
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `prefixItems` (or array `items`) followed by `items` (or `additionalItems`) for the rest.
    Items {
        prefix: Box<[NodeId]>,
        prefix_key: &'static str,
        rest: Option<NodeId>,
        rest_key: &'static str,
    },
    Contains {
        node: NodeId,
        min: u64,
        min_key: &'static str,
        max: Option<u64>,
        annotate: bool,
    },
    MinProperties(u64),
    MaxProperties(u64),
    Required(Box<[String]>),
    Properties {
        entries: Box<[(String, NodeId)]>,
        /// The position of each name in `entries`.
        index: HashMap<Box<str>, u32>,
    },
    PatternProperties(Box<[(Arc<Pattern>, NodeId)]>),
    AdditionalProperties {
        node: NodeId,
        is_false: bool,
        known: Box<Known>,
    },
    PropertyNames(NodeId),
    Dependencies {
        key: &'static str,
        entries: Box<[(String, Dependency)]>,
    },
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    If {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
    Ref {
        key: &'static str,
        target: NodeId,
        dynamic: Dynamic,
    },
    UnevaluatedItems(NodeId),
    UnevaluatedProperties {
        node: NodeId,
        is_false: bool,
    },
}
