//! URI handling: RFC 3986 joins through `fluent-uri`, fragments and percent-decoding, shared with the validator.

use fluent_uri::{Iri, IriRef};

/// The base URI of a document that declares none.
pub const DEFAULT_BASE: &str = "https://llmshim.invalid/schema";

/// Joins `reference` against the absolute `base` (RFC 3986, section 5) and returns the absolute result with its
/// fragment.
///
/// A fragment-only reference is joined textually, so that fragments containing characters a URI may not carry
/// (spaces, for example) still address the document they name.
///
/// ```
/// use llmshim_resolve::uri::join;
///
/// assert_eq!(join("https://ex.test/a/root.json", "b.json#/x").as_deref(), Ok("https://ex.test/a/b.json#/x"));
/// assert!(join("https://ex.test/", "http://[bad").is_err());
/// ```
///
/// # Errors
///
/// A base or reference that does not parse, or a join RFC 3986 cannot perform, with a lowercase message.
pub fn join(base: &str, reference: &str) -> Result<String, String> {
    let base = strip_fragment(base);
    if let Some(fragment) = reference.strip_prefix('#') {
        return Ok(format!("{base}#{fragment}"));
    }
    let parsed_base = Iri::parse(base).map_err(|e| format!("invalid base uri {base:?}: {e}"))?;
    let parsed = IriRef::parse(reference)
        .map_err(|e| format!("invalid uri reference {reference:?}: {e}"))?;
    let joined = parsed
        .resolve_against(&parsed_base)
        .map_err(|e| format!("cannot join {reference:?} against {base:?}: {e}"))?;
    Ok(joined.normalize().as_str().to_owned())
}

/// The URI without its fragment.
pub fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(head, _)| head)
}

/// Splits a URI into the part before `#` and the raw fragment (empty when absent).
pub fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// Normalizes an absolute URI given by a caller (a registered resource), dropping an empty fragment.
///
/// # Errors
///
/// A URI that does not parse as an absolute IRI.
pub fn normalize_absolute(uri: &str) -> Result<String, String> {
    let (head, fragment) = split_fragment(uri);
    let parsed = Iri::parse(head).map_err(|e| format!("invalid uri {uri:?}: {e}"))?;
    let mut out = parsed.normalize().as_str().to_owned();
    if !fragment.is_empty() {
        out.push('#');
        out.push_str(fragment);
    }
    Ok(out)
}

/// Percent-decodes a fragment byte-wise; `None` for a malformed escape or a non-UTF-8 result.
pub fn percent_decode(fragment: &str) -> Option<String> {
    if !fragment.contains('%') {
        return Some(fragment.to_owned());
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = hex(*bytes.get(i + 1)?)?;
            let lo = hex(*bytes.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_relative_references() {
        assert_eq!(
            join("https://ex.test/root.json", "item.json").as_deref(),
            Ok("https://ex.test/item.json")
        );
        assert_eq!(
            join("https://ex.test/a/b.json#x", "#/$defs/A").as_deref(),
            Ok("https://ex.test/a/b.json#/$defs/A")
        );
        assert_eq!(
            join("urn:uuid:deadbeef-1234", "#/$defs/bar").as_deref(),
            Ok("urn:uuid:deadbeef-1234#/$defs/bar")
        );
        assert_eq!(
            join("http://localhost:1234/tree", "node").as_deref(),
            Ok("http://localhost:1234/node")
        );
        assert!(join("https://ex.test/", "http://[bad").is_err());
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(
            percent_decode("/$defs/my%20type").as_deref(),
            Some("/$defs/my type")
        );
        assert_eq!(percent_decode("%25"), Some("%".to_owned()));
        assert_eq!(percent_decode("%2"), None);
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%ff"), None);
    }
}
