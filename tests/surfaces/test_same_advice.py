"""Every surface renders the same Advice for the same conversation: CLI Markdown, `ask --json`,
web components, Slack blocks and the MCP `recommend` tool agree on engine, plan, fit, figures
and citations. Each surface is driven through its own entry point with the real components."""
from __future__ import annotations

import json

import pytest

from agent.api import Advisor, advise, simulated_reply
from agent.compose import fmt
from agent.names import display
from ui.cli import main

OPENING = "I have 4 RTX 3090s and want to serve Llama 3.3 70B to our team."
ANSWERS = {"interconnect": "PCIe only, no NVLink.", "workload": "Chat.", "quantization": "I don't know."}
"""Answers to exactly the fields this conversation asks: a one-shot `ask` also adds answers to fields never
asked to the request (agent.api.unasked_answers), which a chat user would have to volunteer."""
ZH_OPENING = "4 張 RTX 4090 沒有 NVLink，Llama 3.3 70B，內部 60 人，20 個併發，聊天。"


def converse(advisor: Advisor, thread: str, opening: str):
    """The chat surfaces' conversation: each question answered as the CLI's simulated user does."""
    out = advisor.turn(thread, opening)
    while out.question is not None:
        out = advisor.turn(thread, simulated_reply(out.question["fields"], ANSWERS))
    return out.advice


def layout_text(advice) -> str:
    """How every surface names the plan's layout, e.g. 'PP (PP=4)'."""
    lay = advice.plan.layout
    return f"{lay.strategy.upper()} ({lay.degrees()})"


def figures(advice) -> list[str]:
    """The estimate's figures as every surface prints them."""
    est = advice.estimate
    return [fmt(est.weights_gb), fmt(est.decode_tokens_per_s), fmt(est.ttft_s)]


@pytest.fixture(scope="module")
def reference():
    return advise(OPENING, ANSWERS)


def test_the_reference_advice_is_a_complete_recommendation(reference):
    a = reference
    # the planner chose the layout (on 4 PCIe cards it weighs TP against the rules' PP and says which)
    assert a.decision.primary and a.plan and a.plan.basis == "planner" and a.estimate is not None
    assert a.plan.layout.strategy in ("pp", "tp", "tp+dp", "tp+pp") and a.plan.search.why["en"]
    assert a.questions and a.citations and a.benchmark is not None
    assert a.plan.estimate.parallelism == {k: getattr(a.plan.layout, k) for k in ("strategy", "tp", "pp", "ep", "dp")}


def test_cli_markdown_and_ask_json(capsys, tmp_path, reference):
    answers = tmp_path / "answers.yaml"
    answers.write_text("".join(f"{k}: {v}\n" for k, v in ANSWERS.items()), encoding="utf-8")
    assert main(["ask", OPENING, "--answers", str(answers), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == reference.contract_json()
    assert main(["ask", OPENING, "--answers", str(answers)]) == 0
    text = capsys.readouterr().out
    assert f"Recommendation: {display(reference.decision.primary)}" in text
    assert layout_text(reference) in text
    for figure in figures(reference):
        assert figure in text, figure
    for n, c in enumerate(reference.citations, 1):
        assert f"[{n}] {c.title}" in text and c.id in text


def test_web_components(reference):
    from ui import web
    from ui.present import web as present
    advisor = Advisor()
    advice = converse(advisor, "web-1", OPENING)
    assert advice.model_dump(exclude={"llm_calls"}) == reference.model_dump(exclude={"llm_calls"})
    view = present.view(advice)
    assert view.summary.engine == reference.decision.primary and view.summary.fits is reference.estimate.fits
    assert view.summary.plan == layout_text(reference)
    shown = " ".join(f.value for f in view.summary.figures)
    for figure in figures(reference):
        assert figure in shown, figure
    assert [c.id for c in view.citations] == [c.id for c in reference.citations]
    rows = {r.field: r for r in view.profile}
    assert rows["interconnect"].source == "you said: “PCIe only”" or rows["interconnect"].source.startswith("you said")
    assert rows["hardware"].value == "NVIDIA GeForce RTX 3090"
    assert view.options[0].engine == reference.decision.primary and view.options[0].role == "primary"
    assert [o.engine for o in view.options[1:]] == [a.engine for a in reference.plan.alternatives]
    message = web.chat_message(advice, None)                 # the chat: summary first, the answer folded
    assert message.startswith(f"**Recommended: {display(reference.decision.primary)}**")
    from ui.present.markdown import answer as shown_answer   # the answer as every page shows it (markup inert)
    assert layout_text(reference) in message and shown_answer(reference).strip() in message
    bench, spec_yaml, commands = web._spec(advice, "web-1", "en")
    assert "concurrency:" in spec_yaml and "vllm bench serve" in spec_yaml and "vllm bench serve" in commands
    profile_table = web._panels(advice, None, "web-1", "en")[0]
    assert "| Hardware | **NVIDIA GeForce RTX 3090** |" in profile_table


def test_slack_blocks_post_the_recommendation_once(slack_api, web_client, tmp_path, reference):
    from ui.slack_bot import SeenMessages, SlackAdvisor
    bot = SlackAdvisor(Advisor(), SeenMessages(tmp_path / "seen.sqlite"))
    bot.handle(web_client, "T1", "C1", "1.000001", None, f"<@UBOT> {OPENING}")
    for i in range(4):
        if any("blocks" in p for p in slack_api.posts("1.000001")):
            break
        question = slack_api.posts("1.000001")[-1]["text"]
        fields = bot.advisor.pending("slack-T1-C1-1.000001")["fields"]
        assert question
        bot.handle(web_client, "T1", "C1", f"1.00001{i}", "1.000001", simulated_reply(fields, ANSWERS))
    answers = [p for p in slack_api.posts("1.000001") if "blocks" in p]
    assert len(answers) == 1, "the recommendation is posted once"
    sections = " ".join(b["text"]["text"] for b in answers[0]["blocks"] if b["type"] == "section")
    context = " ".join(b["elements"][0]["text"] for b in answers[0]["blocks"] if b["type"] == "context")
    name = display(reference.decision.primary)
    assert sections.count(f"Recommendation: {name}") == 1 and layout_text(reference) in sections
    for figure in figures(reference):
        assert figure in sections, figure
    assert "Sources" not in sections   # the numbered list is the context block, shown once
    for n, c in enumerate(reference.citations, 1):
        assert f"[{n}] {c.title}" in context
    assert slack_api.uploads and b"vllm bench serve" in slack_api.uploads[0]


def test_mcp_recommend_and_estimate_share_the_plan(reference):
    from ui.mcp_tools import make_tools
    tools = make_tools(None)
    answers = "".join(f"{k}: {v}\n" for k, v in ANSWERS.items())
    text = tools["recommend"](OPENING, answers)
    rec = json.loads(text)
    assert len(text) < 16_000, len(text)   # compact: no spec, no chunk texts, no Markdown answer
    assert rec["primary"] == reference.decision.primary and rec["plan"] == reference.plan.contract()
    assert rec["estimate"]["fits"] is reference.estimate.fits
    assert rec["estimate"]["decode_tokens_per_s"] == reference.estimate.decode_tokens_per_s
    assert [c["id"] for c in rec["citations"]] == [c.id for c in reference.citations]
    assert all("text" not in c for c in rec["citations"]) and "benchmark_spec" not in rec and "answer" not in rec
    detailed = json.loads(tools["recommend"](OPENING, answers, True))
    assert detailed["benchmark_spec"]["exports"] and all(c["text"] for c in detailed["citations"])
    assert detailed["answer"] == reference.answer
    s = reference.profile.summary
    # the same load the answer was planned for (an assumed one included): same input, same plan
    ran_at = reference.plan.layout.reason.split("), ", 1)[1].split(" ")[0]   # "Chosen: TP=4 (vllm), int4 — ..."
    est = json.loads(tools["estimate"](s.model, s.hardware, s.count, ran_at, 0, 0,
                                       reference.estimate.concurrency, s.context_length or 0, s.interconnect))
    assert est["plan"]["layout"] == rec["plan"]["layout"] and est["parallelism"] == rec["estimate"]["parallelism"]


@pytest.mark.parametrize("text", [
    "4x RTX 4090 PCIe only, Llama 3.3 70B, team of 60, 20 concurrent",       # the reported case
    "Llama 3.1 70B in BF16 on one H100 SXM for 30 users",                     # does not fit
    "Mac Studio M3 Ultra 512GB, Llama 3.3 70B, just me, chat",
    "2x H100 NVLink, Qwen3 32B, RAG with 32K context, 40 concurrent requests",
    "8 張 RTX 4090 沒有 NVLink，Llama 3.3 70B，內部 100 人，30 個併發",
])
def test_benchspec_text_says_what_ask_says(capsys, text):
    """The reported disagreement: `benchspec TEXT` judged the fit on its own (native BF16, TP);
    through the agent it uses the same profile, plan and fit as `ask`."""
    assert main(["ask", text, "--json"]) == 0
    ask = json.loads(capsys.readouterr().out)
    assert main(["benchspec", text, "--format", "json"]) == 0
    spec = json.loads(capsys.readouterr().out)
    peak = spec["prediction"]["peak"]
    if ask["estimate"]["fits"] and (ask["estimate"]["context_length"] <= spec["workload"]["input"]["max"]
                                    + spec["workload"]["output"]["max"]):
        assert peak["fits"] is True   # the run's requests are no longer than the stated context
    if not ask["estimate"]["fits"] and ask["estimate"]["infeasible"]["constraint"].startswith("memory capacity"):
        assert peak["fits"] is False  # weights that do not fit do not fit in any run
    assert peak["weights_gb"] == ask["estimate"]["weights_gb"]
    layout = {k: ask["plan"]["layout"][k] for k in ("strategy", "tp", "pp", "ep", "dp")}
    assert ask["estimate"]["parallelism"] == layout
    if layout["strategy"] != "none":
        assert peak["parallelism"] == layout
    assert spec["workload"]["concurrency"] == ask["benchmark"]["concurrency"]


def test_zh_surfaces_speak_the_conversation_language():
    from ui.present import slack, web
    advice = advise(ZH_OPENING, {})
    assert advice.language == "zh"
    view = web.view(advice)
    assert view.summary.headline.startswith("建議") and {r.label for r in view.profile} >= {"硬體", "模型"}
    assert slack.fallback_text(advice).startswith("建議引擎")


def test_a_concept_question_is_not_shown_as_a_failed_recommendation():
    from ui.present import data, web
    advice = advise("What is PagedAttention and why does it matter for many users?")
    assert advice.intent == "explain" and advice.plan is None and advice.citations
    view = web.view(advice)
    assert view.summary.headline == "From the knowledge base" and view.options == []
    assert data.essentials(advice)["estimate"] is None


def test_plots_vary_the_answers_own_plan(reference):
    """The plots' curves pass through the answer's own figures (same engine, layout and profile)."""
    from agent import sweep
    from ui import plots
    est = reference.estimate
    again = sweep.estimate_at(reference)
    assert again.model_dump() == est.model_dump()
    frame = plots.decode_frame(reference)
    at_user = frame[(frame["concurrency"] == est.concurrency) & (frame["series"] == "per stream")]
    assert list(at_user["tokens/s"]) == [est.decode_tokens_per_s]
    assert plots.memory_frame(reference)["GB per device"].iloc[0] == round(est.memory.weights_gb, 2)
