//! The resolver's walker passes, which the facade lists among the other crates' passes in contract order.

mod base;
mod expand;
mod meta;
mod upgrades;

pub use base::BaseUri;
pub use expand::{Expand, Mode, RecursiveTarget};
pub(crate) use expand::{escape_token, unique_name};
pub use meta::Meta;
pub use upgrades::Upgrade;
