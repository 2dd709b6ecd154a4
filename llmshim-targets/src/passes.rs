//! The rule-set passes the facade lists in the walk, each driven only by `RuleSet` data.

mod hooks;
mod items;
mod keep;
mod objects;
mod patterns;
mod root;
mod tail;
mod values;

pub use hooks::{EnterHook, LeaveHook};
pub use items::DefaultItemsPass;
pub use keep::KeepList;
pub(crate) use keep::const_into_enum;
pub use objects::EmptyPropertiesAdd;
pub use patterns::Patterns;
pub use root::RootShaping;
pub use tail::GoogleTail;
pub use values::GoogleValues;
