//! The schema positions directly below one schema object, listed once for every reader: the walker, the structural
//! check, strict enforcement and the resolver's registry.
//!
//! A key holds positions by its [`KeywordClass`]: each member of a map child (`properties`), the value of a single
//! child (`items`), each entry of an array child (`anyOf`). A boolean `additionalProperties`, and a boolean `items`
//! beside `prefixItems`, are flags rather than positions and are never listed. Definitions and literals hold no
//! positions unless a reader asks for definitions.
//!
//! Readers of a finished or original document use [`children`], in the node's stored key order, skipping containers
//! of the wrong kind. The walker uses [`children_mut`], in walk order (the order of [`Keyword::WALK_ORDER`]), which
//! reports a container of the wrong kind instead of skipping it.
//!
//! ```
//! use llmshim_core::children::{Slot, children};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "anyOf": [{"type": "string"}],
//!     "properties": {"a": {"type": "integer"}},
//!     "additionalProperties": false,
//!     "default": {"properties": "data"}
//! });
//! let map = schema.as_object().expect("an object");
//! let mut pointers = Vec::new();
//! for child in children(map) {
//!     let mut pointer = String::new();
//!     child.slot.push_onto(&mut pointer);
//!     pointers.push(pointer);
//! }
//! assert_eq!(pointers, ["/anyOf/0", "/properties/a"]);
//! ```

use std::iter::Enumerate;

use serde_json::{Map, Value};

use crate::keyword::{Keyword, KeywordClass, class_of};
use crate::pointer::push_token;

/// Where a child sits below its parent: a keyword, plus a member name or an index for map and array children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Slot<'a> {
    /// A single child such as `items` or `additionalProperties`.
    Single(&'a str),
    /// A member of a map child such as `properties` (or of a definitions container).
    Member(&'a str, &'a str),
    /// An entry of an array child such as `anyOf` (or of a draft-07 tuple `items`).
    Entry(&'a str, usize),
}

impl Slot<'_> {
    /// The keyword the child sits under.
    pub fn key(&self) -> &str {
        match self {
            Slot::Single(key) | Slot::Member(key, _) | Slot::Entry(key, _) => key,
        }
    }

    /// Appends this slot's pointer tokens to `pointer`.
    pub fn push_onto(self, pointer: &mut String) {
        match self {
            Slot::Single(key) => push_token(pointer, key),
            Slot::Member(key, name) => {
                push_token(pointer, key);
                push_token(pointer, name);
            }
            Slot::Entry(key, index) => {
                use std::fmt::Write as _;
                push_token(pointer, key);
                let _ = write!(pointer, "/{index}");
            }
        }
    }
}

/// One schema position directly below a schema object.
#[derive(Debug)]
#[non_exhaustive]
pub struct Child<'a, V> {
    /// Where it sits.
    pub slot: Slot<'a>,
    /// The child keyword it sits under; `None` under a definitions container or a snake-case spelling.
    pub keyword: Option<Keyword>,
    /// The subschema.
    pub value: V,
}

/// A child keyword whose value is a container of the wrong kind, found by [`children_mut`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WrongContainer {
    /// The keyword.
    pub keyword: Keyword,
    /// What its value must be: `an object` or `a non-empty array`.
    pub expected: &'static str,
}

/// What the value under a child key holds.
enum Holds {
    /// Each member is a position.
    Members,
    /// Each entry is a position.
    Entries,
    /// The value is one position.
    One,
    /// No position: a boolean flag, or a container of the wrong kind that the reader skips.
    Nothing,
    /// A container of the wrong kind, which the reader reports.
    Wrong(&'static str),
}

/// How a reader treats what is not a well-formed container.
#[derive(Clone, Copy, Debug)]
struct Rules {
    /// A container of the wrong kind (or an empty array child) is skipped instead of reported.
    skip_wrong: bool,
    /// A single child holding an array (a draft-07 tuple `items` that was not upgraded) lists its entries.
    tuples: bool,
}

/// The one decision: what the value of a key of class `class` holds.
fn holds(class: KeywordClass, key: &str, value: &Value, prefix_items: bool, rules: Rules) -> Holds {
    match (class, value) {
        (KeywordClass::MapChildren | KeywordClass::Definitions, Value::Object(_)) => Holds::Members,
        (KeywordClass::ArrayChildren, Value::Array(entries)) if !entries.is_empty() => {
            Holds::Entries
        }
        (
            KeywordClass::MapChildren | KeywordClass::Definitions | KeywordClass::ArrayChildren,
            _,
        ) if rules.skip_wrong => Holds::Nothing,
        (KeywordClass::MapChildren | KeywordClass::Definitions, _) => Holds::Wrong("an object"),
        (KeywordClass::ArrayChildren, _) => Holds::Wrong("a non-empty array"),
        (KeywordClass::SingleChild, Value::Bool(_))
            if key == "additionalProperties" || (key == "items" && prefix_items) =>
        {
            Holds::Nothing
        }
        (KeywordClass::SingleChild, Value::Array(_)) if rules.tuples => Holds::Entries,
        (KeywordClass::SingleChild, _) => Holds::One,
        (KeywordClass::Literal, _) => Holds::Nothing,
    }
}

/// The members or entries of the container being listed.
enum Inner<'a, M, E> {
    Idle,
    Members(&'a str, Option<Keyword>, M),
    Entries(&'a str, Option<Keyword>, E),
}

/// The positions directly below a schema object, in stored key order; see [`children`].
pub struct Children<'a> {
    keys: serde_json::map::Iter<'a>,
    inner: Inner<'a, serde_json::map::Iter<'a>, Enumerate<std::slice::Iter<'a, Value>>>,
    prefix_items: bool,
    definitions: bool,
    snake_case: bool,
}

/// Every schema position directly below `map`, in stored key order; a container of the wrong kind has none.
///
/// A single child that is not an object (a string, an array) is still listed: it is a schema position whose value
/// is not a schema, for the reader to report or skip.
pub fn children(map: &Map<String, Value>) -> Children<'_> {
    Children {
        keys: map.iter(),
        inner: Inner::Idle,
        prefix_items: crate::json::has(map, "prefixItems"),
        definitions: false,
        snake_case: false,
    }
}

impl Children<'_> {
    /// Lists the members of `$defs` and `definitions` too, where they stand.
    #[must_use]
    pub fn with_definitions(mut self) -> Self {
        self.definitions = true;
        self
    }

    /// Lists the entries of the snake-case combinators `any_of`, `one_of` and `all_of` too, as a reader of a document
    /// not yet renamed must.
    #[must_use]
    pub fn with_snake_case_combinators(mut self) -> Self {
        self.snake_case = true;
        self
    }

    /// The class a key has for this listing.
    fn class(&self, key: &str) -> KeywordClass {
        match class_of(key) {
            KeywordClass::Definitions if !self.definitions => KeywordClass::Literal,
            KeywordClass::Literal
                if self.snake_case && matches!(key, "any_of" | "one_of" | "all_of") =>
            {
                KeywordClass::ArrayChildren
            }
            class => class,
        }
    }
}

impl<'a> Iterator for Children<'a> {
    type Item = Child<'a, &'a Value>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match &mut self.inner {
                Inner::Members(key, keyword, members) => {
                    if let Some((name, value)) = members.next() {
                        return Some(Child {
                            slot: Slot::Member(key, name),
                            keyword: *keyword,
                            value,
                        });
                    }
                }
                Inner::Entries(key, keyword, entries) => {
                    if let Some((index, value)) = entries.next() {
                        return Some(Child {
                            slot: Slot::Entry(key, index),
                            keyword: *keyword,
                            value,
                        });
                    }
                }
                Inner::Idle => {}
            }
            self.inner = Inner::Idle;
            let (key, value) = self.keys.next()?;
            let class = self.class(key);
            let rules = Rules {
                skip_wrong: true,
                tuples: false,
            };
            let keyword = Keyword::from_name(key);
            match (holds(class, key, value, self.prefix_items, rules), value) {
                (Holds::Members, Value::Object(members)) => {
                    self.inner = Inner::Members(key, keyword, members.iter());
                }
                (Holds::Entries, Value::Array(entries)) => {
                    self.inner = Inner::Entries(key, keyword, entries.iter().enumerate());
                }
                (Holds::One, value) => {
                    return Some(Child {
                        slot: Slot::Single(key),
                        keyword,
                        value,
                    });
                }
                _ => {}
            }
        }
    }
}

/// The positions directly below a schema object, mutably and in walk order; see [`children_mut`].
pub struct ChildrenMut<'a> {
    /// The value of each child keyword present, by its place in [`Keyword::WALK_ORDER`], then `$defs` and
    /// `definitions` when definitions are listed.
    places: [Option<&'a mut Value>; PLACES],
    next_place: usize,
    inner: Inner<'a, serde_json::map::IterMut<'a>, Enumerate<std::slice::IterMut<'a, Value>>>,
    prefix_items: bool,
    rules: Rules,
}

impl std::fmt::Debug for Children<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Children").finish_non_exhaustive()
    }
}

impl std::fmt::Debug for ChildrenMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildrenMut")
            .field("next_place", &self.next_place)
            .finish_non_exhaustive()
    }
}

/// The child keywords, then the two definitions containers.
const PLACES: usize = Keyword::WALK_ORDER.len() + 2;

/// The definitions containers, in the order they are listed after the child keywords.
const DEFINITIONS: [&str; 2] = ["$defs", "definitions"];

/// How [`children_mut`] lists the positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Walk {
    /// Containers of the wrong kind are skipped instead of reported, and a single child holding an array (a draft-07
    /// tuple `items` not upgraded) lists its entries.
    pub lenient: bool,
    /// The members of `$defs` and `definitions` are listed after every child keyword, in that order.
    pub definitions: bool,
    /// Child keywords (a bit per place in [`Keyword::WALK_ORDER`]) whose values are not listed.
    pub skip: u32,
}

impl Walk {
    /// Reports wrong containers, lists no definitions, skips nothing.
    pub const fn new() -> Self {
        Walk {
            lenient: false,
            definitions: false,
            skip: 0,
        }
    }

    /// Sets lenient listing.
    #[must_use]
    pub const fn with_lenient(mut self, on: bool) -> Self {
        self.lenient = on;
        self
    }

    /// Sets whether definitions are listed.
    #[must_use]
    pub const fn with_definitions(mut self, on: bool) -> Self {
        self.definitions = on;
        self
    }

    /// Sets the child keywords that are not listed.
    #[must_use]
    pub const fn with_skip(mut self, skip: u32) -> Self {
        self.skip = skip;
        self
    }
}

/// Every schema position directly below `map`, mutably, in walk order: map-child members, single children in the
/// keyword order, array-child entries, then (when asked) definitions members. A container of the wrong kind is an
/// `Err` item unless the listing is lenient.
///
/// ```
/// use llmshim_core::children::{Walk, children_mut};
/// use serde_json::json;
///
/// let mut schema = json!({"anyOf": [{"type": "string"}], "items": {"type": "integer"}, "properties": []});
/// let map = schema.as_object_mut().expect("an object");
/// let found: Vec<_> = children_mut(map, Walk::new())
///     .map(|c| c.map(|child| child.slot.key().to_owned()).map_err(|wrong| wrong.expected))
///     .collect();
/// assert_eq!(found, [Err("an object"), Ok("items".to_owned()), Ok("anyOf".to_owned())]);
/// ```
pub fn children_mut(map: &mut Map<String, Value>, how: Walk) -> ChildrenMut<'_> {
    let mut places: [Option<&mut Value>; PLACES] = Default::default();
    let mut prefix_items = false;
    for (key, value) in map.iter_mut() {
        if let Some(place) = Keyword::WALK_ORDER.iter().position(|k| k.as_str() == key) {
            prefix_items |= Keyword::WALK_ORDER[place] == Keyword::PrefixItems;
            if how.skip & (1 << place) == 0 {
                places[place] = Some(value);
            }
        } else if how.definitions
            && let Some(d) = DEFINITIONS.iter().position(|d| d == key)
        {
            places[Keyword::WALK_ORDER.len() + d] = Some(value);
        }
    }
    ChildrenMut {
        places,
        next_place: 0,
        inner: Inner::Idle,
        prefix_items,
        rules: Rules {
            skip_wrong: how.lenient,
            tuples: how.lenient,
        },
    }
}

impl<'a> Iterator for ChildrenMut<'a> {
    type Item = Result<Child<'a, &'a mut Value>, WrongContainer>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match &mut self.inner {
                Inner::Members(key, keyword, members) => {
                    if let Some((name, value)) = members.next() {
                        return Some(Ok(Child {
                            slot: Slot::Member(key, name),
                            keyword: *keyword,
                            value,
                        }));
                    }
                }
                Inner::Entries(key, keyword, entries) => {
                    if let Some((index, value)) = entries.next() {
                        return Some(Ok(Child {
                            slot: Slot::Entry(key, index),
                            keyword: *keyword,
                            value,
                        }));
                    }
                }
                Inner::Idle => {}
            }
            self.inner = Inner::Idle;
            let (place, value) = loop {
                let place = self.next_place;
                if place >= PLACES {
                    return None;
                }
                self.next_place += 1;
                if let Some(value) = self.places.get_mut(place).and_then(Option::take) {
                    break (place, value);
                }
            };
            let (key, keyword, class) = match Keyword::WALK_ORDER.get(place) {
                Some(keyword) => (keyword.as_str(), Some(*keyword), keyword.class()),
                None => (
                    DEFINITIONS[place - Keyword::WALK_ORDER.len()],
                    None,
                    KeywordClass::Definitions,
                ),
            };
            // Definitions that are not an object are never positions, whatever the listing.
            let rules = if keyword.is_none() {
                Rules {
                    skip_wrong: true,
                    tuples: false,
                }
            } else {
                self.rules
            };
            match (holds(class, key, value, self.prefix_items, rules), value) {
                (Holds::Members, Value::Object(members)) => {
                    self.inner = Inner::Members(key, keyword, members.iter_mut());
                }
                (Holds::Entries, Value::Array(entries)) => {
                    self.inner = Inner::Entries(key, keyword, entries.iter_mut().enumerate());
                }
                (Holds::One, value) => {
                    return Some(Ok(Child {
                        slot: Slot::Single(key),
                        keyword,
                        value,
                    }));
                }
                (Holds::Wrong(expected), _) => {
                    if let Some(keyword) = keyword {
                        return Some(Err(WrongContainer { keyword, expected }));
                    }
                }
                _ => {}
            }
        }
    }
}
