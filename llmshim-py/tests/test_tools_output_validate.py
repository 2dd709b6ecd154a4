"""normalize_tools, prepare_output and validate."""

import pytest

import llmshim
from llmshim import ToolReport, ToolsReport

REQUEST = {
    "model": "m",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [
        {"type": "function", "function": {"name": "ok", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "broken", "parameters": {"$ref": "#/nowhere"}}},
        {"name": "mcp", "description": "raw MCP", "inputSchema": {"type": "object", "properties": {"b": {"type": "integer"}}}},
    ],
}


@pytest.mark.parametrize("target", llmshim.TARGETS)
def test_tools_for_every_target_keep_the_good_tools(target):
    out, report = llmshim.normalize_tools(REQUEST, target)
    assert isinstance(report, ToolsReport)
    assert report.summary.used_fallback
    assert report.summary.fallback_reason.kind == "unresolved_ref"
    assert [t.name for t in report.tools] == ["ok", "broken", "mcp"]
    assert all(isinstance(t, ToolReport) for t in report.tools)
    assert [t.report.used_fallback for t in report.tools] == [False, True, False]
    assert report.tools[1].pointer.startswith("/tools/1")
    # Code Assist sends the request inside its envelope's `request` member.
    wire = out["request"] if target == "cca" else out
    assert wire["messages"] == REQUEST["messages"]
    assert REQUEST["tools"][1]["function"]["parameters"] == {"$ref": "#/nowhere"}, "the argument is unchanged"


def test_tools_shapes_per_target():
    out, _ = llmshim.normalize_tools(REQUEST, "anthropic")
    assert [t["name"] for t in out["tools"]] == ["ok", "broken", "mcp"]
    assert out["tools"][1]["input_schema"] == {"type": "object", "properties": {}}
    out, _ = llmshim.normalize_tools(REQUEST, "google")
    declarations = out["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["ok", "broken", "mcp"]
    out, _ = llmshim.normalize_tools(REQUEST, "google-json")
    declarations = out["tools"][0]["functionDeclarations"]
    assert declarations[0]["parametersJsonSchema"] == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert "parametersJsonSchema" not in declarations[1], "a fallback is left out"
    out, report = llmshim.normalize_tools(REQUEST, "chat", strict=True)
    assert out["tools"][0]["function"]["strict"] is True
    assert report.tools[0].strict is True and report.summary.strict


@pytest.mark.parametrize("target", llmshim.TARGETS)
def test_output_wraps_non_objects(target):
    out, report = llmshim.prepare_output({"type": "array", "items": {"type": "string"}}, target)
    assert report.wrapped and not report.used_fallback
    assert out["properties"]["response"]["type"] == "array"
    assert report.unwrap({"response": ["a"]}) == ["a"]
    with pytest.raises(llmshim.InputError):
        report.unwrap(["a"])
    out, report = llmshim.prepare_output({"type": "object", "properties": {"a": {"type": "string"}}}, target, strict=True)
    assert not report.wrapped and report.unwrap({"a": "x"}) == {"a": "x"}


def test_validate_against_the_original_schema():
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}
    assert llmshim.validate(schema, {"n": 2}).valid
    verdict = llmshim.validate(schema, {"n": 0})
    assert not verdict and verdict.errors
    assert verdict.errors[0].startswith("/n:")
    with pytest.raises(llmshim.SchemaError) as raised:
        llmshim.validate({"type": "object", "properties": {"a": {"pattern": "("}}}, "x")
    assert raised.value.pointer == "/properties/a/pattern"
    assert isinstance(raised.value, ValueError)
