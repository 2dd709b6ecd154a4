"""A same-process Python benchmark of llmshim against the Python functions that do the nearest job.

Run it from the repository root with the bench environment's Python (see ``README.md`` in this folder):

    target/python-bench-venv/bin/python llmshim-py/bench/bench.py

Every row is one pass over the same workload, every ``inputSchema`` of the shared MCP corpus
(``$LLMSHIM_TESTDATA/mcp-tools/*.json``, default ``../shared/testdata``); a row's number is the median of many passes,
timed with ``time.perf_counter_ns`` in this process. Before each pass, fresh copies of the schemas are made outside the
timed region, because some of the peers edit their argument in place. The table is written into the repository's
``README.md`` between the ``pybench`` markers, so no number is typed by hand.
"""

from __future__ import annotations

import copy
import datetime
import glob
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
PASSES = int(os.environ.get("PYBENCH_PASSES", "21"))
START = "<!-- pybench:start -->"
END = "<!-- pybench:end -->"


def corpus() -> list[dict[str, Any]]:
    data = Path(os.environ.get("LLMSHIM_TESTDATA", ROOT.parent / "shared" / "testdata"))
    schemas = []
    for path in sorted(glob.glob(str(data / "mcp-tools" / "*.json"))):
        with open(path, encoding="utf-8") as f:
            for tool in json.load(f).get("tools", []):
                if isinstance(tool.get("inputSchema"), dict):
                    schemas.append(tool["inputSchema"])
    if not schemas:
        sys.exit(f"no MCP tool schemas under {data}/mcp-tools; set LLMSHIM_TESTDATA")
    return schemas


def measure(run: Callable[[Any], Any], schemas: list[dict[str, Any]]) -> tuple[float, int]:
    """Median nanoseconds of one pass of ``run`` over fresh copies of ``schemas``, and how many calls raised."""
    times = []
    failures = 0
    for _ in range(PASSES):
        copies = copy.deepcopy(schemas)
        failures = 0
        start = time.perf_counter_ns()
        for schema in copies:
            try:
                run(schema)
            except Exception:  # noqa: BLE001 - a peer that raises on a schema is counted, not fatal
                failures += 1
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times), failures


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def rows() -> list[dict[str, Any]]:
    """Every row: its label, the function that handles one schema, and the scope of the timed work."""
    import llmshim

    def llmshim_google(schema: dict[str, Any]) -> Any:
        return llmshim.normalize(schema, "google")

    def llmshim_strict(schema: dict[str, Any]) -> Any:
        return llmshim.normalize(schema, "chat", strict=True)

    def round_trip(schema: dict[str, Any]) -> Any:
        return json.loads(json.dumps(schema))

    table = [
        {
            "row": "baseline: `json.loads(json.dumps(schema))`",
            "run": round_trip,
            "scope": "serialize and parse each schema with the standard library",
            "package": None,
        },
        {
            "row": '`llmshim.normalize(schema, "google")`',
            "run": llmshim_google,
            "scope": "Python to JSON conversion, the whole Gemini normalization (references, rules, checks, "
            "compile gate), JSON back to Python, typed report; memo off (`LLMSHIM_NO_SCHEMA_CACHE=1`)",
            "package": "llmshim",
        },
        {
            "row": '`llmshim.normalize(schema, "chat", strict=True)`',
            "run": llmshim_strict,
            "scope": "the same for OpenAI Chat with strict enforcement; memo off",
            "package": "llmshim",
        },
    ]
    try:
        from google.genai import _transformers

        def genai_process(schema: dict[str, Any]) -> Any:
            _transformers.process_schema(schema, None)

        def genai_t_schema(schema: dict[str, Any]) -> Any:
            return _transformers.t_schema(None, schema)

        table += [
            {
                "row": "google-genai `_transformers.process_schema(schema, None)`",
                "run": genai_process,
                "scope": "its in-place rewrite of a dict schema for Gemini (inlines `$defs`, adjusts keywords); "
                "no check of the result",
                "package": "google-genai",
            },
            {
                "row": "google-genai `_transformers.t_schema(None, schema)`",
                "run": genai_t_schema,
                "scope": "what the SDK does with a dict schema: `process_schema`, then validation into its "
                "`types.Schema` pydantic model",
                "package": "google-genai",
            },
        ]
    except ImportError:
        pass
    try:
        from litellm.llms.vertex_ai.common_utils import build_vertex_schema

        table.append(
            {
                "row": "LiteLLM `build_vertex_schema(schema)`",
                "run": build_vertex_schema,
                "scope": "its in-place Gemini schema builder for function parameters (unpacks `$defs`, filters "
                "keywords against Gemini's `Schema` fields, converts `anyOf` with null)",
                "package": "litellm",
            }
        )
    except ImportError:
        pass
    try:
        from openai.lib._pydantic import _ensure_strict_json_schema

        def openai_strict(schema: dict[str, Any]) -> Any:
            return _ensure_strict_json_schema(schema, path=(), root=schema)

        table.append(
            {
                "row": "openai-python `lib._pydantic._ensure_strict_json_schema(schema, path=(), root=schema)`",
                "run": openai_strict,
                "scope": "the dict-level strict helper behind `to_strict_json_schema` (which only takes pydantic "
                "models): closes objects, makes every property required, inlines lone `$ref`s, in place; no "
                "keyword removal, limits or checks",
                "package": "openai",
            }
        )
    except ImportError:
        pass
    return table


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def render(schemas: list[dict[str, Any]], measured: list[tuple[dict[str, Any], float, int]]) -> str:
    import llmshim

    baseline = measured[0][1]
    packages = ", ".join(
        f"{name} {version(name)}" for name in ("google-genai", "litellm", "openai", "pydantic")
    )
    lines = [
        f"Generated by `llmshim-py/bench/bench.py`; do not edit by hand. Machine: {cpu_model()}, "
        f"{os.cpu_count()} cores; {platform.system()} {platform.release()}; CPython {platform.python_version()}; "
        f"llmshim {llmshim.__version__} (release build); {packages}; {datetime.date.today().isoformat()}.",
        "",
        f"Workload: the {len(schemas)} `inputSchema`s of the shared MCP corpus, one call per schema; each number is "
        f"the median of {PASSES} passes in one process.",
        "",
        "| function | µs per pass | µs per schema | / baseline | raised | scope |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row, nanos, failures in measured:
        lines.append(
            f"| {row['row']} | {nanos / 1e3:.0f} | {nanos / 1e3 / len(schemas):.1f} | {nanos / baseline:.2f} "
            f"| {failures} | {row['scope']} |"
        )
    return "\n".join(lines)


def main() -> None:
    os.environ["LLMSHIM_NO_SCHEMA_CACHE"] = "1"
    schemas = corpus()
    measured = []
    for row in rows():
        nanos, failures = measure(row["run"], schemas)
        print(f"pybench: {row['row']}: {nanos / 1e3:.0f} µs per pass, {failures} raised", file=sys.stderr)
        measured.append((row, nanos, failures))
    table = render(schemas, measured)
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        sys.exit(f"README.md lacks the {START} and {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{table}\n{END}{tail}", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
