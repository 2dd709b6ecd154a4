//! `upgrade`: the draft upgrades (W6, W9 to W11) at every schema position, and nothing else.

use llmshim_core::Pass;
use llmshim_core::walk::{self, Settings, steps};
use serde_json::Value;

use crate::draft::Draft;
use crate::pass::Upgrade;
use crate::uri::DEFAULT_BASE;
use crate::{Error, Upgrades, guard};

/// Rewrites draft-07 tuples and `dependencies`, draft-04 boolean exclusive bounds and (for draft-04/03) `id` into
/// their 2020-12 forms at every schema position. Literals are never touched. On error `value` is left unchanged.
///
/// # Errors
///
/// [`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema) for a non-object `dependencies`, and budget
/// overruns of the default [`Budget`](crate::Budget).
///
/// # Examples
///
/// ```
/// use llmshim_resolve::{upgrade, Draft};
/// use serde_json::json;
///
/// let mut schema = json!({"type": "array", "items": [{"type": "string"}], "additionalItems": false,
///                         "default": {"items": ["data"]}});
/// upgrade(&mut schema, Draft::Draft7)?;
/// assert_eq!(schema, json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false,
///                           "default": {"items": ["data"]}}));
/// # Ok::<(), llmshim_resolve::Error>(())
/// ```
pub fn upgrade(value: &mut Value, draft: Draft) -> Result<(), Error> {
    guard::check_depth(value)?;
    let shape = steps::Shape::lenient();
    let id = Upgrade::id(Upgrades::ALL, draft);
    let forms = Upgrade::forms(Upgrades::ALL);
    let passes: [&dyn Pass; 3] = [&shape, &id, &forms];
    let settings = Settings::new(crate::Budget::default()).with_lenient_children(true);
    let mut out = value.clone();
    walk::walk(&mut out, &passes, &settings, DEFAULT_BASE.into())?;
    *value = out;
    Ok(())
}
