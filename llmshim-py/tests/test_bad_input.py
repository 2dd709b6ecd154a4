"""Bad input raises the documented exception or returns the fallback; nothing crashes the interpreter."""

import math
import sys

import pytest

import llmshim

FALLBACK = {"type": "object", "properties": {}}


@pytest.mark.parametrize("schema", [[1, 2], "a string", 7, None])
def test_a_schema_that_is_not_a_dict_falls_back(schema):
    out, report = llmshim.normalize(schema, "chat")
    assert out == FALLBACK
    assert report.used_fallback


def test_a_non_json_object_is_an_input_error_with_its_pointer():
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.normalize({"properties": {"a": {"default": {1, 2}}}}, "chat")
    assert raised.value.pointer == "/properties/a/default"
    assert "set is not JSON" in raised.value.message
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.normalize({"properties": {"a/b": {"enum": [1, object()]}}}, "chat")
    assert raised.value.pointer == "/properties/a~1b/enum/1"
    with pytest.raises(llmshim.InputError, match="key"):
        llmshim.normalize({"properties": {1: {}}}, "chat")
    with pytest.raises(llmshim.InputError, match="not a JSON number"):
        llmshim.normalize({"default": math.nan}, "chat")
    with pytest.raises(llmshim.InputError, match="too large"):
        llmshim.normalize({"default": 10**400}, "chat")
    with pytest.raises(llmshim.InputError, match="unicode"):
        llmshim.normalize({"description": "\ud800"}, "chat")
    with pytest.raises(llmshim.InputError):
        llmshim.normalize_tools({"tools": [object()]}, "chat")
    with pytest.raises(llmshim.InputError):
        llmshim.validate({}, {"x": object()})


def test_integers_beyond_64_bits_become_floats_as_serde_json_reads_them():
    out, _ = llmshim.normalize({"type": "integer", "default": 2**70}, "mcp")
    assert out["default"] == float(2**70)


def test_a_container_that_contains_itself_is_an_input_error():
    schema = {"type": "object", "properties": {}}
    schema["properties"]["self"] = schema
    with pytest.raises(llmshim.InputError, match="contains itself") as raised:
        llmshim.normalize(schema, "google")
    assert raised.value.pointer == "/properties/self"
    items = []
    items.append(items)
    with pytest.raises(llmshim.InputError, match="contains itself"):
        llmshim.normalize({"enum": items}, "chat")


def test_a_shared_value_is_converted_twice_and_a_doubling_bomb_is_refused():
    shared = {"type": "string"}
    out, _ = llmshim.normalize({"type": "object", "properties": {"a": shared, "b": shared}}, "chat")
    assert out["properties"]["a"] == out["properties"]["b"] == shared
    bomb = []
    for _ in range(40):
        bomb = [bomb, bomb]
    with pytest.raises(llmshim.InputError, match="more than"):
        llmshim.normalize({"default": bomb}, "chat")


def deep(levels):
    value = {"type": "string"}
    for _ in range(levels):
        value = {"type": "array", "items": value}
    return value


def deep_list(levels):
    value = []
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("target", llmshim.TARGETS)
def test_a_hundred_thousand_levels_fall_back_with_budget_depth(target):
    schema = deep(100_000)
    out, report = llmshim.normalize(schema, target)
    assert out == FALLBACK
    assert report.fallback_reason.kind == "budget_depth"
    out, report = llmshim.prepare_output(schema, target)
    assert report.fallback_reason.kind == "budget_depth"
    request = {"tools": [{"type": "function", "function": {"name": "f", "parameters": schema}}]}
    out, report = llmshim.normalize_tools(request, target)
    assert report.summary.fallback_reason.kind == "budget_depth"
    assert report.tools[0].report.used_fallback
    results = llmshim.check(schema, [target])
    assert results[target].fallback_reason.kind == "budget_depth"


def test_a_deep_value_outside_any_schema_passes_through():
    messages = deep_list(100_000)
    request = {
        "messages": messages,
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
    }
    out, report = llmshim.normalize_tools(request, "anthropic")
    assert not report.summary.used_fallback
    assert out["messages"] is not messages
    # Walk both chains without recursion: the same depth, an empty list at the bottom.
    a, b, levels = out["messages"], messages, 0
    while b:
        assert len(a) == len(b) == 1
        a, b, levels = a[0], b[0], levels + 1
    assert a == [] and levels == 100_000


def test_validate_judges_a_deep_instance_and_refuses_a_deep_schema():
    verdict = llmshim.validate({"items": {"$ref": "#"}}, deep_list(100_000))
    assert not verdict.valid
    with pytest.raises(llmshim.SchemaError):
        llmshim.validate(deep(100_000), 1)


def test_a_huge_string_falls_back_with_budget_literal():
    schema = {"type": "object", "properties": {"a": {"type": "string", "default": "x" * 20_000_000}}}
    out, report = llmshim.normalize(schema, "google")
    assert out == FALLBACK
    assert report.fallback_reason.kind == "budget_literal"
    out, report = llmshim.normalize({"type": "string", "description": "é" * 1_000_000}, "mcp")
    assert out["description"] == "é" * 1_000_000


def test_the_interpreter_is_still_healthy():
    # Every test above ran in this process; a crash would have ended the session before this one.
    assert sys.getrecursionlimit() > 0
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    out, _ = llmshim.normalize(schema, "chat")
    assert out == schema
