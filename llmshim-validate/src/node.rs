//! The compiled form of a schema: an arena of nodes, each a range of an arena of keywords in evaluation order.

use std::sync::Arc;

use serde_json::{Number, Value};

use crate::format::Format;
use crate::regex::Pattern;

/// The index of a node in the validator's arena.
pub(crate) type NodeId = u32;

/// No node: the `forward` of a node that is not forwarded, the `dispatch` of an `allOf` without one.
pub(crate) const NONE: u32 = u32::MAX;

/// One compiled schema (object or boolean).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// The node's keywords are `start..end` of the validator's keyword arena, in schema order with
    /// `unevaluated*` last.
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// The schema resource (base URI) the node belongs to, for dynamic scoping.
    pub(crate) resource: u32,
    /// Whether the node has `unevaluatedProperties` or `unevaluatedItems`, so its in-place subschemas must report
    /// what they evaluated.
    pub(crate) unevaluated: bool,
    /// Whether every keyword of the node is an assertion ([`Keyword::is_assertion`]): the node applies no
    /// subschema, so evaluating it neither nests nor reads the dynamic scope.
    pub(crate) leaf: bool,
    /// For a node that is only a static `$ref` (in a validator without dynamic scoping), the node the chain of
    /// such nodes ends on, and how many nodes the chain has; [`NONE`] otherwise. A chain that is a cycle has
    /// `hops` 0 and `forward` the node's own target, to be followed one hop at a time.
    pub(crate) forward: NodeId,
    pub(crate) hops: u32,
    /// For a leaf whose only keyword is `type` (or which has none), the types it allows; 0 otherwise. Such a node
    /// is checked without reading its keywords.
    pub(crate) types: u8,
    /// For an object-shaped node ([`ObjectShape`]), its shape.
    pub(crate) object: Option<ObjectShape>,
}

/// A node whose keywords are only `properties`, `additionalProperties`, a `type` and a `required` fused into the
/// `properties` pass, in any order: the most common object schema. The boolean walk checks it in one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ObjectShape {
    /// The types of its `type` keyword, [`TypeSet::ALL`] without one.
    pub(crate) types: u8,
    /// The offsets from `start` of its `properties` and `additionalProperties` keywords, [`ObjectShape::NONE`]
    /// when absent.
    pub(crate) properties: u8,
    pub(crate) additional: u8,
}

impl ObjectShape {
    /// No such keyword.
    pub(crate) const NONE: u8 = u8::MAX;

    /// The shape of a node with `keywords`, if it has it.
    pub(crate) fn of(keywords: &[Keyword]) -> Option<ObjectShape> {
        let mut shape = ObjectShape {
            types: TypeSet::ALL,
            properties: ObjectShape::NONE,
            additional: ObjectShape::NONE,
        };
        if keywords.len() > 4 {
            return None;
        }
        for (offset, keyword) in (0u8..).zip(keywords) {
            match keyword {
                Keyword::Type { types, .. } => shape.types = types.0,
                Keyword::Properties { .. } => shape.properties = offset,
                Keyword::AdditionalProperties { patterns, .. } if patterns.is_empty() => {
                    shape.additional = offset;
                }
                Keyword::Required { fused: true, .. } => {}
                _ => return None,
            }
        }
        (shape.properties != ObjectShape::NONE || shape.additional != ObjectShape::NONE)
            .then_some(shape)
    }
}

impl Default for Node {
    fn default() -> Node {
        Node {
            start: 0,
            end: 0,
            resource: 0,
            unevaluated: false,
            leaf: true,
            forward: NONE,
            hops: 0,
            types: 0,
            object: None,
        }
    }
}

/// An `allOf` whose branches include discriminator tests, `{"if": {"properties": {P: {"const": C}}}, "then": S}`
/// (optionally with `"required": [P]`), indexed by `C` so that only the branches whose test can hold are applied.
#[derive(Debug)]
pub(crate) struct Dispatch {
    /// The discriminating property `P`.
    pub(crate) property: Box<str>,
    /// The branches of another shape, applied as usual.
    pub(crate) others: Box<[NodeId]>,
    /// The `then` subschemas of the discriminator branches by constant.
    pub(crate) by_value: hashbrown::HashMap<Box<str>, Vec<NodeId>>,
    /// Every discriminator branch: its `then` subschema and whether its test requires `P`.
    pub(crate) all: Box<[(NodeId, bool)]>,
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
    /// Every type.
    pub(crate) const ALL: u8 = 127;

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

/// The type names of a `type` keyword in schema order, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeNames {
    codes: [u8; 7],
    len: u8,
}

impl TypeNames {
    /// The names in the order they were pushed.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.codes
            .iter()
            .take(self.len as usize)
            .map(|&c| TYPE_NAMES.get(c as usize).copied().unwrap_or_default())
    }

    /// Builds the names from type names, each one of [`TYPE_NAMES`]; `None` for more than seven.
    pub(crate) fn from_names(names: &[&'static str]) -> Option<TypeNames> {
        let mut out = TypeNames {
            codes: [0; 7],
            len: 0,
        };
        for name in names {
            let code = TYPE_NAMES.iter().position(|t| t == name)?;
            *out.codes.get_mut(out.len as usize)? = code as u8;
            out.len += 1;
        }
        Some(out)
    }
}

/// The type names, as static strings for messages.
pub(crate) const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// One side of a dependency: required names or a schema (`dependentRequired`, `dependentSchemas`, `dependencies`).
#[derive(Debug)]
pub(crate) enum Dependency {
    Required(Box<[Box<str>]>),
    Schema(NodeId),
}

/// One name of a `properties` keyword and its subschema, in the validator's [`Tables`].
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The [`head`] and [`last`] words of the name: with its length they decide equality for names of up to
    /// sixteen bytes without reading the name itself.
    head: u64,
    last: u64,
    len: u32,
    /// Where the name starts in [`Tables::names`].
    name: u32,
    pub(crate) node: NodeId,
    /// The [`Node::types`] of `node`, set once every node is compiled (0 until then, and for other nodes).
    pub(crate) types: u8,
}

/// The [`head`] and [`last`] words of a name.
#[derive(Debug, Clone, Copy)]
struct Signature {
    head: u64,
    last: u64,
}

impl Signature {
    #[inline]
    fn of(name: &str) -> Signature {
        Signature {
            head: head(name),
            last: last(name),
        }
    }

    /// The slot of a name in a table of `64 - shift` bits.
    #[inline]
    fn slot(self, len: usize, shift: u32) -> usize {
        let mixed = (self.head ^ self.last.rotate_left(29) ^ len as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> shift) as usize
    }
}

/// A `properties` table: `len` entries from `start` of [`Tables::entries`], in schema order, and, for a table
/// searched by hash, `slot_count` slots from `slots` of [`Tables::slots`] (position + 1 of the entry whose name
/// lands there, 0 for empty).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Table {
    start: u32,
    len: u32,
    slots: u32,
    slot_count: u32,
}

/// The `properties` tables of a validator, stored contiguously: entries, hash slots and name text.
#[derive(Debug, Default)]
pub(crate) struct Tables {
    entries: Vec<Entry>,
    slots: Vec<u16>,
    names: String,
}

impl Tables {
    /// Adds a table of `names` and their subschemas, in schema order.
    pub(crate) fn add<'n>(
        &mut self,
        names: impl ExactSizeIterator<Item = (&'n str, NodeId)>,
    ) -> Table {
        let start = self.entries.len() as u32;
        let len = names.len();
        self.entries.reserve(len);
        for (name, node) in names {
            let sig = Signature::of(name);
            self.entries.push(Entry {
                head: sig.head,
                last: sig.last,
                len: name.len() as u32,
                name: self.names.len() as u32,
                node,
                types: 0,
            });
            self.names.push_str(name);
        }
        let mut table = Table {
            start,
            len: len as u32,
            slots: self.slots.len() as u32,
            slot_count: 0,
        };
        // Positions are stored as u16, which every table within the schema limits fits.
        if len > LINEAR_LOOKUP && len < usize::from(u16::MAX) {
            let size = (len * 2).next_power_of_two();
            let shift = 64 - size.trailing_zeros();
            let base = self.slots.len();
            self.slots.resize(base + size, 0);
            let entries = self.entries.get(start as usize..).unwrap_or_default();
            for (position, entry) in (1u16..).zip(entries) {
                let sig = Signature {
                    head: entry.head,
                    last: entry.last,
                };
                let mut at = sig.slot(entry.len as usize, shift);
                // The table is at most half full, so a free slot is always found.
                while self.slots.get(base + at).is_some_and(|s| *s != 0) {
                    at = (at + 1) & (size - 1);
                }
                if let Some(slot) = self.slots.get_mut(base + at) {
                    *slot = position;
                }
            }
            table.slot_count = size as u32;
        }
        table
    }

    /// The entries of `table`, in schema order.
    #[inline]
    pub(crate) fn entries(&self, table: Table) -> &[Entry] {
        self.entries
            .get(table.start as usize..(table.start + table.len) as usize)
            .unwrap_or_default()
    }

    /// The entries of every table, for the pass that sets [`Entry::types`].
    pub(crate) fn all_entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
    }

    /// The name of `entry`.
    #[inline]
    pub(crate) fn name(&self, entry: &Entry) -> &str {
        self.names
            .get(entry.name as usize..(entry.name + entry.len) as usize)
            .unwrap_or_default()
    }

    /// Whether `entry` is named `name`, whose [`Signature`] is `sig`.
    #[inline]
    fn is(&self, entry: &Entry, name: &str, sig: Signature) -> bool {
        entry.len as usize == name.len()
            && entry.head == sig.head
            && entry.last == sig.last
            && (name.len() <= 16
                || self.name(entry).as_bytes().get(8..) == name.as_bytes().get(8..))
    }

    /// The position of `name` in `table`.
    #[expect(
        clippy::inline_always,
        reason = "the linear search is a handful of instructions on the validation fast path; without the hint \
                  it stays a call"
    )]
    #[inline(always)]
    pub(crate) fn position(&self, table: Table, name: &str) -> Option<u32> {
        if table.slot_count == 0 {
            // Most names differ in length, so the words of `name` are only made for a candidate.
            let len = name.len() as u32;
            for (position, entry) in (0u32..).zip(self.entries(table)) {
                if entry.len == len && self.is(entry, name, Signature::of(name)) {
                    return Some(position);
                }
            }
            return None;
        }
        self.probe(table, name, Signature::of(name))
    }

    /// The open-addressing search of [`Tables::position`].
    #[inline(never)]
    fn probe(&self, table: Table, name: &str, sig: Signature) -> Option<u32> {
        let slots = self
            .slots
            .get(table.slots as usize..(table.slots + table.slot_count) as usize)?;
        let entries = self.entries(table);
        let mask = slots.len() - 1;
        let shift = 64 - slots.len().trailing_zeros();
        let mut at = sig.slot(name.len(), shift);
        loop {
            let slot = *slots.get(at)?;
            let position = slot.checked_sub(1)?;
            if entries
                .get(usize::from(position))
                .is_some_and(|entry| self.is(entry, name, sig))
            {
                return Some(u32::from(position));
            }
            at = (at + 1) & mask;
        }
    }
}

/// Tables up to this size are searched linearly.
const LINEAR_LOOKUP: usize = 8;

/// A word made of the bytes of `text` such that two texts of the same length up to eight bytes are equal exactly
/// when their heads are; longer texts contribute their first eight bytes. Loads overlap instead of copying, so no
/// byte is staged through memory.
#[inline]
pub(crate) fn head(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let n = bytes.len();
    if let Some(first) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*first);
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return u64::from(u32::from_le_bytes(*first))
            | (u64::from(u32::from_le_bytes(*last)) << 32);
    }
    match (bytes.first(), bytes.get(n / 2), bytes.last()) {
        (Some(a), Some(b), Some(c)) => u64::from(*a) | (u64::from(*b) << 8) | (u64::from(*c) << 16),
        _ => 0,
    }
}

/// The last eight bytes of a text longer than eight bytes, else 0: with [`head`] they cover every byte of a text
/// of up to sixteen bytes.
#[inline]
fn last(text: &str) -> u64 {
    match text.as_bytes().last_chunk::<8>() {
        Some(word) if text.len() > 8 => u64::from_le_bytes(*word),
        _ => 0,
    }
}

/// Whether two texts are equal; texts of up to sixteen bytes are compared as two words each instead of through
/// `memcmp`.
#[inline]
pub(crate) fn str_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && if a.len() <= 16 {
            head(a) == head(b) && last(a) == last(b)
        } else {
            a == b
        }
}

/// Whether two texts of the same length with equal [`head`]s are equal: the bytes past the head still count.
#[inline]
pub(crate) fn same_tail(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() <= 8 {
        return true;
    }
    if a.len() <= 16 {
        // The last eight bytes overlap the head; together they cover every byte.
        return a.last_chunk::<8>() == b.last_chunk::<8>();
    }
    a.get(8..) == b.get(8..)
}

/// The compiled patterns of a `patternProperties` keyword and their subschemas, shared with `additionalProperties`.
pub(crate) type PatternEntries = Arc<[(Arc<Pattern>, NodeId)]>;

/// What `additionalProperties` leaves alone: the sibling `properties` table and `patternProperties` patterns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known<'k> {
    pub(crate) properties: Option<Table>,
    pub(crate) patterns: &'k [(Arc<Pattern>, NodeId)],
}

impl<'k> Known<'k> {
    /// The view of an `additionalProperties` keyword whose sibling `properties` keyword sits at `properties`
    /// (or [`NONE`]) of `keywords`.
    #[inline]
    pub(crate) fn of(
        keywords: &'k [Keyword],
        properties: u32,
        patterns: &'k PatternEntries,
    ) -> Known<'k> {
        let table = match keywords.get(properties as usize) {
            Some(Keyword::Properties { table, .. }) => Some(*table),
            _ => None,
        };
        Known {
            properties: table,
            patterns,
        }
    }
}

impl Node {
    /// The node's keywords in `arena`.
    #[inline]
    pub(crate) fn keywords<'k>(&self, arena: &'k [Keyword]) -> &'k [Keyword] {
        arena
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// The keyword names the evaluator writes into schema pointers, stored as a byte instead of a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    Ref,
    DynamicRef,
    RecursiveRef,
    PrefixItems,
    Items,
    AdditionalItems,
    Contains,
    MinContains,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    DependentRequired,
    DependentSchemas,
    Dependencies,
}

impl Name {
    /// The keyword as written in a schema.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Name::Ref => "$ref",
            Name::DynamicRef => "$dynamicRef",
            Name::RecursiveRef => "$recursiveRef",
            Name::PrefixItems => "prefixItems",
            Name::Items => "items",
            Name::AdditionalItems => "additionalItems",
            Name::Contains => "contains",
            Name::MinContains => "minContains",
            Name::Minimum => "minimum",
            Name::Maximum => "maximum",
            Name::ExclusiveMinimum => "exclusiveMinimum",
            Name::ExclusiveMaximum => "exclusiveMaximum",
            Name::DependentRequired => "dependentRequired",
            Name::DependentSchemas => "dependentSchemas",
            Name::Dependencies => "dependencies",
        }
    }
}

/// A numeric bound and the keyword it was written with, for messages.
#[derive(Debug)]
pub(crate) struct Bound {
    pub(crate) value: Number,
    pub(crate) key: Name,
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

// Keywords are evaluated from one contiguous arena, so their size is part of the evaluator's speed.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Keyword>() <= 32);

impl Keyword {
    /// Whether the keyword only looks at the instance value and applies no subschema.
    pub(crate) fn is_assertion(&self) -> bool {
        !matches!(
            self,
            Keyword::Items { .. }
                | Keyword::Contains { .. }
                | Keyword::Properties { .. }
                | Keyword::PatternProperties { .. }
                | Keyword::AdditionalProperties { .. }
                | Keyword::PropertyNames(_)
                | Keyword::Dependencies { .. }
                | Keyword::AllOf { .. }
                | Keyword::AnyOf(_)
                | Keyword::OneOf(_)
                | Keyword::Not(_)
                | Keyword::If { .. }
                | Keyword::Ref { .. }
                | Keyword::UnevaluatedItems(_)
                | Keyword::UnevaluatedProperties { .. }
        )
    }
}

/// One compiled keyword.
#[derive(Debug)]
pub(crate) enum Keyword {
    /// The `false` schema.
    False,
    Type {
        types: TypeSet,
        names: TypeNames,
    },
    Enum(Box<[Value]>),
    Const(Box<Value>),
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
        prefix_key: Name,
        rest: Option<NodeId>,
        rest_key: Name,
    },
    Contains {
        node: NodeId,
        min: u64,
        min_key: Name,
        max: Option<u64>,
        annotate: bool,
    },
    MinProperties(u64),
    MaxProperties(u64),
    Required {
        names: Box<[Box<str>]>,
        /// Whether the sibling `properties` pass checks these names when only validity is asked (every name is
        /// one of its at most 64 properties).
        fused: bool,
    },
    Properties {
        table: Table,
        /// Whether a sibling `additionalProperties` applies this keyword too when only validity is asked.
        covered: bool,
        /// The table positions of a fused sibling `required`, as bits.
        required: u64,
    },
    PatternProperties {
        entries: PatternEntries,
        /// Whether a sibling `additionalProperties` applies this keyword too when only validity is asked.
        covered: bool,
    },
    AdditionalProperties {
        node: NodeId,
        is_false: bool,
        /// The position of the sibling `properties` keyword in the validator's keywords, or [`NONE`] (see
        /// [`Known::of`]).
        properties: u32,
        /// The sibling `patternProperties` patterns, shared with that keyword.
        patterns: PatternEntries,
    },
    PropertyNames(NodeId),
    Dependencies {
        key: Name,
        entries: Box<[(Box<str>, Dependency)]>,
    },
    AllOf {
        nodes: Box<[NodeId]>,
        /// The validator's [`Dispatch`] for these branches, or [`NONE`].
        dispatch: u32,
    },
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    If {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
    Ref {
        key: Name,
        target: NodeId,
        dynamic: Dynamic,
    },
    UnevaluatedItems(NodeId),
    UnevaluatedProperties {
        node: NodeId,
        is_false: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_find_every_name_and_only_those() {
        let names: Vec<String> = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh1",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
            "xbcdefghijklmnopq",
            "é",
            "éé",
            "aé",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let probes = [
            "abcdefghijklmnoq",
            "abcdefghijklmnopqq",
            "ba",
            "abce",
            "abcdefgi",
            "",
            "é",
            "e",
            "ab\u{0}",
            "zzz",
        ];
        for size in [0, 1, 3, 4, 8, 9, names.len()] {
            let mut tables = Tables::default();
            // A table added after another one, so positions are relative to the table.
            tables.add(std::iter::once(("other", 99)));
            let chosen: Vec<&str> = names.iter().take(size).map(String::as_str).collect();
            let table = tables.add(chosen.iter().copied().zip(0..chosen.len() as u32));
            for (position, name) in (0u32..).zip(&chosen) {
                assert_eq!(
                    tables.position(table, name),
                    Some(position),
                    "{name:?} in {size}"
                );
                let entry = tables
                    .entries(table)
                    .get(position as usize)
                    .map(|e| (tables.name(e), e.node));
                assert_eq!(entry, Some((*name, position)));
            }
            for probe in probes.iter().chain(
                names
                    .iter()
                    .skip(size)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .iter(),
            ) {
                if !chosen.contains(probe) {
                    assert_eq!(tables.position(table, probe), None, "{probe:?} in {size}");
                }
            }
        }
    }

    #[test]
    fn text_comparisons_agree_with_equality() {
        let texts = [
            "",
            "a",
            "ab",
            "abcd",
            "abce",
            "abcdefgh",
            "abcdefgi",
            "abcdefghi",
            "abcdefghj",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
            "é",
            "\u{0}",
            "\u{0}\u{0}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(str_eq(a, b), a == b, "{a:?} {b:?}");
                if a.len() == b.len() && head(a) == head(b) {
                    assert_eq!(same_tail(a, b), a == b, "{a:?} {b:?}");
                }
            }
        }
    }
}
