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
