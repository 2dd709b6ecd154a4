//! Budgets bound every walk: nesting depth, visited nodes and literal bytes.

use crate::report::{FallbackKind, FallbackReason};

/// Limits on the work one normalization or resolution may do.
///
/// ```
/// use llmshim_core::Budget;
///
/// let b = Budget::default().with_max_depth(64);
/// assert_eq!((b.max_depth, b.max_nodes, b.max_literal_bytes), (64, 32_768, 8 * 1024 * 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Budget {
    /// Nesting limit: the root is depth 0 and a depth above this fails.
    pub max_depth: usize,
    /// Visit limit: a count above this fails.
    pub max_nodes: usize,
    /// Literal and URI byte limit: a sum above this fails.
    pub max_literal_bytes: usize,
}

impl Budget {
    /// The default depth limit.
    pub const DEFAULT_MAX_DEPTH: usize = 96;
    /// The default node limit.
    pub const DEFAULT_MAX_NODES: usize = 32_768;
    /// The default literal-byte limit (8 MiB).
    pub const DEFAULT_MAX_LITERAL_BYTES: usize = 8 * 1024 * 1024;

    /// Sets the depth limit.
    #[must_use]
    pub const fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Sets the node limit.
    #[must_use]
    pub const fn with_max_nodes(mut self, max_nodes: usize) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Sets the literal-byte limit.
    #[must_use]
    pub const fn with_max_literal_bytes(mut self, max_literal_bytes: usize) -> Self {
        self.max_literal_bytes = max_literal_bytes;
        self
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_depth: Budget::DEFAULT_MAX_DEPTH,
            max_nodes: Budget::DEFAULT_MAX_NODES,
            max_literal_bytes: Budget::DEFAULT_MAX_LITERAL_BYTES,
        }
    }
}

/// The running charge against a [`Budget`]; the registry pre-pass and the walk each keep their own.
///
/// ```
/// use llmshim_core::{Budget, Meter, FallbackKind};
///
/// let mut m = Meter::new(Budget::default().with_max_nodes(2).with_max_literal_bytes(12));
/// assert!(m.visit(0, "").is_ok());
/// assert!(m.charge_literal(12, "").is_ok());
/// assert_eq!(m.charge_literal(1, "").unwrap_err().kind, FallbackKind::BudgetLiteral);
/// assert!(m.visit(1, "/a").is_ok());
/// assert_eq!(m.visit(1, "/b").unwrap_err().kind, FallbackKind::BudgetNodes);
/// ```
#[derive(Clone, Debug)]
pub struct Meter {
    budget: Budget,
    nodes: usize,
    literal_bytes: usize,
}

impl Meter {
    /// A fresh meter for `budget`.
    pub fn new(budget: Budget) -> Self {
        Meter {
            budget,
            nodes: 0,
            literal_bytes: 0,
        }
    }

    /// The budget this meter charges against.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Visits counted so far.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Literal bytes charged so far.
    pub fn literal_bytes(&self) -> usize {
        self.literal_bytes
    }

    /// Counts one visit at `depth` (step W1).
    ///
    /// # Errors
    ///
    /// `budget_nodes` when the count exceeds the node limit, `budget_depth` when `depth` exceeds the depth limit.
    pub fn visit(&mut self, depth: usize, pointer: &str) -> Result<(), FallbackReason> {
        self.nodes = self.nodes.saturating_add(1);
        if self.nodes > self.budget.max_nodes {
            return Err(FallbackReason::new(
                FallbackKind::BudgetNodes,
                pointer,
                format!("more than {} schema nodes", self.budget.max_nodes),
            ));
        }
        self.check_depth(depth, pointer)
    }

    /// Checks `depth` against the depth limit without counting a visit.
    ///
    /// # Errors
    ///
    /// `budget_depth` when `depth` exceeds the limit.
    pub fn check_depth(&self, depth: usize, pointer: &str) -> Result<(), FallbackReason> {
        if depth > self.budget.max_depth {
            return Err(FallbackReason::new(
                FallbackKind::BudgetDepth,
                pointer,
                format!("nesting deeper than {} levels", self.budget.max_depth),
            ));
        }
        Ok(())
    }

    /// Charges `bytes` of literal or URI work (step W5 and the pre-pass).
    ///
    /// # Errors
    ///
    /// `budget_literal` when the running sum exceeds the limit.
    pub fn charge_literal(&mut self, bytes: usize, pointer: &str) -> Result<(), FallbackReason> {
        self.literal_bytes = self.literal_bytes.saturating_add(bytes);
        if self.literal_bytes > self.budget.max_literal_bytes {
            return Err(FallbackReason::new(
                FallbackKind::BudgetLiteral,
                pointer,
                format!(
                    "more than {} bytes of literal work",
                    self.budget.max_literal_bytes
                ),
            ));
        }
        Ok(())
    }
}
