//! Local-only instance validation against the original schema (`llmshim-validate`).
//!
//! Wire sanitization can relax machine-enforced constraints (lifted bounds, flattened tuples, merged unions), so an
//! application that validates tool inputs or model outputs compiles the original schema, not the wire schema.

#[doc(inline)]
pub use llmshim_validate::*;
