//! The llmshim test kit: shared test data, golden cases, expected-failure lists and workloads.
//!
//! Every crate of the workspace may dev-depend on this library, which itself depends on no
//! workspace crate, only on `serde_json`.
//!
//! - [`testdata`] finds the third-party test data named by `LLMSHIM_TESTDATA` and reads the
//!   JSON-Schema-Test-Suite, SchemaStore and MCP tool corpora in place.
//! - [`golden`] runs data-driven golden cases and blesses `tests/cases` with `UPDATE_EXPECT=1`.
//! - [`refs`] checks that an output holds no reference, or only kept recursive ones.
//! - [`xfail`] compares a conformance run with its expected-failure list, which may only shrink.
//! - [`fallbacks`] compares a corpus run with its expected-fallback list, whose entries each carry
//!   the pointer and message they must fall back with.
//! - [`workload`] builds the published benchmark workloads and valid tool arguments.
//! - [`readme`] checks, and under `UPDATE_EXPECT=1` rewrites, the README blocks that tests compute.
//!
//! # Examples
//!
//! ```
//! use llmshim_benches::{testdata, workload, xfail};
//!
//! // The transform workload of the benchmarks, with five tools.
//! let request = workload::transform_request(5);
//! assert_eq!(request["tools"].as_array().map(Vec::len), Some(5));
//!
//! // A test over the shared corpus returns early, and passes, when the data is absent.
//! let Some(_root) = testdata::require("the crate example") else {
//!     return;
//! };
//!
//! // A conformance run is judged against its expected-failure list.
//! let mut run = xfail::Run::new();
//! for file in testdata::suite_files("draft7", Some(&["maxItems"])) {
//!     let name = testdata::suite_name(&file);
//!     for group in testdata::read_suite(&file).expect("suite files parse") {
//!         for case in &group.tests {
//!             // A real test validates `case.data` against `group.schema` here.
//!             run.record(testdata::case_name(&name, &group, case), true);
//!         }
//!     }
//! }
//! let summary = run.check("draft7/maxItems.json", &[]).expect("nothing is expected to fail");
//! assert_eq!(summary.ran, summary.passed);
//! ```
//!
//! # Should I use this crate?
//!
//! Only inside this workspace, as a dev-dependency of tests and benches; it is not published.

pub mod fallbacks;
pub mod golden;
pub mod readme;
pub mod refs;
pub mod testdata;
pub mod workload;
pub mod xfail;
