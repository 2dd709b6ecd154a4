//! The walk steps that are the same on every target and need no other crate.

mod literals;
mod shape;
mod snake_case;

pub use literals::Literals;
pub use shape::Shape;
pub use snake_case::SnakeCase;
