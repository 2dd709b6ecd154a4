//! Shared helpers: a pass that records every visit, a walk with the standard steps, and deep values.

use std::cell::RefCell;
use std::sync::Arc;

use llmshim_core::walk::{self, Settings, Walked, steps};
use llmshim_core::{FallbackReason, NodeCtx, Pass, walk::Flow};
use serde_json::{Map, Value};

/// The base URI every test walk starts from.
pub(crate) const BASE: &str = "https://llmshim.invalid/schema";

/// What the recorder saw at one visit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Visit {
    pub(crate) pointer: String,
    pub(crate) depth: usize,
    pub(crate) instance: bool,
    pub(crate) root: bool,
    pub(crate) strict: bool,
    pub(crate) base: String,
}

/// A pass that records every `enter` and every `leave` it sees.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    pub(crate) entered: RefCell<Vec<Visit>>,
    pub(crate) left: RefCell<Vec<String>>,
}

impl Recorder {
    /// The pointers of every `enter`, in order.
    pub(crate) fn pointers(&self) -> Vec<String> {
        self.entered
            .borrow()
            .iter()
            .map(|v| v.pointer.clone())
            .collect()
    }

    /// The visit recorded at `pointer`; the test fails when there is none.
    pub(crate) fn at(&self, pointer: &str) -> Visit {
        self.entered
            .borrow()
            .iter()
            .find(|v| v.pointer == pointer)
            .cloned()
            .unwrap_or_else(|| panic!("no visit at {pointer:?}"))
    }
}

impl Pass for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn enter(&self, _node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        self.entered.borrow_mut().push(Visit {
            pointer: cx.pointer().to_owned(),
            depth: cx.depth(),
            instance: cx.position().instance,
            root: cx.position().root,
            strict: cx.settings().strict,
            base: cx.base().to_string(),
        });
        Ok(Flow::Continue)
    }

    fn leave(&self, _node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        self.left.borrow_mut().push(cx.pointer().to_owned());
        Ok(())
    }
}

/// Walks `schema` with `passes` from [`BASE`].
pub(crate) fn run(
    schema: &mut Value,
    passes: &[&dyn Pass],
    settings: &Settings,
) -> Result<Walked, FallbackReason> {
    walk::walk(schema, passes, settings, Arc::from(BASE))
}

/// Walks `schema` with the target-independent steps in contract order: shape, literals, snake case.
pub(crate) fn run_standard(
    schema: &mut Value,
    settings: &Settings,
) -> Result<Walked, FallbackReason> {
    let passes: [&dyn Pass; 3] = [
        &steps::Shape::keep_booleans(),
        &steps::Literals,
        &steps::SnakeCase,
    ];
    run(schema, &passes, settings)
}

/// `{key: {key: … {}}}` with `depth` levels of `key`, built without recursion.
pub(crate) fn nested(key: &str, depth: usize) -> Value {
    let mut value = Value::Object(Map::new());
    for _ in 0..depth {
        let mut map = Map::new();
        map.insert(key.to_owned(), value);
        value = Value::Object(map);
    }
    value
}

/// `[[… []]]` with `depth` levels of arrays around an empty array, built without recursion.
pub(crate) fn nested_arrays(depth: usize) -> Value {
    let mut value = Value::Array(Vec::new());
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// The pointer made of `token` repeated `times` times.
pub(crate) fn repeated(token: &str, times: usize) -> String {
    format!("/{token}").repeat(times)
}

/// Runs `job` on a thread with a 2 MiB stack and returns its result.
pub(crate) fn on_small_stack<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(job)
        .expect("spawn a thread")
        .join()
        .expect("the job returns without overflowing the stack")
}
