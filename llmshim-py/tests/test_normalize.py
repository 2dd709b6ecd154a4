"""normalize, check and the report types: the seed's example, every target, every report field, fallbacks and
strict demotion."""

import copy
import dataclasses
import json

import pytest

import llmshim
from llmshim import Change, FallbackReason, Report

FALLBACK = {"type": "object", "properties": {}}


def test_the_seed_example_on_google():
    schema = {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}
    original = copy.deepcopy(schema)
    out, report = llmshim.normalize(schema, "google")
    assert not report.used_fallback
    assert out["properties"]["name"]["nullable"] is True
    assert out == {"type": "object", "properties": {"name": {"type": "string", "nullable": True}}}
    assert schema == original, "the argument is never modified"


EXPECTED_NULLABLE = {
    "chat": {"type": ["string", "null"]},
    "responses": {"type": ["string", "null"]},
    "anthropic": {"type": ["string", "null"]},
    "google": {"type": "string", "nullable": True},
    "google-json": {"type": ["string", "null"]},
    "cca": {"type": "string"},
    "mcp": {"type": ["string", "null"]},
}


@pytest.mark.parametrize("target", llmshim.TARGETS)
def test_every_target_applies_its_nullable_policy(target):
    schema = {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}
    out, report = llmshim.normalize(schema, target)
    assert out["properties"]["name"] == EXPECTED_NULLABLE[target]
    assert report.changed == (target in ("google", "cca"))
    assert not report.used_fallback and report.fallback_reason is None


@pytest.mark.parametrize("target", llmshim.TARGETS)
def test_every_target_falls_back_on_an_unresolved_reference(target):
    # Required, so no optional part around it can be removed instead (see the narrowing test below).
    out, report = llmshim.normalize({"type": "object", "properties": {"a": {"$ref": "#/missing"}}, "required": ["a"]}, target)
    assert out == FALLBACK
    assert report.used_fallback and report.changed
    assert report.fallback_reason == FallbackReason(
        "unresolved_ref", "/properties/a", report.fallback_reason.message
    )
    assert report.fallback_reason.message
    assert report.changes == ()


def test_report_fields_and_types():
    schema = {
        "type": "object",
        "properties": {"email": {"type": "string", "format": "email"}, "n": {"type": "integer", "minimum": 1}},
        "$defs": {"unused": {"type": "string"}},
    }
    out, report = llmshim.normalize(schema, "google", diagnostics=True)
    assert isinstance(report, Report)
    assert [f.name for f in dataclasses.fields(Report)] == [
        "outcome",
        "changed",
        "used_fallback",
        "strict",
        "bypassed",
        "narrowed",
        "fallback_reason",
        "changes",
    ]
    assert (report.changed, report.used_fallback, report.strict, report.bypassed) == (True, False, False, False)
    assert not report.narrowed
    assert report.outcome == "rewritten"
    assert report.fallback_reason is None and not report.demoted
    assert all(isinstance(c, Change) for c in report.changes)
    assert Change("/properties/email/format", "google.format-lift", "lifted") in report.changes
    assert Change("/$defs", "resolve.drop-definitions", "dropped") in report.changes
    assert out["properties"]["email"] == {"type": "string", "description": "(format: email)"}
    # Without diagnostics no change is listed.
    _, quiet = llmshim.normalize(schema, "google")
    assert quiet.changes == () and quiet.changed
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.changed = False


def test_strict_closes_objects_narrows_a_node_accepting_anything_and_demotes_an_untyped_union():
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "units": {"type": "string", "enum": ["c", "f"], "default": "c"}},
        "required": ["city"],
    }
    out, report = llmshim.normalize(schema, "chat", strict=True)
    assert report.strict and not report.demoted
    assert out["additionalProperties"] is False
    assert out["required"] == ["city", "units"]
    assert out["properties"]["units"] == {
        "anyOf": [{"type": "string", "enum": ["c", "f"]}, {"type": "null"}],
        "description": '(default: "c")',
    }

    anything = {"type": "object", "properties": {"payload": {}}, "required": ["payload"]}
    out, report = llmshim.normalize(anything, "chat", strict=True)
    assert report.strict and report.narrowed and not report.demoted
    assert out["properties"]["payload"] == {"type": "string", "description": "(type: any)"}

    untyped = {"type": "object", "properties": {"ip": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}, "required": ["ip"]}
    out, report = llmshim.normalize(untyped, "chat", strict=True)
    assert not report.strict and not report.used_fallback
    assert report.demoted
    assert report.fallback_reason.kind == "strict_unsupported"
    assert report.fallback_reason.pointer.startswith("/properties/ip")


def test_options_are_applied_and_checked():
    schema = {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}
    out, _ = llmshim.normalize(schema, "chat", nullable="MARKER")
    assert out["properties"]["a"] == {"type": "string", "nullable": True}
    out, report = llmshim.normalize(schema, "google", bypass=True)
    assert out == schema and report.bypassed and not report.changed
    out, report = llmshim.normalize(schema, "chat", max_nodes=1)
    assert out == FALLBACK and report.fallback_reason.kind == "budget_nodes"
    with pytest.raises(TypeError, match="unknown option"):
        llmshim.normalize(schema, "chat", colour=True)
    with pytest.raises(llmshim.OptionError, match="must be a bool"):
        llmshim.normalize(schema, "chat", bypass="yes")
    with pytest.raises(llmshim.OptionError, match="non-negative int"):
        llmshim.normalize(schema, "chat", max_depth=-1)
    with pytest.raises(llmshim.OptionError, match="unknown target"):
        llmshim.normalize(schema, "gemini")
    assert set(llmshim.OPTION_NAMES) >= {"nullable", "diagnostics", "max_depth", "recursion"}


def test_the_recursion_option_chooses_the_mode():
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}
    out, report = llmshim.normalize(tree, "chat")
    assert out == tree and not report.used_fallback
    out, report = llmshim.normalize(tree, "chat", recursion="fallback")
    assert out == FALLBACK and report.fallback_reason.kind == "ref_cycle"
    out, report = llmshim.normalize(tree, "mcp", recursion="unroll:2")
    assert not report.used_fallback and "$ref" not in json.dumps(out)
    with pytest.raises(llmshim.OptionError, match="recursion"):
        llmshim.normalize(tree, "chat", recursion="unroll:0")
    with pytest.raises(llmshim.OptionError, match="recursion"):
        llmshim.normalize(tree, "chat", recursion=3)


def test_the_keyword_profile_decides_what_is_kept():
    schema = {"type": "object", "properties": {"code": {"type": "string", "maxLength": 8}}}
    out, report = llmshim.normalize(schema, "google")
    assert out["properties"]["code"] == {"type": "string", "maxLength": 8} and not report.changed
    out, same = llmshim.normalize(schema, "google", keywords="Current")
    assert out["properties"]["code"] == {"type": "string", "maxLength": 8} and not same.changed
    out, report = llmshim.normalize(schema, "google", keywords="conservative", diagnostics=True)
    code = out["properties"]["code"]
    assert "maxLength" not in code and "8" in code["description"]
    assert [(c.pointer, c.rule, c.kind) for c in report.changes] == [
        ("/properties/code/maxLength", "target.keyword", "lifted")
    ]
    with pytest.raises(llmshim.OptionError, match="current.*conservative"):
        llmshim.normalize(schema, "google", keywords="narrow")
    with pytest.raises(llmshim.OptionError, match="current.*conservative"):
        llmshim.normalize(schema, "google", keywords=True)
    assert "keywords" in llmshim.OPTION_NAMES


def test_the_environment_flags_apply(monkeypatch):
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    monkeypatch.setenv("LLMSHIM_NO_STRICT", "1")
    out, report = llmshim.normalize(schema, "chat", strict=True)
    assert not report.strict and "additionalProperties" not in out
    monkeypatch.setenv("LLMSHIM_NO_SCHEMA_NORMALIZATION", "1")
    _, report = llmshim.normalize(schema, "google")
    assert report.bypassed


def test_check_reports_every_target_in_order():
    results = llmshim.check({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})
    assert list(results) == list(llmshim.TARGETS)
    assert results["google"].changed and not results["chat"].changed
    bad = llmshim.check({"$ref": "#/nope"}, ["chat", "cca"], diagnostics=True)
    assert list(bad) == ["chat", "cca"]
    assert all(r.used_fallback and r.fallback_reason.kind == "unresolved_ref" for r in bad.values())
    with pytest.raises(llmshim.OptionError):
        llmshim.check({}, ["gemini"])


def test_key_order_numbers_and_unicode_survive():
    schema = {
        "type": "object",
        "properties": {"z": {"type": "integer", "maximum": 18446744073709551615}, "é": {"type": "number", "minimum": -0.5}},
        "required": ["z"],
    }
    out, report = llmshim.normalize(schema, "chat")
    assert not report.changed
    assert out == schema
    assert list(out["properties"]) == ["z", "é"]
    assert out["properties"]["z"]["maximum"] == 18446744073709551615
    assert isinstance(out["properties"]["é"]["minimum"], float)


def test_the_outcome_reads_the_flags_together():
    plain = {"type": "object", "properties": {"a": {"type": "string"}}}
    cases = [
        (llmshim.normalize(plain, "chat"), "unchanged"),
        (llmshim.normalize({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}, "google"), "rewritten"),
        (
            llmshim.normalize(
                {"type": "object", "properties": {"p": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}, "required": ["p"]},
                "chat",
                strict=True,
            ),
            "demoted",
        ),
        (llmshim.normalize({"$ref": "#/missing"}, "chat"), "fallback"),
        (llmshim.normalize(plain, "chat", bypass=True), "bypassed"),
    ]
    assert [outcome for _, outcome in cases] == list(llmshim.OUTCOMES)
    for (_, report), outcome in cases:
        assert report.outcome == outcome
        assert report.demoted == (outcome == "demoted")
        assert report.used_fallback == (outcome == "fallback")
        assert report.bypassed == (outcome == "bypassed")
    # Every report the package returns carries it: tools (per tool and summary), output, check, degrade.
    _, tools = llmshim.normalize_tools({"tools": [{"name": "t", "inputSchema": {"$ref": "#/x"}}]}, "anthropic")
    assert tools.summary.outcome == "fallback" and tools.tools[0].report.outcome == "fallback"
    _, output = llmshim.prepare_output({"type": "string"}, "chat")
    assert output.outcome == "rewritten"
    assert {r.outcome for r in llmshim.check(plain).values()} <= set(llmshim.OUTCOMES)


def test_an_optional_part_the_target_cannot_take_is_narrowed_not_a_fallback():
    # Google cannot take an external reference: the optional property holding it is removed and named, the rest kept.
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"$ref": "https://example.com/x.json"}},
        "required": ["a"],
    }
    out, report = llmshim.normalize(schema, "google")
    assert report.narrowed and not report.used_fallback and report.outcome == "rewritten"
    assert out == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "description": "(omitted b: external_ref)",
    }
    # The same property required: nothing optional is left around it, so the schema falls back.
    out, report = llmshim.normalize({**schema, "required": ["a", "b"]}, "google")
    assert report.used_fallback and not report.narrowed
    # A tools summary is narrowed when a tool is.
    request = {"tools": [{"type": "function", "function": {"name": "t", "parameters": schema}}]}
    _, tools = llmshim.normalize_tools(request, "google")
    assert tools.summary.narrowed and tools.tools[0].report.narrowed
