//! `bundle`: references kept, every referenced resource from outside the document copied into root `$defs`.

use std::cell::RefCell;

use hashbrown::{HashMap, HashSet};
use llmshim_core::walk::{self, Flow, NodeCtx, Settings, steps};
use llmshim_core::{FallbackKind, FallbackReason, Pass, json};
use serde_json::{Map, Value};

use crate::pass::{BaseUri, escape_token, unique_name};
use crate::registry::{Registry, Resources};
use crate::uri::{self, DEFAULT_BASE};
use crate::{Draft, Error, Options, guard};

/// Makes `value` self-contained while keeping its references: each resource that a reference reaches outside the
/// document (a caller-supplied resource) is copied into root `$defs` (`definitions` in a document of draft-07 or
/// older, whose readers know no other home for embedded resources) under the last path segment of its URI without
/// extension (`_2`, `_3`, … on collisions), keeping its `$id`, and each such reference is rewritten to
/// `#/$defs/<key>` plus its original pointer fragment when it stands in the root resource (an anchor fragment keeps
/// the absolute URI, which the copy's `$id` still answers; references inside copies and embedded resources keep
/// resolving through those `$id`s). References inside the document are left as they are. On error `value` is left unchanged.
///
/// # Errors
///
/// Every resolution failure (external references that were not registered, unresolved pointers) and budget overrun.
///
/// # Examples
///
/// ```
/// use llmshim_resolve::{bundle, Options, Resources};
/// use serde_json::json;
///
/// let resources = Resources::new().with("https://ex.test/name.json", json!({"type": "string", "minLength": 1}));
/// let mut schema = json!({"type": "object", "properties": {"n": {"$ref": "https://ex.test/name.json"}}});
/// bundle(&mut schema, &resources, &Options::default())?;
/// assert_eq!(schema["properties"]["n"], json!({"$ref": "#/$defs/name"}));
/// assert_eq!(schema["$defs"]["name"],
///            json!({"type": "string", "minLength": 1, "$id": "https://ex.test/name.json"}));
/// # Ok::<(), llmshim_resolve::Error>(())
/// ```
pub fn bundle(value: &mut Value, resources: &Resources, options: &Options) -> Result<(), Error> {
    guard::check_depth(value)?;
    let registry = Registry::with_draft(value, resources, &options.budget, options.draft)?;
    let draft = registry.draft();
    // Drafts before 2019-09 know only `definitions` as the home of embedded resources.
    let container = if matches!(draft, Draft::Draft202012 | Draft::Draft201909) {
        "$defs"
    } else {
        "definitions"
    };
    let taken: HashSet<String> = value
        .get(container)
        .and_then(Value::as_object)
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    let rewrite = Rewrite {
        registry: &registry,
        root_base: registry.root_base(),
        container,
        state: RefCell::new(State {
            taken,
            ..State::default()
        }),
    };
    let shape = steps::Shape::lenient();
    let base = BaseUri::new(draft);
    let passes: [&dyn Pass; 3] = [&shape, &base, &rewrite];
    let settings = Settings::new(options.budget)
        .with_lenient_children(true)
        .with_walk_definitions(true);
    let mut out = value.clone();
    walk::walk(&mut out, &passes, &settings, DEFAULT_BASE.into())?;
    let mut copies: Vec<(String, Value)> = Vec::new();
    loop {
        let pending = std::mem::take(&mut rewrite.state.borrow_mut().pending);
        if pending.is_empty() {
            break;
        }
        for (key, resource_uri, mut copy) in pending {
            walk::walk(&mut copy, &passes, &settings, resource_uri.into())?;
            copies.push((key, copy));
        }
    }
    if !copies.is_empty()
        && let Some(map) = out.as_object_mut()
    {
        let defs = map
            .entry(container)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(defs) = defs.as_object_mut() {
            for (key, copy) in copies {
                defs.insert(key, copy);
            }
        }
    }
    drop(rewrite);
    drop(registry);
    *value = out;
    Ok(())
}

#[derive(Default)]
struct State {
    keys: HashMap<String, String>,
    taken: HashSet<String>,
    pending: Vec<(String, String, Value)>,
}

struct Rewrite<'r, 'a> {
    registry: &'r Registry<'a>,
    root_base: std::sync::Arc<str>,
    container: &'static str,
    state: RefCell<State>,
}

impl Pass for Rewrite<'_, '_> {
    fn name(&self) -> &'static str {
        "bundle-ref"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(reference) = map.get("$ref") else {
            return Ok(Flow::Continue);
        };
        let Some(reference) = reference.as_str() else {
            return Err(cx.fail(FallbackKind::InvalidRef, "$ref must be a string"));
        };
        let absolute =
            uri::join(cx.base(), reference).map_err(|m| cx.fail(FallbackKind::InvalidUri, m))?;
        let target = self.registry.resolve(&absolute, cx.pointer())?;
        if target.in_root_document {
            return Ok(Flow::Continue);
        }
        let (resource_uri, fragment) = uri::split_fragment(&absolute);
        let resource = self.registry.resolve(resource_uri, cx.pointer())?;
        let mut state = self.state.borrow_mut();
        let key = if let Some(key) = state.keys.get(&resource.resource) {
            key.clone()
        } else {
            let segment = resource.resource.rsplit('/').next().unwrap_or("");
            let stem = segment
                .split('.')
                .next()
                .filter(|s| !s.is_empty())
                .unwrap_or("resource");
            let key = unique_name(&mut state.taken, stem);
            state.keys.insert(resource.resource.clone(), key.clone());
            let mut copy = resource.value.clone();
            if let Some(m) = copy.as_object_mut()
                && !m.contains_key("$id")
            {
                m.insert("$id".to_owned(), Value::String(resource.resource.clone()));
            }
            state
                .pending
                .push((key.clone(), resource.resource.clone(), copy));
            key
        };
        // Inside a copy or an embedded resource `#` names that resource, so only references in the root resource
        // are rewritten; the others keep resolving through the copy's `$id`.
        if *cx.base() == self.root_base {
            let rewritten = if fragment.is_empty() || fragment.starts_with('/') {
                format!("#/{}/{}{}", self.container, escape_token(&key), fragment)
            } else {
                absolute.clone()
            };
            json::set(map, "$ref", Value::String(rewritten));
        }
        Ok(Flow::Continue)
    }
}
