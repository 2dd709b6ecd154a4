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
    "Rejection",
    "DegradeReport",
    "OUTCOMES",
    "STEPS",
    "MAX_KEYWORD_STEPS",
    "normalize",
    "normalize_tools",
    "prepare_output",
    "check",
    "validate",
    "locate",
    "degrade",
]

__version__: str = _native.VERSION

#: The built-in targets, by the names every function takes.
TARGETS: tuple[str, ...] = tuple(_native.TARGETS)

#: The most JSON values one argument may hold once converted (an ``InputError`` beyond).
MAX_VALUES: int = _native.MAX_VALUES

#: The values of ``Report.outcome``.
OUTCOMES: tuple[str, ...] = ("unchanged", "rewritten", "demoted", "fallback", "bypassed")

#: The steps ``degrade`` takes, lightest first.
STEPS: tuple[str, ...] = ("keyword", "strict", "node", "fallback")

#: At most this many keyword steps are taken on one schema before ``degrade`` moves on to the other steps.
MAX_KEYWORD_STEPS: int = _native.MAX_KEYWORD_STEPS

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
    values. ``pointer`` locates the offending value inside the argument. Also raised for a ``locate`` body that is
    not ``str`` or ``bytes`` and a ``degrade`` rejection that is not one (``pointer`` names the bad member)."""


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
    """What normalization did: the fields of the Rust ``Normalization``, and ``outcome``, the one word that reads
    them together (``Normalization::outcome``): ``"bypassed"``, else ``"fallback"``, else ``"demoted"`` (strict was
    asked and the reason says why it was not enforced), else ``"rewritten"`` or ``"unchanged"``. ``narrowed`` says
    that some part the target cannot express was narrowed (an optional property or union branch removed, a union
    cut to one branch, an untyped node given a type) instead of the whole schema falling back."""

    outcome: str
    changed: bool
    used_fallback: bool
    strict: bool
    bypassed: bool
    narrowed: bool
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


@dataclass(frozen=True)
class Rejection:
    """What a provider's rejection names (``locate``'s answer, ``degrade``'s argument).

    ``site`` is ``"tool"`` (``tool`` is the index in the request's ``tools``; ``declaration`` the index in that
    tool's ``functionDeclarations`` for ``google`` and ``cca``) or ``"output_schema"`` (the structured-output
    schema). ``pointer`` is the JSON Pointer of the rejected node inside that schema and ``keyword`` the offending
    keyword, each ``None`` when the body names none; ``message`` is the provider's sentence."""

    site: str
    tool: int | None = None
    declaration: int | None = None
    pointer: str | None = None
    keyword: str | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the command line's ``recover`` and the batch ``recover`` api print."""
        return {
            "site": self.site,
            "tool": self.tool,
            "declaration": self.declaration,
            "pointer": self.pointer,
            "keyword": self.keyword,
            "message": self.message,
        }


@dataclass(frozen=True)
class DegradeReport:
    """What ``degrade`` did: the site it changed (as in ``Rejection``), the ``step`` taken (one of ``STEPS``, or
    ``None`` when nothing changed, ``reason`` then says why) and the degraded schema's ``report``."""

    site: str
    tool: int | None
    declaration: int | None
    step: str | None
    report: Report
    reason: str | None

    def __bool__(self) -> bool:
        return self.step is not None


def _report_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    reason = raw["fallback_reason"]
    return {
        "outcome": raw["outcome"],
        "changed": raw["changed"],
        "used_fallback": raw["used_fallback"],
        "strict": raw["strict"],
        "bypassed": raw["bypassed"],
        "narrowed": raw["narrowed"],
        "fallback_reason": None if reason is None else FallbackReason(**reason),
        "changes": tuple(Change(**c) for c in raw["changes"]),
    }


def normalize(schema: Any, target: str, *, strict: bool = False, **options: Any) -> tuple[Any, Report]:
    """Normalizes ``schema`` for ``target``: ``(new schema, report)``.

    ``options`` are ``nullable`` ("preserve", "marker" or "remove"), ``keywords`` ("current", the default, or
    "conservative": which constraint keywords are kept rather than lifted into descriptions), ``rewrite_one_of``,
    ``strip_lookarounds``, ``bypass``, ``diagnostics`` and ``structured_output`` (bools), ``max_depth``,
    ``max_nodes`` and ``max_literal_bytes`` (ints) and ``recursion`` ("fallback", "keep-refs",
    "keep-refs:optional-only", "unroll" or "unroll:<N>"); unset ones take the target's defaults.
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


def locate(request: Any, body: str | bytes, target: str) -> Rejection | None:
    """Reads a provider's 400 ``body`` (raw text, the provider's JSON envelope, or either quoted in a log line) for
    the wire ``request`` that ``normalize_tools(..., target)`` produced: the ``Rejection`` naming the tool, location
    and keyword, or ``None`` when the body is not a rejection the target's provider writes or names a tool the
    request does not have (it never guesses). Only the first 4 MiB of the body are read."""
    if isinstance(body, str):
        raw = body.encode("utf-8", "replace")
    elif isinstance(body, (bytes, bytearray, memoryview)):
        raw = bytes(body)
    else:
        raise InputError(f"the body must be str or bytes, not {type(body).__name__}", "")
    found = _native.locate(request, raw, target)
    return None if found is None else Rejection(**found)


def degrade(request: Any, rejection: Rejection | Mapping[str, Any], target: str, **options: Any) -> tuple[Any, DegradeReport]:
    """Degrades the one tool (or declaration, or output schema) ``rejection`` names in the wire ``request`` by one
    step and leaves every other tool as it was: ``(new request, report)``. The steps, lightest first: lift the
    named keyword into its node's description wherever it occurs (at most ``MAX_KEYWORD_STEPS`` times per schema),
    send a ``strict: true`` tool with ``strict: false``, strip the named node down to ``type`` and ``description``,
    replace the schema by the fallback. ``report.step`` is ``None`` when nothing is left to do; send the request
    again otherwise. ``options`` are those of ``normalize`` (``diagnostics=True`` records the changes)."""
    if isinstance(rejection, Rejection):
        rejection = rejection.to_dict()
    out, raw = _native.degrade(request, rejection, target, options)
    return out, DegradeReport(
        raw["site"], raw["tool"], raw["declaration"], raw["step"], Report._from(raw["report"]), raw["reason"]
    )
