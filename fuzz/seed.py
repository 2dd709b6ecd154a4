#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ from the shared third-party test data, at run time.

The data is read in place from $LLMSHIM_TESTDATA (default: ../shared/testdata relative to the repository root) and
written into fuzz/corpus/, which git ignores, so no third-party data enters the repository. Each seed file is named
by the SHA-1 of its bytes, so running the script again adds nothing twice.

Usage (from the repository root or from fuzz/):  python3 fuzz/seed.py
"""

import hashlib
import json
import os
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
TARGETS = ("resolve", "normalize", "validate", "batch_line")
BATCH_TARGETS = ("chat", "responses", "anthropic", "google", "google-json", "cca", "mcp")
MAX_SEED_BYTES = 64 * 1024


def testdata() -> Path:
    named = os.environ.get("LLMSHIM_TESTDATA")
    if named:
        path = Path(named)
        return path if path.is_absolute() else ROOT / path
    return ROOT.parent / "shared" / "testdata"


def compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Corpus:
    def __init__(self) -> None:
        self.counts = {t: 0 for t in TARGETS}
        for target in TARGETS:
            (FUZZ / "corpus" / target).mkdir(parents=True, exist_ok=True)

    def add(self, target: str, data: bytes) -> None:
        if len(data) > MAX_SEED_BYTES:
            return
        path = FUZZ / "corpus" / target / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
            self.counts[target] += 1

    def schema(self, schema) -> None:
        """A schema seeds resolve and normalize as it is, and the batch runner as a normalize line."""
        if not isinstance(schema, (dict, bool)):
            return
        data = compact(schema)
        self.add("resolve", data)
        self.add("normalize", data)
        target = BATCH_TARGETS[int(hashlib.sha1(data).hexdigest(), 16) % len(BATCH_TARGETS)]
        line = {"api": "normalize", "target": target, "strict": len(data) % 2 == 0, "input": schema}
        self.add("batch_line", compact(line) + b"\n")

    def case(self, schema, instance) -> None:
        """A schema and an instance seed validate."""
        self.add("validate", compact(schema) + b"\n" + compact(instance))


def read(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main() -> int:
    data = testdata()
    if not data.is_dir():
        print(f"seed: no test data at {data}; set LLMSHIM_TESTDATA", file=sys.stderr)
        return 1
    corpus = Corpus()

    suite = data / "json-schema-test-suite" / "tests"
    for file in sorted(suite.rglob("*.json")):
        for group in read(file) or []:
            schema = group.get("schema")
            corpus.schema(schema)
            for test in group.get("tests", []):
                corpus.case(schema, test.get("data"))

    for file in sorted((data / "mcp-tools").glob("*.json")):
        document = read(file) or {}
        for tool in document.get("tools", []) + document.get("variants", []):
            for key in ("inputSchema", "outputSchema"):
                corpus.schema(tool.get(key))
            corpus.add("batch_line", compact({"api": "mcp_tool", "input": tool}) + b"\n")

    schemastore = data / "schemastore"
    for file in sorted((schemastore / "schemas").glob("*.json")):
        schema = read(file)
        corpus.schema(schema)
        for instance_file in sorted((schemastore / "tests" / file.stem).glob("*.json")):
            instance = read(instance_file)
            if instance is not None and schema is not None:
                corpus.case(schema, instance)

    for file in sorted((data / "generated").glob("*.json")):
        for schema in ((read(file) or {}).get("schemas") or {}).values():
            corpus.schema(schema)

    for file in sorted((data / "sdk-fixtures").glob("*.json")):
        for case in (read(file) or {}).get("cases", []):
            for key in ("input", "input_pydantic_schema"):
                corpus.schema(case.get(key))

    # The project's own batch example, line by line.
    batch = ROOT / "examples" / "batch.jsonl"
    if batch.is_file():
        for line in batch.read_bytes().splitlines():
            if line.strip():
                corpus.add("batch_line", line + b"\n")

    for target, count in corpus.counts.items():
        print(f"seed: {count} new seeds in fuzz/corpus/{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
