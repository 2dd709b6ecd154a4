//! The registry pre-pass: every resource and anchor of a document and its registered resources.

use std::sync::Arc;

use hashbrown::HashMap;
use llmshim_core::children::{Slot, children};
use llmshim_core::{Budget, FallbackKind, FallbackReason, Meter, json};
use serde_json::Value;

use crate::draft::Draft;
use crate::uri;

/// Caller-supplied documents by absolute URI; nothing is ever fetched.
///
/// ```
/// use llmshim_resolve::Resources;
/// use serde_json::json;
///
/// let resources = Resources::new().with("https://example.test/name.json", json!({"type": "string"}));
/// assert_eq!(resources.len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Resources {
    docs: Vec<(String, Value)>,
}

impl Resources {
    /// No documents.
    pub fn new() -> Self {
        Resources::default()
    }

    /// Adds `document` under the absolute `uri`.
    #[must_use]
    pub fn with(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.insert(uri, document);
        self
    }

    /// Adds `document` under the absolute `uri`.
    pub fn insert(&mut self, uri: impl Into<String>, document: Value) {
        self.docs.push((uri.into(), document));
    }

    /// The number of documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether there are no documents.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The documents with their URIs, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.docs.iter().map(|(u, v)| (u.as_str(), v))
    }
}

/// A node of a registered document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Loc {
    doc: usize,
    pointer: String,
}

/// What a reference resolves to: the node, the base URI in effect for it, and its location.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Resource<'a> {
    /// The target node in the original document.
    pub value: &'a Value,
    /// The base URI in effect for the node.
    pub base: Arc<str>,
    /// The absolute URI of the resource holding the node (no fragment).
    pub resource: String,
    /// The draft of the document holding the node.
    pub draft: Draft,
    /// Whether the node belongs to the root document (not a registered resource).
    pub in_root_document: bool,
    /// The node's pointer inside its document.
    pub pointer: String,
    /// The index of the node's document (0 is the root document).
    pub(crate) doc: usize,
}

impl Resource<'_> {
    /// The node's identity: its document and its pointer there, whatever URI reached it.
    pub(crate) fn key(&self) -> Target {
        (self.doc, self.pointer.clone())
    }
}

/// A reference target's identity: its document's index and its pointer there.
pub(crate) type Target = (usize, String);

/// Every resource and anchor of a document plus caller-supplied resources, indexed by absolute URI.
///
/// ```
/// use llmshim_resolve::{Registry, Resources};
/// use serde_json::json;
///
/// let doc = json!({"$id": "https://ex.test/root.json", "$defs": {"a": {"$anchor": "A", "type": "string"}}});
/// let resources = Resources::new();
/// let registry = Registry::new(&doc, &resources)?;
/// let hit = registry.lookup("https://ex.test/root.json#A")?;
/// assert_eq!(hit.value, &json!({"$anchor": "A", "type": "string"}));
/// assert_eq!(&*hit.base, "https://ex.test/root.json");
/// # Ok::<(), llmshim_resolve::Error>(())
/// ```
#[derive(Debug)]
pub struct Registry<'a> {
    docs: Vec<(&'a Value, Draft)>,
    resources: HashMap<String, Loc>,
    anchors: HashMap<String, Loc>,
    bases: HashMap<Loc, Arc<str>>,
    /// The nesting limit (root 0) the root document was seen to stay within, when the lean look covered all of it.
    root_depth: Option<usize>,
}

impl<'a> Registry<'a> {
    /// Indexes `document` (at the default base `https://llmshim.invalid/schema`) and `resources` with the default
    /// budget.
    ///
    /// # Errors
    ///
    /// Duplicate resources or anchors, identifiers that cannot be joined, and budget overruns.
    pub fn new(document: &'a Value, resources: &'a Resources) -> Result<Self, crate::Error> {
        Registry::with_budget(document, resources, &Budget::default()).map_err(crate::Error::from)
    }

    /// Indexes `document` and `resources`, charging each document's scan against its own meter for `budget`.
    ///
    /// # Errors
    ///
    /// Duplicate resources or anchors, identifiers that cannot be joined, and budget overruns, as fallback reasons.
    pub fn with_budget(
        document: &'a Value,
        resources: &'a Resources,
        budget: &Budget,
    ) -> Result<Self, FallbackReason> {
        Registry::with_draft(document, resources, budget, None)
    }

    /// As [`Registry::with_budget`], reading `document` as `draft` when given instead of detecting its draft from
    /// `$schema` (registered resources always declare their own).
    ///
    /// # Errors
    ///
    /// As [`Registry::with_budget`].
    pub fn with_draft(
        document: &'a Value,
        resources: &'a Resources,
        budget: &Budget,
        draft: Option<Draft>,
    ) -> Result<Self, FallbackReason> {
        let mut registry = Registry {
            docs: Vec::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            bases: HashMap::new(),
            root_depth: None,
        };
        registry.add(document, uri::DEFAULT_BASE, budget, draft)?;
        for (uri, doc) in resources.iter() {
            let absolute = uri::normalize_absolute(uri)
                .map_err(|m| FallbackReason::new(FallbackKind::InvalidUri, "", m))?;
            registry.add(doc, uri::strip_fragment(&absolute), budget, None)?;
        }
        Ok(registry)
    }

    fn add(
        &mut self,
        doc: &'a Value,
        base: &str,
        budget: &Budget,
        draft: Option<Draft>,
    ) -> Result<(), FallbackReason> {
        let index = self.docs.len();
        let draft = draft.unwrap_or_else(|| Draft::detect(doc));
        self.docs.push((doc, draft));
        let root = Loc {
            doc: index,
            pointer: String::new(),
        };
        self.register_resource(base.to_owned(), root, "")?;
        // Most documents have no identifier and stay well inside the budget: for those the scan below would record
        // nothing and fail nowhere, so one lean look at the value (no pointers, no base URIs) stands in for it.
        let mut lean = Lean::new(budget, draft);
        if lean.holds(doc) {
            if index == 0 {
                self.root_depth = Some(lean.max_depth);
            }
            return Ok(());
        }
        // The base URI of every node is recorded only when the document changes it somewhere: without an `$id`
        // every node's base is the document's, which is also the resource URI any lookup into it resolves with,
        // so the map would only repeat it. The first scan finds out; a document with an identifier is scanned
        // again, recording (registering the same resources and anchors again is a no-op).
        let mut scan = Scan {
            registry: self,
            doc: index,
            draft,
            meter: Meter::new(*budget),
            pointer: String::new(),
            record_bases: false,
            saw_id: false,
        };
        scan.visit(doc, base.into(), 0)?;
        if !scan.saw_id {
            return Ok(());
        }
        let mut scan = Scan {
            registry: self,
            doc: index,
            draft,
            meter: Meter::new(*budget),
            pointer: String::new(),
            record_bases: true,
            saw_id: false,
        };
        scan.visit(doc, base.into(), 0)
    }

    fn register_resource(&mut self, uri: String, loc: Loc, at: &str) -> Result<(), FallbackReason> {
        register(&mut self.resources, uri, loc, at)
    }

    /// Resolves an absolute URI with an optional fragment.
    ///
    /// # Errors
    ///
    /// `invalid_ref` for a malformed percent-escape or a non-UTF-8 fragment, `external_ref` when no resource has the
    /// URI, `unresolved_ref` when the pointer or anchor is not found.
    pub fn lookup(&self, absolute: &str) -> Result<Resource<'a>, crate::Error> {
        self.resolve(absolute, "").map_err(crate::Error::from)
    }

    /// As [`Registry::lookup`], with failures located at `at` and given as fallback reasons.
    ///
    /// # Errors
    ///
    /// As [`Registry::lookup`].
    pub fn resolve(&self, absolute: &str, at: &str) -> Result<Resource<'a>, FallbackReason> {
        let (resource_uri, raw_fragment) = uri::split_fragment(absolute);
        let fragment = uri::percent_decode(raw_fragment).ok_or_else(|| {
            FallbackReason::new(
                FallbackKind::InvalidRef,
                at,
                format!("malformed percent-escape in {absolute:?}"),
            )
        })?;
        let Some(loc) = self.resources.get(resource_uri) else {
            return Err(FallbackReason::new(
                FallbackKind::ExternalRef,
                at,
                format!(
                    "{resource_uri:?} is neither in the document nor registered, and nothing is fetched"
                ),
            ));
        };
        let target = if fragment.is_empty() {
            loc.clone()
        } else if fragment.starts_with('/') {
            Loc {
                doc: loc.doc,
                pointer: format!("{}{}", loc.pointer, fragment),
            }
        } else {
            let key = format!("{resource_uri}#{fragment}");
            self.anchors.get(&key).cloned().ok_or_else(|| {
                FallbackReason::new(
                    FallbackKind::UnresolvedRef,
                    at,
                    format!("no anchor {fragment:?} in {resource_uri:?}"),
                )
            })?
        };
        let (doc, draft) = self
            .docs
            .get(target.doc)
            .map_or((None, Draft::default()), |(d, dr)| (Some(*d), *dr));
        let value = doc
            .and_then(|d| d.pointer(&target.pointer))
            .ok_or_else(|| {
                FallbackReason::new(
                    FallbackKind::UnresolvedRef,
                    at,
                    format!("{absolute:?} points to nothing"),
                )
            })?;
        let base = self
            .bases
            .get(&target)
            .cloned()
            .unwrap_or_else(|| resource_uri.into());
        Ok(Resource {
            value,
            base,
            resource: resource_uri.to_owned(),
            draft,
            in_root_document: target.doc == 0,
            pointer: target.pointer,
            doc: target.doc,
        })
    }

    /// The node at `pointer` of the document `doc`, as a reference resolving to it would find it.
    pub(crate) fn at(&self, target: &Target) -> Option<Resource<'a>> {
        let (doc, pointer) = target;
        let (document, draft) = self.docs.get(*doc).copied()?;
        let value = document.pointer(pointer)?;
        let loc = Loc {
            doc: *doc,
            pointer: pointer.clone(),
        };
        let base = self.bases.get(&loc).cloned().or_else(|| {
            self.resources
                .iter()
                .find(|(_, l)| l.doc == *doc && l.pointer.is_empty())
                .map(|(u, _)| u.as_str().into())
        })?;
        let resource = uri::strip_fragment(&base).to_owned();
        Some(Resource {
            value,
            base,
            resource,
            draft,
            in_root_document: *doc == 0,
            pointer: pointer.clone(),
            doc: *doc,
        })
    }

    /// The draft of the document `doc`.
    pub(crate) fn draft_of(&self, doc: usize) -> Draft {
        self.docs.get(doc).map_or(Draft::default(), |d| d.1)
    }

    /// The base URI in effect at the root of the document (its `$id` joined against the default base).
    pub fn root_base(&self) -> Arc<str> {
        self.bases
            .get(&Loc {
                doc: 0,
                pointer: String::new(),
            })
            .cloned()
            .unwrap_or_else(|| uri::DEFAULT_BASE.into())
    }

    /// A nesting limit (root 0) that every value of the root document, schema or not, is known to stay within,
    /// when indexing it looked at all of it; `None` when it did not, which says nothing about the depth.
    ///
    /// A caller that must bound the depth before walking the document can skip its own measurement when this is
    /// at most its limit.
    pub fn root_depth_within(&self) -> Option<usize> {
        self.root_depth
    }

    /// The draft of the root document.
    pub fn draft(&self) -> Draft {
        self.docs.first().map_or(Draft::default(), |d| d.1)
    }
}

fn register(
    map: &mut HashMap<String, Loc>,
    uri: String,
    loc: Loc,
    at: &str,
) -> Result<(), FallbackReason> {
    match map.get(&uri) {
        Some(existing) if *existing != loc => Err(FallbackReason::new(
            FallbackKind::DuplicateResource,
            at,
            format!("{uri:?} already names another schema"),
        )),
        Some(_) => Ok(()),
        None => {
            map.insert(uri, loc);
            Ok(())
        }
    }
}

/// A look at a document that proves the scan would find nothing to register and no budget overrun: no object
/// anywhere has a key that can set an identifier or anchor (`$id`, `$anchor`, `$dynamicAnchor`, and `id` in the
/// drafts that read it), the value has no more values in all than the node budget, and none deeper than the depth
/// budget. The scan visits only some of the values (schemas, not literals or property maps), each at a depth no
/// greater than its nesting in the value, so neither of its budget checks can fail then. Anything else, including
/// a property or literal that merely has such a key, is left to the scan, so the answer is always the scan's.
struct Lean {
    /// The deepest nesting allowed (root 0), also bounding this look's recursion.
    max_depth: usize,
    max_nodes: usize,
    nodes: usize,
    plain_id: bool,
}

/// The deepest recursion of [`Lean`]: deeper values are left to the scan.
const LEAN_MAX_DEPTH: usize = 128;

impl Lean {
    fn new(budget: &Budget, draft: Draft) -> Self {
        Lean {
            max_depth: budget
                .max_depth
                .min(llmshim_core::walk::HARD_MAX_DEPTH)
                .min(LEAN_MAX_DEPTH),
            max_nodes: budget.max_nodes,
            nodes: 0,
            plain_id: draft.uses_plain_id(),
        }
    }

    /// Whether the scan of `doc` would register nothing and fail nowhere.
    fn holds(&mut self, doc: &Value) -> bool {
        self.value(doc, 0)
    }

    fn value(&mut self, value: &Value, depth: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes || depth > self.max_depth {
            return false;
        }
        match value {
            Value::Array(items) => items.iter().all(|v| self.value(v, depth + 1)),
            Value::Object(map) => {
                let plain_id = self.plain_id;
                map.keys().all(|key| match key.as_bytes().first() {
                    Some(b'$') => !matches!(key.as_str(), "$id" | "$anchor" | "$dynamicAnchor"),
                    Some(b'i') => !(plain_id && key == "id"),
                    _ => true,
                }) && map.values().all(|v| self.value(v, depth + 1))
            }
            _ => true,
        }
    }
}

struct Scan<'r, 'a> {
    registry: &'r mut Registry<'a>,
    doc: usize,
    draft: Draft,
    meter: Meter,
    pointer: String,
    /// Whether every node's base URI goes into the registry's `bases`.
    record_bases: bool,
    /// Whether some node has an identifier that sets a base URI.
    saw_id: bool,
}

impl Scan<'_, '_> {
    fn visit(&mut self, value: &Value, base: Arc<str>, depth: usize) -> Result<(), FallbackReason> {
        self.meter.visit(depth, &self.pointer)?;
        if depth > llmshim_core::walk::HARD_MAX_DEPTH {
            return Err(FallbackReason::new(
                FallbackKind::BudgetDepth,
                self.pointer.clone(),
                "nesting too deep",
            ));
        }
        let Some(map) = value.as_object() else {
            return Ok(());
        };
        let mut base = base;
        // `$id`, `$anchor`, `$dynamicAnchor` and draft-04 `id`: one pass over the keys spares most nodes three
        // hashed lookups.
        let identified = map.keys().any(|key| key.starts_with('$') || key == "id");
        let id = if identified {
            match json::member(map, "$id") {
                Some(Value::String(id)) => Some(id.as_str()),
                None if self.draft.uses_plain_id() => {
                    json::member(map, "id").and_then(Value::as_str)
                }
                _ => None,
            }
        } else {
            None
        };
        if let Some(id) = id {
            self.saw_id = true;
            let joined = uri::join(&base, id).map_err(|m| {
                FallbackReason::new(FallbackKind::InvalidUri, self.pointer.clone(), m)
            })?;
            let (resource, fragment) = uri::split_fragment(&joined);
            let loc = self.here();
            self.charge(joined.len())?;
            if !id.is_empty() && !id.starts_with('#') {
                self.registry
                    .register_resource(resource.to_owned(), loc.clone(), &self.pointer)?;
            }
            if !fragment.is_empty() {
                self.charge(joined.len())?;
                register(
                    &mut self.registry.anchors,
                    joined.clone(),
                    loc,
                    &self.pointer,
                )?;
            }
            base = resource.into();
        }
        for key in ["$anchor", "$dynamicAnchor"] {
            if !identified {
                break;
            }
            if let Some(Value::String(name)) = json::member(map, key) {
                let anchor = format!("{base}#{name}");
                self.charge(anchor.len())?;
                let loc = self.here();
                register(&mut self.registry.anchors, anchor, loc, &self.pointer)?;
            }
        }
        if self.record_bases {
            self.registry.bases.insert(self.here(), base.clone());
        }
        // Every position of the original document, definitions and snake-case combinators included, since the
        // walk renames and removes them only later; a single child that is not an object holds no resource.
        let below = children(map)
            .with_definitions()
            .with_snake_case_combinators();
        for child in below {
            if matches!(child.slot, Slot::Single(_)) && !child.value.is_object() {
                continue;
            }
            self.descend(child.slot, child.value, &base, depth)?;
        }
        Ok(())
    }

    fn descend(
        &mut self,
        slot: Slot<'_>,
        child: &Value,
        base: &Arc<str>,
        depth: usize,
    ) -> Result<(), FallbackReason> {
        let mark = self.pointer.len();
        slot.push_onto(&mut self.pointer);
        let result = self.visit(child, base.clone(), depth + 1);
        self.pointer.truncate(mark);
        result
    }

    fn here(&self) -> Loc {
        Loc {
            doc: self.doc,
            pointer: self.pointer.clone(),
        }
    }

    fn charge(&mut self, bytes: usize) -> Result<(), FallbackReason> {
        let at = self.pointer.clone();
        self.meter.charge_literal(bytes, &at)
    }
}
