//! Building `Options` and the environment from command-line flags (a batch line's `options` member goes through
//! `Options::set`).

use llmshim::schema::{Env, Keywords, Nullable, Options, Recursion, Target};

use crate::args::OptionArgs;

/// Parses a nullable policy: `preserve`, `marker` or `remove`, in any ASCII case.
///
/// # Errors
///
/// A message naming the accepted values.
///
/// ```
/// use llmshim::schema::Nullable;
/// use llmshim_cli::options::parse_nullable;
///
/// assert_eq!(parse_nullable("Marker"), Ok(Nullable::Marker));
/// assert!(parse_nullable("null").is_err());
/// ```
pub fn parse_nullable(text: &str) -> Result<Nullable, String> {
    text.parse::<Nullable>().map_err(|e| e.to_string())
}

/// Parses a keyword profile: `current` or `conservative`, in any ASCII case.
///
/// # Errors
///
/// A message naming the accepted values.
///
/// ```
/// use llmshim::schema::Keywords;
/// use llmshim_cli::options::parse_keywords;
///
/// assert_eq!(parse_keywords("Conservative"), Ok(Keywords::Conservative));
/// assert!(parse_keywords("narrow").is_err());
/// ```
pub fn parse_keywords(text: &str) -> Result<Keywords, String> {
    text.to_ascii_lowercase()
        .parse::<Keywords>()
        .map_err(|e| e.to_string())
}

/// Parses a recursion mode: `fallback`, `keep-refs`, `keep-refs:optional-only`, `unroll` (depth 3) or
/// `unroll:<N>` with N ≥ 1.
///
/// # Errors
///
/// A message naming the accepted values.
///
/// ```
/// use llmshim::schema::Recursion;
/// use llmshim_cli::options::parse_recursion;
///
/// assert_eq!(parse_recursion("unroll:2"), Ok(Recursion::unroll(2)));
/// assert!(parse_recursion("unroll:0").is_err());
/// ```
pub fn parse_recursion(text: &str) -> Result<Recursion, String> {
    text.parse::<Recursion>().map_err(|e| e.to_string())
}

/// Parses a target name: the command-line name of a built-in target (see `Target::builtins`).
///
/// # Errors
///
/// The facade's message naming the accepted values.
pub fn parse_target(text: &str) -> Result<Target, String> {
    text.parse::<Target>().map_err(|e| e.to_string())
}

impl OptionArgs {
    /// The options for `target`: `Options::for_target(target)`, then every flag that was given.
    ///
    /// ```
    /// use clap::Parser;
    /// use llmshim::schema::{Nullable, Target};
    /// use llmshim_cli::args::OptionArgs;
    ///
    /// #[derive(Parser)]
    /// struct Probe {
    ///     #[command(flatten)]
    ///     options: OptionArgs,
    /// }
    ///
    /// let probe = Probe::parse_from(["probe", "--strict", "--nullable", "remove", "--max-depth", "8"]);
    /// let options = probe.options.options(Target::OpenAiChat);
    /// assert!(options.strict);
    /// assert_eq!(options.nullable, Nullable::Remove);
    /// assert_eq!(options.budget.max_depth, 8);
    /// assert!(!options.rewrite_one_of);
    /// ```
    pub fn options(&self, target: Target) -> Options {
        let mut options = Options::for_target(target);
        if self.strict {
            options = options.with_strict(true);
        }
        if let Some(nullable) = self.nullable {
            options = options.with_nullable(nullable);
        }
        if let Some(on) = self.rewrite_one_of {
            options = options.with_rewrite_one_of(on);
        }
        if let Some(on) = self.strip_lookarounds {
            options = options.with_strip_lookarounds(on);
        }
        if self.bypass {
            options = options.with_bypass(true);
        }
        let mut budget = options.budget;
        if let Some(n) = self.max_depth {
            budget = budget.with_max_depth(n);
        }
        if let Some(n) = self.max_nodes {
            budget = budget.with_max_nodes(n);
        }
        if let Some(n) = self.max_literal_bytes {
            budget = budget.with_max_literal_bytes(n);
        }
        options = options.with_budget(budget);
        if self.diagnostics {
            options = options.with_diagnostics(true);
        }
        if let Some(keywords) = self.keywords {
            options = options.with_keywords(keywords);
        }
        if let Some(recursion) = self.recursion {
            options = options.with_recursion(recursion);
        }
        options
    }

    /// The environment to normalize in: the process environment, or with `--no-cache` fixed flags read from the
    /// process now with `LLMSHIM_NO_SCHEMA_CACHE` on.
    pub fn env(&self) -> Env {
        if self.no_cache {
            Env::Fixed(Env::Process.read().with_no_schema_cache(true))
        } else {
            Env::Process
        }
    }
}
