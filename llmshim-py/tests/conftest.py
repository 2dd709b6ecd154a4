"""Shared fixtures of the llmshim Python suite: the three environment flags are unset for every test."""

import pytest

FLAGS = ("LLMSHIM_NO_SCHEMA_NORMALIZATION", "LLMSHIM_NO_STRICT", "LLMSHIM_NO_SCHEMA_CACHE")


@pytest.fixture(autouse=True)
def _clean_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    for flag in FLAGS:
        monkeypatch.delenv(flag, raising=False)
