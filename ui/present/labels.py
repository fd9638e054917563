"""Words the presenter adds around the Advice (en / zh-Hant); names of things come from agent.names."""
from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "recommended": "Recommended", "no_primary": "No engine fits every constraint of this profile",
        "plan": "Plan", "fits": "fits", "no_fit": "does not fit", "unknown_fit": "not estimated",
        "weights": "Weights", "decode": "Decode per stream", "aggregate": "Throughput (all streams)",
        "ttft": "TTFT", "tpot": "TPOT", "max_conc": "Max concurrency at this context",
        "bottleneck": "Bottleneck", "avoid": "Avoid", "alternatives": "Also consider",
        "said": "you said", "assumed": "assumed", "implied": "from the catalog", "given": "given",
        "engine": "Engine", "field": "Field", "value": "Value", "from": "From", "tokens_s": "Tokens/s",
        "single_device": "single device", "sources": "Sources", "spec_title": "Benchmark spec",
        "recommended_engine": "Recommended engine",
    },
    "zh": {
        "recommended": "建議", "no_primary": "沒有引擎能滿足這個情境的所有限制",
        "plan": "配置", "fits": "放得下", "no_fit": "放不下", "unknown_fit": "未估算",
        "weights": "權重", "decode": "單一串流解碼", "aggregate": "總吞吐量（所有串流）",
        "ttft": "首字延遲 TTFT", "tpot": "每 token 時間 TPOT", "max_conc": "此 context 下最大併發",
        "bottleneck": "瓶頸", "avoid": "避免", "alternatives": "也可考慮",
        "said": "您提到", "assumed": "假設值", "implied": "來自型錄", "given": "已提供",
        "engine": "引擎", "field": "欄位", "value": "值", "from": "來源", "tokens_s": "Tokens/s",
        "single_device": "單一裝置", "sources": "來源", "spec_title": "測試計畫",
        "recommended_engine": "建議引擎",
    },
}


def labels(lang: str | None) -> dict[str, str]:
    """The label table of a language (English unless 'zh')."""
    return LABELS["zh" if lang == "zh" else "en"]
