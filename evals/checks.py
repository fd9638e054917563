"""Deterministic evaluators: each expectation of a golden case → a failure text or nothing."""
from __future__ import annotations

import re
from typing import Any

from evals.cases_schema import Expect

LEAD_CHARS = 700          # the opening summary a busy engineer reads first
MAX_FOREIGN_WORDS = 6     # this many Latin words in a row in a zh answer read as an English sentence
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_URL = re.compile(r"\(?https?://\S+\)?|\[\d+\]")
_SOURCES = re.compile(r"^\W*(sources|references|來源|資料來源|參考資料)\W*$", re.I | re.M)
_CJK = re.compile(r"[\u3400-\u9fff]")
_BREAK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e\n|•·]+")
_ALPHA_WORD = re.compile(r"^[A-Za-z][A-Za-z'’-]*$")


def _any_in(groups: list[list[str]], text: str) -> list[str]:
    """The groups none of whose alternatives occur in `text` (case-insensitive)."""
    low = text.lower()
    return [" | ".join(g) for g in groups if not any(alt.lower() in low for alt in g)]


def check(expect: Expect, result: dict[str, Any] | None, questions: list[dict]) -> list[str]:
    """Every expectation that does not hold, as one line naming what came back."""
    if result is None:
        return ["no result: the conversation ended without an answer"]
    fails: list[str] = []
    primary = result.get("primary")
    considered = {primary, *result.get("alternatives", [])} - {None}
    avoided = {a.get("engine") for a in result.get("avoid", [])}
    if expect.recommend_any is not None and primary not in expect.recommend_any:
        fails.append(f"recommend_any {expect.recommend_any}: primary was {primary}")
    for eng in expect.consider_all or []:
        if eng not in considered:
            fails.append(f"consider_all: {eng} not in primary+alternatives {sorted(considered)}")
    for eng in expect.not_recommend or []:
        if eng in considered:
            fails.append(f"not_recommend: {eng} was recommended ({sorted(considered)})")
    if expect.avoid_any is not None and not avoided & set(expect.avoid_any):
        fails.append(f"avoid_any {expect.avoid_any}: avoid was {sorted(avoided)}")
    if expect.bottleneck_any is not None and result.get("bottleneck") not in expect.bottleneck_any:
        fails.append(f"bottleneck_any {expect.bottleneck_any}: got {result.get('bottleneck')}")
    if expect.parallelism_any is not None:
        strategy = (result.get("parallelism") or {}).get("strategy")
        if strategy not in expect.parallelism_any:
            fails.append(f"parallelism_any {expect.parallelism_any}: got {strategy}")
    if expect.fits is not None:
        fits = (result.get("estimate") or {}).get("fits")
        if fits is not expect.fits:
            fails.append(f"fits {expect.fits}: got {fits}")
    for missing in _any_in(expect.mentions or [], result.get("answer") or ""):
        fails.append(f"mentions: none of [{missing}] in the answer")
    cited = "\n".join(c.get("text", "") for c in result.get("citations", []))
    for missing in _any_in(expect.cites or [], cited):
        fails.append(f"cites: no cited chunk contains any of [{missing}]")
    fails += _check_answer(expect, result)
    fails += _check_benchmark(expect, result)
    fails += _check_questions(expect, questions)
    return fails


def prose(answer: str) -> str:
    """What the user reads as sentences: the answer without code, links, markers and source list."""
    m = _SOURCES.search(answer)
    body = answer[:m.start()] if m else answer
    return _URL.sub(" ", _CODE.sub(" ", body))


def foreign_runs(answer: str, lang: str) -> list[str]:
    """Stretches of the answer written in the other language (English sentences in a zh answer)."""
    text = prose(answer)
    if lang == "en":
        return [m.group(0) for m in re.finditer(r"[\u3400-\u9fff]{4,}", text)]
    runs = []
    for piece in _BREAK.split(text):
        words, run = piece.replace(",", " ").replace(".", " ").split(), []
        for w in words + ["0"]:       # a sentinel ends the last run
            if _ALPHA_WORD.match(w.strip("()*:;!?\"'")):
                run.append(w)
                continue
            if len(run) >= MAX_FOREIGN_WORDS:
                runs.append(" ".join(run))
            if not any(ch.isdigit() for ch in w):   # ids like H100 or 70B stay inside a run
                run = []
    return runs


def _check_answer(expect: Expect, result: dict[str, Any]) -> list[str]:
    answer = result.get("answer") or ""
    fails = [f"lead_mentions: none of [{m}] in the first {LEAD_CHARS} characters"
             for m in _any_in(expect.lead_mentions or [], answer[:LEAD_CHARS])]
    low = answer.lower()
    fails += [f"not_mentions: '{p}' occurs in the answer" for p in expect.not_mentions or [] if p.lower() in low]
    avoided = {a.get("engine") for a in result.get("avoid", [])}
    fails += [f"avoid_none: {e} was in avoid" for e in expect.avoid_none or [] if e in avoided]
    fails += _check_layout(expect, result) + _check_ttft(expect, result) + _check_stream_tps(expect, result)
    if expect.answer_lang:
        runs = foreign_runs(answer, expect.answer_lang)
        if runs:
            fails.append(f"answer_lang {expect.answer_lang}: {len(runs)} passage(s) in another language, "
                         f"e.g. '{runs[0][:80]}'")
    return fails


_TTFT = re.compile(r"TTFT[^0-9\n]{0,12}?([0-9][0-9,]*(?:\.[0-9]+)?)\s*(ms|s)\b", re.I)


def _check_layout(expect: Expect, result: dict[str, Any]) -> list[str]:
    if expect.layout_any is None:
        return []
    lay = dict(((result.get("plan") or {}).get("chosen") or {}).get("layout") or {})
    if not lay:
        return ["layout_any: no planned layout in the result"]
    lay.setdefault("attention_dp", False)
    if any(all(lay.get(k, 1) == v for k, v in want.items()) for want in expect.layout_any):
        return []
    return [f"layout_any {expect.layout_any}: got {lay}"]


def _check_ttft(expect: Expect, result: dict[str, Any]) -> list[str]:
    if expect.ttft_max_s is None:
        return []
    limit = expect.ttft_max_s
    est = (result.get("estimate") or {}).get("ttft_s")
    fails = [f"ttft_max_s {limit:g}: the estimate's TTFT is {est} s"] if est is not None and est > limit else []
    for num, unit in _TTFT.findall(result.get("answer") or ""):
        secs = float(num.replace(",", "")) / (1000 if unit.lower() == "ms" else 1)
        if secs > limit:
            fails.append(f"ttft_max_s {limit:g}: the answer prints TTFT {num} {unit}")
            break
    return fails


_STREAM = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*tok/s per stream|每條串流(?:約)?\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*tok/s")


def _check_stream_tps(expect: Expect, result: dict[str, Any]) -> list[str]:
    if expect.stream_tps_range is None:
        return []
    lo, hi = expect.stream_tps_range
    est = (result.get("estimate") or {}).get("decode_tokens_per_s")
    fails = [f"stream_tps_range {lo:g}-{hi:g}: the estimate's decode is {est} tok/s"] \
        if est is not None and not lo <= est <= hi else []
    for a, b in _STREAM.findall(result.get("answer") or ""):
        val = float((a or b).replace(",", ""))
        if not lo <= val <= hi:
            fails.append(f"stream_tps_range {lo:g}-{hi:g}: the answer prints {val:g} tok/s per stream")
            break
    return fails


def _check_benchmark(expect: Expect, result: dict[str, Any]) -> list[str]:
    if expect.benchmark is None:
        return []
    bench = result.get("benchmark")
    if not bench:
        return ["benchmark: no benchmark spec in the result"]
    fails = []
    levels = (bench.get("workload") or {}).get("concurrency") or bench.get("concurrency") or []
    want = expect.benchmark.concurrency_includes
    if want is not None and want not in levels:
        fails.append(f"benchmark.concurrency_includes {want}: levels were {levels}")
    metrics = set(bench.get("metrics") or [])
    metrics |= {m.get("id") for m in bench.get("metrics") or [] if isinstance(m, dict)}
    for m in expect.benchmark.metrics_include:
        if m not in metrics:
            fails.append(f"benchmark.metrics_include: {m} missing")
    return fails


def _check_questions(expect: Expect, questions: list[dict]) -> list[str]:
    fails = []
    n = len(questions)
    if expect.min_questions is not None and n < expect.min_questions:
        fails.append(f"min_questions {expect.min_questions}: asked {n}")
    if expect.max_questions is not None and n > expect.max_questions:
        fails.append(f"max_questions {expect.max_questions}: asked {n}")
    asked = {f for q in questions for f in q.get("fields", [])}
    for f in expect.not_asked or []:
        if f in asked:
            fails.append(f"not_asked: '{f}' was asked")
    if expect.asks_any is not None and not asked & set(expect.asks_any):
        fails.append(f"asks_any {expect.asks_any}: asked {sorted(asked)}")
    return fails
