//! Compiling a schema once into the validator's node arena.
//!
//! Compilation is a worklist over schema locations: each location (identified by the address of its value in the
//! document or a registered resource) becomes one node, so recursive references compile once and never loop.
//! References resolve through `llmshim_resolve::Registry`; `$dynamicRef` and `$recursiveRef` targets are collected
//! per resource so the evaluator can follow the dynamic scope without any lookup at run time.

mod checks;
mod keywords;
mod link;

pub(crate) use keywords::type_keyword;

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use llmshim_core::pointer::push_token;
use llmshim_core::{Budget, FallbackKind, FallbackReason};
use llmshim_resolve::{Draft, Registry, Resource, Resources};
use serde_json::{Map, Value};

use crate::error::Error;
use crate::node::{Keyword, Node, NodeId, ObjectShape, Tables, TypeSet};
use crate::options::Options;
use crate::regex::Pattern;
use crate::validator::{Program, ResourceInfo, Validator};

/// The draft and vocabularies a schema is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// The draft; draft-03 is read as draft-04.
    pub(crate) draft: Draft,
    /// Whether the validation vocabulary (assertions such as `type` and `minimum`) is in effect.
    pub(crate) validation: bool,
}

impl Dialect {
    fn of(draft: Draft) -> Dialect {
        Dialect {
            draft: normalize(draft),
            validation: true,
        }
    }

    /// Whether the draft is 2019-09 or 2020-12.
    pub(crate) fn modern(self) -> bool {
        matches!(self.draft, Draft::Draft202012 | Draft::Draft201909)
    }

    /// Whether the draft is draft-06 or later.
    pub(crate) fn at_least_6(self) -> bool {
        !matches!(self.draft, Draft::Draft4 | Draft::Draft3)
    }
}

fn normalize(draft: Draft) -> Draft {
    match draft {
        Draft::Draft3 => Draft::Draft4,
        other => other,
    }
}

/// A location waiting to be compiled into the node `id`.
pub(crate) struct Pending<'a> {
    pub(crate) id: NodeId,
    pub(crate) value: &'a Value,
    /// The base URI in effect for the node, its own identifier included.
    pub(crate) base: Arc<str>,
    pub(crate) dialect: Dialect,
    /// The node's JSON Pointer inside its document, for error messages (rendered only when one is needed).
    pub(crate) loc: LocId,
}

/// The index of a location in the compiler's location arena.
pub(crate) type LocId = u32;

/// One step of a JSON Pointer below a location.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

/// A location: a full pointer (a document root or a reference target), or one token below another location.
enum Loc<'a> {
    Full(Box<str>),
    Child { parent: LocId, token: Token<'a> },
}

/// The JSON Pointers of the nodes, kept as a tree of tokens and rendered only for error messages.
#[derive(Default)]
struct Locs<'a> {
    locs: Vec<Loc<'a>>,
}

impl<'a> Locs<'a> {
    fn full(&mut self, pointer: &str) -> LocId {
        self.locs.push(Loc::Full(pointer.into()));
        (self.locs.len() - 1) as LocId
    }

    fn child(&mut self, parent: LocId, tokens: &[Token<'a>]) -> LocId {
        let mut at = parent;
        for token in tokens {
            self.locs.push(Loc::Child {
                parent: at,
                token: *token,
            });
            at = (self.locs.len() - 1) as LocId;
        }
        at
    }

    /// Whether the location is the root of its document.
    fn is_document_root(&self, loc: LocId) -> bool {
        matches!(self.locs.get(loc as usize), Some(Loc::Full(p)) if p.is_empty())
    }

    /// The pointer of `loc` extended by `tokens`.
    fn render(&self, loc: LocId, tokens: &[Token<'_>]) -> String {
        let mut chain = Vec::new();
        let mut at = Some(loc);
        let mut out = String::new();
        while let Some(id) = at {
            match self.locs.get(id as usize) {
                Some(Loc::Child { parent, token }) => {
                    chain.push(*token);
                    at = Some(*parent);
                }
                Some(Loc::Full(pointer)) => {
                    out.push_str(pointer);
                    at = None;
                }
                None => at = None,
            }
        }
        for token in chain.iter().rev().chain(tokens) {
            match token {
                Token::Key(key) => push_token(&mut out, key),
                Token::Index(index) => push_token(&mut out, &index.to_string()),
            }
        }
        out
    }
}

/// The compiler's state while the worklist drains.
pub(crate) struct Compiler<'a> {
    registry: Registry<'a>,
    documents: Vec<&'a Value>,
    options: &'a Options,
    root_dialect: Dialect,
    nodes: Vec<Node>,
    /// The keywords of every node; each node owns a contiguous range.
    pub(crate) keywords: Vec<Keyword>,
    /// The `properties` tables.
    pub(crate) tables: Tables,
    by_address: HashMap<usize, NodeId>,
    pending: Vec<Pending<'a>>,
    resources: Vec<ResourceInfo>,
    resource_ids: HashMap<Arc<str>, u32>,
    /// The last base looked up in `resource_ids` and its index; most nodes share their parent's base.
    last_resource: Option<(Arc<str>, u32)>,
    dynamic_names: Vec<Box<str>>,
    recursive: bool,
    probed: HashSet<(u32, Box<str>)>,
    probed_recursive: HashSet<u32>,
    dynamic_scoping: bool,
    limits_checked: HashSet<usize>,
    locs: Locs<'a>,
    /// Resolved references by referrer base (its address; the `Arc` is kept alive here) and reference text.
    references: HashMap<(usize, &'a str), (Arc<str>, NodeId, &'a Value)>,
    /// Compiled patterns by source, so a pattern repeated across the schema compiles once.
    patterns: HashMap<&'a str, Arc<Pattern>>,
}

/// Compiles `schema` with `resources` and `options`.
pub(crate) fn build(
    schema: &Value,
    resources: &Resources,
    options: &Options,
) -> Result<Validator, Error> {
    if !crate::limits::within(schema) {
        return Err(Error::Limits);
    }
    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
        return Err(Error::invalid("", "schema must be an object or a boolean"));
    }
    let registry = Registry::with_draft(schema, resources, &Budget::default(), options.draft)
        .map_err(registry_error)?;
    let root_dialect = root_dialect(schema, &registry, options);
    let root_base = registry.root_base();
    let mut documents = vec![schema];
    documents.extend(resources.iter().map(|(_, doc)| doc));
    let mut compiler = Compiler {
        registry,
        documents,
        options,
        root_dialect,
        nodes: Vec::new(),
        keywords: Vec::new(),
        tables: Tables::default(),
        by_address: HashMap::new(),
        pending: Vec::new(),
        resources: Vec::new(),
        resource_ids: HashMap::new(),
        dynamic_names: Vec::new(),
        recursive: false,
        probed: HashSet::new(),
        probed_recursive: HashSet::new(),
        dynamic_scoping: false,
        limits_checked: HashSet::new(),
        locs: Locs::default(),
        references: HashMap::new(),
        patterns: HashMap::new(),
        last_resource: None,
    };
    let root = compiler.ensure_full(schema, root_base, root_dialect, "");
    compiler.run()?;
    let dispatches = link::link(
        &mut compiler.nodes,
        &mut compiler.keywords,
        &mut compiler.tables,
        compiler.dynamic_scoping,
    );
    let program = Program {
        nodes: compiler.nodes,
        keywords: compiler.keywords,
        tables: compiler.tables,
        dispatches,
        resources: compiler.resources,
        root,
        dynamic_scoping: compiler.dynamic_scoping,
    };
    Ok(Validator::new(program, options.clone()))
}

/// The root's dialect: the option, else `$schema` (a registered meta-schema lends its draft and vocabularies).
fn root_dialect(schema: &Value, registry: &Registry<'_>, options: &Options) -> Dialect {
    if let Some(draft) = options.draft {
        return Dialect::of(draft);
    }
    let Some(uri) = schema.get("$schema").and_then(Value::as_str) else {
        return Dialect::of(Draft::Draft202012);
    };
    if let Some(draft) = Draft::from_uri(uri) {
        return Dialect::of(draft);
    }
    let Ok(meta) = registry.resolve(uri, "") else {
        return Dialect::of(Draft::Draft202012);
    };
    let draft = meta
        .value
        .get("$schema")
        .and_then(Value::as_str)
        .and_then(Draft::from_uri)
        .unwrap_or(Draft::Draft202012);
    let validation = match meta.value.get("$vocabulary").and_then(Value::as_object) {
        Some(vocabularies) => vocabularies
            .keys()
            .any(|k| k.ends_with("/vocab/validation")),
        None => true,
    };
    Dialect {
        draft: normalize(draft),
        validation,
    }
}

fn registry_error(reason: FallbackReason) -> Error {
    match reason.kind {
        FallbackKind::BudgetDepth | FallbackKind::BudgetNodes | FallbackKind::BudgetLiteral => {
            Error::Limits
        }
        _ => Error::invalid(reason.pointer, reason.message),
    }
}

fn reference_error(reason: FallbackReason) -> Error {
    match reason.kind {
        FallbackKind::ExternalRef => {
            Error::invalid(reason.pointer, "external schema retrieval is disabled")
        }
        _ => Error::invalid(reason.pointer, reason.message),
    }
}

fn address(value: &Value) -> usize {
    std::ptr::from_ref(value) as usize
}

impl<'a> Compiler<'a> {
    /// The node for `value`, queued for compilation when it is new, at the location `loc` makes.
    fn ensure_with(
        &mut self,
        value: &'a Value,
        base: Arc<str>,
        dialect: Dialect,
        loc: impl FnOnce(&mut Locs<'a>) -> LocId,
    ) -> NodeId {
        if let Some(&id) = self.by_address.get(&address(value)) {
            return id;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::default());
        self.by_address.insert(address(value), id);
        let loc = loc(&mut self.locs);
        self.pending.push(Pending {
            id,
            value,
            base,
            dialect,
            loc,
        });
        id
    }

    /// The node for `value` found at the full pointer `pointer` (a document root or a reference target).
    fn ensure_full(
        &mut self,
        value: &'a Value,
        base: Arc<str>,
        dialect: Dialect,
        pointer: &str,
    ) -> NodeId {
        self.ensure_with(value, base, dialect, |locs| locs.full(pointer))
    }

    /// The pointer of `loc` extended by `tokens`, for an error message.
    pub(crate) fn pointer(&self, loc: LocId, tokens: &[Token<'_>]) -> String {
        self.locs.render(loc, tokens)
    }

    /// An `Error::Invalid` at `tokens` below `loc`.
    pub(crate) fn invalid(
        &self,
        loc: LocId,
        tokens: &[Token<'_>],
        message: impl Into<String>,
    ) -> Error {
        Error::invalid(self.pointer(loc, tokens), message)
    }

    /// Compiles queued nodes until none are left and every dynamic anchor a dynamic reference may reach is known.
    fn run(&mut self) -> Result<(), Error> {
        loop {
            while let Some(pending) = self.pending.pop() {
                let node = self.compile_node(&pending)?;
                if let Some(slot) = self.nodes.get_mut(pending.id as usize) {
                    *slot = node;
                }
            }
            self.probe_dynamic_anchors();
            if self.pending.is_empty() {
                return Ok(());
            }
        }
    }

    /// Finds, in every resource seen so far, the nodes that dynamic references may land on.
    fn probe_dynamic_anchors(&mut self) {
        for resource in 0..self.resources.len() as u32 {
            let Some(uri) = self.resources.get(resource as usize).map(|r| r.uri.clone()) else {
                continue;
            };
            for name in self.dynamic_names.clone() {
                if !self.probed.insert((resource, name.clone())) {
                    continue;
                }
                let Ok(hit) = self.registry.resolve(&format!("{uri}#{name}"), "") else {
                    continue;
                };
                if hit.value.get("$dynamicAnchor").and_then(Value::as_str) != Some(&*name) {
                    continue;
                }
                let dialect = self.dialect_of(&hit, self.root_dialect);
                let id = self.ensure_full(hit.value, hit.base.clone(), dialect, &hit.pointer);
                self.add_dynamic_anchor(resource, &name, id);
            }
            if self.recursive && self.probed_recursive.insert(resource) {
                let Ok(hit) = self.registry.resolve(&uri, "") else {
                    continue;
                };
                if hit.value.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
                    let dialect = self.dialect_of(&hit, self.root_dialect);
                    let id = self.ensure_full(hit.value, hit.base.clone(), dialect, &hit.pointer);
                    if let Some(info) = self.resources.get_mut(resource as usize) {
                        info.recursive_root = Some(id);
                    }
                }
            }
        }
    }

    fn add_dynamic_anchor(&mut self, resource: u32, name: &str, id: NodeId) {
        if let Some(info) = self.resources.get_mut(resource as usize)
            && !info.dynamic_anchors.iter().any(|(n, _)| &**n == name)
        {
            info.dynamic_anchors.push((name.into(), id));
        }
    }

    /// The resource index of a base URI.
    fn resource(&mut self, base: &Arc<str>) -> u32 {
        if let Some((last, id)) = &self.last_resource
            && Arc::ptr_eq(last, base)
        {
            return *id;
        }
        if let Some(&id) = self.resource_ids.get(base) {
            self.last_resource = Some((base.clone(), id));
            return id;
        }
        let id = self.resources.len() as u32;
        self.resources.push(ResourceInfo {
            uri: base.clone(),
            dynamic_anchors: Vec::new(),
            recursive_root: None,
        });
        self.resource_ids.insert(base.clone(), id);
        id
    }

    /// The index of the document holding a reference target (0 for the root document).
    fn document_of(&self, hit: &Resource<'a>) -> Option<usize> {
        if hit.in_root_document {
            return Some(0);
        }
        self.documents.iter().position(|doc| {
            doc.pointer(&hit.pointer)
                .is_some_and(|v| std::ptr::eq(v, hit.value))
        })
    }

    /// The dialect of a reference target: its document's `$schema` when it names a known draft, else the
    /// referrer's.
    fn dialect_of(&self, hit: &Resource<'a>, referrer: Dialect) -> Dialect {
        if hit.in_root_document {
            return referrer;
        }
        let document = self
            .document_of(hit)
            .and_then(|index| self.documents.get(index));
        match document
            .and_then(|doc| doc.get("$schema"))
            .and_then(Value::as_str)
            .and_then(Draft::from_uri)
        {
            Some(draft) => Dialect::of(draft),
            _ => referrer,
        }
    }

    /// The base URI of a subschema: its identifier joined against the parent's base; `pointer` renders the
    /// subschema's pointer for an error.
    fn base_of(
        value: &Value,
        parent: &Arc<str>,
        dialect: Dialect,
        pointer: impl Fn(&[Token<'_>]) -> String,
    ) -> Result<Arc<str>, Error> {
        let Some(map) = value.as_object() else {
            return Ok(parent.clone());
        };
        if map.is_empty() {
            return Ok(parent.clone());
        }
        if !dialect.modern() && member(map, "$ref").is_some() {
            // Before 2019-09, `$ref` overrides its siblings, `$id` included.
            return Ok(parent.clone());
        }
        let id = match member(map, "$id") {
            Some(Value::String(id)) if dialect.at_least_6() => id.as_str(),
            Some(Value::String(_)) | None => match member(map, "id") {
                Some(Value::String(id)) if !dialect.at_least_6() => id.as_str(),
                _ => return Ok(parent.clone()),
            },
            Some(_) => return Err(Error::invalid(pointer(&[]), "$id must be a string")),
        };
        if id.starts_with('#') {
            return Ok(parent.clone());
        }
        let joined = llmshim_resolve::uri::join(parent, id)
            .map_err(|m| Error::invalid(pointer(&[Token::Key("$id")]), m))?;
        Ok(llmshim_resolve::uri::strip_fragment(&joined).into())
    }

    /// Queues the subschema `value`, found at `tokens` below the parent.
    pub(crate) fn subschema(
        &mut self,
        value: &'a Value,
        parent: &Pending<'a>,
        tokens: &[Token<'a>],
    ) -> Result<NodeId, Error> {
        if !matches!(value, Value::Object(_) | Value::Bool(_)) {
            return Err(self.invalid(parent.loc, tokens, "schema must be an object or a boolean"));
        }
        let base = Compiler::base_of(value, &parent.base, parent.dialect, |more| {
            let mut all = tokens.to_vec();
            all.extend_from_slice(more);
            self.pointer(parent.loc, &all)
        })?;
        let loc = parent.loc;
        Ok(self.ensure_with(value, base, parent.dialect, |locs| locs.child(loc, tokens)))
    }

    /// Resolves a reference written at `tokens` below `parent`, queueing its target.
    pub(crate) fn reference(
        &mut self,
        parent: &Pending<'a>,
        reference: &'a str,
        tokens: &[Token<'_>],
    ) -> Result<(NodeId, &'a Value), Error> {
        let key = (Arc::as_ptr(&parent.base).cast::<u8>() as usize, reference);
        if let Some((_, id, value)) = self.references.get(&key) {
            return Ok((*id, *value));
        }
        let absolute = llmshim_resolve::uri::join(&parent.base, reference)
            .map_err(|m| self.invalid(parent.loc, tokens, m))?;
        let hit = self.registry.resolve(&absolute, "").map_err(|mut reason| {
            reason.pointer = self.pointer(parent.loc, tokens);
            reference_error(reason)
        })?;
        if !matches!(hit.value, Value::Object(_) | Value::Bool(_)) {
            return Err(self.invalid(
                parent.loc,
                tokens,
                format!("reference {reference:?} does not point to a schema"),
            ));
        }
        self.check_document_limits(&hit)?;
        let dialect = self.dialect_of(&hit, parent.dialect);
        let id = self.ensure_full(hit.value, hit.base.clone(), dialect, &hit.pointer);
        self.references
            .insert(key, (parent.base.clone(), id, hit.value));
        Ok((id, hit.value))
    }

    /// Holds a registered document to the fixed limits the first time a reference lands in it, so that no
    /// oversized document is ever compiled.
    fn check_document_limits(&mut self, hit: &Resource<'a>) -> Result<(), Error> {
        if hit.in_root_document {
            return Ok(());
        }
        let Some(index) = self.document_of(hit) else {
            return crate::limits::within(hit.value)
                .then_some(())
                .ok_or(Error::Limits);
        };
        if self.limits_checked.insert(index)
            && !self
                .documents
                .get(index)
                .is_some_and(|doc| crate::limits::within(doc))
        {
            return Err(Error::Limits);
        }
        Ok(())
    }

    /// Notes that a dynamic reference may look for `$dynamicAnchor: name` in any resource of the dynamic scope.
    pub(crate) fn use_dynamic_anchor(&mut self, name: &str) {
        self.dynamic_scoping = true;
        if !self.dynamic_names.iter().any(|n| &**n == name) {
            self.dynamic_names.push(name.into());
        }
    }

    /// Notes that a `$recursiveRef` may look for `$recursiveAnchor: true` in the dynamic scope.
    pub(crate) fn use_recursive_anchor(&mut self) {
        self.dynamic_scoping = true;
        self.recursive = true;
    }

    /// The options being compiled with.
    pub(crate) fn options(&self) -> &'a Options {
        self.options
    }

    /// The compiled pattern of `source`, shared with every other use of the same source in the schema.
    pub(crate) fn pattern(&mut self, source: &'a str) -> Result<Arc<Pattern>, String> {
        if let Some(pattern) = self.patterns.get(source) {
            return Ok(pattern.clone());
        }
        let pattern = Arc::new(Pattern::new(source, self.options.backtrack_limit)?);
        self.patterns.insert(source, pattern.clone());
        Ok(pattern)
    }

    fn compile_node(&mut self, pending: &Pending<'a>) -> Result<Node, Error> {
        let resource = self.resource(&pending.base);
        let start = self.keywords.len() as u32;
        let map = match pending.value {
            Value::Bool(true) => {
                return Ok(Node {
                    start,
                    end: start,
                    resource,
                    unevaluated: false,
                    leaf: true,
                    types: TypeSet::ALL,
                    ..Node::default()
                });
            }
            Value::Object(map) => map,
            _ => {
                self.keywords.push(Keyword::False);
                return Ok(Node {
                    start,
                    end: start + 1,
                    resource,
                    unevaluated: false,
                    leaf: true,
                    ..Node::default()
                });
            }
        };
        let siblings = keywords::Siblings::of(map);
        let mut dialect = pending.dialect;
        let is_root = pending.id == 0;
        if !(is_root && self.options.draft.is_some())
            && (siblings.id.is_some() || self.locs.is_document_root(pending.loc))
            && let Some(draft) = siblings
                .schema
                .and_then(Value::as_str)
                .and_then(Draft::from_uri)
        {
            dialect.draft = normalize(draft);
        }
        if dialect.draft == Draft::Draft202012
            && let Some(Value::String(name)) = siblings.dynamic_anchor
        {
            self.add_dynamic_anchor(resource, name, pending.id);
        }
        let pending = Pending {
            id: pending.id,
            value: pending.value,
            base: pending.base.clone(),
            dialect,
            loc: pending.loc,
        };
        let unevaluated = keywords::compile(self, &pending, map, &siblings)?;
        let compiled = self.keywords.get(start as usize..).unwrap_or_default();
        let leaf = compiled.iter().all(Keyword::is_assertion);
        let types = match compiled {
            [] => TypeSet::ALL,
            [Keyword::Type { types, .. }] => types.0,
            _ => 0,
        };
        let object = if unevaluated {
            None
        } else {
            ObjectShape::of(compiled)
        };

        Ok(Node {
            start,
            end: self.keywords.len() as u32,
            resource,
            unevaluated,
            leaf,
            types,
            object,
            ..Node::default()
        })
    }
}

/// The member `key` of a schema object: a linear scan for small objects, which is cheaper than hashing the key.
pub(crate) fn member<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= SCAN_MEMBERS {
        map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

/// Objects up to this size are searched linearly by [`member`].
const SCAN_MEMBERS: usize = 12;
