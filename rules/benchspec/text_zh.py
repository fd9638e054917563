"""The benchmark plan's words in Traditional Chinese (Taiwan usage): the message catalog of rules/benchspec.

The spec keeps its English texts (they are the `benchspec` JSON contract and what the LLM sees);
a zh-Hant reader gets the plan rendered by `render.spec_markdown(spec, "zh")`, which looks its words
up here: fixed texts by id (metrics, runs, checklist items, criteria, SLO use cases), and the
generated sentences (assumptions, weight-format notes, prediction bases) through `PATTERNS`, each an
English message with its numbers as named groups and its zh-Hant template. A message with no entry
stays in English, and tests/lang/test_zh_output.py fails on it: add the entry here.
"""
from __future__ import annotations

import re

TPOT = ("TPOT =（端到端延遲 − TTFT）÷（輸出 token 數 − 1），逐一請求計算；百分位數取自同一併發層級的所有請求。"
        "vLLM 與 SGLang 稱它為「TPOT」，AIPerf 與 GuideLLM 稱為「inter-token latency」；GuideLLM 自己的"
        "「time per output token」把第一個 token 也算進去，不採用。")

METRICS = {
    "ttft": "首字延遲（ms）：從送出請求到收到第一個串流 token，含排隊與 prefill。",
    "tpot": TPOT,
    "itl": "串流片段間隔（ms）：相鄰兩個串流片段的時間差，彙整所有請求（vLLM/SGLang 的「ITL」）。用來看卡頓與抖動；TPOT 目標不看它。",
    "e2e_latency": "端到端延遲（ms）：從送出請求到收到最後一個 token。",
    "p50": "同一層級所有請求的中位數，適用於 TTFT、TPOT 與端到端延遲。",
    "p95": "同一層級所有請求的第 95 百分位數，適用於 TTFT、TPOT 與端到端延遲。",
    "p99": "同一層級所有請求的第 99 百分位數，適用於 TTFT、TPOT 與端到端延遲；SLO 以它判定，絕不看平均值。",
    "output_tokens_per_s": "所有請求產生的 token 總數除以該層級的實際經過時間（總量，不是每位使用者）。",
    "requests_per_s": "完成的請求數除以該層級的實際經過時間。",
    "gpu_memory_headroom": "尖峰層級執行時沒用到的加速器記憶體（總量減尖峰用量），用裝置工具讀取"
                           "（nvidia-smi、rocm-smi、活動監視器）；用戶端壓測工具不會回報。",
    "kv_cache_hit_rate": "由 prefix cache 供應的提示 token 比例，從引擎自己的指標或日誌讀取，並與規劃目標比較；用戶端壓測工具的摘要不會回報。",
    "cost_per_1m_tokens": "裝置每小時價格 × 裝置數 ÷（每秒輸出 token 數 × 3600）× 1,000,000，以尖峰層級計。",
}

RUNS = {
    "main": "您真實的提示／回答組合，跑過每個併發層級直到尖峰的兩倍：延遲百分位數、吞吐量與飽和點。",
    "prefill": "單獨測 prefill：完整提示、只輸出一個 token、不重用前綴。這裡的 TTFT 就是提示處理加排隊時間。",
    "decode": "單獨測 decode：短提示、長回答。併發 1 的 TPOT 會拿來和頻寬上限比較。",
    "long-context": "在您說的 context 長度下用最壞情況的提示：看 TTFT 尾端與 KV cache 容量。",
    "structured": "在尖峰下單獨測結構化（JSON）輸出，與主要測試分開：受文法限制的解碼有自己的成本。",
    "lora": "在尖峰下把請求分散到 {adapters} 個 LoRA adapter，與主要測試分開：切換 adapter 有自己的成本。",
}
RUN_NOTES = {
    "long-context": "如果引擎在這裡拒絕請求或讓請求排隊，表示 KV cache 撐不住 context 全滿時的尖峰：記下它在哪裡停住。",
    "structured": "這裡不忽略 EOS（文法必須能結束），回答可能比要求的短：比較 TPOT，不要比端到端延遲。",
    "lora": "先在伺服器上載入 adapter；把指令中的 adapter 名稱換成伺服器註冊的名稱。",
}

RECORD = {
    "tensor / pipeline / expert parallel sizes": "tensor / pipeline / expert parallel 的大小",
    "maximum concurrent sequences (batch limit)": "同時處理的最大序列數（batch 上限）",
    "maximum batched tokens per step (chunked-prefill budget)": "每步最多批次處理的 token 數（chunked prefill 預算）",
    "prefix caching on or off": "prefix caching 開或關",
    "KV-cache dtype and the memory fraction reserved for it": "KV cache 的資料型別與保留給它的記憶體比例",
    "maximum model length (context) configured": "設定的最大模型長度（context）",
    "CUDA graphs / compilation mode": "CUDA graphs／編譯模式",
    "speculative decoding settings (or off)": "speculative decoding 設定（或關閉）",
    "layers offloaded to the GPU": "放到 GPU 上的層數",
    "parallel slots and context size per slot": "平行 slot 數與每個 slot 的 context 大小",
    "KV-cache quantization": "KV cache 量化",
    "batch / micro-batch sizes": "batch／micro-batch 大小",
}
ROLES = {"primary": "首選", "alternative": "備選", "requested": "指定"}
USE_CASES = {"chat": "聊天", "rag": "RAG", "summarization": "摘要", "agent": "agent", "coding": "寫程式",
             "batch": "批次作業"}
SLO_BASIS = {
    "chat": "互動聊天：第一個字應在一秒左右出現，每個 token 100 ms（每秒 10 個 token）就比讀得快的人還快。",
    "rag": "RAG：檢索來的長提示讓 prefill 變重，第一個 token 最多可等 2 秒；回答和聊天一樣邊串流邊讀。",
    "summarization": "長文件摘要：使用者預期開始輸出前要等幾秒；摘要接著邊串流邊讀。",
    "agent": "Agent：每一步都要重讀很長的 context（TTFT 最多 3 秒），而且沒有人逐字閱讀，生成速度會在多步驟中累加（每秒 20 個 token 以上）。",
    "coding": "程式碼助手：檔案 context 很長（TTFT 最多 2 秒），程式碼掃讀得比文章快，所以要每秒 20 個 token 以上。",
    "batch": "批次作業：沒有人在等單一請求；這些寬鬆的上限只抓異常的排隊。決定因素是吞吐量與成本。",
}

CHECKS = {
    "decode-vs-bound": "單一串流 decode 速度 ≥ 頻寬上限的一半",
    "decode-vs-prediction": "單一串流 decode 與預測值相差 20% 以內",
    "prefill-vs-prediction": "單一串流 TTFT 不超過預測值的 1.5 倍",
    "peak-tpot-vs-prediction": "尖峰的 TPOT 不超過預測值的 1.25 倍",
    "slo-ttft": "尖峰時 TTFT p99 ≤ {threshold} ms",
    "slo-tpot": "尖峰時 TPOT p99 ≤ {threshold} ms",
    "fits": "模型與 KV cache 放得進裝置",
    "kv-capacity": "尖峰時沒有 preemption 或排隊",
}
IF_FAILS = {
    "decode-vs-bound": "買硬體之前先查原因：這種量化的 kernel、CUDA graphs、引擎版本與參數讓大部分頻寬閒置。",
    "decode-vs-prediction": "比同類公開配置慢：對照 scenario 檢查引擎版本與參數，再重新確認估算的假設。",
    "prefill-vs-prediction": "Prefill 偏慢：檢查 attention backend、chunked prefill 預算，以及提示是否被截斷或重新 tokenize。",
    "peak-tpot-vs-prediction": "批次處理沒有攤平權重讀取：檢查 batch 上限、KV cache 大小（preemption）以及 scenario 記錄的排程設定。",
    "slo-ttft": "尖峰時 prefill 或排隊佔了大部分時間：chunked prefill、prefix caching、更多副本，或 prefill/decode 分離。",
    "slo-tpot": "尖峰時 decode 受頻寬或批次限制：減少每個 token 的位元組（量化）、增加頻寬（更多裝置、TP），或降低 batch 上限。",
    "fits": "測試前先改配置：量化、更多裝置或較短的 context。",
    "kv-capacity": "限制在 KV cache：KV cache 量化、更多記憶體，或較短的 context。",
}
METRIC_NAMES = {
    "decode tokens/s per stream (1000 / TPOT p50)": "單一串流 decode tokens/s（1000 ÷ TPOT p50）",
    "server starts and serves": "伺服器能啟動並提供服務", "failed or preempted requests": "失敗或被 preempt 的請求",
}
UNITS = {"yes/no": "是／否", "requests": "個請求"}

RULES = {
    "no-single-user-tps": "絕不用單人 tokens/s 選引擎。",
    "real-lengths": "用您真實的提示與回答長度。",
    "real-concurrency": "用您真實的併發數測。",
    "prefill-decode-apart": "prefill 與 decode 分開測。",
    "tails-not-means": "看 p95/p99，不看平均。",
    "prefix-reuse": "提示共用前綴時，檢查 KV cache 的重用。",
    "separate-features": "結構化輸出與多 LoRA 分開測。",
    "warmup-fixed-output": "先暖機，並固定輸出長度。",
    "retest-on-upgrade": "每次升級驅動、CUDA、模型或引擎後都重測。",
}

_N = r"[\d,.]+"
PATTERNS: list[tuple[str, str]] = [
    # assumptions and notes of the spec builder (rules/benchspec/*.py)
    (r"(?P<field>\w+) = (?P<value>\S+) was assumed: (?P<note>.+)", "{field} = {value}（假設值）：{note!note}"),
    (r"(?P<field>\w+) = (?P<value>\S+) was assumed\.", "{field} = {value}（假設值）。"),
    (r"Shared prefix not stated: none planned \(cold prefill, the worst case\)\. If prompts repeat a system prompt "
     r"or documents, say so\.", "未說明共用前綴：不規劃共用（冷 prefill，最壞情況）。如果提示會重複 system prompt 或文件，請告訴我。"),
    (r"Shared prefix: about (?P<share>\d+%) of each prompt planned as shared \(typical for (?P<kind>[\w-]+)\); set it "
     r"to the fraction your prompts really repeat\.",
     "共用前綴：規劃每個提示約 {share} 共用（{kind!use}常見的比例）；請改成您的提示實際重複的比例。"),
    (r"SLOs are the advisor's defaults for (?P<kind>[\w-]+) \(TTFT p99 <= (?P<ttft>[\d.]+) ms, TPOT p99 <= "
     r"(?P<tpot>[\d.]+) ms\): replace them with your own targets\.",
     "SLO 是顧問對{kind!use}的預設值（TTFT p99 ≤ {ttft} ms、TPOT p99 ≤ {tpot} ms）：請換成您自己的目標。"),
    (r"Workload shape not stated: planned as interactive chat\.", "未說明工作負載：以互動聊天規劃。"),
    (r"Peak concurrency not stated: (?P<peak>\d+) assumed for serving mode '(?P<mode>[\w-]+)'\. Replace it with your "
     r"measured peak\.", "未說明尖峰併發數：依服務模式「{mode}」假設為 {peak}。請換成您實測的尖峰值。"),
    (r"Peak concurrency not stated: 8 assumed\. Replace it with your measured peak\.",
     "未說明尖峰併發數：假設為 8。請換成您實測的尖峰值。"),
    (r"Typical prompt length not stated: (?P<n>\d+) tokens assumed for (?P<kind>[\w-]+)\.",
     "未說明一般提示長度：{kind!use}假設為 {n} tokens。"),
    (r"Typical answer length not stated: (?P<n>\d+) tokens assumed for (?P<kind>[\w-]+)\.",
     "未說明一般回答長度：{kind!use}假設為 {n} tokens。"),
    (r"The app does not stream, but every run streams so TTFT and TPOT can be measured; judge users' experience by "
     r"end-to-end latency\.", "應用程式不串流，但每個測試都開串流以便量 TTFT 與 TPOT；使用者體驗請看端到端延遲。"),
    (r"Model not stated: fill in the exact model before running\.", "未說明模型：執行前請填入確切的模型。"),
    (r"Quantization not stated: record the exact weight format you serve\.", "未說明量化：請記錄實際服務的權重格式。"),
    (r"Hardware not stated: fill in the accelerator SKU before running\.", "未說明硬體：執行前請填入加速器型號。"),
    (r"No engine shortlist: (?P<why>.+)", "沒有候選引擎：{why!why}"),
    (r"No engine shortlist: add the engines you are considering to the plan\.", "沒有候選引擎：請把您考慮的引擎加進計畫。"),
    (r"No deployment plan: (?P<why>.+)", "沒有部署規劃：{why!why}"),
    (r"No roofline prediction at concurrency (?P<c>\d+): (?P<why>.+)", "併發 {c} 沒有 roofline 預測：{why!why}"),
    (r"No catalog entry for (?P<kind>\w+) '(?P<id>[^']+)' \((?P<why>.*)\): its facts are left to fill in\.",
     "型錄中沒有 {kind}「{id}」（{why}）：相關資料留待填寫。"),
    (r"(?P<field>\w+): (?P<n>[\d,]+) tokens exceeds (?P<id>\S+)'s maximum context of (?P<m>[\d,]+)",
     "{field}：{n} tokens 超過 {id} 的最大 context（{m}）"),
    # prediction bases of the criteria (rules/benchspec/criteria.py)
    (rf"roofline bound (?P<b>{_N}) tokens/s: memory bandwidth / bytes read per token",
     "roofline 上限 {b} tokens/s：記憶體頻寬 ÷ 每個 token 讀取的位元組"),
    (rf"roofline bound (?P<b>{_N}) tokens/s: memory bandwidth / bytes read per token\. The prediction itself is "
     rf"(?P<e>{_N}) tokens/s \((?P<pct>\d+%) of the bound: (?P<why>.+)\), so missing this check is expected here; "
     r"judge the engine by decode-vs-prediction",
     "roofline 上限 {b} tokens/s：記憶體頻寬 ÷ 每個 token 讀取的位元組。預測值本身是 {e} tokens/s（上限的 {pct}"
     "{why!bc}），所以這裡沒過是預期中的事；請以 decode 對預測值的檢查判斷引擎"),
    (rf"calibrated prediction (?P<e>{_N}) tokens/s", "校準後的預測值 {e} tokens/s"),
    (rf"predicted TTFT (?P<t>{_N}) ms \(compute-bound prefill\)", "預測 TTFT {t} ms（受算力限制的 prefill）"),
    (rf"predicted TPOT (?P<t>{_N}) ms at (?P<c>\d+) concurrent requests", "{c} 個併發請求下預測 TPOT {t} ms"),
    (r"No roofline prediction \((?P<why>[^)]+)\); record the value and compare by hand\.",
     "沒有 roofline 預測（{why!why}）；請記錄數值並自行比較。"),
    (r"roofline: does not fit \((?P<why>.*)\)", "roofline：放不下{why!bc}"),
    (rf"roofline: about (?P<n>{_N}) sequences fit at the stated context, below the peak",
     "roofline：在您說的 context 下約可容納 {n} 個序列，低於尖峰"),
    (r"Advisor default for (?P<kind>[\w-]+), not a measurement: (?P<basis>.+?)(?P<halved> Halved because latency is "
     r"your stated priority\.)?(?P<forecast> The roofline predicts .+)?", "{kind!slo}"),
    # weight-format facts (rules/benchspec/scenario.py)
    (r"fill in: (?P<what>.+)", "待填：{what!fill}"),
    (r"fill in", "待填"),
    (r"none \(16-bit weights\)", "無（16 位元權重）"),
    (r"same as activations \(16-bit\)", "與 activation 相同（16 位元）"),
    (r"n/a", "不適用"), (r"n/a \(bit width varies per layer\)", "不適用（每層位元數不同）"),
    (r"none needed \(round-to-nearest format\)", "不需要（四捨五入式格式）"),
    (r"(?P<q>\w+) weights, 16-bit activations", "{q} 權重、16 位元 activation"),
    (r"(?P<f>EXL\d) at (?P<b>[\d.]+) bits per weight on average", "{f}，平均每個權重 {b} 位元"),
    (r"32-weight blocks \(GGUF\)", "每 32 個權重一個區塊（GGUF）"),
    (r"256-weight super-blocks \(GGUF k-quant\)", "每 256 個權重一個超級區塊（GGUF k-quant）"),
    (r"32-element blocks \(OCP MX\)", "每 32 個元素一個區塊（OCP MX）"),
    (r"16-element blocks \(NVFP4\)", "每 16 個元素一個區塊（NVFP4）"),
]
FILL = {
    "exact repository id and revision of the weights served": "實際服務權重的 repository id 與版本",
    "driver and CUDA/ROCm version": "驅動程式與 CUDA/ROCm 版本",
    "attention/kernel backend in use": "使用中的 attention／kernel backend",
    "per-tensor, per-channel or block scales": "per-tensor、per-channel 或區塊縮放",
    "static or dynamic activation scales": "靜態或動態 activation 縮放",
    "calibration data used for the conversion": "轉換時使用的校準資料",
    "quantization group size": "量化 group 大小",
    "calibration data set (or importance matrix) used": "使用的校準資料集（或 importance matrix）",
}
WHY = {"bound unavailable": "沒有頻寬上限", "expected decode unavailable": "沒有預期的 decode 速度",
       "TTFT unavailable": "沒有 TTFT", "TPOT at peak unavailable": "沒有尖峰的 TPOT"}
def use_case(kind: str) -> str:
    """A use case in zh-Hant words; a Latin name gets spaces around it inside Chinese text."""
    name = USE_CASES.get(kind, kind)
    return f" {name} " if name.isascii() else name


_COMPILED = [(re.compile(p, re.S), t) for p, t in PATTERNS]
_FIELD = re.compile(r"\{(\w+)(?:!(\w+))?\}")


def _slo(kind: str, m: re.Match) -> str:
    text = f"顧問對{use_case(kind)}的預設值，不是量測結果：{SLO_BASIS.get(kind, m.group('basis'))}"
    if m.group("halved"):
        text += "因為您以延遲為優先，目標減半。"
    forecast = m.group("forecast")
    if forecast:
        f = re.search(r"predicts a (?P<what>TTFT|TPOT) of (?P<ms>[\d,.]+) ms", forecast)
        text += (f"roofline 預測這裡的 {f.group('what')} 為 {f.group('ms')} ms（一般請求，不是 p99），已經超過目標："
                 "除非改變配置，否則預期達不到。") if f else forecast
    return text


def _fill(template: str, m: re.Match) -> str:
    def one(f: re.Match) -> str:
        value, how = m.group(f.group(1)) or "", f.group(2)
        if how == "note":
            return value
        if how == "use":
            return use_case(value)
        if how == "fill":
            return FILL.get(value, value)
        if how == "why":
            return WHY.get(value) or zh(value)
        if how == "bc":   # the estimator's binding constraint: the spec keeps only its English line, which the
            return ""     # zh-Hant answer already gives in zh-Hant (its estimate section), so it is left out here
        if how == "slo":
            return _slo(value, m)
        return value
    return _FIELD.sub(one, template)


def zh(text: str | None) -> str:
    """`text` (one message of the spec builder) in zh-Hant; unchanged when the catalog has no entry."""
    if not text:
        return text or ""
    for rx, template in reversed(_COMPILED):   # later entries first: a specific one follows its general form
        m = rx.fullmatch(text.strip())
        if m:
            return _fill(template, m)
    return text
