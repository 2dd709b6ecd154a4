//! Local-only instance validation against the original schema (`llmshim-validate`), and output contracts.
//!
//! Wire sanitization can relax machine-enforced constraints (lifted bounds, flattened tuples, merged unions), so an
//! application that validates tool inputs or model outputs compiles the original schema, not the wire schema.

mod contract;

pub use contract::{Contract, Violations};
#[doc(inline)]
pub use llmshim_validate::*;
