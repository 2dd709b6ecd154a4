//! The three environment flags, read on every call.

/// The values of the three flags for one call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EnvFlags {
    /// `LLMSHIM_NO_SCHEMA_NORMALIZATION`: bypass normalization and send requested strict flags as `false`.
    pub no_schema_normalization: bool,
    /// `LLMSHIM_NO_STRICT`: strict is never effective; transport rules still apply.
    pub no_strict: bool,
    /// `LLMSHIM_NO_SCHEMA_CACHE`: the memo is neither read nor written.
    pub no_schema_cache: bool,
}

impl EnvFlags {
    /// Sets the bypass flag.
    #[must_use]
    pub fn with_no_schema_normalization(mut self, on: bool) -> Self {
        self.no_schema_normalization = on;
        self
    }

    /// Sets the no-strict flag.
    #[must_use]
    pub fn with_no_strict(mut self, on: bool) -> Self {
        self.no_strict = on;
        self
    }

    /// Sets the no-cache flag.
    #[must_use]
    pub fn with_no_schema_cache(mut self, on: bool) -> Self {
        self.no_schema_cache = on;
        self
    }
}

/// Where a normalizer reads its flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Env {
    /// The process environment, read on every call.
    #[default]
    Process,
    /// Fixed values (tests, the command line's `batch`).
    Fixed(EnvFlags),
}

/// The bypass variable.
pub const NO_SCHEMA_NORMALIZATION: &str = "LLMSHIM_NO_SCHEMA_NORMALIZATION";
/// The no-strict variable.
pub const NO_STRICT: &str = "LLMSHIM_NO_STRICT";
/// The no-cache variable.
pub const NO_SCHEMA_CACHE: &str = "LLMSHIM_NO_SCHEMA_CACHE";

impl Env {
    /// The flags in effect now.
    pub fn read(self) -> EnvFlags {
        match self {
            Env::Fixed(flags) => flags,
            Env::Process => EnvFlags {
                no_schema_normalization: process_flag(NO_SCHEMA_NORMALIZATION),
                no_strict: process_flag(NO_STRICT),
                no_schema_cache: process_flag(NO_SCHEMA_CACHE),
            },
        }
    }
}

/// Whether a flag's value turns it on: exactly `1`, or `true` in any ASCII case.
///
/// ```
/// use llmshim::schema::env::flag_value;
///
/// assert!(flag_value(Some("1")) && flag_value(Some("TRUE")) && flag_value(Some("True")));
/// assert!(!flag_value(Some("yes")) && !flag_value(Some(" true")) && !flag_value(Some("0")) && !flag_value(None));
/// ```
pub fn flag_value(value: Option<&str>) -> bool {
    value.is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

fn process_flag(name: &str) -> bool {
    flag_value(std::env::var(name).ok().as_deref())
}
