//! Whether a schema already admits null, in the narrow sense `strict.nullable-optional` needs; the test lives in core
//! so that the finishing of kept references applies the same one.

pub use llmshim_core::null::admits_null;
