//! Instance and schema locations as stack-allocated linked lists, rendered to JSON Pointers only for errors.

use llmshim_core::pointer::push_token;

/// One segment of a location.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// A location: a segment below an optional parent; `None` is the root.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

impl<'a> Path<'a> {
    /// `parent` extended by a key.
    pub(crate) fn key(parent: Option<&'a Path<'a>>, key: &'a str) -> Path<'a> {
        Path {
            parent,
            segment: Segment::Key(key),
        }
    }

    /// `parent` extended by an index.
    pub(crate) fn index(parent: Option<&'a Path<'a>>, index: usize) -> Path<'a> {
        Path {
            parent,
            segment: Segment::Index(index),
        }
    }
}

/// Renders a location, optionally extended by one more key, as an RFC 6901 pointer.
pub(crate) fn render(path: Option<&Path<'_>>, extra: Option<&str>) -> String {
    let mut segments = Vec::new();
    let mut at = path;
    while let Some(p) = at {
        segments.push(p.segment);
        at = p.parent;
    }
    let mut out = String::new();
    for segment in segments.iter().rev() {
        match segment {
            Segment::Key(key) => push_token(&mut out, key),
            Segment::Index(index) => push_token(&mut out, &index.to_string()),
        }
    }
    if let Some(extra) = extra {
        push_token(&mut out, extra);
    }
    out
}
