//! Options of the resolver-only API: budgets, the cycle mode and the upgrade switches.

use llmshim_core::Budget;

/// What `dereference` does with a recursive schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Cycles {
    /// A cycle is an error of kind [`ErrorKind::Cycle`](crate::ErrorKind::Cycle).
    #[default]
    Error,
    /// Each cycle stays as a local `$ref` into root `$defs`, where the re-entered schema is emitted once.
    KeepRefs,
}

/// The draft upgrades to apply; all on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Upgrades {
    /// Draft-04/03 `id` becomes `$id`.
    pub id: bool,
    /// Array `items` becomes `prefixItems`, `additionalItems` becomes `items`.
    pub tuples: bool,
    /// `dependencies` splits into `dependentRequired` and `dependentSchemas`.
    pub dependencies: bool,
    /// Boolean `exclusiveMinimum`/`exclusiveMaximum` take their bound's value.
    pub exclusive_bounds: bool,
}

impl Upgrades {
    /// Every upgrade.
    pub const ALL: Upgrades = Upgrades {
        id: true,
        tuples: true,
        dependencies: true,
        exclusive_bounds: true,
    };
    /// No upgrade.
    pub const NONE: Upgrades = Upgrades {
        id: false,
        tuples: false,
        dependencies: false,
        exclusive_bounds: false,
    };

    /// Sets the `id` upgrade.
    #[must_use]
    pub const fn with_id(mut self, on: bool) -> Self {
        self.id = on;
        self
    }

    /// Sets the tuple upgrade.
    #[must_use]
    pub const fn with_tuples(mut self, on: bool) -> Self {
        self.tuples = on;
        self
    }

    /// Sets the `dependencies` upgrade.
    #[must_use]
    pub const fn with_dependencies(mut self, on: bool) -> Self {
        self.dependencies = on;
        self
    }

    /// Sets the exclusive-bound upgrade.
    #[must_use]
    pub const fn with_exclusive_bounds(mut self, on: bool) -> Self {
        self.exclusive_bounds = on;
        self
    }

    pub(crate) fn any(self) -> bool {
        self.id || self.tuples || self.dependencies || self.exclusive_bounds
    }
}

impl Default for Upgrades {
    fn default() -> Self {
        Upgrades::ALL
    }
}

/// Options of [`dereference`](crate::dereference), [`bundle`](crate::bundle) and [`upgrade`](crate::upgrade()).
///
/// ```
/// use llmshim_resolve::{Budget, Cycles, Options, Upgrades};
///
/// let options = Options::default()
///     .with_budget(Budget::default().with_max_nodes(1_000))
///     .with_cycles(Cycles::KeepRefs)
///     .with_upgrades(Upgrades::ALL.with_dependencies(false));
/// assert_eq!(options.cycles, Cycles::KeepRefs);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Options {
    /// Depth, node and byte limits, charged to one meter as the walk charges its own.
    pub budget: Budget,
    /// What a cycle becomes.
    pub cycles: Cycles,
    /// Which draft upgrades run.
    pub upgrades: Upgrades,
    /// The document's draft; detected from its `$schema` when `None`.
    pub draft: Option<crate::Draft>,
}

impl Options {
    /// Sets the budget.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Sets the cycle mode.
    #[must_use]
    pub fn with_cycles(mut self, cycles: Cycles) -> Self {
        self.cycles = cycles;
        self
    }

    /// Reads the document as `draft` instead of detecting it from `$schema`.
    #[must_use]
    pub fn with_draft(mut self, draft: crate::Draft) -> Self {
        self.draft = Some(draft);
        self
    }

    /// Sets the upgrade switches.
    #[must_use]
    pub fn with_upgrades(mut self, upgrades: Upgrades) -> Self {
        self.upgrades = upgrades;
        self
    }
}
