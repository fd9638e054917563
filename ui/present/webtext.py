"""The web app's own words — title, welcome, tabs, buttons, plot titles — in en / zh-Hant.

The Advice's words (labels around figures) are in `labels.py`; names of things in `agent.names`.
"""
from __future__ import annotations

EXAMPLES = {
    "en": ["I have 4 RTX 3090 cards and want to serve Llama 3.3 70B to my team of 60.",
           "8x H100 SXM with NVLink, Llama 3.1 70B FP8, external production API, 200 concurrent requests",
           "Mac Studio M3 Ultra 512GB, Llama 3.3 70B, just me, chat",
           "What is PagedAttention and why does it matter for many users?"],
    "zh": ["4 張 RTX 4090 沒有 NVLink，Llama 3.3 70B，內部 60 人，20 個併發，聊天。",
           "我們有 2 張 H100，要用 Qwen3 32B 做 RAG，大概 40 個併發",
           "一台 Mac Studio M3 Ultra，自己用 Llama 3.3 70B 聊天"],
}
"""Example questions on the empty page (both languages: the page does not know the user's yet)."""

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Engine Advisor", "subtitle": "Which LLM inference engine, on your hardware, for your users",
        "welcome": "**Describe your setup and I will recommend an inference engine.**\n\n"
                   "Say what hardware you have, which model, and who will use it. I ask only what changes the "
                   "answer, show what I understood under “Profile” (correct anything there), and back every "
                   "figure with a source. Try one of these, or write your own (中文也可以):",
        "placeholder": "e.g. 4× RTX 4090 without NVLink, Llama 3.3 70B for 50 colleagues",
        "new": "New conversation", "tab_profile": "Profile", "tab_plots": "Plots", "tab_bench": "Benchmark",
        "tab_sources": "Sources", "profile_title": "What I understood",
        "profile_empty": "Nothing yet: describe your hardware, model and users in the chat.",
        "not_known": "not known yet", "correct": "Correct a value", "correct_field": "Field",
        "correct_value": "New value", "correct_btn": "Correct", "now": "now", "quick": "Answer with a click (then press Enter)",
        "send": "Send", "replies_label": "Possible answers",
        "spec_title": "Benchmark plan", "spec_yaml": "Benchmark spec (YAML)", "commands": "Harness commands",
        "download": "Download", "download_yaml": "benchmark spec (YAML)", "download_md": "benchmark plan (Markdown)",
        "no_spec": "The benchmark plan appears once there is a recommendation.",
        "no_sources": "Sources appear with the answer.",
        "details": "Details: why, the plan, estimate, warnings and sources",
        "options": "Alternatives at this plan",
        "primary": "(recommended)",
        "x_part": "part", "y_gb": "GB per device", "x_conc": "concurrent requests", "y_tps": "tokens/s",
        "series": "series", "x_prompt": "prompt tokens", "y_ttft": "TTFT (s)",
        "mem_title": "Memory per device", "dec_title": "Decode speed vs concurrency",
        "ttft_title": "Time to first token vs prompt length",
        "mem_read": "Read: the bars left of “usable capacity” must add up to less than it; “over capacity” means the "
                    "plan does not fit.",
        "dec_read": "Read: per-stream speed falls as more requests share the device; aggregate throughput rises "
                    "until memory or compute saturates. Your concurrency is {conc}.",
        "ttft_read": "Read: how long a user waits for the first token as prompts grow, at {conc} concurrent "
                     "request(s) (prefill plus queueing).",
        "no_plot_yet": "No figure yet: plots appear once there is a recommendation with an estimate.",
        "no_plot": "This figure cannot be drawn: {why}",
        "why_no_estimate": "there is no estimate for this profile.",
        "why_unknown_model": "the model “{words}” is not in the catalog, so its size and memory are unknown.",
        "why_unknown_device": "the device “{words}” is not in the catalog, so its memory and speed are unknown.",
        "why_no_fit": "the model does not fit at any concurrency shown (see the memory figure).",
        "why_sizing": "this answer compares hardware to buy; say which one you pick (e.g. “2× H100 SXM”) and "
                      "I will plan and draw it.",
        "why_no_model": "no model I know was recognised in what you wrote. Name one from the catalog "
                        "(e.g. “Qwen3 32B”) or give its size (e.g. “a 13B model”) and I will estimate it.",
        "why_no_device": "no device I know was recognised in what you wrote. Name it (e.g. “RTX 4090”, "
                         "“H100 SXM”) or give its memory per device.",
        "parts": "weights|KV cache|runtime reserve|free|over capacity|usable capacity",
        "series_names": "per stream|aggregate|bound per stream",
    },
    "zh": {
        "title": "推論引擎顧問", "subtitle": "依您的硬體與使用者，建議 LLM 推論引擎",
        "welcome": "**描述您的環境，我來建議推論引擎。**\n\n"
                   "請說明硬體、模型以及誰會使用。我只問會影響答案的問題，在「情境」分頁顯示我理解的內容（可直接更正），"
                   "每個數字都附來源。試試以下範例，或直接輸入（English works too）：",
        "placeholder": "例如：4 張 RTX 4090 沒有 NVLink，Llama 3.3 70B，給 50 位同事使用",
        "new": "新對話", "tab_profile": "情境", "tab_plots": "圖表", "tab_bench": "測試計畫", "tab_sources": "來源",
        "profile_title": "我理解的情境",
        "profile_empty": "尚無內容：請在對話中描述硬體、模型與使用者。",
        "not_known": "尚未知道", "correct": "更正一個值", "correct_field": "欄位", "correct_value": "新的值",
        "correct_btn": "更正", "now": "目前", "quick": "點選回答（再按 Enter 送出）", "send": "送出", "replies_label": "可能的回答",
        "spec_title": "測試計畫", "spec_yaml": "測試規格（YAML）", "commands": "測試工具指令",
        "download": "下載", "download_yaml": "測試規格（YAML）", "download_md": "測試計畫（Markdown）",
        "no_spec": "有建議之後會顯示測試計畫。", "no_sources": "來源會隨答案顯示。",
        "details": "詳細內容：理由、配置、估算、警告與來源",
        "options": "此配置下的其他選擇", "primary": "（建議）",
        "x_part": "項目", "y_gb": "每裝置 GB", "x_conc": "併發請求數", "y_tps": "tokens/s", "series": "數列",
        "x_prompt": "提示 token 數", "y_ttft": "首字延遲 TTFT（秒）",
        "mem_title": "每裝置記憶體", "dec_title": "解碼速度與併發數", "ttft_title": "首字延遲與提示長度",
        "mem_read": "看法：「可用容量」左邊的各項加總必須小於它；出現「超出容量」代表放不下。",
        "dec_read": "看法：越多請求共用裝置，單一串流越慢；總吞吐量會上升直到記憶體或算力飽和。您的併發數是 {conc}。",
        "ttft_read": "看法：提示越長，使用者等到第一個 token 的時間越久（{conc} 個併發請求下，含 prefill 與排隊）。",
        "no_plot_yet": "尚無圖表：有建議與估算之後才會顯示。",
        "no_plot": "無法畫出這張圖：{why}",
        "why_no_estimate": "這個情境沒有估算結果。",
        "why_unknown_model": "型錄中沒有「{words}」這個模型，不知道它的大小與記憶體需求。",
        "why_unknown_device": "型錄中沒有「{words}」這個裝置，不知道它的記憶體與速度。",
        "why_no_fit": "在圖中的任何併發數下模型都放不下（請看記憶體圖）。",
        "why_sizing": "這個答案比較的是要買的硬體；告訴我您選哪一個（例如「2 張 H100 SXM」），我就會規劃並畫出來。",
        "why_no_model": "您寫的內容中沒有我認得的模型。請寫出型錄中的模型（例如「Qwen3 32B」）或它的大小（例如「13B 模型」），我就能估算。",
        "why_no_device": "您寫的內容中沒有我認得的裝置。請寫出裝置名稱（例如「RTX 4090」、「H100 SXM」）或每個裝置的記憶體。",
        "parts": "權重|KV cache|執行期保留|剩餘|超出容量|可用容量",
        "series_names": "單一串流|總吞吐量|單一串流上限",
    },
}


def text(lang: str | None) -> dict[str, str]:
    """The app's words in a language (English unless 'zh')."""
    return TEXT["zh" if lang == "zh" else "en"]
