"""A Traditional Chinese conversation gets the rules' own zh-Hant texts, not English."""
from __future__ import annotations

from agent.localize import localized
from agent.tools import as_dict
from rules.decide import decide
from rules.profile import build_profile


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_rule_texts_are_swapped_for_their_zh_versions():
    profile = build_profile({"hardware": "rtx4090", "count": 8, "interconnect": "pcie", "model": "llama-3.1-70b",
                             "serving_mode": "team", "concurrency": 30, "language": "zh"})
    en = as_dict(decide(profile))
    zh = localized(en, "zh")
    assert localized(en, "en") is en and en["trace"][0]["rationale"] == as_dict(decide(profile))["trace"][0]["rationale"]
    assert all(_cjk(t["rationale"]) for t in zh["trace"])
    assert zh["parallelism"]["reason"] != en["parallelism"]["reason"] and _cjk(zh["parallelism"]["reason"])
    assert len(zh["warnings"]) == len(en["warnings"]) and any(_cjk(w) for w in zh["warnings"])
    assert zh["avoid"] and all(_cjk(a["reason"]) for a in zh["avoid"])


def _zh_avoid(values):
    en = as_dict(decide(build_profile({**values, "language": "zh"})))
    return {a["engine"]: a for a in en["avoid"]}, {a["engine"]: a for a in localized(en, "zh")["avoid"]}


def test_quantization_kernel_exclusions_are_in_zh():
    en, zh = _zh_avoid({"hardware": "rtx4090", "count": 4, "model": "llama-3.1-70b", "quantization": "awq",
                        "serving_mode": "team", "concurrency": 20})
    by_kernel = [e for e, a in en.items() if a.get("rule") == "quant-kernel-check"]
    assert by_kernel
    for engine in by_kernel:
        reason = zh[engine]["reason"]
        assert _cjk(reason) and "awq" in reason and "nvidia-cuda" in reason and "re-quantized" not in reason


def test_hardware_support_reasons_are_in_zh_and_keep_the_source():
    from rules import catalog, engines
    en, zh = _zh_avoid({"hardware": "rtx4090", "count": 1, "model": "llama-3.1-8b", "serving_mode": "personal"})
    unsupported = [e for e, a in en.items() if a.get("rule") == "constraint-hardware-support"]
    assert unsupported
    for engine in unsupported:
        ok, english, source = engines.supports(engine, catalog.hardware("rtx4090"))
        reason = zh[engine]["reason"]
        assert not ok and _cjk(reason) and source in reason and english not in reason
        assert engines.engine(engine).name in reason


def test_compute_capability_refusal_is_in_zh(monkeypatch):
    from agent import localize
    from rules import catalog, engines
    engine = next(e for e in engines.all_engines() if engines.engine(e).min_cuda_cc)
    spec = engines.engine(engine)
    old = catalog.hardware("a100_80g_sxm").model_copy(update={"cuda_cc": spec.min_cuda_cc.value - 0.5})
    monkeypatch.setattr(catalog, "hardware", lambda _id: old)
    reason = localize._support_zh(engine, {"hardware": "a100_80g_sxm"})
    assert reason and _cjk(reason) and str(spec.min_cuda_cc.value) in reason and spec.min_cuda_cc.source in reason
