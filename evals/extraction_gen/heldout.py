"""The held-out grammar (split `heldout`): phrasings written once, before any fixing, and never
used to tune the extractor. Only its per-field figures are read.

It shares the engine (compose.py) and the catalog names with the dev grammar, and some common
forms, but most templates, lead-ins, values, typos and separators are its own, and it is drawn with
another seed, so it measures phrasings the extractor was not fitted to.
"""
from __future__ import annotations

import random

from evals.extraction_gen.compose import Clause, en_num, grouped, zh_num
from evals.extraction_gen.names import devices, models, plural

SLOT_P = {"hardware": 0.8, "model": 0.75, "quant": 0.3, "link": 0.3, "context": 0.45, "load": 0.55,
          "lora": 0.12, "price": 0.12, "priority": 0.35, "distractor": 0.15, "topic": 0.35, "closer": 0.55}
TYPOS = {"en": {"would": "woudl", "which": "whcih", "recommendation": "recomendation", "stack": "stakc",
                "hoping": "hopign", "cluster": "clsuter"},
         "zh": {"建議": "建议", "比較": "比较", "部署": "部属", "適合": "适合"}}


def _pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def _name(rng: random.Random, names: tuple[str, ...]) -> str:
    name = _pick(rng, names)
    r = rng.random()
    if r < 0.2:
        return name.lower()
    if r < 0.25:
        return name.upper()
    return name


def _gpu_count(rng, lang, name, n) -> str:
    if lang == "en":
        forms = [f"{name} (x{n})", f"{n}*{name}", f"{n}× {plural(name)}", f"{n} pcs {name}", f"a {n}-card {name} rig",
                 f"{n} {name} GPUs", f"{name} GPUs x{n}", f"{en_num(rng, n)} {name} cards"]
        if n == 4:
            forms.append(f"quad {plural(name)}")
        if n == 1:
            forms += [f"just one {name}", f"a lone {name}"]
        return _pick(rng, forms)
    cn = zh_num(n)
    forms = [f"{name} {n} 張", f"{cn}片 {name}", f"{name}*{n}", f"{name}({n}張)", f"共 {n} 張 {name}",
             f"{n} 顆 {name}", f"{n}卡 {name}", f"{name}{cn}張"]
    if n == 1:
        forms.append(f"只有一張 {name}")
    return _pick(rng, forms)


def _node_form(rng, lang, name, n, m) -> tuple[str, int]:
    if lang == "en":
        forms = [(f"{m}x {n}-GPU {name} nodes", m), (f"a cluster of {m} {name} nodes with {n} GPUs each", m),
                 (f"{m} machines with {n} {plural(name)} each", m), (f"a single {n}x {name} server", 1)]
    else:
        cm = zh_num(m)
        forms = [(f"{cm}台伺服器，每台 {n} 張 {name}", m), (f"{m} 台 {name} 機器（每台 {n} 卡）", m),
                 (f"單機 {n} 張 {name}", 1)]
    return _pick(rng, forms)


def _device_phrase(rng, lang) -> Clause:
    dev = _pick(rng, devices())
    name = _name(rng, dev.names)
    if dev.hw_class in ("apple", "edge") or dev.id.startswith("dgx_spark"):
        forms = ([(f"an {name} machine", 1), (f"{name} box", None)] if lang == "en"
                 else [(f"{name} 一台", 1), (f"{name} 這台機器", 1)])   # "這台": one machine (the settled convention)
        text, n = _pick(rng, forms)
        return Clause(text, {"hardware": dev.id} | ({"count": n} if n else {}))
    if dev.hw_class == "cpu":
        forms = ([(f"a box with two {name} CPUs", {"count": 2}), (f"{name} only (no GPUs)", {})]
                 if lang == "en" else [(f"{name} 雙路", {"count": 2}), (f"純 CPU：{name}", {})])
        text, vals = _pick(rng, forms)
        return Clause(text, {"hardware": dev.id, **vals}, unscored=("count",) if not vals else ())
    if dev.hw_class == "datacenter" and rng.random() < 0.25:
        n, m = _pick(rng, (4, 8)), _pick(rng, (2, 3, 4, 6))
        text, nodes = _node_form(rng, lang, name, n, m)
        return Clause(text, {"hardware": dev.id, "count": n, "nodes": nodes})
    n = _pick(rng, (1, 2, 4, 8) if dev.hw_class == "datacenter" else (1, 2, 3, 4, 5, 8))
    return Clause(_gpu_count(rng, lang, name, n), {"hardware": dev.id, "count": n})


def hardware(rng: random.Random, lang: str) -> Clause:
    """The device with its count or nodes, or only a card count."""
    if rng.random() < 0.08:
        n = _pick(rng, (2, 3, 4))
        text = _pick(rng, [f"{n} graphics cards", f"a {n}-GPU box"]) if lang == "en" else _pick(rng, [f"{zh_num(n)}張顯卡", f"{n} 卡機器"])
        return Clause(text, {"count": n})
    c = _device_phrase(rng, lang)
    lead = (["Our cluster: {}", "We bought {}", "Deploying on {}", "Setup is {}", "Hardware-wise we have {}"]
            if lang == "en" else ["我們這邊是 {}", "買了 {}", "部署在 {} 上", "環境：{}", "有 {} 可以用"])
    return Clause(_pick(rng, lead).format(c.text), c.values, c.topics, c.unscored)


def model(rng: random.Random, lang: str) -> Clause:
    """A catalog model or a size."""
    if rng.random() < 0.2:
        p = _pick(rng, (3, 9, 13, 24, 34, 65, 180))
        text = (_pick(rng, [f"a {p}B-parameter model", f"a {p} billion parameter model", f"{p}B params"]) if lang == "en"
                else _pick(rng, [f"{p}B 參數的模型", f"大概 {p}B 的模型"]))
        vals = {"params_b": float(p)}
    else:
        m = _pick(rng, models())
        text, vals = _name(rng, m.names), {"model": m.id}
    lead = (["hoping to host {}", "model would be {}", "we'd like to run {}", "serving {}"]
            if lang == "en" else ["模型用 {}", "想部署 {}", "希望跑 {}", "要服務 {}"])
    return Clause(_pick(rng, lead).format(text), vals)


QUANTS = [("fp8", "fp8"), ("AWQ 4-bit", "awq"), ("GGUF Q4_K_M", "q4_k_m"), ("Q5_K_M", "q5_k_m"), ("GPTQ int4", "gptq-4bit"),
          ("int4", "int4"), ("8-bit", "int8"), ("MXFP4", "mxfp4"), ("EXL3 4.0bpw", "exl3-4.0"), ("Q6_K", "q6_k")]


def quant(rng: random.Random, lang: str) -> Clause:
    """The weight format."""
    word, ident = _pick(rng, QUANTS)
    forms = [f"weights in {word}", f"{word} quantized", f"the {word} build"] if lang == "en" else [f"{word} 版本", f"採用 {word}", f"權重 {word}"]
    return Clause(_pick(rng, forms), {"quantization": ident})


def link(rng: random.Random, lang: str, nodes: int) -> Clause:
    """The link between devices."""
    forms = ([("NVLink-connected", "nvlink"), ("no NVLink bridge", "pcie"), ("just PCIe", "pcie"),
              ("they don't have NVLink", "pcie"), ("connected via PCIe", "pcie")]
             if lang == "en" else [("卡之間有 NVLink", "nvlink"), ("沒有 NVLink 橋接", "pcie"), ("走 PCIe", "pcie"), ("沒 NVLink", "pcie")])
    if nodes > 1:
        forms += ([("nodes linked by InfiniBand", "infiniband"), ("RoCE between the nodes", "ethernet")] if lang == "en"
                  else [("機器之間用 InfiniBand", "infiniband"), ("節點間是乙太網路", "ethernet")])
    text, ident = _pick(rng, forms)
    return Clause(text, {"interconnect": ident})


def context(rng: random.Random, lang: str) -> Clause:
    """The context window."""
    k = _pick(rng, (6, 12, 24, 40, 50, 96, 120, 160, 256))
    lo = max(2, k // 2)
    exact = _pick(rng, (2048, 12288, 24576, 49152, 98304, 262144))
    if lang == "en":
        forms = [(f"{k}K tokens of context", k * 1000), (f"context ≈ {k}K", k * 1000), (f"ctx={exact}", exact),
                 (f"max context {k}K", k * 1000), (f"contexts of {lo}K to {k}K", k * 1000),
                 (f"context length around {k}k tokens", k * 1000), (f"context in the {k}K range", k * 1000),
                 (f"long contexts (up to {k}K)", k * 1000), (f"{k}K+ context", k * 1000)]
    else:
        forms = [(f"最長 context {k}K", k * 1000), (f"context 落在 {lo}K 到 {k}K", k * 1000), (f"上下文至少 {k}K", k * 1000),
                 (f"context 要 {k}K 以上", k * 1000), (f"上下文窗口 {k}K", k * 1000), (f"context 長度約 {exact}", exact)]
        if k % 10 == 0:
            forms.append((f"上下文長度大約 {k // 10} 萬", k * 1000))
    text, value = _pick(rng, forms)
    return Clause(text, {"context_length": value})


def load(rng: random.Random, lang: str) -> Clause:
    """Users or concurrency."""
    u = _pick(rng, (8, 15, 25, 40, 80, 150, 300, 600, 1500, 3000))
    c = _pick(rng, (6, 10, 24, 40, 48, 80, 96, 200, 300))
    if lang == "en":
        users = [f"a {u}-person team", f"{u} staff", f"{u} researchers", f"roughly {u} end users", f"{u}+ users",
                 f"a class of {u} students", f"{grouped(u)} employees"]
        conc = [f"{c} users at the same time", f"{c} simultaneous requests", f"peak concurrency ~{c}",
                f"{c} parallel sessions", f"{c} concurrent users at peak"]
    else:
        users = [f"公司大約 {u} 人要用", f"{u} 個使用者", f"約 {u} 位員工", f"服務 {u} 個用戶", f"全部門 {u} 人"]
        conc = [f"併發大概 {c}", f"{c} 個同時連線", f"最多 {c} 個 concurrent requests", f"同時處理 {c} 個請求", f"{c} 路併發"]
    if rng.random() < 0.5:
        return Clause(_pick(rng, users), {"users": u})
    return Clause(_pick(rng, conc), {"concurrency": c})


def lora(rng: random.Random, lang: str) -> Clause:
    """LoRA adapters per tenant."""
    n = _pick(rng, (4, 6, 10, 16, 25, 40, 60))
    forms = ([f"{n} customer-specific LoRAs", f"every one of our {n} tenants gets its own adapter", f"{n} different LoRA adapters",
              f"a LoRA for each of {n} clients"] if lang == "en" else
             [f"{n} 個客戶各有自己的 LoRA", f"每家客戶（共 {n} 家）都有一個 LoRA", f"要掛 {n} 個 LoRA", f"{n} 套 LoRA 權重"])
    return Clause(_pick(rng, forms), {"lora_adapters": n}, topics=("multi-lora",))


def price(rng: random.Random, lang: str) -> Clause:
    """Device-hour price."""
    x = _pick(rng, ("0.9", "1.5", "2.2", "2.49", "3", "5.5"))
    forms = ([f"${x} an hour per GPU", f"GPUs cost us ${x}/h", f"{x} USD per GPU hour", f"at ${x}/hour/GPU"]
             if lang == "en" else [f"每小時 {x} 美元一張卡", f"GPU 時租 {x} 美金", f"一張卡每小時約 {x} USD", f"租一張卡一小時要 {x} 美元"])
    return Clause(_pick(rng, forms), {"device_hour_usd": float(x)})


PRIORITIES = {
    "en": [("what we care about is latency", "latency"), ("throughput is what matters, not latency", "throughput"),
           ("latency is not a concern; maximize throughput", "throughput"), ("we're on a tight budget", "cost"),
           ("cheapest option wins", "cost"), ("data must stay on-prem", "privacy"),
           ("we don't care about cost, only latency", "latency"), ("cost isn't a concern", None)],
    "zh": [("延遲最重要", "latency"), ("不在意延遲，重點是吞吐量", "throughput"), ("預算有限", "cost"), ("資料不能外流", "privacy"),
           ("延遲沒差，成本要低", "cost"), ("不在乎成本，只在乎延遲", "latency"), ("吞吐不重要", None)],
}


def priority(rng: random.Random, lang: str) -> Clause:
    """What is optimised for."""
    text, value = _pick(rng, PRIORITIES[lang])
    return Clause(text, {"priority": value} if value else {})


def distractor(rng: random.Random, lang: str) -> Clause:
    """Numbers that belong to no field."""
    x = _pick(rng, (9, 22, 41, 70))
    forms = ([f"our current setup does about {x} tok/s", "driver 550 installed", "Python 3.11 environment", "purchased in 2023"]
             if lang == "en" else [f"現在單卡大概 {x} tok/s", "驅動是 550 版", "Python 3.11 環境", "2023 年採購的"])
    return Clause(_pick(rng, forms))


TOPICS = {
    "en": [("how does speculative decoding work in vLLM?", ("speculative-decoding",)),
           ("is EAGLE speculation supported?", ("speculative-decoding",)),
           ("automatic prefix caching: worth enabling?", ("prefix-caching",)),
           ("can it hot-swap LoRA adapters per request?", ("multi-lora",)),
           ("we need guided/structured decoding", ("structured-output",)),
           ("can experts spill over to system RAM (CPU offload)?", ("offload",)),
           ("should the KV cache be quantized to FP8?", ("kv-quantization",)),
           ("disaggregated prefill and decode?", ("disaggregation",)),
           ("what's the $/1M tokens?", ("cost-per-token",)),
           ("tensor parallel vs pipeline parallel?", ("parallelism",)),
           ("is TensorRT-LLM available on AMD?", ("platform-support",)),
           ("GGUF, AWQ or EXL2 - which quant format?", ("quantization-format",))],
    "zh": [("vLLM 的 speculative decoding 怎麼設定？", ("speculative-decoding",)), ("prefix cache 對我們有幫助嗎？", ("prefix-caching",)),
           ("多 LoRA 同時服務可以嗎？", ("multi-lora",)), ("需要結構化輸出", ("structured-output",)),
           ("顯存不夠的話可以 CPU offload 嗎？", ("offload",)), ("KV cache 量化成 FP8 會掉品質嗎？", ("kv-quantization",)),
           ("prefill 跟 decode 分開部署值得嗎？", ("disaggregation",)), ("換算每 1M tokens 的成本是多少？", ("cost-per-token",)),
           ("張量並行還是流水線並行？", ("parallelism",)), ("SGLang 可以跑在 AMD 上嗎？", ("platform-support",)),
           ("GGUF 跟 AWQ 要選哪個？", ("quantization-format",))],
}


def topic(rng: random.Random, lang: str) -> Clause:
    """A feature question."""
    text, topics = _pick(rng, TOPICS[lang])
    return Clause(text, topics=topics)


def closer(rng: random.Random, lang: str) -> Clause:
    """The request."""
    forms = (["Any engine recommendation?", "What stack would you pick?", "Ollama, vLLM or something else?", "Advice?"]
             if lang == "en" else ["用哪個 inference engine 比較好？", "請給建議。", "Ollama 還是 vLLM 比較適合？", "怎麼選？"])
    return Clause(_pick(rng, forms))


def join(rng: random.Random, lang: str, parts: list[str]) -> str:
    """Clauses joined."""
    if lang == "zh":
        out = parts[0]
        for p in parts[1:]:
            out += ("" if out.endswith(("？", "。")) else _pick(rng, ["，", "、", "。", " "])) + p
        return out if out.endswith(("？", "。")) else out + "。"
    out = parts[0][:1].upper() + parts[0][1:]
    for p in parts[1:]:
        sep = "" if out.endswith("?") else _pick(rng, [", ", " and ", "; ", ". "])
        out += (" " if out.endswith("?") else sep) + (p[:1].upper() + p[1:] if sep == ". " or out.endswith("?") else p)
    return out if out.endswith(("?", ".")) else out + "."
