//! Sections of the README that a test writes: a test computes a block from the shared test data, compares it with
//! the README's text between two markers, and under `UPDATE_EXPECT=1` writes it there instead.
//!
//! ```
//! let readme = "intro\n<!-- n:start -->\nold\n<!-- n:end -->\nrest\n";
//! let replaced = llmshim_benches::readme::replace_section(readme, "<!-- n:start -->\n", "<!-- n:end -->", "new\n");
//! assert_eq!(replaced.as_deref(), Ok("intro\n<!-- n:start -->\nnew\n<!-- n:end -->\nrest\n"));
//! ```

use std::path::PathBuf;

use crate::golden::Mode;
use crate::testdata;

/// The README of the workspace.
pub fn path() -> PathBuf {
    testdata::workspace_root().join("README.md")
}

/// The text between `start` and `end` in `readme`.
///
/// # Errors
///
/// A message naming the markers when either is missing or they stand in the wrong order.
pub fn section<'a>(readme: &'a str, start: &str, end: &str) -> Result<&'a str, String> {
    let (Some(from), Some(to)) = (readme.find(start), readme.find(end)) else {
        return Err(format!(
            "the README lacks the markers {start:?} ... {end:?}"
        ));
    };
    let from = from + start.len();
    if from > to {
        return Err(format!(
            "the README's markers {start:?} and {end:?} are out of order"
        ));
    }
    Ok(&readme[from..to])
}

/// `readme` with the text between `start` and `end` replaced by `content`.
///
/// # Errors
///
/// As [`section`].
pub fn replace_section(
    readme: &str,
    start: &str,
    end: &str,
    content: &str,
) -> Result<String, String> {
    let old = section(readme, start, end)?;
    let from = old.as_ptr() as usize - readme.as_ptr() as usize;
    let to = from + old.len();
    Ok(format!("{}{content}{}", &readme[..from], &readme[to..]))
}

/// Checks that the README holds `content` between `start` and `end`; under [`Mode::Bless`] (`UPDATE_EXPECT=1`)
/// writes it there instead. `what` names the block in the message.
///
/// # Errors
///
/// A message when the markers are missing, the README cannot be read or written, or (when checking) the text
/// differs; the message shows the README's text and `content`.
pub fn check_section(start: &str, end: &str, content: &str, what: &str) -> Result<(), String> {
    let path = path();
    let readme =
        std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let current = section(&readme, start, end)?;
    if current == content {
        return Ok(());
    }
    if Mode::from_env() == Mode::Bless {
        let updated = replace_section(&readme, start, end, content)?;
        return std::fs::write(&path, updated).map_err(|err| format!("{}: {err}", path.display()));
    }
    Err(format!(
        "the README's {what} differ from the run (run with UPDATE_EXPECT=1 to rewrite them):\nREADME:\n{current}\nrun:\n{content}"
    ))
}

#[cfg(test)]
mod tests {
    use super::{replace_section, section};

    #[test]
    fn missing_or_reversed_markers_are_errors() {
        assert!(section("a <b> c", "<a>", "<b>").is_err());
        assert!(section("a <b> <a> c", "<a>", "<b>").is_err());
        assert_eq!(section("<a>x<b>", "<a>", "<b>"), Ok("x"));
        assert_eq!(
            replace_section("1<a>x<b>2", "<a>", "<b>", "yy"),
            Ok("1<a>yy<b>2".to_owned())
        );
    }
}
