//! The rank table: the machine-readable block in ARCHITECTURE.md that gives every crate its rank and allowed dependencies.
//!
//! The block is a fenced code block whose info string is `ranks`.
//! Each line holds four whitespace-separated columns: the rank (a number, or `-` for a crate outside the ranks),
//! the crate, the external crates it may add to the base set (a comma list, or `-` for none),
//! and the extra external crates it may use as dev-dependencies (a comma list, or `-` for none).
//! Blank lines and lines starting with `#` are ignored.

use std::fs;
use std::path::Path;

/// The name of the file that holds the rank table, relative to the workspace root.
pub(crate) const FILE: &str = "ARCHITECTURE.md";

/// The info string that marks the fenced block holding the rank table.
const INFO_STRING: &str = "ranks";

/// One line of the rank table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The package name of the crate.
    pub(crate) name: String,
    /// The crate's rank, or `None` for a crate outside the ranks.
    pub(crate) rank: Option<u32>,
    /// External crates the crate may depend on beyond the base set.
    pub(crate) externals: Vec<String>,
    /// External crates the crate may dev-depend on beyond its other lists.
    pub(crate) extra_dev: Vec<String>,
}

/// The parsed rank table, in the order of the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RankTable {
    entries: Vec<Entry>,
}

impl RankTable {
    /// Finds the single `ranks` block in a Markdown document and parses it.
    pub(crate) fn from_markdown(markdown: &str) -> Result<Self, String> {
        let mut block: Option<(usize, Vec<&str>)> = None;
        let mut lines = markdown.lines().enumerate();
        while let Some((index, line)) = lines.next() {
            let Some(info) = line.trim().strip_prefix("```") else {
                continue;
            };
            if info.trim() != INFO_STRING {
                // Skip over any other fenced block so that its contents are never mistaken for a fence.
                for (_, inner) in lines.by_ref() {
                    if is_closing_fence(inner) {
                        break;
                    }
                }
                continue;
            }
            if block.is_some() {
                return Err(format!(
                    "line {}: a second `{INFO_STRING}` block; there must be exactly one",
                    index + 1
                ));
            }
            let mut body = Vec::new();
            let mut closed = false;
            for (_, inner) in lines.by_ref() {
                if is_closing_fence(inner) {
                    closed = true;
                    break;
                }
                body.push(inner);
            }
            if !closed {
                return Err(format!(
                    "line {}: the `{INFO_STRING}` block is never closed",
                    index + 1
                ));
            }
            block = Some((index + 2, body));
        }
        let (first_line, body) =
            block.ok_or_else(|| format!("no fenced block with info string `{INFO_STRING}`"))?;
        Self::from_block(&body, first_line)
    }

    /// Parses the lines inside the block; `first_line` is the document line number of the first of them.
    pub(crate) fn from_block(lines: &[&str], first_line: usize) -> Result<Self, String> {
        let mut entries: Vec<Entry> = Vec::new();
        for (offset, line) in lines.iter().enumerate() {
            let number = first_line + offset;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let entry = parse_line(line).map_err(|e| format!("line {number}: {e}"))?;
            if entries.iter().any(|seen| seen.name == entry.name) {
                return Err(format!(
                    "line {number}: crate {} is listed twice",
                    entry.name
                ));
            }
            entries.push(entry);
        }
        if entries.is_empty() {
            return Err(format!("the `{INFO_STRING}` block lists no crate"));
        }
        Ok(Self { entries })
    }

    /// Returns the entry for a crate, if the table lists it.
    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.name == name)
    }

    /// Returns every entry in block order.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

/// Reads and parses the rank table from ARCHITECTURE.md under `root`.
pub(crate) fn load(root: &Path) -> Result<RankTable, String> {
    let path = root.join(FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {FILE}: {e}"))?;
    RankTable::from_markdown(&text).map_err(|e| format!("{FILE}: {e}"))
}

/// Tells whether a line closes a fenced block: three or more backticks and nothing else.
fn is_closing_fence(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 3 && line.chars().all(|c| c == '`')
}

/// Parses one non-comment line of the block.
fn parse_line(line: &str) -> Result<Entry, String> {
    let columns: Vec<&str> = line.split_whitespace().collect();
    let [rank, name, externals, extra_dev] = columns[..] else {
        return Err(format!(
            "expected four columns (rank, crate, externals, extra dev-deps), found {}",
            columns.len()
        ));
    };
    let rank = if rank == "-" {
        None
    } else {
        Some(
            rank.parse::<u32>()
                .map_err(|_| format!("rank `{rank}` is neither a number nor `-`"))?,
        )
    };
    Ok(Entry {
        name: name.to_owned(),
        rank,
        externals: parse_list(externals)?,
        extra_dev: parse_list(extra_dev)?,
    })
}

/// Parses a comma list of crate names, where `-` stands for the empty list.
fn parse_list(column: &str) -> Result<Vec<String>, String> {
    if column == "-" {
        return Ok(Vec::new());
    }
    column
        .split(',')
        .map(|item| {
            if item.is_empty() || item == "-" {
                Err(format!("the list `{column}` has an empty item"))
            } else {
                Ok(item.to_owned())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::ranks::{Entry, RankTable};

    const DOC: &str = "# Architecture\n\
        \n\
        ```text\n\
        ```ranks inside another block is not the table\n\
        ```\n\
        \n\
        ```ranks\n\
        # rank  crate   externals   extra dev\n\
        0       a       -           -\n\
        \n\
        1       b       x,y         z\n\
        -       kit     -           p,q\n\
        ```\n";

    #[test]
    fn parses_the_block() -> Result<(), String> {
        let table = RankTable::from_markdown(DOC)?;
        let names: Vec<&str> = table.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "kit"]);
        assert_eq!(
            table.get("b"),
            Some(&Entry {
                name: "b".to_owned(),
                rank: Some(1),
                externals: vec!["x".to_owned(), "y".to_owned()],
                extra_dev: vec!["z".to_owned()],
            })
        );
        let kit = table.get("kit").ok_or("kit is missing")?;
        assert_eq!(kit.rank, None);
        assert!(kit.externals.is_empty());
        assert_eq!(kit.extra_dev, ["p", "q"]);
        assert_eq!(table.get("c"), None);
        Ok(())
    }

    #[test]
    fn rejects_malformed_tables() {
        let wrap = |body: &str| format!("```ranks\n{body}\n```\n");
        let bad = [
            String::from("no block here"),
            String::from("```ranks\n0 a - -\n"),
            wrap("0 a -"),
            wrap("0 a - - extra"),
            wrap("x a - -"),
            wrap("0 a x,,y -"),
            wrap("0 a - -\n1 a - -"),
            wrap("# only a comment"),
            format!("{}{}", wrap("0 a - -"), wrap("1 b - -")),
        ];
        for doc in &bad {
            assert!(
                RankTable::from_markdown(doc).is_err(),
                "accepted a bad table:\n{doc}"
            );
        }
    }

    #[test]
    fn reports_the_document_line_of_an_error() {
        let doc = "# Title\n```ranks\n0 a - -\nbad line\n```\n";
        assert_eq!(
            RankTable::from_markdown(doc),
            Err(String::from(
                "line 4: expected four columns (rank, crate, externals, extra dev-deps), found 2"
            ))
        );
    }
}
