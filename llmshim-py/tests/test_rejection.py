"""locate and degrade on real provider rejection bodies, and the gateway loop: locate, degrade, send again."""

import copy
import json
from pathlib import Path

import pytest

import llmshim
from llmshim import DegradeReport, Rejection

REAL = Path(__file__).resolve().parents[2] / "llmshim" / "tests" / "rejections" / "real"
CASES = sorted(REAL.glob("*.json"))


def load(name):
    return json.loads((REAL / name).read_text(encoding="utf-8"))


def schema_at(request, target, rejection):
    """The schema a rejection names, read from the wire request (what the test compares before and after)."""
    wire = request["request"] if target == "cca" and "request" in request else request
    if rejection.site == "output_schema":
        return None
    tool = wire["tools"][rejection.tool]
    if rejection.declaration is not None:
        return tool["functionDeclarations"][rejection.declaration]
    return tool


def test_the_collected_bodies_are_there():
    # The Rust suite's collection: 46 bodies, 45 naming a tool or output schema and one naming none.
    assert len(CASES) == 46
    assert sum(load(c.name)["expect"] is None for c in CASES) == 1


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_every_real_body_locates_to_its_hand_read_answer(case):
    data = load(case.name)
    found = llmshim.locate(data["request"], data["body"], data["target"])
    expect = data["expect"]
    if expect is None:
        assert found is None
        return
    assert isinstance(found, Rejection)
    assert (found.site, found.tool, found.declaration, found.pointer, found.keyword) == (
        expect["site"],
        expect["tool"],
        expect["declaration"],
        expect["pointer"],
        expect["keyword"],
    )
    assert found.message, "the provider's sentence is kept"
    # The same body as bytes reads the same.
    assert llmshim.locate(data["request"], data["body"].encode(), data["target"]) == found


@pytest.mark.parametrize("case", [c for c in CASES if load(c.name)["expect"] is not None], ids=lambda p: p.stem)
def test_every_real_body_degrades_its_own_tool_only(case):
    data = load(case.name)
    request, target = data["request"], data["target"]
    before = copy.deepcopy(request)
    rejection = llmshim.locate(request, data["body"], target)
    out, result = llmshim.degrade(request, rejection, target, diagnostics=True)
    assert request == before, "the argument is unchanged"
    assert isinstance(result, DegradeReport) and result.step in llmshim.STEPS
    assert (result.site, result.tool, result.declaration) == (rejection.site, rejection.tool, rejection.declaration)
    assert result.report.changes and all(c.rule.startswith("rejection.") for c in result.report.changes)
    wire_in = before["request"] if target == "cca" else before
    wire_out = out["request"] if target == "cca" else out
    if rejection.site == "tool":
        assert schema_at(out, target, rejection) != schema_at(before, target, rejection)
        for i, tool in enumerate(wire_in["tools"]):
            if i != rejection.tool:
                assert wire_out["tools"][i] == tool, f"tool {i} is untouched"
            elif rejection.declaration is not None:
                for j, declaration in enumerate(tool["functionDeclarations"]):
                    if j != rejection.declaration:
                        assert wire_out["tools"][i]["functionDeclarations"][j] == declaration
    else:
        assert wire_out.get("tools") == wire_in.get("tools")


def test_a_keyword_step_lifts_the_keyword_into_the_description():
    data = load("openai-shunt-558-lookaround-email.json")
    rejection = llmshim.locate(data["request"], data["body"], "responses")
    assert rejection == Rejection(
        "tool", 2, None, "/properties/email", "pattern", rejection.message
    )
    pattern = data["request"]["tools"][2]["parameters"]["properties"]["email"]["pattern"]
    out, result = llmshim.degrade(data["request"], rejection, "responses")
    assert result.step == "keyword" and result.reason is None
    email = out["tools"][2]["parameters"]["properties"]["email"]
    assert "pattern" not in email
    assert f"(pattern: {pattern})" in email["description"]


def send_factory(data, rejected):
    """A stand-in for the provider: answers 400 with the collected body while `rejected(request)` holds."""
    calls = []

    def send(request):
        calls.append(copy.deepcopy(request))
        if rejected(request):
            return 400, data["body"]
        return 200, "answer"

    return send, calls


def gateway(request, target, send, limit=10):
    """The loop a gateway runs: send; on a 400, locate the tool, degrade it one step and send again."""
    steps = []
    for _ in range(limit):
        status, body = send(request)
        if status != 400:
            return status, request, steps
        rejection = llmshim.locate(request, body, target)
        if rejection is None:
            return status, request, steps
        request, result = llmshim.degrade(request, rejection, target)
        if result.step is None:
            return status, request, steps
        steps.append(result.step)
    raise AssertionError("the loop did not end")


def has_lookaround(value):
    """Whether some `pattern` keyword in `value` holds a lookahead (the provider's regex engine has none)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            pattern = node.get("pattern")
            if isinstance(pattern, str) and ("(?=" in pattern or "(?!" in pattern):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def test_the_gateway_loop_recovers_a_responses_request():
    # The provider refuses a lookaround pattern in tool 2 (invite_user); one keyword step fixes it.
    data = load("openai-shunt-558-lookaround-email.json")
    send, calls = send_factory(data, lambda r: has_lookaround(r["tools"][2]))
    status, request, steps = gateway(data["request"], "responses", send)
    assert (status, steps, len(calls)) == (200, ["keyword"], 2)
    assert [t for i, t in enumerate(request["tools"]) if i != 2] == [
        t for i, t in enumerate(data["request"]["tools"]) if i != 2
    ]


def test_the_gateway_loop_recovers_a_gemini_request():
    # Gemini refuses `const` in declaration 3 (get_hosts); the keyword step removes every `const` of that schema.
    data = load("gemini-n8n-zabbix-const.json")
    target = "google"
    send, calls = send_factory(data, lambda r: '"const"' in json.dumps(r["tools"][0]["functionDeclarations"][3]))
    status, request, steps = gateway(data["request"], target, send)
    assert (status, steps, len(calls)) == (200, ["keyword"], 2)
    before = data["request"]["tools"][0]["functionDeclarations"]
    after = request["tools"][0]["functionDeclarations"]
    assert [d for j, d in enumerate(after) if j != 3] == [d for j, d in enumerate(before) if j != 3]


def test_a_provider_that_keeps_refusing_ends_at_the_fallback():
    # A provider that refuses the strict chat tool whatever it becomes: the steps run lightest first, end at the
    # fallback, and the loop stops when degrade has nothing left to do.
    data = load("openai-chat-camel-search-documents-additional-properties.json")
    send, calls = send_factory(data, lambda r: True)
    status, request, steps = gateway(data["request"], "chat", send)
    assert status == 400
    assert steps == ["strict", "node", "fallback"]
    tool = request["tools"][6]["function"]
    assert tool["parameters"] == {"type": "object", "properties": {}} and tool["strict"] is False
    assert request["tools"][:6] == data["request"]["tools"][:6]
    assert len(calls) == len(steps) + 1


def test_a_rejection_can_be_built_by_hand_or_from_its_dict():
    request = {
        "tools": [
            {"type": "function", "function": {"name": "search", "parameters": {
                "type": "object", "properties": {"q": {"type": "string", "maxLength": 80}}}}},
        ]
    }
    by_hand = Rejection("tool", 0, keyword="maxLength")
    out, result = llmshim.degrade(request, by_hand, "chat")
    assert result.step == "keyword"
    assert out["tools"][0]["function"]["parameters"]["properties"]["q"]["description"] == "(maxLength: 80)"
    again, same = llmshim.degrade(request, by_hand.to_dict(), "chat")
    assert again == out and same == result


def test_nothing_to_degrade_says_why():
    request = {"tools": [{"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}}]}
    out, result = llmshim.degrade(request, Rejection("tool", 5), "chat")
    assert out == request
    assert result.step is None and not result
    assert result.reason == "the request has no such tool"
    assert llmshim.locate(request, "not a provider body", "chat") is None
    assert llmshim.locate(request, b"\xff\xfe garbage", "chat") is None


def test_bad_arguments_raise_the_documented_exceptions():
    request = {"tools": []}
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.degrade(request, {"site": "tool", "tool": -1}, "chat")
    assert raised.value.pointer == "/tool"
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.degrade(request, {"site": "tool"}, "chat")
    assert raised.value.pointer == "/tool"
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.degrade(request, {"site": "tools", "tool": 0}, "chat")
    assert raised.value.pointer == "/site"
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.degrade(request, Rejection("tool", 0, keyword=7), "chat")  # type: ignore[arg-type]
    assert raised.value.pointer == "/keyword"
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.degrade(request, ["tool", 0], "chat")  # type: ignore[arg-type]
    assert raised.value.pointer == ""
    with pytest.raises(llmshim.InputError) as raised:
        llmshim.locate({"tools": [{"name": {1, 2}}]}, "body", "chat")
    assert raised.value.pointer == "/tools/0/name"
    with pytest.raises(llmshim.InputError):
        llmshim.locate(request, 400, "chat")  # type: ignore[arg-type]
    with pytest.raises(llmshim.OptionError):
        llmshim.locate(request, "body", "gpt")
    with pytest.raises(llmshim.OptionError):
        llmshim.degrade(request, Rejection("tool", 0), "gpt")
    with pytest.raises(TypeError):
        llmshim.degrade(request, Rejection("tool", 0), "chat", colour=True)


def test_hostile_bodies_end_in_none():
    data = load("openai-chat-camel-search-documents-additional-properties.json")
    request = data["request"]
    assert llmshim.locate(request, "[" * 1_000_000, "chat") is None
    assert llmshim.locate(request, "x" * (5 << 20), "chat") is None
    assert llmshim.locate(request, "tools[99999999999999999999999].function.parameters", "chat") is None
    # A lone surrogate cannot be UTF-8: it is read as a replacement character, and the index still names tool 6.
    found = llmshim.locate(request, "\ud800 'param': 'tools[6].function.parameters'", "chat")
    assert found is None or found.tool == 6


def test_the_readme_quick_start_runs():
    # The README's Python block, with a provider that rejects tool 0 once (a body Anthropic returns) and then answers.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    answers = [
        (400, "API Error: 400 tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12."),
        (200, "answer"),
    ]
    sent = []

    def send(request):
        sent.append(request)
        return answers[len(sent) - 1]

    scope = {"send": send}
    exec(compile(block, "README.md", "exec"), scope)
    assert scope["status"] == 200 and len(sent) == 2
    assert scope["result"].step == "fallback" and scope["result"].tool == 0
    assert scope["request"]["tools"][0]["input_schema"] == {"type": "object", "properties": {}}
