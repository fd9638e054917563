"""Typed, documented tools for other agents, exposed over the API and MCP via `gr.api`.

Plain functions (not the chat handler, whose gr.State input breaks over MCP). Bad input becomes
a `gr.Error` with the advisor's one-line message.
"""
from __future__ import annotations

import json
from typing import Any

import gradio as gr

from rules.errors import AdvisorError


def _guard(fn):
    """JSON text out (MCP hands agents `str(result)`, which must be JSON, not a Python repr)."""
    def wrapped(*args, **kwargs):
        try:
            return json.dumps(fn(*args, **kwargs), ensure_ascii=False, default=str)
        except AdvisorError as exc:
            raise gr.Error(str(exc)) from None
    wrapped.__name__, wrapped.__doc__ = fn.__name__, fn.__doc__
    wrapped.__annotations__ = {**fn.__annotations__, "return": str}
    wrapped.__wrapped__ = fn
    return wrapped


def _answers(text: str) -> dict[str, str]:
    from rules.errors import InputError
    from rules.inputs import load_yaml
    if not isinstance(text, str) or not text.strip():
        return {}
    data = load_yaml(text, "answers_yaml")   # no aliases (YAML bombs), size and depth capped
    if not isinstance(data, dict):
        raise InputError("answers_yaml must map field ids to answers, e.g. 'interconnect: PCIe only'")
    return {str(k): str(v) for k, v in data.items()}


def _estimate_profile(model: str, hardware: str, count: int, nodes: int, quant: str, input_tokens: int,
                      output_tokens: int, concurrency: int, context: int, interconnect: str,
                      model_config: str = "") -> dict[str, Any]:
    """The tool's arguments as a profile (names resolved by the catalogs; 0 / "" = not given)."""
    from rules import catalog
    from rules.inputs import MAX_FIELD_CHARS, clean_text, whole_number
    count, nodes, concurrency, input_tokens, output_tokens, context = (
        whole_number(v, name) for v, name in ((count, "count"), (nodes, "nodes"), (concurrency, "concurrency"),
                                              (input_tokens, "input_tokens"), (output_tokens, "output_tokens"),
                                              (context, "context")))
    model, hardware, quant, interconnect = (clean_text(v, name, MAX_FIELD_CHARS) for v, name in (
        (model, "model"), (hardware, "hardware"), (quant, "quant"), (interconnect, "interconnect")))
    model_config = clean_text(model_config, "model_config", 1_000_000)
    data: dict[str, Any] = {"hardware": catalog.hardware(hardware).id, "count": count, "nodes": nodes,
                            "concurrency": concurrency}
    if model_config.strip():  # a model the catalog does not know, from its config.json text
        from rules.model_config import load_model_config
        spec = load_model_config(model_config)
        data |= {"model_config": model_config, "params_b": spec.params_b, "active_params_b": spec.active_params_b}
    else:
        data["model"] = catalog.model(model).id
    for key, value in (("quantization", quant), ("interconnect", interconnect), ("input_tokens", input_tokens),
                       ("output_tokens", output_tokens), ("context_length", context)):
        if value:
            data[key] = value
    return data


def make_tools(advisor: Any) -> dict[str, Any]:
    """The tools bound to one advisor."""

    @_guard
    def recommend(question: str, answers_yaml: str = "", detail: bool = False) -> dict:
        """Recommend an LLM inference engine for a described situation.

        Args:
            question: the situation in English or Traditional Chinese, e.g. "8x RTX 4090 without NVLink, Llama 3.3 70B, 50 users".
            answers_yaml: optional YAML mapping of field id to answer for follow-up questions (hardware, interconnect, model, quantization, workload, context_length, concurrency, shared_prefix, serving_mode, priority). Unanswered questions fall back to documented defaults.
            detail: also return the Markdown answer written for people, the full benchmark spec (with harness commands), the estimate's formulas and the cited chunks' text (tens of KB). Default false: a compact answer (~14 KB).
        Returns:
            JSON text: intent, profile (with the user's words each value came from), primary engine, alternatives, engines to avoid with reasons, bottleneck, plan (parallel layout), estimate at that plan, options (each engine's fit, TTFT, TPOT, tokens/s at the plan), benchmark summary, questions, assumptions, warnings and citations (id, title, source); with `detail`, also `answer`, `benchmark_spec` and the citations' text.
        """
        from agent.api import advise
        from ui.present import data
        return data.essentials(advise(question, _answers(answers_yaml)), detail=bool(detail), answer=bool(detail))

    @_guard
    def estimate(model: str, hardware: str, count: int = 1, quant: str = "", input_tokens: int = 0,
                 output_tokens: int = 0, concurrency: int = 1, context: int = 0, interconnect: str = "",
                 nodes: int = 1, detail: bool = False, model_config: str = "") -> dict:
        """Roofline estimate at the layout the advisor recommends: does the model fit, decode and prefill speed, TTFT, max concurrency.

        Args:
            model: model id or name, e.g. "llama-3.1-70b" or "Llama 3.3 70B".
            hardware: accelerator id or name, e.g. "h100_sxm", "RTX 4090", "M3 Ultra".
            count: number of devices per node.
            quant: quantization id (bf16, fp8, int8, q4_k_m, awq, exl2-4.0, ...); empty = the model's native format.
            input_tokens: prompt length in tokens; 0 = the estimator's default (stated in assumptions).
            output_tokens: answer length in tokens; 0 = the estimator's default.
            concurrency: simultaneous requests.
            context: context length to provision KV cache for; 0 = input + output.
            interconnect: link between the devices (nvlink, pcie, infiniband, ethernet, ...); empty = unknown. It decides the parallel layout (e.g. pipeline parallel over PCIe).
            nodes: number of nodes.
            detail: include formulas and the per-step breakdown.
            model_config: optional Hugging Face config.json (its JSON text) for a model the catalog does not know; used instead of `model`.
        Returns:
            JSON text: fits, weights_gb, kv_bytes_per_token, max_concurrency, decode_tokens_per_s, decode_tokens_per_s_bound, prefill_tokens_per_s, ttft_s, tpot_ms, assumptions, binding_constraint, the setup (engine, parallelism, ...) and `plan`: the same layout `recommend` reports for this situation.
        """
        from agent.api import advise_profile
        from ui.present import data
        advice = advise_profile(_estimate_profile(model, hardware, count, nodes, quant, input_tokens, output_tokens,
                                                  concurrency, context, interconnect, model_config))
        out = data.estimate_essentials(advice, detail=bool(detail))
        if out is None:
            from rules.errors import InputError
            raise InputError("; ".join(advice.tool_notes) or "no estimate for this setup")
        return out | {"plan": advice.plan.contract() if advice.plan else None}

    @_guard
    def benchmark_spec(question: str, answers_yaml: str = "") -> dict:
        """Benchmark plan for a described workload, with commands for vllm bench serve, sglang.bench_serving, guidellm and aiperf (the full spec `recommend` summarises).

        Args:
            question: the workload in words, e.g. "RAG on 2x H100, Qwen3 32B, 30 concurrent users".
            answers_yaml: optional YAML mapping of field id to answer for follow-up questions, as in `recommend`.
        Returns:
            JSON text: the spec: scenario, workload (with the concurrency levels swept), metrics, SLOs, criteria, checklist and harness exports.
        """
        from agent.api import advise
        advice = advise(question, _answers(answers_yaml))
        return advice.benchmark.with_exports().model_dump(mode="json") if advice.benchmark else {}

    @_guard
    def size_hardware(question: str) -> dict:
        """What hardware to buy: ranked options (device x count, plan, predicted TTFT/TPOT, cost when prices are known) for a model, a load and latency targets.

        Args:
            question: the model, the load and optional targets in English or Traditional Chinese, e.g. "Llama 3.3 70B, 200 users, TTFT p95 < 2 s".
        Returns:
            JSON text: request (model, concurrency, ttft_ms, tpot_ms), options best first (hardware, count, nodes, plan with layout and figures, meets_targets, misses, cost_per_hour), any_meets, ranked_by, notes and assumptions (the same object as `advisor size --json`).
        """
        from agent.sizing import size_text
        return size_text(question)

    @_guard
    def search_knowledge(query: str, k: int = 5) -> list[dict]:
        """Search the advisor's knowledge base (engine fact sheets and inference notes, English and Traditional Chinese).

        Args:
            query: what to look for, e.g. "pipeline parallel without NVLink".
            k: how many chunks to return (1-20).
        Returns:
            JSON text: chunks best first, each with id, title, source, text and score.
        """
        from knowledge.retrieve import search
        from rules.errors import InputError
        from rules.inputs import whole_number
        k = whole_number(k, "k")
        if not 1 <= k <= 20:
            raise InputError("k must be between 1 and 20")
        return [h.model_dump() if hasattr(h, "model_dump") else dict(h.__dict__) for h in search(query, k=int(k))]

    return {"recommend": recommend, "estimate": estimate, "benchmark_spec": benchmark_spec,
            "size_hardware": size_hardware, "search_knowledge": search_knowledge}


def register(advisor: Any) -> None:
    """Expose the tools inside the current Blocks context."""
    for name, fn in make_tools(advisor).items():
        gr.api(fn, api_name=name)
