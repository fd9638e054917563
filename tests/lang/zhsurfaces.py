"""Every text a zh-Hant user reads for one question, by surface: the CLI Markdown, `ask --json`'s
human-readable fields, the benchmark plan, the web view (chat, profile, alternatives, plot notes),
Slack blocks, the follow-up question, and CLI error lines. The real agent, no fakes."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

QUESTIONS = Path(__file__).with_name("zh_questions.yaml")


def questions(split: str | None = None) -> list[dict[str, Any]]:
    """The question set (one split, or all)."""
    items = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    return [q for q in items if split is None or q["split"] == split]


def json_texts(data: dict[str, Any]) -> dict[str, str]:
    """The human-readable fields of an `ask --json` object (ids, numbers and citations are not)."""
    out = {"json.answer": data.get("answer") or ""}
    out |= {f"json.questions[{i}]": q.get("question", "") for i, q in enumerate(data.get("questions") or [])}
    out |= {f"json.assumptions[{i}]": a for i, a in enumerate(data.get("assumptions") or [])}
    out |= {f"json.warnings[{i}]": w for i, w in enumerate(data.get("warnings") or [])}
    out |= {f"json.avoid[{a['engine']}]": a.get("reason") or "" for a in data.get("avoid") or []}
    par = data.get("parallelism") or {}
    if par.get("reason"):
        out["json.parallelism.reason"] = par["reason"]
    return out


def web_texts(advice) -> dict[str, str]:
    """What the web app shows beside and in the chat for this answer."""
    from ui import plots
    from ui.present import web as present
    v = present.view(advice)
    out = {"web.chat": present.chat_markdown(advice),
           "web.profile": present.profile_markdown(present.live_rows(advice.profile, advice.language), "zh"),
           "web.options": present.options_markdown(v),
           "web.summary": " / ".join([v.summary.headline, v.summary.plan, v.summary.fit_text, v.summary.bottleneck,
                                      *(f"{f.label} {f.value}" for f in v.summary.figures)])}
    for name in ("memory", "decode", "ttft"):
        frame = getattr(plots, f"{name}_frame")(advice, "zh")
        out[f"web.plot.{name}"] = getattr(plots, f"{name}_note")(advice, frame, "zh")
    from ui.web_panels import bench_markdown
    out["web.bench"] = bench_markdown(advice, "t", "zh")
    return out


def slack_texts(advice) -> dict[str, str]:
    """Slack's blocks and fallback text, Slack sources context left out (titles of cited notes)."""
    from ui.present import slack
    blocks = [b for b in slack.blocks(advice) if b["type"] == "section"]
    return {"slack.blocks": "\n".join(b["text"]["text"] for b in blocks), "slack.fallback": slack.fallback_text(advice)}


def spec_texts(advice) -> dict[str, str]:
    """The benchmark plan as the user downloads it, in the conversation's language."""
    from ui.present import spec
    if advice.benchmark is None:
        return {}
    return {"plan.markdown": spec.advice_markdown(advice).split("\n## `")[0]}   # harness commands are code


def advice_texts(advice) -> dict[str, str]:
    """All surfaces of one Advice."""
    return {"cli.markdown": advice.answer, **json_texts(advice.contract_json()), **web_texts(advice),
            **slack_texts(advice), **spec_texts(advice)}


def texts_for(q: dict[str, Any], capsys=None) -> dict[str, str]:
    """Every zh-Hant text a user reads for question `q`."""
    from agent.api import Advisor, advise, simulated_reply
    kind, answers = q["kind"], q.get("answers") or {}
    if kind == "error":
        from ui.cli import main
        code = main(["ask", q["text"]])
        err = capsys.readouterr().err if capsys is not None else ""
        return {"cli.error": err, "cli.exit": "" if code == 2 else f"exit code {code} not 2"}
    if kind in ("ask", "benchmark"):
        return advice_texts(advise(q["text"], answers))
    advisor = Advisor()
    out = advisor.turn(q["id"], q["text"])
    if kind == "clarify":
        return {"question": (out.question or {}).get("question", ""),
                **({"answer": out.advice.answer} if out.question is None and out.advice else {})}
    while out.question is not None:
        out = advisor.turn(q["id"], simulated_reply(out.question["fields"], answers))
    out = advisor.turn(q["id"], q["then"])
    while out.question is not None:
        out = advisor.turn(q["id"], simulated_reply(out.question["fields"], answers))
    return advice_texts(out.advice)
