//! The schema positions directly below one schema object, as the finished-schema checks and counters follow them.

use llmshim_core::KeywordClass;
use llmshim_core::keyword::class_of;
use llmshim_core::pointer::push_token;
use serde_json::{Map, Value};

/// Where a child sits below its parent: a keyword, plus a member name or an index for map and array children.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot<'a> {
    /// A single child such as `items` or `additionalProperties`.
    Single(&'a str),
    /// A member of a map child such as `properties`.
    Member(&'a str, &'a str),
    /// An entry of an array child such as `anyOf`.
    Entry(&'a str, usize),
}

impl Slot<'_> {
    /// Appends this slot's tokens to `pointer`.
    pub(crate) fn push_onto(self, pointer: &mut String) {
        match self {
            Slot::Single(keyword) => push_token(pointer, keyword),
            Slot::Member(keyword, name) => {
                push_token(pointer, keyword);
                push_token(pointer, name);
            }
            Slot::Entry(keyword, index) => {
                push_token(pointer, keyword);
                push_token(pointer, &index.to_string());
            }
        }
    }
}

/// Every schema position directly below `map`, in stored key order.
///
/// Map-child members, single children and array-child entries are listed; a boolean `additionalProperties` is
/// not a position (it is the closing flag), and a container of the wrong kind has no positions. Definitions and
/// literals are never entered.
pub(crate) fn children(map: &Map<String, Value>) -> Vec<(Slot<'_>, &Value)> {
    let mut found = Vec::new();
    for (key, value) in map {
        match class_of(key) {
            KeywordClass::MapChildren => {
                if let Value::Object(members) = value {
                    found.extend(
                        members
                            .iter()
                            .map(|(name, member)| (Slot::Member(key, name), member)),
                    );
                }
            }
            KeywordClass::SingleChild if !(key == "additionalProperties" && value.is_boolean()) => {
                found.push((Slot::Single(key), value));
            }
            KeywordClass::ArrayChildren => {
                if let Value::Array(entries) = value {
                    found.extend(
                        entries
                            .iter()
                            .enumerate()
                            .map(|(index, entry)| (Slot::Entry(key, index), entry)),
                    );
                }
            }
            _ => {}
        }
    }
    found
}
