//! Reading an Anthropic rejection: `tools.<i>.custom.input_schema: …`, `tools.<i>.input_schema: …`,
//! `output_config.format.schema: …` (and the older `output_format.schema`), with the keyword sentences.

use super::Site;
use super::found::{Found, Hint, Segment, Subject};
use super::text::{Text, index, is_word, prefix, squash, until};

/// At most this many `tools.` occurrences are tried.
const MAX_ANCHORS: usize = 256;

/// The keywords of Anthropic's top-level sentence.
const TOP_LEVEL: &[&str] = &["oneOf", "allOf", "anyOf"];

/// How far after its anchor an error's sentence is read.
const SENTENCE_BYTES: usize = 600;

/// The errors an Anthropic body names, in order.
pub(crate) fn read(text: &Text) -> Vec<Found> {
    let mut found = Vec::new();
    for at in text.find_all("tools.", MAX_ANCHORS) {
        if text
            .before(at)
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == '.')
        {
            continue;
        }
        let rest = text.from(at + "tools.".len());
        let Some((n, digits)) = index(rest) else {
            continue;
        };
        let after = rest.get(digits..).unwrap_or_default();
        let Some(sentence) = after
            .strip_prefix(".custom.input_schema")
            .or_else(|| after.strip_prefix(".input_schema"))
        else {
            continue;
        };
        if sentence
            .chars()
            .next()
            .is_some_and(|c| is_word(c) || c == '.')
        {
            continue;
        }
        let (path, keyword) = sentence_hint(sentence);
        found.push(Found {
            at,
            subject: Subject::Nth(n),
            path,
            keyword,
            bare: false,
            name: None,
        });
    }
    for anchor in ["output_config.format.schema", "output_format.schema"] {
        for at in text.find_all(anchor, 4) {
            if text
                .before(at)
                .chars()
                .next_back()
                .is_some_and(|c| is_word(c) || c == '.')
            {
                continue;
            }
            let (path, keyword) = sentence_hint(text.from(at + anchor.len()));
            found.push(Found {
                at,
                subject: Subject::Site(Site::OutputSchema),
                path,
                keyword,
                bare: false,
                name: None,
            });
        }
    }
    found.sort_by_key(|f| f.at);
    found
}

/// What the sentence after an anchor says: the root for the top-level sentence, and the keyword of
/// `For '<type>' type, property '<k>' is not supported`.
fn sentence_hint(sentence: &str) -> (Option<Vec<Segment>>, Hint) {
    let window = squash(prefix(sentence, SENTENCE_BYTES));
    if window.contains("does not support oneOf, allOf, or anyOf at the top level") {
        return (Some(Vec::new()), Hint::Among(TOP_LEVEL));
    }
    if let Some(at) = window.find("type, property '") {
        let rest = window
            .get(at + "type, property '".len()..)
            .unwrap_or_default();
        if let Some(k) = until(rest, '\'')
            && rest
                .get(k.len()..)
                .is_some_and(|r| r.starts_with("' is not supported"))
        {
            return (None, Hint::Field(k.to_owned()));
        }
    }
    (None, Hint::None)
}
