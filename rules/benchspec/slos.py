"""Default latency targets by use case (p99 TTFT and TPOT), with the reasoning behind each.

These are the advisor's planning defaults, stated as such: replace them with your product's own
SLOs. They are judged at the user's peak concurrency in the main run.
"""
from __future__ import annotations

from rules.benchspec.spec import Slo

# use case → (TTFT p99 ms, TPOT p99 ms, basis)
_TARGETS: dict[str, tuple[float, float, str]] = {
    "chat": (1000, 100, "Interactive chat: the first words should appear within about a second, "
             "and 100 ms per token (10 tokens/s) stays ahead of a fast reader."),
    "rag": (2000, 100, "RAG: long retrieved prompts make prefill heavier, so the first token may "
            "take up to 2 s; the answer is read as it streams, like chat."),
    "summarization": (5000, 100, "Summaries of long documents: users expect a few seconds before "
                      "output starts; the summary is then read as it streams."),
    "agent": (3000, 50, "Agents: every step re-reads a long context (TTFT up to 3 s) and nobody "
              "reads the tokens, so generation speed adds up over many steps (20 tokens/s or more)."),
    "coding": (2000, 50, "Coding assistants: long file context (TTFT up to 2 s) and code is "
               "scanned faster than prose, so 20 tokens/s or more."),
    "batch": (30000, 200, "Batch jobs: nobody waits on a single request; these loose bounds only "
              "catch pathological queueing. Throughput and cost decide."),
}


def slos_for(kind: str, peak: int, priority: str | None, notes: list[str]) -> list[Slo]:
    """The SLO for this use case; a latency priority halves the targets."""
    ttft, tpot, basis = _TARGETS.get(kind, _TARGETS["chat"])
    basis = f"Advisor default for {kind}, not a measurement: {basis}"
    if priority == "latency":
        ttft, tpot = ttft / 2, tpot / 2
        basis += " Halved because latency is your stated priority."
    notes.append(f"SLOs are the advisor's defaults for {kind} (TTFT p99 <= {ttft:g} ms, TPOT p99 "
                 f"<= {tpot:g} ms): replace them with your own targets.")
    return [Slo(use_case=kind, ttft_p99_ms=ttft, tpot_p99_ms=tpot, at_concurrency=peak, basis=basis)]
