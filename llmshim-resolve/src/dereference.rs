//! `dereference`: every `$ref` replaced by its target, definitions removed.

use llmshim_core::walk::{self, Settings, steps};
use llmshim_core::{Pass, Recursion, defs, json};
use serde_json::Value;

use crate::pass::{BaseUri, Expand, Meta, Mode, Upgrade};
use crate::registry::{Registry, Resources};
use crate::uri::DEFAULT_BASE;
use crate::{Cycles, Error, Options, guard};

/// Replaces every `$ref` in `value` by its target, merging the referencing node's siblings over it (siblings win),
/// applies the draft upgrades that `options` switches on, and removes `$defs`, `definitions` and `$id`.
///
/// References resolve inside the document, its embedded resources and anchors, and the caller's `resources`;
/// nothing is ever fetched. On error `value` is left unchanged.
///
/// # Errors
///
/// [`ErrorKind::Cycle`](crate::ErrorKind::Cycle) for a recursive schema (unless [`Cycles::KeepRefs`]), and every
/// resolution failure or budget overrun, each with the JSON Pointer of the node.
///
/// # Examples
///
/// ```
/// use llmshim_resolve::{dereference, Cycles, Options, Resources};
/// use serde_json::json;
///
/// let mut tree = json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}});
/// let keep = Options::default().with_cycles(Cycles::KeepRefs);
/// dereference(&mut tree, &Resources::new(), &keep)?;
/// // The root needs no definition: its sites are `#`.
/// assert_eq!(tree["properties"]["kids"]["items"], json!({"$ref": "#"}));
/// assert!(tree.get("$defs").is_none());
///
/// let mut list = json!({"type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}},
///     "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
/// dereference(&mut list, &Resources::new(), &keep)?;
/// assert_eq!(list["properties"]["head"], json!({"$ref": "#/$defs/Node"}));
/// assert_eq!(list["$defs"]["Node"]["properties"]["next"], json!({"$ref": "#/$defs/Node"}));
/// # Ok::<(), llmshim_resolve::Error>(())
/// ```
pub fn dereference(
    value: &mut Value,
    resources: &Resources,
    options: &Options,
) -> Result<(), Error> {
    guard::check_depth(value)?;
    let registry = Registry::with_draft(value, resources, &options.budget, options.draft)?;
    let draft = registry.draft();
    let expand = Expand::new(&registry, Mode::Dereference);
    let shape = steps::Shape::lenient();
    let base = BaseUri::new(draft);
    let id = Upgrade::id(options.upgrades, draft);
    let meta = Meta::dereference(draft);
    let forms = Upgrade::forms(options.upgrades);
    let passes: [&dyn Pass; 6] = [&shape, &base, &id, &expand, &meta, &forms];
    let recursion = if options.cycles == Cycles::KeepRefs {
        Recursion::KEEP_REFS
    } else {
        Recursion::Fallback
    };
    let settings = Settings::new(options.budget)
        .with_lenient_children(true)
        .with_recursion(recursion);
    let mut out = value.clone();
    let walked = walk::walk(&mut out, &passes, &settings, DEFAULT_BASE.into())?;
    if expand.kept_any() {
        defs::finish(&mut out, walked.definitions);
    }
    if options.upgrades.any() {
        set_dialect(&mut out, &registry);
    }
    drop(registry);
    *value = out;
    Ok(())
}

/// After upgrades the document is 2020-12: a root `$schema` naming an older draft is rewritten.
fn set_dialect(out: &mut Value, registry: &Registry<'_>) {
    if registry.draft() == crate::Draft::Draft202012 {
        return;
    }
    if let Some(map) = out.as_object_mut()
        && map.contains_key("$schema")
    {
        json::set(
            map,
            "$schema",
            Value::String(crate::Draft::Draft202012.uri().to_owned()),
        );
    }
}
