"""Type stubs of the native module; use the typed functions of ``llmshim`` instead."""

from typing import Any, Mapping, Sequence

VERSION: str
MAX_VALUES: int
OPTION_NAMES: list[str]
MAX_KEYWORD_STEPS: int
TARGETS: list[str]

def normalize(
    schema: Any, target: str, strict: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]: ...
def normalize_tools(
    request: Any, target: str, strict: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]: ...
def prepare_output(
    schema: Any, target: str, strict: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[Any, dict[str, Any], bool]: ...
def check(
    schema: Any,
    targets: Sequence[str] | None = None,
    strict: bool = False,
    options: Mapping[str, Any] | None = None,
) -> list[tuple[str, dict[str, Any]]]: ...
def validate(schema: Any, instance: Any) -> tuple[bool, list[str]]: ...
def locate(request: Any, body: bytes, target: str) -> dict[str, Any] | None: ...
def degrade(
    request: Any, rejection: Any, target: str, options: Mapping[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]: ...
