//! The edit from a stored input to its stored output, so that a changed hit rebuilds only the parts that differ.
//!
//! A hit's caller holds a value identical to the stored input. Replacing it with a clone of the stored output
//! allocates every string and container of the output again and frees every one of the input, although most of a
//! schema usually comes through a normalization untouched. The patch, computed once when the entry is inserted,
//! records where the two differ; applying it keeps the caller's identical parts where they are, moves members the
//! output keeps under the same key, and copies only what the output has new.

use hashbrown::HashMap;
use llmshim_core::json;
use parking_lot::Mutex;
use serde_json::{Map, Value};
use std::sync::Arc;

use crate::Fingerprint;

/// How one value of the stored input becomes the value at the same place of the stored output.
#[derive(Debug)]
pub(crate) enum Patch {
    /// Identical: left where it is.
    Keep,
    /// Replaced by a copy of the output's value.
    Replace,
    /// Arrays of the same length: the elements at these positions patched, every other one kept.
    Elements(Vec<(usize, Patch)>),
    /// Objects with the same keys in the same order: the members at these positions patched, every other one
    /// kept.
    Members(Vec<(usize, Patch)>),
    /// Objects whose keys differ but whose common keys keep their order (members removed or added): the removed
    /// members dropped in place, the added ones copied in at their positions, then the members at the given
    /// output positions patched. The map's stored hashes are reused, so no kept key is hashed again.
    Edit(Box<Edit>),
    /// Objects whose keys differ otherwise: the output's members in order, each moved from the input member with
    /// the same key (and patched) or copied; input members the output does not have are dropped.
    Rebuild(Vec<Source>),
    /// Short arrays of another length: the output's elements in order, each moved from an identical input element
    /// or copied (a `required` list that lost or gained a name, a type array that lost `"null"`).
    Reorder(Vec<Option<usize>>),
    /// The output holds the input, edited by the inner patch, as element `element` of its member at position
    /// `member` (an array): the frame around it (every other member and element) is copied from the output and the
    /// input moved into its place. This is how a wrapper the normalization put around a node (an `anyOf` with a
    /// `null` branch for an optional property under strict) is rebuilt without copying the node.
    Nest(Box<Nest>),
}

/// Where a [`Patch::Nest`] puts the input, and how it edits it there.
#[derive(Debug)]
pub(crate) struct Nest {
    member: usize,
    element: usize,
    inner: Patch,
    /// The output's object with `null` in the input's slot and in every hoisted member, kept from insert: a hit
    /// clones it whole (its keys and table copied as they are, no key hashed) and fills those places. A small frame
    /// is shared with every other nest whose frame is identical ([`shared_frame`]).
    frame: Arc<Map<String, Value>>,
    /// Members of the frame that are input members the inner edit removes, unchanged (a description strict moves
    /// out of an optional property onto its wrapper): (frame position, input position). The inner edit moves
    /// them into the frame instead of freeing them, so they are not copied from the output. At most
    /// [`MAX_HOISTED`].
    hoisted: Vec<(usize, usize)>,
}

/// At most this many members of one frame are hoisted (one bit each in a word while the nest is applied).
const MAX_HOISTED: usize = 64;

/// The in-place edit of an object whose common keys keep their order.
#[derive(Debug)]
pub(crate) struct Edit {
    /// The input's member count, checked before editing.
    input_len: usize,
    /// The input positions of the members the output does not have, ascending.
    removed: Vec<usize>,
    /// The output positions of the members the input does not have, ascending.
    added: Vec<usize>,
    /// The output positions of kept members that change, ascending, with their patches.
    changes: Vec<(usize, Patch)>,
}

/// Where one member of a rebuilt object comes from.
#[derive(Debug)]
pub(crate) enum Source {
    /// The input member at this position, which has the same key, patched.
    Input(usize, Patch),
    /// A copy of the output's member.
    Copy,
}

/// Objects with more members than this find the input member of a key through a hash map instead of a scan.
const SCAN_LIMIT: usize = 8;

impl Patch {
    /// The patch that turns `input` into `output`.
    ///
    /// Identity is the memo's: the same kinds, keys in the same order, numbers with the same kind and bits. The
    /// recursion follows both values at most [`Fingerprint::MAX_DEPTH`] levels down; anything below that is
    /// replaced whole (the memo only ever stores values within that depth).
    pub(crate) fn between(input: &Value, output: &Value) -> Patch {
        diff(input, output, 0)
    }

    /// The estimated bytes the patch itself holds beyond its positions: the frames of its nests, which are copies
    /// of parts of the output kept for hits to clone. The memo charges them with the entry.
    pub(crate) fn held_bytes(&self) -> usize {
        match self {
            Patch::Keep | Patch::Replace | Patch::Reorder(_) => 0,
            Patch::Elements(patches) | Patch::Members(patches) => {
                patches.iter().map(|(_, p)| p.held_bytes()).sum()
            }
            Patch::Edit(edit) => edit.changes.iter().map(|(_, p)| p.held_bytes()).sum(),
            Patch::Rebuild(sources) => sources
                .iter()
                .map(|source| match source {
                    Source::Input(_, p) => p.held_bytes(),
                    Source::Copy => 0,
                })
                .sum(),
            Patch::Nest(nest) => frame_bytes(&nest.frame).saturating_add(nest.inner.held_bytes()),
        }
    }

    /// Whether the output is identical to the input.
    pub(crate) fn is_keep(&self) -> bool {
        matches!(self, Patch::Keep)
    }

    /// Turns `value`, identical to the input this patch was computed from, into `output`.
    ///
    /// For a value that is not identical to that input the result is unspecified (but it never panics): a
    /// container whose kind or length does not fit the patch is replaced by a copy of `output` there. Replaced
    /// and dropped parts are freed without recursion.
    pub(crate) fn apply(&self, value: &mut Value, output: &Value) {
        match (self, value, output) {
            (Patch::Keep, _, _) => {}
            (Patch::Elements(changes), Value::Array(items), Value::Array(out))
                if items.len() == out.len() =>
            {
                for (position, patch) in changes {
                    if let (Some(item), Some(out)) = (items.get_mut(*position), out.get(*position))
                    {
                        patch.apply(item, out);
                    }
                }
            }
            (Patch::Members(changes), Value::Object(map), Value::Object(out))
                if map.len() == out.len() =>
            {
                let mut changes = changes.iter().peekable();
                for (position, (value, out)) in map.values_mut().zip(out.values()).enumerate() {
                    let Some((_, patch)) = changes.next_if(|(p, _)| *p == position) else {
                        continue;
                    };
                    patch.apply(value, out);
                }
            }
            (Patch::Edit(edit), Value::Object(map), Value::Object(out))
                if map.len() == edit.input_len =>
            {
                edit.apply(map, out, |_, removed| json::dismantle(removed));
            }
            (Patch::Rebuild(sources), Value::Object(map), Value::Object(out)) => {
                rebuild(sources, map, out);
            }
            (Patch::Reorder(sources), Value::Array(items), Value::Array(out)) => {
                reorder(sources, items, out);
            }
            (Patch::Nest(nest), value, Value::Object(out)) => nest.apply(value, out),
            // A string written anew reuses the buffer of the one it replaces where it fits.
            (Patch::Replace, Value::String(text), Value::String(out)) => text.clone_from(out),
            (_, value, output) => {
                json::dismantle(std::mem::replace(value, output.clone()));
            }
        }
    }
}

impl Edit {
    /// Edits `map`, with `input_len` members, into `out`; each member it removes goes to `removed` with its input
    /// position.
    fn apply(
        &self,
        map: &mut Map<String, Value>,
        out: &Map<String, Value>,
        mut removed: impl FnMut(usize, Value),
    ) {
        if !self.removed.is_empty() {
            let mut position = 0;
            let mut positions = self.removed.iter().peekable();
            map.retain(|_, value| {
                let here = position;
                position += 1;
                if positions.next_if(|r| **r == here).is_none() {
                    return true;
                }
                removed(here, std::mem::take(value));
                false
            });
        }
        let mut added = self.added.iter().peekable();
        for (position, (key, value)) in out.iter().enumerate() {
            if added.next_if(|a| **a == position).is_none() {
                continue;
            }
            if position >= map.len() {
                map.insert(key.clone(), value.clone());
            } else {
                map.shift_insert(position, key.clone(), value.clone());
            }
        }
        let mut changes = self.changes.iter().peekable();
        for (position, (value, out)) in map.values_mut().zip(out.values()).enumerate() {
            if let Some((_, patch)) = changes.next_if(|(p, _)| *p == position) {
                patch.apply(value, out);
            }
        }
    }
}

impl Nest {
    /// Clones the frame, edits the input (moving its hoisted members into the frame) and moves it into its slot.
    fn apply(&self, value: &mut Value, out: &Map<String, Value>) {
        let slot_output = out
            .values()
            .nth(self.member)
            .and_then(Value::as_array)
            .and_then(|items| items.get(self.element));
        let Some(slot_output) = slot_output else {
            json::dismantle(std::mem::replace(value, Value::Object(out.clone())));
            return;
        };
        let mut frame = Map::clone(&self.frame);
        let mut input = std::mem::take(value);
        // One bit per hoisted member that the edit moved into the frame.
        let mut moved = 0u64;
        match (&self.inner, &mut input, slot_output) {
            (Patch::Edit(edit), Value::Object(map), Value::Object(item))
                if !self.hoisted.is_empty() && map.len() == edit.input_len =>
            {
                edit.apply(map, item, |position, removed| {
                    let hoisted = self
                        .hoisted
                        .iter()
                        .enumerate()
                        .find(|(_, (_, from))| *from == position);
                    let place =
                        hoisted.and_then(|(i, (at, _))| Some((i, frame.values_mut().nth(*at)?)));
                    match place {
                        Some((i, place)) => {
                            *place = removed;
                            moved |= bit(i);
                        }
                        None => json::dismantle(removed),
                    }
                });
            }
            (inner, input, slot_output) => inner.apply(input, slot_output),
        }
        // A hoisted member the edit did not move (a value that did not fit the patch) is copied from the output.
        for (i, (at, _)) in self.hoisted.iter().enumerate() {
            if moved & bit(i) == 0
                && let (Some(place), Some(output)) =
                    (frame.values_mut().nth(*at), out.values().nth(*at))
            {
                *place = output.clone();
            }
        }
        let slot = frame
            .values_mut()
            .nth(self.member)
            .and_then(Value::as_array_mut)
            .and_then(|items| items.get_mut(self.element));
        match slot {
            Some(slot) => *slot = input,
            None => json::dismantle(input),
        }
        *value = Value::Object(frame);
    }
}

/// The bit of hoisted member `i` (none beyond [`MAX_HOISTED`]).
fn bit(i: usize) -> u64 {
    u32::try_from(i)
        .ok()
        .and_then(|i| 1u64.checked_shl(i))
        .unwrap_or(0)
}

/// Builds `map` anew from the output's members in order, moving the input members `sources` names.
fn rebuild(sources: &[Source], map: &mut Map<String, Value>, out: &Map<String, Value>) {
    let mut slots: Vec<Option<(String, Value)>> =
        std::mem::take(map).into_iter().map(Some).collect();
    let mut rebuilt = Map::with_capacity(out.len());
    for (source, (key, output)) in sources.iter().zip(out) {
        let moved =
            match source {
                Source::Input(position, patch) => slots
                    .get_mut(*position)
                    .and_then(Option::take)
                    .map(|(key, mut value)| {
                        patch.apply(&mut value, output);
                        (key, value)
                    }),
                Source::Copy => None,
            };
        let (key, value) = moved.unwrap_or_else(|| (key.clone(), output.clone()));
        rebuilt.insert(key, value);
    }
    for (_, value) in slots.into_iter().flatten() {
        json::dismantle(value);
    }
    *map = rebuilt;
}

/// Builds `items` anew from the output's elements in order, moving the input elements `sources` names.
fn reorder(sources: &[Option<usize>], items: &mut Vec<Value>, out: &[Value]) {
    let mut old = std::mem::take(items);
    items.reserve_exact(out.len());
    for (source, output) in sources.iter().zip(out) {
        let moved = source
            .and_then(|position| old.get_mut(position))
            .map(std::mem::take);
        items.push(moved.unwrap_or_else(|| output.clone()));
    }
    for value in old {
        json::dismantle(value);
    }
}

/// Arrays up to this length whose length changed are matched element by element (a quadratic scan).
const REORDER_LIMIT: usize = 16;

/// For each element of `output`, the position of an identical, not yet taken element of `input`.
fn matches(input: &[Value], output: &[Value]) -> Vec<Option<usize>> {
    let mut taken = [false; REORDER_LIMIT];
    output
        .iter()
        .map(|value| {
            let position = input.iter().enumerate().position(|(i, candidate)| {
                !taken.get(i).copied().unwrap_or(true) && json::identical(candidate, value)
            })?;
            if let Some(slot) = taken.get_mut(position) {
                *slot = true;
            }
            Some(position)
        })
        .collect()
}

/// [`Patch::between`] at `depth`.
fn diff(input: &Value, output: &Value, depth: usize) -> Patch {
    match (input, output) {
        (Value::Null, Value::Null) => Patch::Keep,
        (Value::Bool(a), Value::Bool(b)) if a == b => Patch::Keep,
        (Value::String(a), Value::String(b)) if a == b => Patch::Keep,
        (Value::Number(_), Value::Number(_)) if json::identical(input, output) => Patch::Keep,
        (Value::Array(a), Value::Array(b))
            if a.len() == b.len() && depth < Fingerprint::MAX_DEPTH =>
        {
            let changes = positions(a.iter().zip(b).map(|(x, y)| diff(x, y, depth + 1)));
            if changes.is_empty() {
                Patch::Keep
            } else {
                Patch::Elements(changes)
            }
        }
        (Value::Array(a), Value::Array(b))
            if a.len() <= REORDER_LIMIT
                && b.len() <= REORDER_LIMIT
                && depth < Fingerprint::MAX_DEPTH =>
        {
            Patch::Reorder(matches(a, b))
        }
        (Value::Object(a), Value::Object(b)) if depth < Fingerprint::MAX_DEPTH => {
            if a.len() == b.len() && a.keys().eq(b.keys()) {
                let changes = positions(
                    a.values()
                        .zip(b.values())
                        .map(|(x, y)| diff(x, y, depth + 1)),
                );
                if changes.is_empty() {
                    Patch::Keep
                } else {
                    Patch::Members(changes)
                }
            } else {
                let plain = edit(a, b, depth);
                match nest(input, output, depth) {
                    Some((nest, cost)) if cost < copied(&plain, output, COST_CAP) => nest,
                    _ => plain,
                }
            }
        }
        _ => Patch::Replace,
    }
}

/// The positions whose patch is not [`Patch::Keep`], with their patches.
fn positions(patches: impl Iterator<Item = Patch>) -> Vec<(usize, Patch)> {
    patches.enumerate().filter(|(_, p)| !p.is_keep()).collect()
}

/// The patch of two objects with different keys: an [`Edit`] when the common keys keep their order, else a
/// [`Patch::Rebuild`].
fn edit(input: &Map<String, Value>, output: &Map<String, Value>, depth: usize) -> Patch {
    let sources = sources(input, output, depth);
    let mut last = None;
    let ordered = sources.iter().all(|source| match source {
        Source::Input(position, _) => {
            let ok = last.is_none_or(|l| l < *position);
            last = Some(*position);
            ok
        }
        Source::Copy => true,
    });
    if !ordered {
        return Patch::Rebuild(sources);
    }
    let mut kept = vec![false; input.len()];
    let mut added = Vec::new();
    let mut changes = Vec::new();
    for (at, source) in sources.into_iter().enumerate() {
        match source {
            Source::Input(position, patch) => {
                if let Some(k) = kept.get_mut(position) {
                    *k = true;
                }
                if !patch.is_keep() {
                    changes.push((at, patch));
                }
            }
            Source::Copy => added.push(at),
        }
    }
    let removed = kept
        .iter()
        .enumerate()
        .filter(|(_, k)| !**k)
        .map(|(position, _)| position)
        .collect();
    Patch::Edit(Box::new(Edit {
        input_len: input.len(),
        removed,
        added,
        changes,
    }))
}

/// Where each member of `output` comes from: the member of `input` with the same key, or a copy.
fn sources(input: &Map<String, Value>, output: &Map<String, Value>, depth: usize) -> Vec<Source> {
    let index: Option<HashMap<&str, usize>> = (input.len() > SCAN_LIMIT).then(|| {
        input
            .keys()
            .enumerate()
            .map(|(position, key)| (key.as_str(), position))
            .collect()
    });
    let values: Vec<&Value> = input.values().collect();
    let find = |key: &str| match &index {
        Some(index) => index.get(key).copied(),
        None => input.keys().position(|k| k == key),
    };
    output
        .iter()
        .map(|(key, value)| {
            find(key)
                .and_then(|position| Some((position, *values.get(position)?)))
                .map_or(Source::Copy, |(position, from)| {
                    Source::Input(position, diff(from, value, depth + 1))
                })
        })
        .collect()
}

/// Sizes are counted up to this many members: beyond it, two patches are both expensive enough.
const COST_CAP: usize = 1 << 16;

/// The best nest of `input` in `output`, with the number of members it copies: `input` moved into an object
/// element of an array member that `input` does not have (a wrapper the normalization added).
///
/// Trying it keeps the diff linear in the output: the plain edit of the same two objects diffs only the output
/// members whose key the input has, and a nest only the elements of a member whose key it lacks, so no part of
/// the output is diffed twice (the sizes that choose between the two are counted up to [`COST_CAP`]).
fn nest(input: &Value, output: &Value, depth: usize) -> Option<(Patch, usize)> {
    let (Value::Object(fields), Value::Object(out)) = (input, output) else {
        return None;
    };
    if depth + 2 >= Fingerprint::MAX_DEPTH {
        return None;
    }
    let whole = copied_size(output, COST_CAP);
    let mut best: Option<(usize, usize, Patch, usize)> = None;
    for (member, (key, value)) in out.iter().enumerate() {
        let Value::Array(items) = value else {
            continue;
        };
        if fields.contains_key(key) || items.len() > REORDER_LIMIT {
            continue;
        }
        for (element, item) in items.iter().enumerate() {
            let Value::Object(inner_output) = item else {
                continue;
            };
            // Only an element that keeps most of the input's members can hold it.
            let shared = fields
                .keys()
                .filter(|k| inner_output.contains_key(*k))
                .count();
            if shared * 2 < fields.len() || shared == 0 {
                continue;
            }
            let inner = diff(input, item, depth + 2);
            let frame = whole.saturating_sub(copied_size(item, COST_CAP));
            let cost = frame.saturating_add(copied(&inner, item, COST_CAP));
            if best.as_ref().is_none_or(|(_, _, _, c)| cost < *c) {
                best = Some((member, element, inner, cost));
            }
        }
    }
    let (member, element, inner, cost) = best?;
    let hoisted = hoisted(fields, out, member, &inner);
    let frame = out
        .iter()
        .enumerate()
        .map(|(position, (key, value))| {
            let value = match value {
                Value::Array(items) if position == member => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(at, item)| {
                            if at == element {
                                Value::Null
                            } else {
                                item.clone()
                            }
                        })
                        .collect(),
                ),
                _ if hoisted.iter().any(|(at, _)| *at == position) => Value::Null,
                other => other.clone(),
            };
            (key.clone(), value)
        })
        .collect();
    Some((
        Patch::Nest(Box::new(Nest {
            member,
            element,
            inner,
            frame: shared_frame(frame),
            hoisted,
        })),
        cost,
    ))
}

/// Frames whose estimate is at most this many bytes are shared between nests.
const SHARED_FRAME_BYTES: usize = 4096;

/// At most this many distinct frames are shared; a frame met after them is kept by its nest alone.
const SHARED_FRAMES: usize = 64;

/// `frame`, or the identical frame already shared.
///
/// Most nests hold the same frame (the nullable wrapper strict puts around an optional property, with or without the
/// property's description hoisted beside it), so entries share one copy of it: a hit then clones a frame that the
/// hits before it have just read, instead of each entry's own copy, which a pass over many entries finds out of the
/// cache. What a hit builds is the same. The memo still charges each entry for its frames (`held_bytes`), and the
/// shared frames are few and small, kept for the life of the process.
fn shared_frame(frame: Map<String, Value>) -> Arc<Map<String, Value>> {
    static SHARED: Mutex<Vec<Arc<Map<String, Value>>>> = Mutex::new(Vec::new());
    if frame_bytes(&frame) > SHARED_FRAME_BYTES {
        return Arc::new(frame);
    }
    let mut shared = SHARED.lock();
    if let Some(found) = shared.iter().find(|f| same_members(f, &frame)) {
        return Arc::clone(found);
    }
    let frame = Arc::new(frame);
    if shared.len() < SHARED_FRAMES {
        shared.push(Arc::clone(&frame));
    }
    frame
}

/// The estimated bytes of a frame's keys and values, as the memo charges them.
fn frame_bytes(frame: &Map<String, Value>) -> usize {
    frame
        .iter()
        .map(|(key, value)| {
            key.len()
                .saturating_add(crate::fingerprint::estimate(value).unwrap_or(0))
        })
        .fold(0usize, usize::saturating_add)
}

/// Whether two objects are identical in the memo's sense: the same keys in the same order, identical values.
fn same_members(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && json::identical(va, vb))
}

/// The members of the frame `out` (all but the slot's `member`) that the inner patch, an edit, removes from the
/// input unchanged under the same key: (frame position, input position), at most [`MAX_HOISTED`].
fn hoisted(
    fields: &Map<String, Value>,
    out: &Map<String, Value>,
    member: usize,
    inner: &Patch,
) -> Vec<(usize, usize)> {
    let Patch::Edit(edit) = inner else {
        return Vec::new();
    };
    out.iter()
        .enumerate()
        .filter(|(position, _)| *position != member)
        .filter_map(|(position, (key, value))| {
            let from = fields.keys().position(|k| k == key)?;
            let same = edit.removed.contains(&from)
                && fields
                    .values()
                    .nth(from)
                    .is_some_and(|v| json::identical(v, value));
            same.then_some((position, from))
        })
        .take(MAX_HOISTED)
        .collect()
}

/// The number of members and elements in `value`, at every depth (a scalar counts 1), counted up to `cap`.
fn copied_size(value: &Value, cap: usize) -> usize {
    let mut count = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        if count >= cap {
            return cap;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// How much of `output` applying `patch` copies, in [`copied_size`] units, up to `cap`.
fn copied(patch: &Patch, output: &Value, cap: usize) -> usize {
    let total = match (patch, output) {
        (Patch::Keep, _) => 0,
        (Patch::Elements(changes), Value::Array(out)) => changes
            .iter()
            .map(|(at, p)| out.get(*at).map_or(0, |o| copied(p, o, cap)))
            .fold(0usize, usize::saturating_add),
        (Patch::Members(changes), Value::Object(out)) => changes
            .iter()
            .map(|(at, p)| out.values().nth(*at).map_or(0, |o| copied(p, o, cap)))
            .fold(0usize, usize::saturating_add),
        (Patch::Edit(edit), Value::Object(out)) => {
            let added = edit
                .added
                .iter()
                .map(|at| out.values().nth(*at).map_or(0, |o| copied_size(o, cap)));
            let changed = edit
                .changes
                .iter()
                .map(|(at, p)| out.values().nth(*at).map_or(0, |o| copied(p, o, cap)));
            added.chain(changed).fold(0usize, usize::saturating_add)
        }
        (Patch::Rebuild(sources), Value::Object(out)) => sources
            .iter()
            .zip(out.values())
            .map(|(source, o)| match source {
                Source::Input(_, p) => copied(p, o, cap),
                Source::Copy => copied_size(o, cap),
            })
            .fold(0usize, usize::saturating_add),
        (Patch::Reorder(sources), Value::Array(out)) => sources
            .iter()
            .zip(out)
            .map(|(source, o)| {
                if source.is_some() {
                    0
                } else {
                    copied_size(o, cap)
                }
            })
            .fold(0usize, usize::saturating_add),
        (Patch::Nest(nest), Value::Object(out)) => {
            let item = out
                .values()
                .nth(nest.member)
                .and_then(Value::as_array)
                .and_then(|items| items.get(nest.element));
            match item {
                Some(item) => copied_size(output, cap)
                    .saturating_sub(copied_size(item, cap))
                    .saturating_add(copied(&nest.inner, item, cap)),
                None => copied_size(output, cap),
            }
        }
        _ => copied_size(output, cap),
    };
    total.min(cap)
}

#[cfg(test)]
mod tests {
    use super::Patch;
    use serde_json::{Value, json};

    /// Applies the patch between `input` and `output` to a copy of `input` and checks the result is identical to
    /// `output`.
    fn round_trip(input: &Value, output: &Value) -> Patch {
        let patch = Patch::between(input, output);
        let mut value = input.clone();
        patch.apply(&mut value, output);
        assert!(
            llmshim_core::json::identical(&value, output),
            "{input} patched gave {value}, not {output}"
        );
        patch
    }

    #[test]
    fn identical_values_keep() {
        let v =
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
        assert!(round_trip(&v, &v.clone()).is_keep());
        assert!(round_trip(&json!(1.0), &json!(1.0)).is_keep());
    }

    #[test]
    fn numbers_of_another_kind_or_sign_are_replaced() {
        assert!(!round_trip(&json!(1), &json!(1.0)).is_keep());
        assert!(!round_trip(&json!(0.0), &json!(-0.0)).is_keep());
        assert!(!round_trip(&json!({"a": 1}), &json!({"a": 1.0})).is_keep());
    }

    #[test]
    fn every_kind_of_edit_gives_the_output() {
        let pairs = [
            // A member changed in place.
            (
                json!({"a": {"b": 1}, "c": 2}),
                json!({"a": {"b": 2}, "c": 2}),
            ),
            // A member removed, one added, members reordered.
            (
                json!({"a": 1, "b": 2, "c": 3}),
                json!({"c": 3, "d": 4, "a": 1}),
            ),
            // Many members, found through the hash map.
            (
                json!({"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9}),
                json!({"k9": 9, "k0": {"x": 0}, "k4": 4, "new": true}),
            ),
            // Arrays of the same and of another length, and kinds that change.
            (
                json!([1, [2, 3], {"x": "y"}]),
                json!([1, [2, 4], {"x": "z"}]),
            ),
            (json!([1, 2]), json!([1, 2, 3])),
            (json!(["a", "b", "c", "a"]), json!(["c", "a", "a"])),
            (json!(["a", "b"]), json!(["a", "b", "a", "b", "c"])),
            (json!({"a": "long text"}), json!({"a": "short"})),
            (json!({"a": [1]}), json!({"a": {"0": 1}})),
            (json!("s"), json!(null)),
            (
                json!({"a": {"b": {"c": [1, {"d": "e"}]}}}),
                json!({"a": {"b": {"c": [1, {"d": "f"}], "g": 1}}}),
            ),
        ];
        for (input, output) in &pairs {
            assert!(!round_trip(input, output).is_keep(), "{input} -> {output}");
        }
    }

    #[test]
    fn a_node_wrapped_in_an_any_of_is_moved_into_the_wrapper() {
        // Strict turns an optional property into a union with `null` and hoists its description.
        let input = json!({
            "description": "filter",
            "type": "object",
            "properties": {"status": {"type": "string", "enum": ["queued", "done", "failed"]}}
        });
        let output = json!({
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"status": {"anyOf": [{"type": "string", "enum": ["queued", "done", "failed"]}, {"type": "null"}]}},
                    "required": ["status"],
                    "additionalProperties": false
                },
                {"type": "null"}
            ],
            "description": "filter"
        });
        let patch = round_trip(&input, &output);
        assert!(matches!(patch, Patch::Nest(_)), "{patch:?}");
        // The frames (the outer `{"type": "null"}` branch, the property's, the closing keys) are held and charged;
        // a patch without a nest holds nothing.
        assert!(patch.held_bytes() > 0);
        assert_eq!(
            round_trip(&json!({"a": 1}), &json!({"a": 1, "b": 2})).held_bytes(),
            0
        );
        let mut value = input.clone();
        let buffer = value["properties"]["status"]["enum"][1]
            .as_str()
            .map(str::as_ptr);
        let description = value["description"].as_str().map(str::as_ptr);
        patch.apply(&mut value, &output);
        assert_eq!(value, output);
        // The description the edit removes from the node is moved onto the wrapper, not copied.
        assert_eq!(value["description"].as_str().map(str::as_ptr), description);
        // The enum moved twice, into both wrappers, instead of being copied.
        assert_eq!(
            value["anyOf"][0]["properties"]["status"]["anyOf"][0]["enum"][1]
                .as_str()
                .map(str::as_ptr),
            buffer
        );
    }

    /// Two entries whose wrappers are identical share one frame, and still charge it each; a frame past the size
    /// limit is kept by its nest alone.
    #[test]
    fn identical_small_frames_are_shared_and_still_charged() {
        let frame_of = |patch: &Patch| match patch {
            Patch::Nest(nest) => std::sync::Arc::clone(&nest.frame),
            other => panic!("expected a nest, got {other:?}"),
        };
        let wrapped = |node: Value, description: &str| json!({"anyOf": [node, {"type": "null"}], "description": description});
        // Nodes large enough that moving them into the wrapper costs less than copying the wrapper whole.
        let node = |kind: &str| json!({"type": kind, "enum": ["a", "b", "c", "d"], "format": "f", "title": "t"});
        let described = |kind: &str| {
            let mut input = node(kind);
            if let Some(map) = input.as_object_mut() {
                map.shift_insert(0, "description".to_owned(), json!("shared frame test"));
            }
            input
        };
        let a = round_trip(
            &described("string"),
            &wrapped(node("string"), "shared frame test"),
        );
        let b = round_trip(
            &described("integer"),
            &wrapped(node("integer"), "shared frame test"),
        );
        assert!(std::sync::Arc::ptr_eq(&frame_of(&a), &frame_of(&b)));
        assert!(a.held_bytes() > 0);
        assert_eq!(a.held_bytes(), b.held_bytes());

        // A large sibling in the wrapper makes the frame too large to share.
        let long = "x".repeat(super::SHARED_FRAME_BYTES);
        let large = |node: Value| json!({"anyOf": [node, {"type": "null"}], "title": long});
        let c = round_trip(&node("string"), &large(node("string")));
        let d = round_trip(&node("string"), &large(node("string")));
        assert!(!std::sync::Arc::ptr_eq(&frame_of(&c), &frame_of(&d)));
        assert_eq!(c.held_bytes(), d.held_bytes());
    }

    #[test]
    fn a_nest_that_does_not_fit_the_value_never_panics() {
        let input = json!({"type": "string", "description": "d"});
        let output = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"});
        let patch = round_trip(&input, &output);
        for mut value in [
            json!(null),
            json!([1, 2]),
            json!({"type": 3}),
            json!("text"),
        ] {
            patch.apply(&mut value, &output);
        }
        let mut value = input.clone();
        patch.apply(&mut value, &json!({"anyOf": 1}));
    }

    #[test]
    fn nests_at_every_level_of_a_deep_schema() {
        // Every level is wrapped and keeps its description outside, as strict does for nested optional objects.
        let mut input = json!({"type": "string", "description": "leaf"});
        let mut output =
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "leaf"});
        for level in 0..60 {
            let text = format!("level {level}");
            input = json!({"description": text, "type": "object", "properties": {"p": input}});
            output = json!({
                "anyOf": [
                    {"type": "object", "properties": {"p": output}, "required": ["p"], "additionalProperties": false},
                    {"type": "null"}
                ],
                "description": text
            });
        }
        assert!(matches!(round_trip(&input, &output), Patch::Nest(_)));
    }

    #[test]
    fn kept_parts_stay_in_place() {
        let input =
            json!({"$schema": "x", "properties": {"a": {"type": "string"}}, "type": "object"});
        let output = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let patch = Patch::between(&input, &output);
        let mut value = input.clone();
        let buffer = value["properties"]["a"]["type"].as_str().map(str::as_ptr);
        patch.apply(&mut value, &output);
        assert_eq!(value, output);
        assert_eq!(
            value["properties"]["a"]["type"].as_str().map(str::as_ptr),
            buffer
        );
    }

    #[test]
    fn a_value_that_does_not_fit_never_panics() {
        let patch = Patch::between(&json!({"a": [1, 2]}), &json!({"a": [1, 3]}));
        for mut other in [
            json!(null),
            json!({"a": 5}),
            json!({"a": [1]}),
            json!([1, 2]),
        ] {
            patch.apply(&mut other, &json!({"a": [1, 3]}));
        }
    }
}
