//! A memo hit: a shared handle on one stored entry, read outside the memo's lock.

use crate::entry::Entry;
use llmshim_core::Normalization;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// A stored result found by [`Memo::lookup`](crate::Memo::lookup) for the same key and an identical input.
///
/// The hit shares the entry with the memo; it stays valid after the entry is evicted, and nothing done through
/// it can change what the memo stores.
pub struct Hit<K> {
    entry: Arc<Entry<K>>,
}

impl<K> Hit<K> {
    /// Makes `value`, which holds the input that was looked up, the stored output.
    ///
    /// When the stored output is identical to its input (an exact no-op), `value` is left in place and nothing is
    /// allocated. Otherwise `value` is edited into a value of its own identical to the output: the parts the
    /// normalization left as they were stay where they are, members the output keeps under the same key are moved,
    /// and only what the output has new is copied from the entry (the edit was worked out once, at insert).
    /// For a value that is not identical to the looked-up input the result is unspecified, but this never panics.
    pub fn apply(&self, value: &mut Value) {
        self.entry.patch.apply(value, &self.entry.output);
    }

    /// A copy of the stored input: a value identical to the one that was looked up, as it was before
    /// normalization, read back from the exact encoding the entry keeps it in.
    ///
    /// A caller that may need the input again after [`apply`](Hit::apply) (to normalize it a second way, say)
    /// can keep the hit instead of copying the input beforehand, and get it from here only when it is needed.
    pub fn input(&self) -> Value {
        // The memo stores only encodings it made, which always read back.
        crate::fingerprint::decode(&self.entry.input).unwrap_or(Value::Null)
    }

    /// The stored output: what [`apply`](Hit::apply) makes of the looked-up value, to read without applying it.
    ///
    /// A caller that may not keep the result (the Anthropic request budget, which can demote a tool) can read it
    /// here first and leave its own value untouched until it decides.
    pub fn output(&self) -> &Value {
        &self.entry.output
    }

    /// A word derived from the stored output by `derive`, computed by the first hit on this entry that asks and
    /// remembered with the entry, so later hits get it without calling `derive`.
    ///
    /// The memo keeps one word per entry and does not know how it was derived: every caller of one memo must
    /// derive the same word from the same output (the `llmshim` facade keeps the Anthropic budget's two counters
    /// of a strict result here). Two threads asking at once may both derive it; one result is kept.
    pub fn remembered(&self, derive: impl FnOnce(&Value) -> u64) -> u64 {
        if let Some(word) = self.entry.word.get() {
            return *word;
        }
        let word = derive(&self.entry.output);
        *self.entry.word.get_or_init(|| word)
    }

    /// The stored report, exactly as it was inserted.
    pub fn report(&self) -> &Normalization {
        &self.entry.report
    }

    /// Whether the stored output is identical to its input, so [`apply`](Hit::apply) leaves the value in place.
    pub fn is_unchanged(&self) -> bool {
        self.entry.patch.is_keep()
    }

    /// Wraps a handle taken under the memo's lock.
    pub(crate) fn new(entry: Arc<Entry<K>>) -> Self {
        Hit { entry }
    }

    /// The stored entry.
    pub(crate) fn entry(&self) -> &Entry<K> {
        &self.entry
    }
}

impl<K> fmt::Debug for Hit<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hit")
            .field("unchanged", &self.entry.patch.is_keep())
            .field("report", &self.entry.report)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Lookup, Memo};
    use llmshim_core::Normalization;
    use serde_json::json;
    use std::sync::Arc;

    /// The allocation-free claim, checked from inside: a no-op hit shares the stored entry instead of copying it,
    /// gives it back when dropped, and `apply` leaves the caller's value, buffers and all, where it was.
    #[test]
    fn a_no_op_hit_shares_the_entry_and_leaves_the_value_in_place() {
        let memo = Memo::new(Limits::default());
        let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let Lookup::Miss(fingerprint) = memo.lookup(&0u8, &input) else {
            panic!("expected a miss");
        };
        memo.insert(
            fingerprint,
            0,
            input.clone(),
            input.clone(),
            Normalization::default(),
        );

        let mut value = input.clone();
        let buffer = value["properties"]["a"]["type"].as_str().map(str::as_ptr);
        let Lookup::Hit(hit) = memo.lookup(&0, &value) else {
            panic!("expected a hit");
        };
        assert!(hit.is_unchanged());
        assert_eq!(hit.input(), input);
        assert_eq!(Arc::strong_count(&hit.entry), 2);
        hit.apply(&mut value);
        assert_eq!(
            value["properties"]["a"]["type"].as_str().map(str::as_ptr),
            buffer
        );
        let entry = Arc::clone(&hit.entry);
        drop(hit);
        // The memo and this test hold the entry; the hit held nothing else.
        assert_eq!(Arc::strong_count(&entry), 2);
    }

    /// A changed hit shows its output without touching the caller's value, and the word it remembers is derived
    /// once per entry, by the first hit that asks (here the one the insert handed back), whichever hit asks later.
    #[test]
    fn the_output_is_read_without_applying_and_the_word_is_derived_once() {
        let memo = Memo::new(Limits::default());
        let input = json!({"type": "object"});
        let output = json!({"type": "object", "additionalProperties": false});
        let Lookup::Miss(fingerprint) = memo.lookup(&0u8, &input) else {
            panic!("expected a miss");
        };
        let stored = memo
            .insert_hit(
                fingerprint,
                0,
                input.clone(),
                output.clone(),
                Normalization::default(),
            )
            .expect("the entry fits");
        assert_eq!(stored.output(), &output);
        let mut derived = 0;
        assert_eq!(
            stored.remembered(|_| {
                derived += 1;
                2
            }),
            2
        );
        // The insert's hit is no lookup.
        assert_eq!(memo.stats().hits, 0);
        for _ in 0..3 {
            let Lookup::Hit(hit) = memo.lookup(&0, &input) else {
                panic!("expected a hit");
            };
            assert_eq!(hit.output(), &output);
            let word = hit.remembered(|out| {
                derived += 1;
                out.as_object().map_or(0, |m| m.len() as u64)
            });
            assert_eq!(word, 2);
        }
        assert_eq!(derived, 1);
    }
}
