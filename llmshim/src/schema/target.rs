//! `Target`: which wire dialect a schema is normalized for, built-in or custom.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use llmshim_core::TargetRules;

/// The wire dialect a schema is normalized for (contract §2.1).
///
/// ```
/// use llmshim::schema::Target;
///
/// assert_eq!("google".parse::<Target>().ok(), Some(Target::Google));
/// assert_eq!(Target::CloudCodeAssist.name(), "cca");
/// assert!("gemini".parse::<Target>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// OpenAI Chat Completions (also OpenAI-compatible servers).
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini.
    Google,
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
        f.debug_tuple("Custom").field(&self.0.id()).finish()
    }
}

impl Target {
    /// Every built-in target, in the command line's order.
    pub const BUILTIN: [Target; 6] = [
        Target::OpenAiChat,
        Target::OpenAiResponses,
        Target::Anthropic,
        Target::Google,
        Target::CloudCodeAssist,
        Target::Mcp,
    ];

    /// A target defined by `rules`, which lives for the whole program (usually a `static`).
    pub fn custom(rules: &'static dyn TargetRules) -> Target {
        Target::Custom(Custom(rules))
    }

    /// The target's rules.
    pub fn rules(self) -> &'static dyn TargetRules {
        match self {
            Target::OpenAiChat => &llmshim_targets::OPENAI_CHAT,
            Target::OpenAiResponses => &llmshim_targets::OPENAI_RESPONSES,
            Target::Anthropic => &llmshim_targets::ANTHROPIC,
            Target::Google => &llmshim_targets::GOOGLE,
            Target::CloudCodeAssist => &llmshim_targets::CLOUD_CODE_ASSIST,
            Target::Mcp => &llmshim_targets::MCP,
            Target::Custom(Custom(rules)) => rules,
        }
    }

    /// The command-line name (`chat`, `responses`, `anthropic`, `google`, `cca`, `mcp`), or a custom target's id.
    pub fn name(self) -> &'static str {
        match self {
            Target::OpenAiChat => "chat",
            Target::OpenAiResponses => "responses",
            Target::Anthropic => "anthropic",
            Target::Google => "google",
            Target::CloudCodeAssist => "cca",
            Target::Mcp => "mcp",
            Target::Custom(_) => "custom",
        }
    }
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Custom(c) => c.fmt(f),
            other => f.write_str(match other {
                Target::OpenAiChat => "OpenAiChat",
                Target::OpenAiResponses => "OpenAiResponses",
                Target::Anthropic => "Anthropic",
                Target::Google => "Google",
                Target::CloudCodeAssist => "CloudCodeAssist",
                _ => "Mcp",
            }),
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
        Target::BUILTIN
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| crate::Error::UnknownTarget { name: s.to_owned() })
    }
}
