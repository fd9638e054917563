"""The MCP tools, called through a real MCP client over HTTP."""
from __future__ import annotations

import asyncio
import json


async def _call(url: str, calls: list[tuple[str, dict]]):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            results = [await session.call_tool(name, args) for name, args in calls]
            return tools, results


def _payload(result) -> object:
    text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def test_mcp_tools_listed_documented_and_callable(web_url):
    url = web_url + "gradio_api/mcp/"
    tools, results = asyncio.run(_call(url, [
        ("recommend", {"question": "8x H100 SXM with NVLink, Llama 3.1 70B FP8, external production, 200 concurrent"}),
        ("estimate", {"model": "llama-3.1-70b", "hardware": "h100_sxm", "count": 1, "quant": "bf16"}),
        ("benchmark_spec", {"question": "RAG on one H100, Qwen3 32B, 30 concurrent users"}),
        ("search_knowledge", {"query": "pipeline parallelism without NVLink", "k": 3}),
        ("size_hardware", {"question": "Llama 3.1 8B, 50 concurrent requests, TTFT under 1 s"}),
        ("estimate", {"model": "llama-3.1-70b", "hardware": "h100_sxm", "count": 8, "quant": "fp8", "concurrency": 64}),
    ]))
    for name in ("recommend", "estimate", "benchmark_spec", "search_knowledge", "size_hardware"):
        assert name in tools, sorted(tools)
        assert tools[name].description and len(tools[name].description) > 30
    rec, est, bench, hits, sizing, planned = (_payload(r) for r in results)
    assert rec["primary"] in {"vllm", "sglang", "tensorrt-llm"}
    assert est["fits"] is False and est["weights_gb"] > 130
    assert 30 in bench["workload"]["concurrency"]
    assert len(hits) == 3 and all("id" in h for h in hits)
    assert sizing["any_meets"] and sizing["options"][0]["meets_targets"]
    assert planned["plan"]["chosen"]["layout"] == {k: planned["parallelism"][k] for k in ("tp", "pp", "ep", "dp")}
    assert rec["plan"]["chosen"]["layout"] == {k: rec["plan"]["layout"][k] for k in ("tp", "pp", "ep", "dp")}
