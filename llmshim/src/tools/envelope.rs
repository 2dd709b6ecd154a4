//! Writing one function tool in a target's envelope: edited in place, or rebuilt from a tool of another shape.
//!
//! Everything here reads the [`Envelope`] value of the target's rule set; no function knows a provider.

use llmshim_core::envelope::{StrictKey, ToolShape, Wrapper};
use llmshim_core::json;
use llmshim_core::rules::Envelope;
use serde_json::{Map, Value};
use std::cell::RefCell;

use crate::tools::normalize::Pending;

/// The key a tool's strictness is written under.
const STRICT: &str = "strict";

/// Sets `key` on `map` to `value`, reporting whether the map changed.
fn put(map: &mut Map<String, Value>, key: &str, value: Value) -> bool {
    if map.get(key) == Some(&value) {
        return false;
    }
    // The replaced value is taken apart without recursion: it may be a schema too deep to drop recursively.
    if let Some(old) = map.insert(key.to_owned(), value) {
        json::dismantle(old);
    }
    true
}

/// Removes `key` from `map`, reporting whether it was there.
fn take(map: &mut Map<String, Value>, key: &str) -> bool {
    json::remove(map, key).map(json::dismantle).is_some()
}

/// The `strict` value a pending tool is sent with, if any.
pub(crate) fn strict_value(envelope: &Envelope, p: &Pending) -> Option<bool> {
    envelope.strict_value(p.requested, p.has_schema.then_some(&p.report))
}

/// Writes a pending tool's schema and `strict` into the object holding its fields: the schema replaced under the
/// shape's schema key, also when it was read from an alternate key (or left out, by the envelope's empty-schema rule;
/// a function without any schema, not even under a key the shape keeps as it is, gets what that rule gives absent
/// schemas), `strict` written when the envelope says so and removed when it never writes one
/// or nothing was normalized; returns whether the object changed.
fn edit_fields(
    fields: &mut Map<String, Value>,
    shape: ToolShape,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) -> bool {
    let mut changed = false;
    let key = shape.schema;
    // A schema read from an alternate key (the provider's other dialect) is written under the shape's key, in the
    // alternate's place.
    if p.key != key && json::rename_in_place(fields, p.key, key) {
        changed = true;
    }
    match p.schema.take() {
        Some(schema) => match (envelope.empty_schema.apply(schema), p.taken) {
            // The slot holds the `null` left when the schema was moved out; the report says whether it changed.
            (Some(schema), true) => {
                changed |= p.report.changed;
                fields.insert(key.to_owned(), schema);
            }
            (Some(schema), false) => changed |= put(fields, key, schema),
            (None, _) => changed |= take(fields, key),
        },
        None if shape.kept.iter().any(|k| fields.contains_key(*k)) => {}
        None => {
            if let Some(schema) = envelope.empty_schema.absent() {
                changed |= put(fields, key, schema);
            }
        }
    }
    match strict {
        Some(s) => changed |= put(fields, STRICT, Value::Bool(s)),
        None if envelope.strict == StrictKey::Never || !p.has_schema => {
            changed |= take(fields, STRICT);
        }
        None => {}
    }
    changed
}

/// A tool already in the envelope's shape: the extras it does not carry are dropped, the schema is replaced and
/// `strict` follows the envelope; every other field stays.
pub(crate) fn edit_tool(
    tool: &mut Value,
    shape: ToolShape,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) -> bool {
    let mut changed = false;
    let Some(map) = tool.as_object_mut() else {
        return false;
    };
    for extra in Envelope::EXTRAS {
        if !envelope.keeps_extra(extra) {
            changed |= take(map, extra);
        }
    }
    let Some(fields) = shape.fields_mut(tool) else {
        return changed;
    };
    changed | edit_fields(fields, shape, p, envelope, strict)
}

/// A declaration inside an existing declarations element, edited in place.
pub(crate) fn edit_declaration(
    element: &mut Value,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) -> bool {
    let shape = envelope.function_shape();
    let Some(fields) = envelope
        .function_mut(element, p.declaration)
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    edit_fields(fields, shape, p, envelope, strict)
}

/// The fields a rebuilt tool keeps, moved out of the tool they came from.
struct Parts {
    name: Value,
    description: Option<Value>,
    extras: Vec<(&'static str, Value)>,
}

/// Takes `tool`, of shape `from`, apart into the fields a rebuilt tool keeps (a holder's name and description come
/// from the holder); every other field is dropped without recursion. One pass over the members, no lookups.
fn parts(tool: Value, from: ToolShape) -> Parts {
    let mut parts = Parts {
        name: Value::Null,
        description: None,
        extras: Vec::new(),
    };
    let Value::Object(map) = tool else {
        json::dismantle(tool);
        return parts;
    };
    let nested = from.holder.is_some();
    for (key, value) in map {
        if let Some(extra) = Envelope::EXTRAS.iter().find(|e| **e == key) {
            parts.extras.push((extra, value));
            continue;
        }
        match (key.as_str(), value) {
            (k, Value::Object(holder)) if nested && Some(k) == from.holder => {
                for (key, value) in holder {
                    match key.as_str() {
                        "name" => parts.name = value,
                        "description" => parts.description = Some(value),
                        _ => json::dismantle(value),
                    }
                }
            }
            ("name", value) if !nested => parts.name = value,
            ("description", value) if !nested => parts.description = Some(value),
            (_, value) => json::dismantle(value),
        }
    }
    parts
}

/// A tool of shape `from`, rebuilt in shape `to` of the envelope: the tag first, then the name, the description,
/// the schema (by the empty-schema rule) and `strict` (in the holder, if `to` has one), then the carried extras.
/// `tool` is consumed.
pub(crate) fn build(
    tool: Value,
    from: ToolShape,
    to: ToolShape,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) -> Value {
    let tool = match holder_as_tool(tool, from, to, p) {
        Ok(mut fields) => {
            finish_fields(&mut fields, to, p, envelope, strict);
            return Value::Object(fields);
        }
        Err(tool) => tool,
    };
    let Parts {
        name,
        description,
        extras,
    } = parts(tool, from);
    let mut fields = Map::with_capacity(4);
    fields.insert("name".to_owned(), name);
    if let Some(d) = description {
        fields.insert("description".to_owned(), d);
    }
    finish_fields(&mut fields, to, p, envelope, strict);
    in_shape(fields, to, extras, envelope)
}

/// A rebuilt tool's finished fields put in shape `to`: its tag first, then the fields (in the holder, if `to` has
/// one), then the extras the envelope carries; the others are dropped without recursion.
fn in_shape(
    mut fields: Map<String, Value>,
    to: ToolShape,
    extras: Vec<(&'static str, Value)>,
    envelope: &Envelope,
) -> Value {
    let mut m = match (to.tag, to.holder) {
        // A flat shape without a tag is its fields.
        (None, None) => fields,
        // A flat tagged shape is its fields behind the tag, put in front of them in place (unless a field has the
        // tag's key, whose value then wins in the tag's place, as when the fields are copied behind a new tag).
        (Some((key, value)), None) if !json::has(&fields, key) => {
            fields.shift_insert(0, key.to_owned(), Value::String(value.to_owned()));
            fields
        }
        (tag, Some(holder)) => {
            let mut m = outer_map(tag, holder);
            // The holder is the outer map's last member.
            if let Some(slot) = m.values_mut().next_back() {
                *slot = Value::Object(fields);
            }
            m
        }
        (tag, None) => {
            let mut m = Map::with_capacity(1 + fields.len() + extras.len());
            if let Some((key, value)) = tag {
                m.insert(key.to_owned(), Value::String(value.to_owned()));
            }
            m.extend(fields);
            m
        }
    };
    for (key, value) in extras {
        if envelope.keeps_extra(key) {
            m.insert(key.to_owned(), value);
        } else {
            json::dismantle(value);
        }
    }
    Value::Object(m)
}

/// The outer map of a tool rebuilt in a shape with a holder: the tag, if the shape has one, then the holder, `null`
/// until the caller puts the fields there.
///
/// Built by inserting the two members, every such map would hash both keys with the map's keyed hasher and set up
/// a hasher of its own; instead each thread builds the map once per tag and holder and clones it, which copies the
/// keys, the stored hashes and the table as they are. The clone has the same members in the same order, so the tool
/// is the same.
fn outer_map(
    tag: Option<(&'static str, &'static str)>,
    holder: &'static str,
) -> Map<String, Value> {
    thread_local! {
        /// One outer map per tag and holder met on this thread (of the built-in envelopes, only Chat's has a holder).
        static OUTER: RefCell<Vec<OuterTemplate>> = const { RefCell::new(Vec::new()) };
    }
    OUTER.with_borrow_mut(|templates| {
        if let Some(t) = templates
            .iter()
            .find(|t| t.tag == tag && t.holder == holder)
        {
            return t.map.clone();
        }
        let mut map = Map::with_capacity(2);
        if let Some((key, value)) = tag {
            map.insert(key.to_owned(), Value::String(value.to_owned()));
        }
        map.insert(holder.to_owned(), Value::Null);
        // Only a few shapes exist; a custom envelope met after many others is built each time instead.
        if templates.len() < MAX_OUTER_TEMPLATES {
            templates.push(OuterTemplate {
                tag,
                holder,
                map: map.clone(),
            });
        }
        map
    })
}

/// At most this many outer maps are kept per thread.
const MAX_OUTER_TEMPLATES: usize = 8;

/// An outer map kept by [`outer_map`], with the tag and holder it was built for.
struct OuterTemplate {
    tag: Option<(&'static str, &'static str)>,
    holder: &'static str,
    map: Map<String, Value>,
}

/// A raw MCP tool rebuilt in shape `to` of the envelope, in one step: what [`build`] makes of the canonical chat tool
/// converted from it (`llmshim_mcp::into_chat_tool`), without that tool. The fields are its `name` (`null` when
/// absent) and its `description` (or its `title` when it has no `description` key; neither when it has neither key),
/// then the schema and `strict`; the extras it has follow; every other field is dropped without recursion. `tool` is
/// consumed; its schema was moved out (or is dropped, a schema too deep to normalize).
pub(crate) fn build_from_mcp(
    tool: Value,
    to: ToolShape,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) -> Value {
    let (mut fields, extras) = mcp_fields(tool);
    finish_fields(&mut fields, to, p, envelope, strict);
    in_shape(fields, to, extras, envelope)
}

/// The key of a tool's name.
const NAME: &str = "name";
/// The key of a tool's description.
const DESCRIPTION: &str = "description";
/// The key of an MCP tool's title, its description when it has no `description` key.
const TITLE: &str = "title";

/// A raw MCP tool's `name` and `description` as the first fields of a rebuilt tool, in that order, and the extras it
/// has. The tool's own map is kept as the fields where it has a `name`: every other member is dropped in place (the
/// map keeps its stored hashes, so no kept key is hashed or allocated again), and a `description` standing before
/// the name is moved behind it. Only a tool without a `name` gets a new map.
fn mcp_fields(tool: Value) -> (Map<String, Value>, Vec<(&'static str, Value)>) {
    let mut extras = Vec::new();
    let mut map = match tool {
        Value::Object(map) => map,
        other => {
            json::dismantle(other);
            Map::new()
        }
    };
    let mut title = None;
    let mut has_description = false;
    map.retain(|key, value| match key.as_str() {
        NAME => true,
        DESCRIPTION => {
            has_description = true;
            true
        }
        TITLE => {
            title = Some(std::mem::take(value));
            false
        }
        other => {
            match Envelope::EXTRAS.iter().find(|e| **e == other) {
                Some(extra) => extras.push((*extra, std::mem::take(value))),
                None => json::dismantle(std::mem::take(value)),
            }
            false
        }
    });
    let description_first = map.keys().next().is_some_and(|k| k == DESCRIPTION);
    if !json::has(&map, NAME) {
        let mut fields = Map::with_capacity(4);
        fields.insert(NAME.to_owned(), Value::Null);
        fields.extend(map);
        map = fields;
    } else if description_first && let Some((key, value)) = map.shift_remove_entry(DESCRIPTION) {
        map.insert(key, value);
    }
    if let Some(title) = title {
        if has_description {
            json::dismantle(title);
        } else {
            map.insert(DESCRIPTION.to_owned(), title);
        }
    }
    (map, extras)
}

/// Appends the schema (by the empty-schema rule) under `to`'s schema key and `strict` to a rebuilt tool's fields.
fn finish_fields(
    fields: &mut Map<String, Value>,
    to: ToolShape,
    p: &mut Pending,
    envelope: &Envelope,
    strict: Option<bool>,
) {
    let schema = match p.schema.take() {
        Some(s) => envelope.empty_schema.apply(s),
        None => envelope.empty_schema.absent(),
    };
    if let Some(s) = schema {
        fields.insert(to.schema.to_owned(), s);
    }
    if let Some(s) = strict {
        fields.insert(STRICT.to_owned(), Value::Bool(s));
    }
}

/// The common case of a rebuild, without building anything: a tool whose holder becomes the whole rebuilt tool
/// (`to` is flat and untagged) and holds, in this order, `name`, perhaps `description`, and the emptied slot of its
/// moved-out schema, with nothing else beside the holder but `from`'s tag. The holder's map is returned with the slot
/// removed, ready for [`finish_fields`]; that gives what the general rebuild gives, key order included, with no new
/// map. Any other tool is handed back unchanged.
fn holder_as_tool(
    tool: Value,
    from: ToolShape,
    to: ToolShape,
    p: &Pending,
) -> Result<Map<String, Value>, Value> {
    let Some(holder) = from.holder else {
        return Err(tool);
    };
    if to.holder.is_some() || to.tag.is_some() || !p.taken {
        return Err(tool);
    }
    let reusable = |map: &Map<String, Value>| {
        let outer_ok = map.iter().all(|(key, value)| {
            key == holder
                || from
                    .tag
                    .is_some_and(|(tag, _)| key == tag && value.is_string())
        });
        let Some(Value::Object(fields)) = json::member(map, holder) else {
            return false;
        };
        let mut keys = fields.keys().map(String::as_str);
        let ordered = keys.next() == Some("name") && {
            let rest: [Option<&str>; 3] = [keys.next(), keys.next(), keys.next()];
            matches!(rest, [Some(k), None, None] if k == p.key)
                || matches!(rest, [Some("description"), Some(k), None] if k == p.key)
        };
        outer_ok && ordered
    };
    let Value::Object(map) = tool else {
        return Err(tool);
    };
    if !reusable(&map) {
        return Err(Value::Object(map));
    }
    // The holder is taken by walking the members rather than by a keyed removal: the rest is dropped anyway.
    let mut found = None;
    for (key, value) in map {
        match value {
            Value::Object(fields) if key == holder => found = Some(fields),
            other => json::dismantle(other),
        }
    }
    // `reusable` found the holder to be an object, so this never hands back the emptied `null`.
    let Some(mut fields) = found else {
        return Err(Value::Null);
    };
    // The slot, which holds the `null` left when the schema was moved out, is the last member (`reusable` checked
    // the order); it is dropped by position, so its key is not hashed to find it.
    let last = fields.len().saturating_sub(1);
    let mut position = 0;
    fields.retain(|_, _| {
        let keep = position != last;
        position += 1;
        keep
    });
    Ok(fields)
}

/// Moves the request into the envelope's wrapper unless it already is in one; returns whether it moved.
pub(crate) fn wrap(request: &mut Value, wrapper: Wrapper) -> bool {
    let Some(map) = request.as_object_mut() else {
        return false;
    };
    if map.get(wrapper.member).is_some_and(Value::is_object) {
        return false;
    }
    let mut outer = Map::new();
    for key in wrapper.hoisted {
        if let Some(v) = json::remove(map, key) {
            outer.insert((*key).to_owned(), v);
        }
    }
    outer.insert(
        wrapper.member.to_owned(),
        Value::Object(std::mem::take(map)),
    );
    *map = outer;
    true
}
