"""llmshim: make one JSON Schema work on every LLM provider.

Each function takes plain JSON-like Python values (``dict``, ``list``, ``tuple``, ``str``, ``int``, ``float``,
``bool``, ``None``), returns new ones (the arguments are never modified) and a typed report. Normalization never
fails: a schema that cannot be made acceptable comes back as ``{"type": "object", "properties": {}}`` and the
report says why. Exceptions are for arguments that are not JSON or name an unknown target or option.

>>> import llmshim
>>> schema, report = llmshim.normalize({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}, "google")
>>> schema["properties"]["a"]
{'type': 'string', 'nullable': True}
>>> report.changed, report.used_fallback
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from . import _native

__all__ = [
    "TARGETS",
    "MAX_VALUES",
    "OPTION_NAMES",
    "LlmshimError",
    "InputError",
    "OptionError",
    "SchemaError",
    "FallbackReason",
    "Change",
    "Report",
    "ToolReport",
    "ToolsReport",
    "OutputReport",
    "Validation",
    "normalize",
    "normalize_tools",
    "prepare_output",
    "check",
    "validate",
]

__version__: str = _native.VERSION

#: The built-in targets, by the names every function takes.
TARGETS: tuple[str, ...] = ("chat", "responses", "anthropic", "google", "cca", "mcp")

#: The most JSON values one argument may hold once converted (an ``InputError`` beyond).
MAX_VALUES: int = _native.MAX_VALUES

#: The keyword options every normalizing function accepts besides ``strict``.
OPTION_NAMES: tuple[str, ...] = tuple(_native.OPTION_NAMES)


class LlmshimError(ValueError):
    """Base class of the package's exceptions; ``pointer`` is the JSON Pointer of the problem (``""`` for none)."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        if self.pointer:
            return f"{self.message} (at {self.pointer!r})"
        return self.message


class InputError(LlmshimError):
    """An argument is not JSON: an object of another type, a non-string dict key, a non-finite float, an integer
    beyond any float, a string with a lone surrogate, a container that contains itself, or more than ``MAX_VALUES``
    values. ``pointer`` locates the offending value inside the argument."""


class OptionError(LlmshimError):
    """An unknown target, or an option with a value of the wrong type. (An unknown option name is a ``TypeError``.)"""


class SchemaError(LlmshimError):
    """``validate``: the schema does not compile; ``pointer`` locates the problem in the schema."""


@dataclass(frozen=True)
class FallbackReason:
    """Why the requested result was not produced: a fallback's cause, or a strict demotion's."""

    kind: str
    pointer: str
    message: str


@dataclass(frozen=True)
class Change:
    """One change, recorded when ``diagnostics=True``: where, by which rule, and what kind of change."""

    pointer: str
    rule: str
    kind: str


@dataclass(frozen=True)
class Report:
    """What normalization did: the fields of the Rust ``Normalization``."""

    changed: bool
    used_fallback: bool
    strict: bool
    bypassed: bool
    fallback_reason: FallbackReason | None
    changes: tuple[Change, ...]

    @property
    def demoted(self) -> bool:
        """Strict was requested but the schema was sent non-strict (the reason says why)."""
        return self.fallback_reason is not None and not self.used_fallback

    @classmethod
    def _from(cls, raw: Mapping[str, Any]) -> Report:
        return cls(**_report_fields(raw))


@dataclass(frozen=True)
class OutputReport(Report):
    """``prepare_output``'s report; ``wrapped`` says the schema now stands under ``properties.response``."""

    wrapped: bool

    def unwrap(self, value: Any) -> Any:
        """The model's value without the wrapper: its ``response`` member when wrapped, else the value itself."""
        if not self.wrapped:
            return value
        if not isinstance(value, dict) or "response" not in value:
            raise InputError("the value lacks the `response` member of a wrapped output", "")
        return value["response"]


@dataclass(frozen=True)
class ToolReport:
    """One function tool of a request: its index in ``tools``, name, schema location, report and sent ``strict``."""

    index: int
    name: str | None
    pointer: str
    report: Report
    strict: bool | None


@dataclass(frozen=True)
class ToolsReport:
    """A request's report: ``summary`` (some tool fell back, the first reason, every change) and one per tool."""

    summary: Report
    tools: tuple[ToolReport, ...]


@dataclass(frozen=True)
class Validation:
    """``validate``'s verdict and its error lines (``<instance pointer>: <message> (<schema pointer>)``)."""

    valid: bool
    errors: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.valid


def _report_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    reason = raw["fallback_reason"]
    return {
        "changed": raw["changed"],
        "used_fallback": raw["used_fallback"],
        "strict": raw["strict"],
        "bypassed": raw["bypassed"],
        "fallback_reason": None if reason is None else FallbackReason(**reason),
        "changes": tuple(Change(**c) for c in raw["changes"]),
    }


def normalize(schema: Any, target: str, *, strict: bool = False, **options: Any) -> tuple[Any, Report]:
    """Normalizes ``schema`` for ``target``: ``(new schema, report)``.

    ``options`` are ``nullable`` ("preserve", "marker" or "remove"), ``rewrite_one_of``, ``strip_lookarounds``,
    ``bypass``, ``diagnostics`` and ``structured_output`` (bools) and ``max_depth``, ``max_nodes`` and
    ``max_literal_bytes`` (ints); unset ones take the target's defaults.
    """
    out, raw = _native.normalize(schema, target, strict, options)
    return out, Report._from(raw)


def normalize_tools(request: Any, target: str, *, strict: bool = False, **options: Any) -> tuple[Any, ToolsReport]:
    """Turns the tools of ``request`` (chat, Responses, Anthropic, Gemini or raw MCP shapes, mixed) into the
    target's native array: ``(new request, tools report)``. ``strict`` applies to tools without their own boolean
    ``strict``; one tool's fallback leaves the others alone; every other member passes through unchanged."""
    out, raw = _native.normalize_tools(request, target, strict, options)
    tools = tuple(
        ToolReport(t["index"], t["name"], t["pointer"], Report._from(t["report"]), t["strict"]) for t in raw["tools"]
    )
    return out, ToolsReport(Report._from(raw["summary"]), tools)


def prepare_output(schema: Any, target: str, *, strict: bool = False, **options: Any) -> tuple[Any, OutputReport]:
    """Prepares a structured-output schema for ``target``: ``(wire schema, report)``; a non-object schema is wrapped
    under ``properties.response`` (``report.wrapped``, and ``report.unwrap`` takes the model's answer out)."""
    out, raw, wrapped = _native.prepare_output(schema, target, strict, options)
    return out, OutputReport(**_report_fields(raw), wrapped=wrapped)


def check(
    schema: Any, targets: Iterable[str] | None = None, *, strict: bool = False, **options: Any
) -> dict[str, Report]:
    """Normalizes ``schema`` for each target (all of ``TARGETS`` when ``targets`` is None): target -> report."""
    names = None if targets is None else [str(t) for t in targets]
    return {name: Report._from(raw) for name, raw in _native.check(schema, names, strict, options)}


def validate(schema: Any, instance: Any) -> Validation:
    """Validates ``instance`` against ``schema`` locally (draft 2020-12 by default, formats asserted). Validate
    against the original schema, not the normalized one: normalization can relax constraints.

    Raises ``SchemaError`` when the schema does not compile."""
    valid, errors = _native.validate(schema, instance)
    return Validation(valid, tuple(errors))
