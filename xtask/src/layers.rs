//! The layering check (`cargo xtask layers`): every dependency edge must respect the rank table in ARCHITECTURE.md.
//!
//! A crate depends (normal or build) only on workspace crates of a strictly lower rank.
//! Dev-dependencies follow the same rule, except that any crate may dev-depend on the test kit,
//! and the test kit may dev-depend on any ranked crate.
//! No ranked crate depends on a crate outside the ranks, and a crate outside the ranks has no normal or build
//! dependency on a workspace crate.
//! External crates must come from the base set or the crate's own lists in the table.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use crate::metadata::{self, DepKind, Package};
use crate::ranks::{self, RankTable};

/// External crates every crate may depend on.
pub(crate) const BASE_EXTERNALS: &[&str] = &["serde_json", "indexmap", "thiserror"];

/// External crates every crate may dev-depend on.
pub(crate) const TEST_ONLY_EXTERNALS: &[&str] = &["proptest", "criterion", "jsonschema"];

/// The workspace test kit, which every crate may dev-depend on.
pub(crate) const TEST_KIT: &str = "llmshim-benches";

/// One way the dependency graph breaks the rank table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Violation {
    /// A crate depends on a workspace crate of a higher rank.
    Upward {
        /// The depending crate.
        krate: String,
        /// The crate depended on.
        dep: String,
        /// The kind of the edge.
        kind: DepKind,
        /// The rank of the depending crate.
        krate_rank: u32,
        /// The rank of the crate depended on.
        dep_rank: u32,
    },
    /// A crate depends on a workspace crate of the same rank.
    SameRank {
        /// The depending crate.
        krate: String,
        /// The crate depended on.
        dep: String,
        /// The kind of the edge.
        kind: DepKind,
        /// The rank both crates share.
        rank: u32,
    },
    /// A ranked crate depends on a crate outside the ranks.
    OnOutside {
        /// The depending crate.
        krate: String,
        /// The crate outside the ranks.
        dep: String,
        /// The kind of the edge.
        kind: DepKind,
    },
    /// A crate outside the ranks depends on a workspace crate in a way the rules do not allow.
    FromOutside {
        /// The crate outside the ranks.
        krate: String,
        /// The workspace crate depended on.
        dep: String,
        /// The kind of the edge.
        kind: DepKind,
    },
    /// A crate uses an external crate that none of its lists allows.
    External {
        /// The depending crate.
        krate: String,
        /// The external crate.
        dep: String,
        /// The kind of the edge.
        kind: DepKind,
    },
    /// A workspace member has no line in the rank table.
    Unlisted {
        /// The member.
        krate: String,
    },
    /// A line of the rank table names no workspace member.
    NotAMember {
        /// The crate the line names.
        krate: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Upward {
                krate,
                dep,
                kind,
                krate_rank,
                dep_rank,
            } => write!(
                f,
                "{krate} (rank {krate_rank}) has a {kind} dependency on {dep} (rank {dep_rank}), \
                 an upward edge"
            ),
            Self::SameRank {
                krate,
                dep,
                kind,
                rank,
            } => write!(
                f,
                "{krate} has a {kind} dependency on {dep}, but both have rank {rank}"
            ),
            Self::OnOutside { krate, dep, kind } => write!(
                f,
                "{krate} has a {kind} dependency on {dep}, which sits outside the ranks"
            ),
            Self::FromOutside { krate, dep, kind } => write!(
                f,
                "{krate} sits outside the ranks but has a {kind} dependency on workspace crate {dep}"
            ),
            Self::External { krate, dep, kind } => write!(
                f,
                "{krate} has a {kind} dependency on external crate {dep}, \
                 which is neither in the base set nor on its list in {}",
                ranks::FILE
            ),
            Self::Unlisted { krate } => write!(
                f,
                "workspace member {krate} is missing from the rank table in {}",
                ranks::FILE
            ),
            Self::NotAMember { krate } => write!(
                f,
                "the rank table in {} lists {krate}, which is not a workspace member",
                ranks::FILE
            ),
        }
    }
}

/// Checks every member and edge of the workspace graph against the rank table and returns all violations.
///
/// The result is sorted and free of duplicates, so the same input always prints the same report.
pub(crate) fn check(ranks: &RankTable, packages: &[Package]) -> Vec<Violation> {
    let mut violations = BTreeSet::new();
    for entry in ranks.entries() {
        if !packages.iter().any(|package| package.name == entry.name) {
            violations.insert(Violation::NotAMember {
                krate: entry.name.clone(),
            });
        }
    }
    for package in packages {
        let Some(entry) = ranks.get(&package.name) else {
            violations.insert(Violation::Unlisted {
                krate: package.name.clone(),
            });
            continue;
        };
        for dep in &package.dependencies {
            let violation = if packages.iter().any(|member| member.name == dep.name) {
                // A member missing from the table is reported once on its own, not on every edge to it.
                ranks.get(&dep.name).and_then(|dep_entry| {
                    check_internal(
                        &package.name,
                        entry.rank,
                        &dep.name,
                        dep_entry.rank,
                        dep.kind,
                    )
                })
            } else {
                let allowed = BASE_EXTERNALS.iter().any(|base| *base == dep.name)
                    || entry.externals.contains(&dep.name)
                    || (dep.kind == DepKind::Dev
                        && (entry.extra_dev.contains(&dep.name)
                            || TEST_ONLY_EXTERNALS.iter().any(|test| *test == dep.name)));
                (!allowed).then(|| Violation::External {
                    krate: package.name.clone(),
                    dep: dep.name.clone(),
                    kind: dep.kind,
                })
            };
            violations.extend(violation);
        }
    }
    violations.into_iter().collect()
}

/// Checks one edge between two workspace crates, given their ranks.
fn check_internal(
    krate: &str,
    krate_rank: Option<u32>,
    dep: &str,
    dep_rank: Option<u32>,
    kind: DepKind,
) -> Option<Violation> {
    if kind == DepKind::Dev && dep == TEST_KIT {
        return None;
    }
    let (krate, dep) = (krate.to_owned(), dep.to_owned());
    match (krate_rank, dep_rank) {
        (Some(krate_rank), Some(dep_rank)) if dep_rank > krate_rank => Some(Violation::Upward {
            krate,
            dep,
            kind,
            krate_rank,
            dep_rank,
        }),
        (Some(rank), Some(dep_rank)) if dep_rank == rank => Some(Violation::SameRank {
            krate,
            dep,
            kind,
            rank,
        }),
        (Some(_), Some(_)) => None,
        (Some(_), None) => Some(Violation::OnOutside { krate, dep, kind }),
        (None, Some(_)) if kind == DepKind::Dev && krate == TEST_KIT => None,
        (None, _) => Some(Violation::FromOutside { krate, dep, kind }),
    }
}

/// Runs the check on the workspace at `root`, prints the outcome and tells whether it passed.
pub(crate) fn run(root: &Path) -> Result<bool, String> {
    let table = ranks::load(root)?;
    let packages = metadata::load(root)?;
    let violations = check(&table, &packages);
    if violations.is_empty() {
        let edges: usize = packages.iter().map(|p| p.dependencies.len()).sum();
        println!(
            "layers: ok, {} crates and {edges} dependency edges follow the rank table in {}",
            packages.len(),
            ranks::FILE
        );
        return Ok(true);
    }
    for violation in &violations {
        eprintln!("layers: {violation}");
    }
    eprintln!("layers: {} violation(s)", violations.len());
    Ok(false)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::layers::{Violation, check};
    use crate::metadata::{self, DepKind, Dependency, Package};
    use crate::ranks::{self, RankTable};

    /// A table shaped like the real one, small enough to read at a glance.
    const TABLE: &str = "```ranks\n\
        # rank  crate             externals               extra dev\n\
        0       llmshim-core      -                       -\n\
        1       llmshim-resolve   hashbrown,fluent-uri    -\n\
        1       llmshim-targets   fancy-regex             -\n\
        1       llmshim-strict    -                       -\n\
        2       llmshim-validate  fancy-regex             serde_norway\n\
        3       llmshim           -                       -\n\
        -       llmshim-benches   -                       criterion,proptest,jsonschema\n\
        -       xtask             -                       -\n\
        ```\n";

    /// Builds a package from `(name, kind)` pairs.
    fn package(name: &str, deps: &[(&str, DepKind)]) -> Package {
        Package {
            name: name.to_owned(),
            manifest_path: PathBuf::from(format!("/ws/{name}/Cargo.toml")),
            dependencies: deps
                .iter()
                .map(|(dep, kind)| Dependency {
                    name: (*dep).to_owned(),
                    kind: *kind,
                })
                .collect(),
            publish: true,
            rust_version: None,
        }
    }

    /// A graph that follows every rule, including each allowed exception.
    fn good_graph() -> Vec<Package> {
        use DepKind::{Build, Dev, Normal};
        vec![
            package(
                "llmshim-core",
                &[
                    ("serde_json", Normal),
                    ("indexmap", Normal),
                    ("thiserror", Normal),
                    ("llmshim-benches", Dev),
                    ("proptest", Dev),
                ],
            ),
            package(
                "llmshim-resolve",
                &[
                    ("llmshim-core", Normal),
                    ("hashbrown", Normal),
                    ("fluent-uri", Build),
                    ("jsonschema", Dev),
                    ("llmshim-benches", Dev),
                ],
            ),
            package(
                "llmshim-targets",
                &[("llmshim-core", Normal), ("fancy-regex", Normal)],
            ),
            package(
                "llmshim-strict",
                &[("llmshim-core", Normal), ("llmshim-core", Dev)],
            ),
            package(
                "llmshim-validate",
                &[
                    ("llmshim-core", Normal),
                    ("llmshim-resolve", Normal),
                    ("fancy-regex", Normal),
                    ("serde_norway", Dev),
                    ("fancy-regex", Dev),
                ],
            ),
            package(
                "llmshim",
                &[
                    ("llmshim-core", Normal),
                    ("llmshim-resolve", Normal),
                    ("llmshim-targets", Normal),
                    ("llmshim-strict", Normal),
                    ("llmshim-validate", Normal),
                ],
            ),
            package(
                "llmshim-benches",
                &[
                    ("serde_json", Normal),
                    ("llmshim", Dev),
                    ("llmshim-core", Dev),
                    ("criterion", Dev),
                ],
            ),
            package("xtask", &[("serde_json", Normal)]),
        ]
    }

    /// Replaces the dependencies of one package in a graph.
    fn with_deps(mut graph: Vec<Package>, name: &str, deps: &[(&str, DepKind)]) -> Vec<Package> {
        for p in &mut graph {
            if p.name == name {
                *p = package(name, deps);
            }
        }
        graph
    }

    fn table() -> Result<RankTable, String> {
        RankTable::from_markdown(TABLE)
    }

    #[test]
    fn a_graph_that_follows_the_rules_passes() -> Result<(), String> {
        assert_eq!(check(&table()?, &good_graph()), []);
        Ok(())
    }

    #[test]
    fn a_graph_that_breaks_the_rules_reports_every_violation() -> Result<(), String> {
        use DepKind::{Build, Dev, Normal};
        let s = str::to_owned;
        let mut graph = good_graph();
        // The core depends upward on the resolver.
        graph = with_deps(graph, "llmshim-core", &[("llmshim-resolve", Normal)]);
        // Two rank-1 crates depend on each other.
        graph = with_deps(graph, "llmshim-targets", &[("llmshim-strict", Normal)]);
        graph = with_deps(graph, "llmshim-strict", &[("llmshim-targets", Build)]);
        // The resolver uses a regex engine it may not have, and a dev-only crate as a normal one.
        graph = with_deps(
            graph,
            "llmshim-resolve",
            &[
                ("llmshim-core", Normal),
                ("fancy-regex", Normal),
                ("jsonschema", Normal),
                ("serde_norway", Dev),
            ],
        );
        // The facade depends on xtask, and a crate that no table line names joins the workspace.
        graph = with_deps(
            graph,
            "llmshim",
            &[("xtask", Normal), ("llmshim-mcp", Normal)],
        );
        graph.push(package("llmshim-mcp", &[("llmshim-core", Normal)]));
        // Crates outside the ranks reach into the workspace.
        graph = with_deps(
            graph,
            "xtask",
            &[("llmshim-core", Normal), ("llmshim-core", Dev)],
        );
        graph = with_deps(
            graph,
            "llmshim-benches",
            &[("llmshim-core", Normal), ("xtask", Dev)],
        );
        // The validator leaves the workspace while its table line stays behind.
        graph.retain(|p| p.name != "llmshim-validate");

        let violations = check(&table()?, &graph);
        let expected = [
            Violation::Upward {
                krate: s("llmshim-core"),
                dep: s("llmshim-resolve"),
                kind: Normal,
                krate_rank: 0,
                dep_rank: 1,
            },
            Violation::SameRank {
                krate: s("llmshim-targets"),
                dep: s("llmshim-strict"),
                kind: Normal,
                rank: 1,
            },
            Violation::SameRank {
                krate: s("llmshim-strict"),
                dep: s("llmshim-targets"),
                kind: Build,
                rank: 1,
            },
            Violation::External {
                krate: s("llmshim-resolve"),
                dep: s("fancy-regex"),
                kind: Normal,
            },
            Violation::External {
                krate: s("llmshim-resolve"),
                dep: s("jsonschema"),
                kind: Normal,
            },
            Violation::External {
                krate: s("llmshim-resolve"),
                dep: s("serde_norway"),
                kind: Dev,
            },
            Violation::OnOutside {
                krate: s("llmshim"),
                dep: s("xtask"),
                kind: Normal,
            },
            Violation::Unlisted {
                krate: s("llmshim-mcp"),
            },
            Violation::FromOutside {
                krate: s("xtask"),
                dep: s("llmshim-core"),
                kind: Normal,
            },
            Violation::FromOutside {
                krate: s("xtask"),
                dep: s("llmshim-core"),
                kind: Dev,
            },
            Violation::FromOutside {
                krate: s("llmshim-benches"),
                dep: s("llmshim-core"),
                kind: Normal,
            },
            Violation::FromOutside {
                krate: s("llmshim-benches"),
                dep: s("xtask"),
                kind: Dev,
            },
            Violation::NotAMember {
                krate: s("llmshim-validate"),
            },
        ];
        for violation in &expected {
            assert!(
                violations.contains(violation),
                "missing violation: {violation}\nfound:\n{}",
                render(&violations)
            );
        }
        assert_eq!(
            violations.len(),
            expected.len(),
            "unexpected extra violations:\n{}",
            render(&violations)
        );
        Ok(())
    }

    #[test]
    fn violations_read_as_sentences() {
        let v = Violation::Upward {
            krate: "llmshim-core".to_owned(),
            dep: "llmshim-resolve".to_owned(),
            kind: DepKind::Normal,
            krate_rank: 0,
            dep_rank: 1,
        };
        assert_eq!(
            v.to_string(),
            "llmshim-core (rank 0) has a normal dependency on llmshim-resolve (rank 1), an upward edge"
        );
    }

    /// Runs the check against the real workspace, which is how `cargo test --workspace` enforces the layering.
    #[test]
    fn the_workspace_follows_the_rank_table() -> Result<(), String> {
        let root = metadata::workspace_root()?;
        let table = ranks::load(&root)?;
        let packages = metadata::load(&root)?;
        let violations = check(&table, &packages);
        assert!(
            violations.is_empty(),
            "the workspace breaks the rank table in {}:\n{}",
            ranks::FILE,
            render(&violations)
        );
        Ok(())
    }

    fn render(violations: &[Violation]) -> String {
        let lines: Vec<String> = violations.iter().map(|v| format!("  {v}")).collect();
        lines.join("\n")
    }
}
