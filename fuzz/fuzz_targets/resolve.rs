//! Fuzz target `resolve`: `resolve::dereference` returns on any JSON, and a failure leaves the value unchanged.
//!
//! The input is one JSON document; the parity of its length picks the cycle mode (an error, or `$ref`s kept into
//! root `$defs`), so the seeds need no header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmshim::resolve::{self, Cycles, Resources};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let cycles = if data.len().is_multiple_of(2) {
        Cycles::Error
    } else {
        Cycles::KeepRefs
    };
    let options = resolve::Options::default().with_cycles(cycles);
    let mut out = value.clone();
    if resolve::dereference(&mut out, &Resources::new(), &options).is_err() {
        assert_eq!(
            out, value,
            "a failed dereference must leave the value unchanged"
        );
    }
    let mut bundled = value.clone();
    if resolve::bundle(&mut bundled, &Resources::new(), &options).is_err() {
        assert_eq!(
            bundled, value,
            "a failed bundle must leave the value unchanged"
        );
    }
});
