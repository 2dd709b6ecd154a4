//! `Target`: which wire dialect a schema is normalized for, built-in or custom.

mod table;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use llmshim_core::TargetRules;

pub use table::BuiltinTarget;

/// The wire dialect a schema is normalized for.
///
/// The built-in targets, their command-line names and their rule sets come from one table ([`Target::builtins`]);
/// parsing, display, [`Target::BUILTIN`], the command line and the error texts all read it.
///
/// ```
/// use llmshim::schema::Target;
///
/// assert_eq!("google".parse::<Target>().ok(), Some(Target::Google));
/// assert_eq!(Target::CloudCodeAssist.name(), "cca");
/// assert!("gemini".parse::<Target>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// OpenAI Chat Completions (also OpenAI-compatible servers).
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini, through `parameters` and `responseSchema` (an OpenAPI-subset schema).
    Google,
    /// Google Gemini, through `parametersJsonSchema` and `responseJsonSchema` (JSON Schema).
    GoogleJsonSchema,
    /// Google Cloud Code Assist.
    CloudCodeAssist,
    /// MCP registries.
    Mcp,
    /// A rule set defined outside the workspace; build it with [`Target::custom`].
    Custom(Custom),
}

/// A custom target's rules; its identity is its id plus the address of its rules.
#[derive(Clone, Copy)]
pub struct Custom(&'static dyn TargetRules);

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self.0, other.0) && self.0.id() == other.0.id()
    }
}

impl Eq for Custom {}

impl Hash for Custom {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id().hash(state);
        (std::ptr::from_ref(self.0).cast::<()>() as usize).hash(state);
    }
}

impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.id(), f)
    }
}

impl Target {
    /// Every built-in target, in the table's order (the command line's).
    pub const BUILTIN: [Target; table::TABLE.len()] = {
        let mut out = [Target::Mcp; table::TABLE.len()];
        let mut i = 0;
        while i < out.len() {
            out[i] = table::TABLE[i].target;
            i += 1;
        }
        out
    };

    /// The table of built-in targets: variant, command-line name and rule set, one row each.
    ///
    /// ```
    /// use llmshim::schema::Target;
    ///
    /// for row in Target::builtins() {
    ///     assert_eq!(row.name.parse::<Target>().ok(), Some(row.target));
    ///     assert_eq!(row.target.to_string(), row.name);
    /// }
    /// assert_eq!(Target::builtins().len(), Target::BUILTIN.len());
    /// ```
    pub fn builtins() -> &'static [BuiltinTarget] {
        &table::TABLE
    }

    /// A target defined by `rules`, which lives for the whole program (usually a `static`).
    pub fn custom(rules: &'static dyn TargetRules) -> Target {
        Target::Custom(Custom(rules))
    }

    /// The table row of a built-in target; `None` for a custom one.
    fn row(self) -> Option<&'static BuiltinTarget> {
        table::TABLE.iter().find(|row| row.target == self)
    }

    /// The target's rules.
    pub fn rules(self) -> &'static dyn TargetRules {
        match self {
            Target::Custom(Custom(rules)) => rules,
            _ => match self.row() {
                Some(row) => row.rules,
                // Every built-in variant has a row; the table's tests hold it to that.
                None => table::TABLE[0].rules,
            },
        }
    }

    /// The command-line name from the table of built-in targets ([`Target::builtins`]), or `custom` for a custom
    /// target.
    pub fn name(self) -> &'static str {
        self.row().map_or("custom", |row| row.name)
    }

    /// The command-line names of the built-in targets as an English list: `a, b, … or z`.
    pub fn names_sentence() -> String {
        let names: Vec<&str> = table::TABLE.iter().map(|row| row.name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            Some((last, _)) => (*last).to_owned(),
            None => String::new(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Custom(Custom(rules)) => f.write_str(rules.id()),
            other => f.write_str(other.name()),
        }
    }
}

impl FromStr for Target {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        table::TABLE
            .iter()
            .find(|row| row.name == s)
            .map(|row| row.target)
            .ok_or_else(|| crate::Error::UnknownTarget { name: s.to_owned() })
    }
}
