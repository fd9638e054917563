"""Typed, documented tools for other agents, exposed over the API and MCP via `gr.api`.

Plain functions (not the chat handler, whose gr.State input breaks over MCP). Bad input becomes
a `gr.Error` with the advisor's one-line message.
"""
from __future__ import annotations

from typing import Any

import json

import gradio as gr
import yaml

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
    if not text.strip():
        return {}
    from rules.errors import InputError
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InputError(f"answers_yaml is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise InputError("answers_yaml must map field ids to answers, e.g. 'interconnect: PCIe only'")
    return {str(k): str(v) for k, v in data.items()}


def make_tools(advisor: Any) -> dict[str, Any]:
    """The tools bound to one advisor."""

    @_guard
    def recommend(question: str, answers_yaml: str = "") -> dict:
        """Recommend an LLM inference engine for a described situation.

        Args:
            question: the situation in English or Traditional Chinese, e.g. "8x RTX 4090 without NVLink, Llama 3.3 70B, 50 users".
            answers_yaml: optional YAML mapping of field id to answer for follow-up questions (hardware, interconnect, model, quantization, workload, context_length, concurrency, shared_prefix, serving_mode, priority). Unanswered questions fall back to documented defaults.
        Returns:
            JSON text: the advisor's full result: primary engine, alternatives, engines to avoid with reasons, bottleneck, parallelism plan, estimate, benchmark spec, assumptions, citations and the answer text.
        """
        from agent.api import ask
        return ask(question, _answers(answers_yaml))

    @_guard
    def estimate(model: str, hardware: str, count: int = 1, quant: str = "", input_tokens: int = 0,
                 output_tokens: int = 0, concurrency: int = 1, context: int = 0, nodes: int = 1,
                 engine: str = "", parallelism: str = "") -> dict:
        """Roofline estimate: does the model fit, decode and prefill speed, TTFT, max concurrency, and the deployment plan.

        Args:
            model: model id or name, e.g. "llama-3.1-70b" or "Llama 3.3 70B".
            hardware: accelerator id or name, e.g. "h100_sxm", "RTX 4090", "M3 Ultra".
            count: number of devices per node.
            quant: quantization id (bf16, fp8, int8, q4_k_m, awq, exl2-4.0, ...); empty = the model's native format.
            input_tokens: prompt length in tokens; 0 = the estimator's default (stated in assumptions).
            output_tokens: answer length in tokens; 0 = the estimator's default.
            concurrency: simultaneous requests.
            context: context length to provision KV cache for; 0 = input + output.
            nodes: machines the devices are spread over.
            engine: engine id (vllm, sglang, tensorrt-llm, llama.cpp, ...); empty = none in particular.
            parallelism: none, tp, pp, tp+pp, ep, dp or tp+dp; empty = the layout the planner chooses (the one `recommend` uses).
        Returns:
            JSON text: fits, weights_gb, kv_bytes_per_token, max_concurrency, decode_tokens_per_s, decode_tokens_per_s_bound, prefill_tokens_per_s, ttft_s, tpot_ms, assumptions, binding_constraint (the same object as `advisor estimate --json`), and `plan` (chosen layout, runner-up, launch flags) when the planner chose the layout.
        """
        from rules.roofline import estimate as roofline
        setup = dict(count=count, nodes=nodes, quant=quant or None, engine=engine or None,
                     input_tokens=input_tokens or None, output_tokens=output_tokens or None,
                     concurrency=concurrency, context_length=context or None)
        if not parallelism and count * nodes > 1:
            from rules.plan import plan_for_setup
            plan, est = plan_for_setup(model, hardware, **setup)
            return est.model_dump(mode="json") | {"plan": plan.model_dump(mode="json")}
        return roofline(model, hardware, parallelism=parallelism or None, **setup).model_dump(mode="json")

    @_guard
    def benchmark_spec(question: str) -> dict:
        """Benchmark plan for a described workload, with commands for vllm bench serve, sglang.bench_serving, guidellm and aiperf.

        Args:
            question: the workload in words, e.g. "RAG on 2x H100, Qwen3 32B, 30 concurrent users".
        Returns:
            JSON text: the spec: scenario, workload (with the concurrency levels swept), metrics, SLOs, checklist and harness exports.
        """
        from agent.api import ask
        result = ask(question, {})
        return result.get("benchmark") or {}

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
        if not 1 <= int(k) <= 20:
            raise InputError("k must be between 1 and 20")
        return [h.model_dump() if hasattr(h, "model_dump") else dict(h.__dict__) for h in search(query, k=int(k))]

    return {"recommend": recommend, "estimate": estimate, "benchmark_spec": benchmark_spec,
            "size_hardware": size_hardware, "search_knowledge": search_knowledge}


def register(advisor: Any) -> None:
    """Expose the tools inside the current Blocks context."""
    for name, fn in make_tools(advisor).items():
        gr.api(fn, api_name=name)
