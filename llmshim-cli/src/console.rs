//! Where standard output goes (a terminal or a pipe), whether colour is wanted, and the colours themselves.
//!
//! `explain` colours its text and `check` prints a table only for a person at a terminal; a pipe or a file gets
//! plain text and JSON. The binary detects the terminal with [`Console::detect`]; tests and embedders pass a
//! [`Console`] to [`crate::run::main_on`] instead, so both forms can be checked without a terminal.
//!
//! ```
//! use llmshim_cli::console::{Console, Paint};
//!
//! assert!(!Console::Pipe.is_terminal());
//! assert!(Console::Terminal { color: true }.color());
//! assert_eq!(Paint::new(false).key("name"), "name");
//! assert_eq!(Paint::new(true).key("name"), "\u{1b}[34mname\u{1b}[0m");
//! ```

use std::ffi::OsStr;

/// What standard output is connected to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Console {
    /// A pipe or a file: plain text, and JSON where a subcommand has a JSON form.
    #[default]
    Pipe,
    /// A terminal; `color` is false when the user asked for no colour (`NO_COLOR`, `TERM=dumb`).
    Terminal {
        /// Whether colour is wanted.
        color: bool,
    },
}

impl Console {
    /// The console for an output that `is_terminal` says is or is not a terminal, with colour unless the process
    /// environment has a non-empty `NO_COLOR` or `TERM=dumb`.
    ///
    /// The binary calls it with `std::io::IsTerminal::is_terminal(&std::io::stdout())`.
    pub fn detect(is_terminal: bool) -> Self {
        Self::from_env(
            is_terminal,
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("TERM").as_deref(),
        )
    }

    /// [`Console::detect`] with the two variables given: `no_color` (`NO_COLOR`, which turns colour off when set to
    /// anything but the empty string) and `term` (`TERM`, which turns it off when `dumb`).
    ///
    /// ```
    /// use std::ffi::OsStr;
    /// use llmshim_cli::console::Console;
    ///
    /// assert_eq!(Console::from_env(true, None, None), Console::Terminal { color: true });
    /// assert_eq!(Console::from_env(true, Some(OsStr::new("1")), None), Console::Terminal { color: false });
    /// assert_eq!(Console::from_env(true, Some(OsStr::new("")), None), Console::Terminal { color: true });
    /// assert_eq!(Console::from_env(true, None, Some(OsStr::new("dumb"))), Console::Terminal { color: false });
    /// assert_eq!(Console::from_env(false, None, None), Console::Pipe);
    /// ```
    pub fn from_env(is_terminal: bool, no_color: Option<&OsStr>, term: Option<&OsStr>) -> Self {
        if !is_terminal {
            return Console::Pipe;
        }
        let refused = no_color.is_some_and(|v| !v.is_empty()) || term.is_some_and(|t| t == "dumb");
        Console::Terminal { color: !refused }
    }

    /// Whether standard output is a terminal.
    pub const fn is_terminal(self) -> bool {
        matches!(self, Console::Terminal { .. })
    }

    /// Whether output to this console is coloured by default (`--color auto`).
    pub const fn color(self) -> bool {
        matches!(self, Console::Terminal { color: true })
    }
}

/// ANSI colours for the human forms, or none: every method returns its text unchanged when colour is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colours when `on`, plain text otherwise.
    pub const fn new(on: bool) -> Self {
        Paint { on }
    }

    /// Whether colour is on.
    pub const fn is_on(self) -> bool {
        self.on
    }

    /// `text` between the escape `code` and a reset, or unchanged when colour is off.
    fn wrap(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            text.to_owned()
        }
    }

    /// An object key of the schema (blue).
    pub fn key(self, text: &str) -> String {
        self.wrap("34", text)
    }

    /// A string value of the schema (green).
    pub fn string(self, text: &str) -> String {
        self.wrap("32", text)
    }

    /// A number, boolean or null of the schema (yellow).
    pub fn literal(self, text: &str) -> String {
        self.wrap("33", text)
    }

    /// A JSON Pointer at the start of a change line (bold cyan).
    pub fn pointer(self, text: &str) -> String {
        self.wrap("1;36", text)
    }

    /// A rule's reason and rule id (dim).
    pub fn reason(self, text: &str) -> String {
        self.wrap("2", text)
    }

    /// Good news: unchanged (green).
    pub fn good(self, text: &str) -> String {
        self.wrap("32", text)
    }

    /// A change worth reading: rewritten, narrowed (yellow).
    pub fn notice(self, text: &str) -> String {
        self.wrap("33", text)
    }

    /// A loss: demoted, fallback (bold red).
    pub fn bad(self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    /// A removed line of a diff (red).
    pub fn removed(self, text: &str) -> String {
        self.wrap("31", text)
    }

    /// An added line of a diff (green).
    pub fn added(self, text: &str) -> String {
        self.wrap("32", text)
    }

    /// A hunk header of a diff, or a table header (bold).
    pub fn heading(self, text: &str) -> String {
        self.wrap("1", text)
    }
}

impl crate::args::ColorChoice {
    /// The colours for output to `console`: `auto` colours when the console wants colour.
    ///
    /// ```
    /// use llmshim_cli::args::ColorChoice;
    /// use llmshim_cli::console::Console;
    ///
    /// assert!(ColorChoice::Auto.paint(Console::Terminal { color: true }).is_on());
    /// assert!(!ColorChoice::Auto.paint(Console::Pipe).is_on());
    /// assert!(ColorChoice::Always.paint(Console::Pipe).is_on());
    /// assert!(!ColorChoice::Never.paint(Console::Terminal { color: true }).is_on());
    /// ```
    pub fn paint(self, console: Console) -> Paint {
        use crate::args::ColorChoice;
        Paint::new(match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => console.color(),
        })
    }
}
