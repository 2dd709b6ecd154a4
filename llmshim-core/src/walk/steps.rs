//! The walk steps that are the same on every target and need no other crate, listed by the facade in contract order.

mod all_of;
mod flush;
mod infer;
mod literals;
mod narrow_any;
mod nullable;
mod one_of;
mod required;
mod shape;
mod snake_case;
mod split;
mod tuples;

pub use all_of::{MergeAllOf, set_entry_key, single_entry_type};
pub use flush::FlushLifts;
pub use infer::InferType;
pub use literals::Literals;
pub use narrow_any::{NarrowAny, type_as_any};
pub use nullable::NullablePolicy;
pub use one_of::OneOf;
pub use required::{RequiredNull, RequiredStrings};
pub use shape::Shape;
pub use snake_case::SnakeCase;
pub use split::SplitTypeArray;
pub use tuples::FlattenTuples;
