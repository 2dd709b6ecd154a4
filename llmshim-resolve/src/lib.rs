//! Resolve JSON Schema references into one self-contained 2020-12 document, within budgets, without ever fetching.
//!
//! `llmshim-resolve` indexes a schema's resources and anchors (`$id`, `$anchor`, `$dynamicAnchor`, draft-07 `#name`
//! ids, draft-04 `id`), resolves `$ref` by RFC 3986 joins, JSON Pointers (with `~0`/`~1` and percent-decoding) and
//! anchors, detects cycles, and upgrades draft-07 and draft-04 forms (tuples, `dependencies`, boolean exclusive
//! bounds, `id`) to 2020-12. Documents outside the schema resolve only when the caller registers them as
//! [`Resources`]: there is no network and no filesystem access.
//!
//! # Examples
//!
//! ```
//! use llmshim_resolve::{dereference, ErrorKind, Options, Resources};
//! use serde_json::json;
//!
//! // A draft-07 schema with definitions, a remote reference and a tuple.
//! let mut schema = json!({
//!     "$schema": "http://json-schema.org/draft-07/schema#",
//!     "type": "object",
//!     "properties": {
//!         "home": {"$ref": "#/definitions/address", "description": "where you live"},
//!         "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
//!         "name": {"$ref": "https://example.test/name.json"}
//!     },
//!     "definitions": {
//!         "address": {"type": "object", "description": "postal", "properties": {"zip": {"type": "string"}}}
//!     }
//! });
//! let resources = Resources::new().with("https://example.test/name.json", json!({"type": "string"}));
//! dereference(&mut schema, &resources, &Options::default())?;
//! assert_eq!(schema, json!({
//!     "$schema": "https://json-schema.org/draft/2020-12/schema",
//!     "type": "object",
//!     "properties": {
//!         "home": {"type": "object", "description": "where you live", "properties": {"zip": {"type": "string"}}},
//!         "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
//!         "name": {"type": "string"}
//!     }
//! }));
//!
//! // Without the resource, the reference is external: nothing is fetched.
//! let mut lonely = json!({"$ref": "https://example.test/name.json"});
//! let err = dereference(&mut lonely, &Resources::new(), &Options::default()).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::External);
//! # Ok::<(), llmshim_resolve::Error>(())
//! ```
//!
//! # Should I use this crate?
//!
//! Use it alone when you need self-contained schemas (a schema registry, a code generator, a validator of your own):
//! it brings `llmshim-core`, `serde_json` and one URI crate, and no provider rules or regex engine. To make schemas
//! acceptable to LLM providers, use `llmshim`, which runs this crate's passes inside its one walk.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]

mod bundle;
mod cycles;
mod dereference;
mod draft;
mod empty_object;
mod error;
mod guard;
mod options;
pub mod pass;
mod registry;
mod upgrade;
pub mod uri;

pub use bundle::bundle;
pub use dereference::dereference;
pub use draft::Draft;
pub use error::{Error, ErrorKind};
pub use llmshim_core::{Budget, Pointer};
pub use options::{Cycles, Options, Upgrades};
pub use registry::{Registry, Resource, Resources};
pub use upgrade::upgrade;
