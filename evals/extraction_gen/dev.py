"""The development grammar: phrasings the extractor may be fixed against (split `dev`).

Each slot returns a `Clause` (text + the values it states, under the labelling conventions of
evals/extraction_set.yaml). Devices and models come from the catalog (`names`), so the set grows
with it. The held-out grammar (heldout.py) shares the engine, not these phrasings.
"""
from __future__ import annotations

import random

from evals.extraction_gen.compose import Clause, en_num, grouped, zh_num
from evals.extraction_gen.names import devices, models, plural

SLOT_P = {"hardware": 0.85, "model": 0.75, "quant": 0.25, "link": 0.35, "context": 0.45, "load": 0.5,
          "lora": 0.12, "price": 0.12, "priority": 0.35, "distractor": 0.12, "topic": 0.35, "closer": 0.6}
TYPOS = {"en": {"which": "wich", "should": "shoud", "engine": "engnie", "recommend": "recomend",
                "want": "wnat", "planning": "planing"},
         "zh": {"推薦": "推荐", "哪個": "哪个", "引擎": "引擎 ", "建議": "建议"}}
MACHINES = ("apple", "edge")


def _pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def _name(rng: random.Random, names: tuple[str, ...]) -> str:
    name = _pick(rng, names)
    r = rng.random()
    if r < 0.15:
        return name.lower()
    if r < 0.22 and " " in name and name.split(" ")[-1][:1].isdigit():
        return name.replace(" ", "", 1)      # "RTX 4090" → "RTX4090"
    return name


# --- hardware ---------------------------------------------------------------------------------
def _gpu_count(rng, lang, name, n) -> str:
    word = en_num(rng, n)
    if lang == "en":
        forms = [f"{n}x{plural(name)}", f"{n} × {name}", f"{n}x {name}", f"{word} {plural(name)}",
                 f"{name} x{n}", f"{n} {name} cards", f"{n} GPUs ({name})", f"{name} ×{n}",
                 f"{n}*{name}", f"{n} x {name}", f"{name} ({n} cards)", f"{n}-way {name}", f"{name} * {n}",
                 f"{n} pcs of {name}", f"a {n}-card {name} workstation", f"{name} GPU x {n}", f"{n} {name} graphics cards",
                 f"{name} [x{n}]", f"{en_num(rng, n)} {name} GPUs"]
        if n == 1:
            forms += [f"a single {name}", f"one {name}", f"a {name}"]
        if n == 2:
            forms += [f"a pair of {plural(name)}", f"dual {plural(name)}"]
        if n == 3:
            forms.append(f"triple {plural(name)}")
        if n == 4:
            forms.append(f"a quad-{name} build")
        if n == 1:
            forms += [f"only one {name}", f"a lone {name} card"]
        return _pick(rng, forms)
    cn = zh_num(n)
    forms = [f"{n} 張 {name}", f"{name}（{n} 張）", f"{name} {cn}張", f"{cn}張 {name}", f"{n}張{name}",
             f"{name} x {n}", f"{n} 片 {name}", f"{name} 共 {n} 張",
             f"{name}*{n}", f"{n}顆{name}", f"{cn}卡{name}", f"{n} 個 {name}", f"共{n}張{name}", f"{name}（共 {n} 張）", f"{name} {n}卡",
             f"{name} {n} 片", f"{name}({n}張)", f"{cn}片{name}顯卡", f"{name}顯卡 {n} 張", f"{n} 顆 {name} GPU"]
    if n == 1:
        forms += [f"單張 {name}", f"一張 {name}", f"只有 1 張 {name}"]
    if n == 2:
        forms += [f"雙卡 {name}"]
    return _pick(rng, forms)


def _node_form(rng, lang, name, n, m) -> tuple[str, dict]:
    if lang == "en":
        forms = [(f"{m} nodes of {n}x {name}", m), (f"{en_num(rng, m)} {n}-GPU {name} servers", m),
                 (f"an {n}-GPU {name} node", 1) if n == 8 else (f"a {n}-GPU {name} node", 1),
                 (f"one {n}-GPU node of {plural(name)}", 1), (f"{m} servers, each with {n}x {name}", m),
                 (f"{m} x {n}-GPU {name} servers", m), (f"a cluster of {m} nodes ({n}x {name} each)", m),
                 (f"{m} boxes of {n}x {name}", m), (f"{m} hosts with {n} {plural(name)} each", m), (f"one {n}x {name} server", 1)]
    else:
        cm = zh_num(m)
        forms = [(f"{cm}台 {n} 卡 {name}", m), (f"{name} 伺服器 {m} 台，每台 {n} 張", m),
                 (f"一台 {n} 卡 {name} 伺服器", 1), (f"{n * m} 張 {name}，分成{cm}個節點", m),
                 (f"{m} 個節點、每個節點 {n} 張 {name}", m), (f"{m} 台 {n} 卡 {name} 機器", m),
                 (f"{cm}台機器、每台{n}張{name}", m), (f"單機 {n} 卡 {name}", 1), (f"{name} {m} 台（每台 {n} 張）", m)]
    text, nodes = _pick(rng, forms)
    return text, {"count": n, "nodes": nodes}


def _device_phrase(rng, lang) -> Clause:
    dev = _pick(rng, devices())
    name = _name(rng, dev.names)
    if dev.hw_class in MACHINES or dev.id.startswith("dgx_spark"):
        forms = ([(f"a {name}", 1), (name, None), (f"one {name}", 1), (f"a single {name} machine", 1), (f"{name} laptop", None)]
                 if lang == "en" else [(f"一台 {name}", 1), (name, None), (f"單台 {name}", 1), (f"{name} 一台", 1), (f"{name} 的機器", None)])
        text, n = _pick(rng, forms)
        return Clause(text, {"hardware": dev.id} | ({"count": n} if n else {}))
    if dev.hw_class == "cpu":
        forms = ([(f"{name}, CPU only", {}), (f"two {name} sockets", {"count": 2}), (f"{name} servers, no GPU", {}),
                  (f"a dual-socket {name} box", {"count": 2}), (f"2x {name} CPUs", {"count": 2})]
                 if lang == "en" else
                 [(f"只有 {name}，沒有 GPU", {}), (f"兩顆 {name}", {"count": 2}), (f"{name} 伺服器兩台", {"nodes": 2}),
                  (f"雙路 {name}", {"count": 2}), (f"{name} 雙 CPU", {"count": 2})])
        text, vals = _pick(rng, forms)
        return Clause(text, {"hardware": dev.id, **vals}, unscored=("count",) if not vals else ())
    if dev.hw_class == "datacenter" and rng.random() < 0.25:
        n, m = _pick(rng, (4, 8, 8)), _pick(rng, (2, 2, 3, 4))
        text, vals = _node_form(rng, lang, name, n, m)
        return Clause(text, {"hardware": dev.id, **vals})
    n = _pick(rng, (1, 2, 2, 4, 4, 8) if dev.hw_class == "datacenter" else (1, 1, 2, 2, 3, 4, 6, 8))
    return Clause(_gpu_count(rng, lang, name, n), {"hardware": dev.id, "count": n})


def hardware(rng: random.Random, lang: str) -> Clause:
    """The device (with its count or nodes), or only a GPU count."""
    if rng.random() < 0.08:
        n = _pick(rng, (2, 4, 8))
        text = (_pick(rng, [f"on {n} GPUs", f"{en_num(rng, n)} GPUs", f"a {n}-GPU machine", f"{n} graphics cards"]) if lang == "en"
                else _pick(rng, [f"{n} 張卡", f"{zh_num(n)}張 GPU", f"{zh_num(n)}張顯卡", f"{n} 卡的機器"]))
        return Clause(text, {"count": n})
    c = _device_phrase(rng, lang)
    lead = (["We have {}", "I've got {}", "Our hardware is {}", "Running on {}", "We're on {}", "{} available"]
            if lang == "en" else ["我們有 {}", "手上有 {}", "硬體是 {}", "公司有 {}", "機器：{}", "{}"])
    return Clause(_pick(rng, lead).format(c.text), c.values, c.topics, c.unscored)


# --- model and format -------------------------------------------------------------------------
def model(rng: random.Random, lang: str) -> Clause:
    """A catalog model by one of its names, or a model given only by size."""
    if rng.random() < 0.2:
        p = _pick(rng, (7, 8, 14, 32, 70, 72, 120, 405))
        text = (_pick(rng, [f"a {p}B model", f"some {p}B model", f"a {p}b model", f"a {p}B LLM"]) if lang == "en"
                else _pick(rng, [f"{p}B 模型", f"{p}B 的模型", f"一個 {p}B 模型"]))
        vals = {"params_b": float(p)}
    else:
        m = _pick(rng, models())
        text = _name(rng, m.names)
        if rng.random() < 0.15:
            text = text.replace(" ", "-")
        vals = {"model": m.id}
    lead = (["want to serve {}", "running {}", "the model is {}", "planning to deploy {}", "for {}"]
            if lang == "en" else ["想跑 {}", "模型是 {}", "打算部署 {}", "要上 {}", "跑 {}"])
    return Clause(_pick(rng, lead).format(text), vals)


QUANTS = [("FP8", "fp8"), ("AWQ", "awq"), ("Q4_K_M", "q4_k_m"), ("GPTQ", "gptq-4bit"), ("4-bit", "int4"),
          ("INT8", "int8"), ("BF16", "bf16"), ("Q8_0", "q8_0"), ("EXL2 4.0bpw", "exl2-4.0"), ("NVFP4", "nvfp4"),
          ("Q8", "q8_0"), ("W4A16", "int4"), ("exl2 6.0bpw", "exl2-6.0"), ("FP16", "f16"), ("Q4_0", "q4_0"), ("4-bit AWQ", "awq"),
          ("8-bit GGUF", "q8_0"), ("bnb 4bit", "int4"), ("FP8-Dynamic", "fp8"), ("MXFP4", "mxfp4"), ("GPTQ-Int4", "gptq-4bit")]


def quant(rng: random.Random, lang: str) -> Clause:
    """The weight format."""
    word, ident = _pick(rng, QUANTS)
    forms = ([f"in {word}", f"quantized to {word}", f"using {word} weights", f"{word} checkpoint", f"run it as {word}"]
             if lang == "en" else [f"用 {word}", f"量化成 {word}", f"{word} 量化", f"{word} 權重", f"選 {word}"])
    return Clause(_pick(rng, forms), {"quantization": ident})


def link(rng: random.Random, lang: str, nodes: int) -> Clause:
    """How several devices are connected."""
    forms = ([("with NVLink", "nvlink"), ("no NVLink", "pcie"), ("PCIe only", "pcie"), ("without NVLink", "pcie"),
              ("NVLink bridged", "nvlink"), ("plain PCIe between the cards", "pcie"), ("there is no NVLink", "pcie")]
             if lang == "en" else [("有 NVLink", "nvlink"), ("沒有 NVLink", "pcie"), ("只有 PCIe", "pcie"), ("卡間走 PCIe", "pcie"),
                                   ("沒裝 NVLink", "pcie"), ("有接 NVLink 橋", "nvlink")])
    if nodes > 1:
        forms += [("InfiniBand between nodes", "infiniband")] if lang == "en" else [("節點之間走 InfiniBand", "infiniband")]
    text, ident = _pick(rng, forms)
    return Clause(text, {"interconnect": ident})


# --- workload numbers -------------------------------------------------------------------------
def context(rng: random.Random, lang: str) -> Clause:
    """The context window, in the many ways people write a length."""
    k = _pick(rng, (4, 8, 16, 32, 64, 80, 100, 128, 200))
    lo = max(2, k // 2)
    exact = _pick(rng, (4096, 8192, 16384, 32768, 65536, 131072))
    if lang == "en":
        forms = [(f"{k}K context", k * 1000), (f"{k}K-context", k * 1000), (f"{k}k ctx", k * 1000),
                 (f"context of {k}K tokens", k * 1000), (f"context window around {k}K", k * 1000),
                 (f"~{k}k context", k * 1000), (f"context up to {k}K", k * 1000), (f"about {k}K tokens of context", k * 1000),
                 (f"{exact} token context", exact), (f"context length {grouped(exact)}", exact),
                 (f"{lo}-{k}K context", k * 1000), (f"a {k}K-token context window", k * 1000)]
    else:
        forms = [(f"context 常常 {k}K 以上", k * 1000), (f"上下文約 {k}K", k * 1000), (f"context 大概 {k}k", k * 1000),
                 (f"上下文長度 {k}K 左右", k * 1000), (f"需要 {k}K 的 context", k * 1000), (f"context {lo}K 到 {k}K", k * 1000),
                 (f"上下文 {exact} tokens", exact), (f"約 {k}K context", k * 1000)]
        if k % 10 == 0 and k >= 10:
            forms.append((f"上下文 {k // 10} 萬 tokens", k * 1000))
    text, value = _pick(rng, forms)
    return Clause(text, {"context_length": value})


def load(rng: random.Random, lang: str) -> Clause:
    """How many people (users) or how many requests at once (concurrency)."""
    u = _pick(rng, (5, 12, 20, 30, 50, 100, 200, 500, 1000, 2000))
    c = _pick(rng, (4, 8, 12, 16, 20, 32, 50, 64, 100, 128, 256))
    if lang == "en":
        users = [f"{u} users", f"about {u} people", f"a team of {u}", f"{u} students", f"{u} employees will use it",
                 f"{u} engineers", f"~{u} users", f"{max(1, u // 2)}-{u} users", f"for {grouped(u)} users",
                 f"{u} people on the team", f"a {u}-member team", f"{u} internal staff", f"{u} analysts", f"a user base of {u}"]
        conc = [f"{c} people at once", f"{c} concurrent requests", f"concurrency of {c}", f"up to {c} simultaneous users",
                f"{c} requests in parallel", f"{c} streams at once", f"a peak of {c} concurrent users", f"{c} parallel requests"]
    else:
        users = [f"全公司 {u}人", f"{u} 位同事", f"大概 {u} 個人會用", f"{u} 名員工", f"使用者約 {u} 人", f"{zh_num(u)}個同仁",
                 f"{u} 個用戶", f"約 {u} 名使用者", f"部門 {u} 人", f"{u} 多人會用"]
        conc = [f"{c} 個併發", f"同時 {c} 人在用", f"併發 {c}", f"尖峰 {c} 個同時請求", f"同時大概 {c} 個請求",
                f"最高 {c} 個同時連線", f"同時處理約 {c} 個請求", f"{c} 路並發"]
    if rng.random() < 0.5:
        return Clause(_pick(rng, users), {"users": u})
    return Clause(_pick(rng, conc), {"concurrency": c})


def lora(rng: random.Random, lang: str) -> Clause:
    """LoRA adapters, often counted per customer."""
    n = _pick(rng, (3, 5, 8, 12, 20, 30, 50, 100))
    forms = ([f"{n} LoRA adapters", f"each of our {n} customers has its own LoRA", f"{n} fine-tuned LoRAs",
              f"one LoRA per customer, {n} customers in total", f"a separate LoRA for each of our {n} clients",
              f"{n} tenants, each with its own LoRA", f"{n} customer adapters"] if lang == "en" else
             [f"{n} 家客戶各訓練了一個 LoRA", f"{n} 個 LoRA adapter", f"每個客戶一個 LoRA，共 {n} 家", f"有 {n} 組 LoRA",
              f"{n} 個客戶各自有 LoRA", f"{n} 組客製 LoRA", f"要掛 {n} 個不同的 LoRA"])
    return Clause(_pick(rng, forms), {"lora_adapters": n}, topics=("multi-lora",))


def price(rng: random.Random, lang: str) -> Clause:
    """What one device-hour costs."""
    x = _pick(rng, ("0.8", "1.2", "1.99", "2", "2.5", "3.5", "4"))
    forms = ([f"${x}/hr per GPU", f"${x} per GPU-hour", f"${x}/GPU/hour", f"GPUs rent for ${x} an hour each",
              f"{x} USD/GPU/h", f"${x} hourly per card"]
             if lang == "en" else [f"一小時 {x} 美金", f"每張卡每小時 {x} 美元", f"GPU 租金每小時 {x} USD", f"一張卡一小時 {x} 美金",
                                   f"每卡每小時約 {x} 美元", f"租金一張 {x} 美金/小時"])
    return Clause(_pick(rng, forms), {"device_hour_usd": float(x)})


PRIORITIES = {
    "en": [("latency matters most", "latency"), ("we care about throughput above all", "throughput"),
           ("cost is the main concern", "cost"), ("privacy is critical", "privacy"),
           ("latency doesn't matter, throughput does", "throughput"), ("we don't care about latency; we only care about throughput", "throughput"),
           ("not latency-sensitive at all, cost matters most", "cost"), ("latency doesn't matter", None),
           ("low latency is key", "latency"), ("cost is not an issue, we want low latency", "latency"),
           ("the main thing is latency", "latency"), ("throughput is king", "throughput"),
           ("we are not latency bound, push throughput", "throughput"), ("money is tight", "cost"), ("keep the bill low", "cost"),
           ("nothing may leave our network", "privacy"), ("latency is no concern", None),
           ("we don't mind slow answers, throughput is the priority", "throughput"),
           ("forget the budget, only speed counts", "latency"), ("only throughput counts for us", "throughput"),
           ("privacy first, everything else second", "privacy")],
    "zh": [("最在意延遲", "latency"), ("不在乎延遲，只在乎吞吐", "throughput"), ("延遲不重要，成本最重要", "cost"),
           ("成本不是問題，延遲要低", "latency"), ("我們不在意成本", None), ("隱私最重要", "privacy"),
           ("吞吐量優先", "throughput"), ("主要考量是成本", "cost"),
           ("重點是延遲", "latency"), ("延遲無所謂，吞吐要高", "throughput"), ("經費不多", "cost"), ("要省成本", "cost"),
           ("資料不能離開公司", "privacy"), ("成本不是考量，回應要快", "latency"), ("延遲不是重點", None), ("主要看吞吐量", "throughput"),
           ("只看延遲", "latency"), ("成本無所謂，只要吞吐夠高", "throughput")],
}


def priority(rng: random.Random, lang: str) -> Clause:
    """What the user optimises for, negations included."""
    text, value = _pick(rng, PRIORITIES[lang])
    return Clause(text, {"priority": value} if value else {})


def distractor(rng: random.Random, lang: str) -> Clause:
    """Numbers that belong to no field."""
    x = _pick(rng, (12, 35, 48, 90))
    forms = ([f"we measured about {x} tok/s with llama.cpp", "bought last year (2024)", "on Ubuntu 22.04", "CUDA 12.4 is installed"]
             if lang == "en" else [f"上個月用 llama.cpp 測大概 {x} tok/s", "系統是 Ubuntu 22.04", "CUDA 12.4 已經裝好", "2024 年買的"])
    return Clause(_pick(rng, forms))


TOPICS = {
    "en": [("does SGLang support speculative decoding?", ("speculative-decoding",)),
           ("would a draft model for speculative decoding help?", ("speculative-decoding",)),
           ("should we turn on prefix caching?", ("prefix-caching",)),
           ("can it serve many LoRAs at once?", ("multi-lora",)),
           ("we need JSON schema output", ("structured-output",)),
           ("can we offload the MoE experts to CPU RAM?", ("offload",)),
           ("is an FP8 KV cache worth it?", ("kv-quantization",)),
           ("is prefill/decode disaggregation worth it?", ("disaggregation",)),
           ("what would it cost per 1M tokens?", ("cost-per-token",)),
           ("TP or PP?", ("parallelism",)),
           ("does SGLang run on ROCm?", ("platform-support",)),
           ("which quantization format should we pick?", ("quantization-format",)),
           ("TP or PP, and is speculative decoding worth it?", ("parallelism", "speculative-decoding")),
           ("should we store the KV cache in FP8?", ("kv-quantization",)), ("AWQ vs GPTQ, which one?", ("quantization-format",)),
           ("does llama.cpp work on Intel Arc?", ("platform-support",)), ("how much does a million tokens cost us?", ("cost-per-token",)),
           ("should prefill and decode run on separate GPUs?", ("disaggregation",)),
           ("should we quantize to FP8?", ("quantization-format",)), ("is it worth going to AWQ?", ("quantization-format",))],
    "zh": [("speculative decoding 有用嗎？", ("speculative-decoding",)), ("prefix caching 要開嗎？", ("prefix-caching",)),
           ("能同時掛多個 LoRA 嗎？", ("multi-lora",)), ("輸出要符合 JSON schema", ("structured-output",)),
           ("可以把 MoE expert offload 到 CPU 嗎？", ("offload",)), ("KV cache 要量化嗎？", ("kv-quantization",)),
           ("要做 PD 分離嗎？", ("disaggregation",)), ("每百萬 token 成本多少？", ("cost-per-token",)),
           ("要用 TP 還是 PP？", ("parallelism",)), ("vLLM 支援 ROCm 嗎？", ("platform-support",)),
           ("量化格式要選哪種？", ("quantization-format",)),
           ("想把 KV cache 存成 FP8", ("kv-quantization",)), ("EXL2 還是 GGUF 比較好？", ("quantization-format",)),
           ("MLX 只能跑在 Mac 上嗎？", ("platform-support",)), ("pipeline parallel 會比較快嗎？", ("parallelism",)),
           ("要不要量化成 FP8？", ("quantization-format",)), ("該不該用 AWQ？", ("quantization-format",))],
}


def topic(rng: random.Random, lang: str) -> Clause:
    """A question about a feature or a trade-off."""
    text, topics = _pick(rng, TOPICS[lang])
    return Clause(text, topics=topics)


def closer(rng: random.Random, lang: str) -> Clause:
    """The request itself."""
    forms = (["Which engine should we use?", "What do you recommend?", "vLLM or SGLang?", "Which inference server fits best?"]
             if lang == "en" else ["推薦哪個引擎？", "該用哪一套？", "vLLM 還是 SGLang？", "有什麼建議？"])
    return Clause(_pick(rng, forms))


def join(rng: random.Random, lang: str, parts: list[str]) -> str:
    """Clauses joined the way people type them."""
    if lang == "zh":
        out = parts[0]
        for p in parts[1:]:
            out += ("" if out.endswith(("？", "。")) else _pick(rng, ["，", "，", "。", "；"])) + p
        return out if out.endswith(("？", "。")) else out + "。"
    out = parts[0][:1].upper() + parts[0][1:]
    for p in parts[1:]:
        sep = "" if out.endswith("?") else _pick(rng, [", ", ", ", "; ", ". ", " - "])
        out += (" " if out.endswith("?") else sep) + (p[:1].upper() + p[1:] if sep == ". " or out.endswith("?") else p)
    return out if out.endswith(("?", ".")) else out + "."
