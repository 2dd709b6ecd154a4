//! RELIABILITY.md as sections: each verb that measures reliability rewrites its own section between two markers.
//!
//! `cargo xtask reliability` writes `reliability`, `cargo xtask props` writes `props`, `cargo xtask fuzz` writes
//! `fuzz` and `cargo xtask batch` writes `batch`; a verb never touches another's section, so each record keeps the
//! commit and date of its own run. A missing file is created with the header and every section saying it has not
//! run; a missing section is added in its place in [`SECTIONS`] order.
//!
//! `props`, `fuzz` and `batch` also write one sentence into the README between `<!-- quote:<name> -->` markers, the
//! same sentence their section holds as its `- In short: ` line; `cargo xtask tidy` (also a test) fails when the two differ, so the README
//! quotes only what a recorded run says.

use std::fs;
use std::path::Path;
use std::process::Command;

/// The file, relative to the workspace root.
pub(crate) const FILE: &str = "RELIABILITY.md";

/// The sections in file order, each with the command that writes it.
pub(crate) const SECTIONS: [(&str, &str); 4] = [
    ("reliability", "cargo xtask reliability"),
    ("props", "cargo xtask props"),
    ("fuzz", "cargo xtask fuzz"),
    ("batch", "cargo xtask batch"),
];

/// The text above the sections.
const HEADER: &str = "# Reliability\n\n\
Every number here was written by a command, each of which rewrites only its own section and records the commit and \
date of its run: `cargo xtask reliability` (adversarial inputs), `cargo xtask props` (property tests), \
`cargo xtask fuzz` (fuzzing) and `cargo xtask batch` (command-line throughput and memory). Do not edit the sections by hand; run \
the command again.\n";

fn start(name: &str) -> String {
    format!("<!-- {name}:start -->")
}

fn end(name: &str) -> String {
    format!("<!-- {name}:end -->")
}

/// The file with section `name` replaced by `body` (markers kept around it); a file without the header or the
/// section gets them.
pub(crate) fn splice(text: &str, name: &str, body: &str) -> String {
    let mut text = if text.trim().is_empty() {
        HEADER.to_owned()
    } else {
        text.to_owned()
    };
    for (section, command) in SECTIONS {
        if !text.contains(&start(section)) || !text.contains(&end(section)) {
            let placeholder = format!("Not run yet: `{command}` writes this section.");
            text = insert_section(&text, section, &placeholder);
        }
    }
    let (Some(from), Some(to)) = (text.find(&start(name)), text.find(&end(name))) else {
        return text;
    };
    let mut out = String::with_capacity(text.len() + body.len());
    out.push_str(&text[..from]);
    out.push_str(&start(name));
    out.push('\n');
    out.push_str(body.trim_end());
    out.push('\n');
    out.push_str(&text[to..]);
    out
}

/// Inserts section `name` holding `body` after the sections that come before it in [`SECTIONS`], or else before the
/// first section there is, or else at the end.
fn insert_section(text: &str, name: &str, body: &str) -> String {
    let block = format!("{}\n{body}\n{}\n", start(name), end(name));
    let order = SECTIONS.iter().position(|(s, _)| *s == name).unwrap_or(0);
    let after = SECTIONS[..order]
        .iter()
        .rev()
        .find_map(|(s, _)| text.find(&end(s)).map(|at| at + end(s).len()));
    if let Some(at) = after {
        return format!("{}\n\n{}{}", &text[..at], block.trim_end(), &text[at..]);
    }
    let before = SECTIONS
        .iter()
        .filter_map(|(s, _)| text.find(&start(s)))
        .min();
    match before {
        Some(at) => format!("{}{block}\n{}", &text[..at], &text[at..]),
        None => format!("{}\n\n{block}", text.trim_end()),
    }
}

/// Writes section `name` of RELIABILITY.md under `root`.
pub(crate) fn write_section(root: &Path, name: &str, body: &str) -> Result<(), String> {
    let path = root.join(FILE);
    let text = fs::read_to_string(&path).unwrap_or_default();
    fs::write(&path, splice(&text, name, body))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The line of a section that the README quotes: `- In short: <summary>`.
const IN_SHORT: &str = "- In short: ";

/// The README's quote markers of section `name`, around text on one line.
fn quote_marks(name: &str) -> (String, String) {
    (
        format!("<!-- quote:{name} -->"),
        format!("<!-- /quote:{name} -->"),
    )
}

/// The section's `- In short: ` line for `summary`, which a verb puts in its section body.
pub(crate) fn in_short(summary: &str) -> String {
    format!("{IN_SHORT}{summary}")
}

/// `readme` with the text between section `name`'s quote markers replaced by `summary`; `None` when the README has
/// no such markers.
pub(crate) fn splice_quote(readme: &str, name: &str, summary: &str) -> Option<String> {
    let (open, close) = quote_marks(name);
    let from = readme.find(&open)? + open.len();
    let to = from + readme[from..].find(&close)?;
    Some(format!("{}{summary}{}", &readme[..from], &readme[to..]))
}

/// Writes section `name` of RELIABILITY.md and the README's quote of it (`summary`, which `body` holds as its
/// `- In short: ` line), so the README says what the file says.
pub(crate) fn publish(root: &Path, name: &str, body: &str, summary: &str) -> Result<(), String> {
    write_section(root, name, body)?;
    let path = root.join("README.md");
    let readme = fs::read_to_string(&path).map_err(|e| format!("cannot read README.md: {e}"))?;
    match splice_quote(&readme, name, summary) {
        Some(updated) => {
            fs::write(&path, updated).map_err(|e| format!("cannot write README.md: {e}"))
        }
        None => Err(format!(
            "README.md has no `{}…{}` quote of the {name} section",
            quote_marks(name).0,
            quote_marks(name).1
        )),
    }
}

/// The sections the README must quote.
pub(crate) const QUOTED: [&str; 3] = ["props", "fuzz", "batch"];

/// Checks that the README quotes each of [`QUOTED`] and that every quote is the `- In short: ` line of its section
/// in `reliability`; returns the problems.
pub(crate) fn check_quotes(readme: &str, reliability: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for name in QUOTED {
        let (open, close) = quote_marks(name);
        let Some(quoted) = readme
            .split_once(&open)
            .and_then(|(_, rest)| rest.split_once(&close))
            .map(|(text, _)| text)
        else {
            problems.push(format!(
                "README.md does not quote the {name} section of {FILE} ({open}…{close})"
            ));
            continue;
        };
        let section = reliability
            .split_once(&start(name))
            .and_then(|(_, rest)| rest.split_once(&end(name)))
            .map_or("", |(text, _)| text);
        let said = section.lines().find_map(|l| l.strip_prefix(IN_SHORT));
        if said != Some(quoted) {
            problems.push(format!(
                "README.md quotes the {name} section as {quoted:?}, but {FILE} says {said:?}; run `{}` again",
                SECTIONS.iter().find(|(s, _)| *s == name).map_or("", |(_, c)| *c)
            ));
        }
    }
    problems
}

/// The commit the working tree is at, as `` `abcdef123456` ``, with a note when the tree has uncommitted changes to
/// tracked files other than README.md and RELIABILITY.md (the run then measured code that no commit holds).
pub(crate) fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let Some(sha) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown (not a git checkout)".to_owned();
    };
    // The two files the verbs write are not measured code: a record written while another is pending stays clean.
    let dirty = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":(exclude)README.md",
        ":(exclude)RELIABILITY.md",
    ])
    .is_some_and(|s| !s.is_empty());
    if dirty {
        format!("`{sha}` with uncommitted changes")
    } else {
        format!("`{sha}`")
    }
}

#[cfg(test)]
mod tests {
    use crate::record::{SECTIONS, check_quotes, in_short, splice, splice_quote};

    #[test]
    fn a_quote_differing_from_its_section_is_caught() {
        let mut reliability = String::new();
        for name in super::QUOTED {
            reliability = splice(
                &reliability,
                name,
                &format!("## {name}\n\n{}", in_short(&format!("{name} ran"))),
            );
        }
        let readme = "a <!-- quote:props -->props ran<!-- /quote:props --> b <!-- quote:fuzz -->fuzz ran<!-- /quote:fuzz -->\n\
                      <!-- quote:batch -->batch ran<!-- /quote:batch -->\n";
        assert_eq!(check_quotes(readme, &reliability), Vec::<String>::new());
        let stale = splice_quote(readme, "fuzz", "fuzz ran 300 s").expect("markers");
        let problems = check_quotes(&stale, &reliability);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("cargo xtask fuzz"), "{problems:?}");
        let missing = readme.replace("<!-- quote:batch -->", "");
        assert_eq!(check_quotes(&missing, &reliability).len(), 1);
        assert_eq!(splice_quote("no markers", "props", "x"), None);
    }

    #[test]
    fn a_new_file_gets_the_header_and_every_section() {
        let text = splice("", "props", "## Property tests\n\nran");
        assert!(text.starts_with("# Reliability\n"), "{text}");
        let mut last = 0;
        for (name, command) in SECTIONS {
            let at = text
                .find(&format!("<!-- {name}:start -->"))
                .expect("every section");
            assert!(at > last, "sections in order: {text}");
            last = at;
            if name != "props" {
                assert!(
                    text.contains(&format!("Not run yet: `{command}`")),
                    "{text}"
                );
            }
        }
        assert!(
            text.contains("<!-- props:start -->\n## Property tests\n\nran\n<!-- props:end -->"),
            "{text}"
        );
    }

    #[test]
    fn a_section_is_replaced_and_the_others_kept() {
        let first = splice("", "fuzz", "old fuzz");
        let second = splice(&first, "batch", "batch numbers");
        let third = splice(&second, "fuzz", "new fuzz");
        assert!(
            third.contains("new fuzz") && !third.contains("old fuzz"),
            "{third}"
        );
        assert!(third.contains("batch numbers"), "{third}");
        assert_eq!(splice(&third, "fuzz", "new fuzz"), third);
    }

    #[test]
    fn a_file_without_markers_keeps_its_text_before_the_sections() {
        let text = splice("# Reliability\n\nintro\n", "reliability", "table");
        assert!(text.starts_with("# Reliability\n\nintro\n"), "{text}");
        assert!(
            text.contains("<!-- reliability:start -->\ntable\n<!-- reliability:end -->"),
            "{text}"
        );
    }
}
