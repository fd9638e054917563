"""The launch command that expresses a plan, per engine (rendered from the plan's data).

Flag names were checked against each engine's own documentation:
- vLLM engine arguments and the data/expert parallel deployment pages:
  https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/ ,
  https://docs.vllm.ai/en/latest/serving/expert_parallel_deployment/ (--tensor-parallel-size,
  --pipeline-parallel-size, --data-parallel-size, --enable-expert-parallel, --kv-cache-dtype,
  --max-model-len, --max-num-seqs, --quantization; across nodes --data-parallel-size-local,
  --data-parallel-address, --data-parallel-rpc-port, and --headless --data-parallel-start-rank on the others).
- SGLang server arguments: https://docs.sglang.io/advanced_features/server_arguments.html and
  https://docs.sglang.io/cookbook/base/reference/server_arguments (--tp-size, --pp-size, --dp-size,
  --ep-size, --enable-dp-attention, --kv-cache-dtype fp8_e4m3, --context-length, --max-running-requests, --nnodes,
  --node-rank, --dist-init-addr); PD mode: https://docs.sglang.io/advanced_features/pd_disaggregation.html
  (--disaggregation-mode prefill|decode).
- trtllm-serve: https://nvidia.github.io/TensorRT-LLM/commands/trtllm-serve/trtllm-serve.html
  (--tp_size, --pp_size, --ep_size, --max_batch_size, --max_seq_len, --extra_llm_api_options
  with kv_cache_config.dtype and enable_attention_dp; newer releases also accept --config).
- llama-server: https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md and
  docs/multi-gpu.md (-ngl, --numa distribute for one process over several CPU sockets, --split-mode layer|row, --tensor-split, --parallel, --ctx-size is the
  total shared by the slots, --cache-type-k/-v; a quantized V cache needs --flash-attn on).
- Ollama FAQ: https://github.com/ollama/ollama/blob/main/docs/faq.md (OLLAMA_NUM_PARALLEL,
  OLLAMA_KV_CACHE_TYPE with OLLAMA_FLASH_ATTENTION=1); https://docs.ollama.com/context-length
  (OLLAMA_CONTEXT_LENGTH: its default is 4K under 24 GiB of VRAM and prompts beyond it are cut).
- TabbyAPI (the server for ExLlamaV2/V3): its CLI arguments are the config.yml model fields with
  dashes (common/args.py, common/config_models.py in theroyallab/tabbyAPI): --model-name, --backend
  exllamav2|exllamav3, --max-seq-len, --max-batch-size, --tensor-parallel; CLI values override config.yml.
- mlx_lm.server: https://github.com/ml-explore/mlx-lm/blob/main/mlx_lm/server.py (--model,
  --decode-concurrency: requests decoded together).
- LoRA serving: vLLM https://docs.vllm.ai/en/latest/features/lora.html (--enable-lora, --max-loras, --max-cpu-loras,
  --max-lora-rank, --lora-modules); SGLang https://docs.sglang.io/advanced_features/lora.html (--enable-lora,
  --max-loras-per-batch, --lora-paths).
- Dynamo workers take their backend's engine arguments: python -m dynamo.vllm / dynamo.sglang,
  https://docs.nvidia.com/dynamo/latest/user-guides/disaggregated-serving
"""
from __future__ import annotations

from rules.catalog_schema import ModelSpec
from rules.plan.schema import Candidate

PLACEHOLDER_GGUF = "<model>.gguf"
SOURCES = {
    "vllm": "https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/",
    "sglang": "https://docs.sglang.io/advanced_features/server_arguments.html",
    "tensorrt-llm": "https://nvidia.github.io/TensorRT-LLM/commands/trtllm-serve/trtllm-serve.html",
    "llama.cpp": "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md",
    "ollama": "https://github.com/ollama/ollama/blob/main/docs/faq.md",
    "dynamo": "https://docs.nvidia.com/dynamo/latest/user-guides/disaggregated-serving",
    "exllamav2": "https://github.com/theroyallab/tabbyAPI/blob/main/common/config_models.py",
    "exllamav3": "https://github.com/theroyallab/tabbyAPI/blob/main/common/config_models.py",
    "mlx-lm": "https://github.com/ml-explore/mlx-lm/blob/main/mlx_lm/server.py",
}
"""Where each engine documents the flags used in its command."""
DOCUMENTED = {
    "vllm": {"--tensor-parallel-size", "--pipeline-parallel-size", "--data-parallel-size", "--enable-expert-parallel",
             "--data-parallel-size-local", "--data-parallel-address", "--data-parallel-rpc-port", "--quantization", "--kv-cache-dtype", "--max-model-len", "--max-num-seqs",
             "--enable-lora", "--max-loras", "--max-cpu-loras",
             "--hf-overrides"},   # RoPE scaling (rules.context_window): docs.vllm.ai features/context_extension
    "dynamo": {"--model", "--tensor-parallel-size", "--pipeline-parallel-size", "--data-parallel-size",
               "--enable-expert-parallel", "--data-parallel-size-local", "--data-parallel-address",
               "--data-parallel-rpc-port", "--quantization", "--kv-cache-dtype", "--max-model-len", "--max-num-seqs",
               "--enable-lora", "--max-loras", "--max-cpu-loras", "--hf-overrides"},
    "sglang": {"--model-path", "--tp-size", "--pp-size", "--dp-size", "--ep-size", "--enable-dp-attention", "--quantization",
               "--kv-cache-dtype", "--context-length", "--max-running-requests", "--nnodes", "--node-rank", "--dist-init-addr",
               "--enable-lora", "--max-loras-per-batch",
               "--json-model-override-args"},   # RoPE scaling, as the Qwen model cards launch it
    "tensorrt-llm": {"--tp_size", "--pp_size", "--ep_size", "--max_batch_size", "--max_seq_len",
                     "--extra_llm_api_options"},
    # --n-cpu-moe N: the expert tensors of the first N layers stay in RAM (ggml-org/llama.cpp PR #15077)
    "llama.cpp": {"-m", "-ngl", "--n-cpu-moe", "--numa", "--split-mode", "--tensor-split", "--parallel", "--ctx-size",
                  "--flash-attn", "--cache-type-k", "--cache-type-v", "--rope-scaling", "--rope-scale", "--yarn-orig-ctx"},
    "ollama": set(),
    "exllamav2": {"--model-name", "--backend", "--max-seq-len", "--max-batch-size", "--tensor-parallel"},
    "exllamav3": {"--model-name", "--backend", "--max-seq-len", "--max-batch-size", "--tensor-parallel"},
    "mlx-lm": {"--model", "--decode-concurrency"},
}
"""Every flag the commands may use, as checked in the documentation above (tests hold them to it)."""


def flag_values(command: str) -> dict[str, str]:
    """Flag -> value of a command line ("" for a switch), e.g. {"--tensor-parallel-size": "4"}."""
    words = command.split("#", 1)[0].split()
    if words[:2] == ["python", "-m"]:   # the interpreter's -m names the program, not a flag of it
        words = words[3:]
    out = {}
    for i, w in enumerate(words):
        if w.startswith("-") and len(w) > 1:
            nxt = words[i + 1] if i + 1 < len(words) else ""
            out[w] = nxt if nxt and not nxt.startswith("-") else ""
    return out


Note = tuple[str, dict]
"""A remark on a command: a code and its values (rendered in the user's language by `note_text`)."""
NOTES = {
    "checkpoint": {"en": "load a {quant} checkpoint of {model} (this engine does not convert at load time)",
                   "zh": "請載入 {model} 的 {quant} 版本權重（此引擎不會在載入時轉換）"},
    "built": {"en": "{repo} is a published {quant} build of {model}: the engine reads its format from the checkpoint "
                    "(no --quantization flag needed)",
              "zh": "{repo} 是 {model} 已發佈的 {quant} 版本：引擎會從權重本身讀出格式（不需要 --quantization）"},
    "lora": {"en": "adapters load on request: up to {gpu} share a batch on the GPU, the others wait in host RAM (all {all} "
                   "listed with --lora-modules name=path, or loaded at run time); set --max-lora-rank to your adapters' "
                   "largest rank",
             "zh": "adapter 依請求載入：同一批次在 GPU 上最多 {gpu} 個，其餘放在主機記憶體（{all} 個都以 --lora-modules "
                   "name=path 列出，或執行時載入）；--max-lora-rank 設成您 adapter 的最大 rank"},
    "instances": {"en": "run {n} instances, one per group of {group} devices, behind a load balancer",
                  "zh": "開 {n} 個執行個體，每組 {group} 個裝置一個，前面加負載平衡"},
    "ray": {"en": "start it on the head node of a Ray cluster that spans the nodes",
            "zh": "在跨節點 Ray 叢集的主節點上啟動"},
    "ctx-shared": {"en": "--ctx-size is shared by the {seqs} slots: {ctx} tokens each",
                   "zh": "--ctx-size 由 {seqs} 個 slot 平分：每個 {ctx} tokens"},
    "ollama-split": {"en": "OLLAMA_SCHED_SPREAD=1 makes Ollama split the layers over every GPU it sees, even for a "
                           "model that fits one",
                     "zh": "OLLAMA_SCHED_SPREAD=1 讓 Ollama 把各層分散到看得到的所有 GPU，即使模型一張放得下"},
    "trt-extra": {"en": "extra.yaml holds: {lines} (newer releases take it with --config)",
                  "zh": "extra.yaml 內容：{lines}（新版以 --config 傳入）"},
    "dp-rank-seqs": {"en": "--max-num-seqs counts per data-parallel rank: {ranks} ranks x {each} = {total} requests at once",
                     "zh": "--max-num-seqs 是每個資料平行 rank 各自的上限：{ranks} 個 rank × {each} = 同時 {total} 個請求"},
    "vllm-dp-nodes": {"en": "on the other {span_rest} node(s) run the same command with --headless and "
                            "--data-parallel-start-rank {local} x the node's index",
                      "zh": "其餘 {span_rest} 個節點執行同一指令，加上 --headless 與 --data-parallel-start-rank（{local} × 節點序號）"},
    "numa-span": {"en": "one copy spans every socket's memory: decode reads all sockets' RAM at once, but cross-socket "
                        "(NUMA) traffic keeps the gain below the sum; drop the page cache (echo 3 > /proc/sys/vm/drop_caches) "
                        "before the first load so the weights spread over the NUMA nodes",
                  "zh": "模型只放一份並橫跨所有插槽的記憶體：解碼同時讀取各插槽的 RAM，但跨插槽（NUMA）存取讓提升低於總和；"
                        "首次載入前先清 page cache（echo 3 > /proc/sys/vm/drop_caches），讓權重分散到各 NUMA 節點"},
    "numa-pin": {"en": "one copy per socket: pin each process to its own NUMA node (numactl -N <n> -m <n>); each socket's "
                       "share of the RAM must hold a whole copy",
                 "zh": "每個插槽各放一份：以 numactl -N <n> -m <n> 把各程序綁在自己的 NUMA 節點；每個插槽分到的記憶體須放得下整份模型"},
    "gcds": {"en": "each {device} is {gcds} GPUs (GCDs) to ROCm: the tensor-parallel size counts GCDs, {gpus} in all",
             "zh": "每張 {device} 在 ROCm 下是 {gcds} 個 GPU（GCD）：tensor parallel 大小以 GCD 計，共 {gpus} 個"},
    "multi-node": {"en": "run the same command on each of the {span} nodes with its --node-rank",
                   "zh": "在 {span} 個節點上各執行同一指令，帶各自的 --node-rank"},
    "tabby": {"en": "run it from a TabbyAPI checkout (the server for ExLlama); models/{folder} holds a {quant} "
                    "quant of {model}",
              "zh": "在 TabbyAPI（ExLlama 的伺服器）目錄下執行；models/{folder} 放 {model} 的 {quant} 量化版本"},
    "mlx": {"en": "--model takes an MLX conversion of {model} at {quant} (a folder or a Hugging Face repo)",
            "zh": "--model 請指向 {model} 的 MLX 轉換版（{quant}；本機資料夾或 Hugging Face repo）"},
}


def note_text(note: Note, lang: str) -> str:
    """A remark in words."""
    code, values = note
    return NOTES[code][lang].format(**values)


def _repo(spec: ModelSpec) -> str:
    return spec.hf_id or spec.id


ON_THE_FLY_FP8 = frozenset({"vllm", "sglang", "dynamo"})
"""Engines that quantize a 16-bit checkpoint to FP8 at load time (--quantization fp8)."""


def _on_the_fly(spec: ModelSpec, quant: str, engine: str = "vllm") -> bool:
    """FP8 weights made at load time from a 16-bit checkpoint."""
    return engine in ON_THE_FLY_FP8 and quant == "fp8" and spec.native_dtype in ("bf16", "f16")


FORMAT_NAMES = {"awq": "AWQ", "gptq-4bit": "GPTQ 4-bit", "int4": "AWQ/GPTQ 4-bit", "int8": "INT8",
                "fp8": "FP8", "nvfp4": "NVFP4", "mxfp4": "MXFP4"}
"""How a quantized checkpoint's format is named where the command needs the user to bring one."""
SAME_WIDTH = {"int4": ("awq", "gptq-4bit")}
"""A bare width is served by the engine's own 4-bit formats: a published AWQ or GPTQ build of the model."""


SIXTEEN_BIT = frozenset({"bf16", "f16", "fp32"})
"""Widths an engine casts a 16/32-bit checkpoint to at load time (its dtype setting): the model's own repo."""


def _own(spec: ModelSpec, quant: str) -> bool:
    """The checkpoint as published serves this format (a 16-bit repo serves BF16 or FP16 alike)."""
    return quant == spec.native_dtype or quant in SIXTEEN_BIT and spec.native_dtype in SIXTEEN_BIT


def _build(spec: ModelSpec, quant: str) -> str | None:
    """A published quantized build of the checkpoint being served, in this format (catalog `quant_repos`)."""
    builds = spec.quant_repos.get(_repo(spec), {})
    return next((builds[q] for q in SAME_WIDTH.get(quant, (quant,)) if q in builds), None)


def _served(spec: ModelSpec, quant: str, engine: str = "vllm") -> tuple[str, bool]:
    """(the checkpoint the command loads, whether the engine quantizes it at load time). A format that is not the
    model's own loads a published build of it (an official FP8 release beats FP8 made at load time), else a
    placeholder naming the format, never the 16-bit repo (r6-en-15/17/18: an AWQ plan launched on the BF16 repo)."""
    repo = _repo(spec)
    if _own(spec, quant):
        return repo, False
    built = _build(spec, quant)
    if built:
        return built, False
    if _on_the_fly(spec, quant, engine):
        return repo, True
    if repo.startswith("<"):
        return repo, False
    return f"<{FORMAT_NAMES.get(quant, quant)} checkpoint of {repo}>", False


def _checkpoint(spec: ModelSpec, quant: str, engine: str = "vllm") -> list[Note]:
    """A checkpoint remark when the format is not the model's own and cannot be made at load time."""
    if _own(spec, quant) or _on_the_fly(spec, quant, engine) and not _build(spec, quant):
        return []
    built = _build(spec, quant)
    if built:   # name the build's own format (a bare int4 is served by whichever 4-bit build exists)
        builds = spec.quant_repos.get(_repo(spec), {})
        fmt = next((q for q in SAME_WIDTH.get(quant, (quant,)) if builds.get(q) == built), quant)
        return [("built", {"quant": FORMAT_NAMES.get(fmt, fmt), "repo": built, "model": spec.name})]
    return [("checkpoint", {"quant": FORMAT_NAMES.get(quant, quant), "model": spec.name})]


def _lora(engine: str, loras: int | None, seqs: int) -> tuple[list[str], list[Note]]:
    """Flags that let the server apply adapters (vLLM: --enable-lora, --max-loras adapters per batch on the GPU,
    --max-cpu-loras kept in host RAM; SGLang: --enable-lora, --max-loras-per-batch) and the remark on their rank."""
    if not loras:
        return [], []
    on_gpu = max(1, min(loras, seqs, MAX_LORAS_PER_BATCH))
    if engine in ("vllm", "dynamo"):
        flags = ["--enable-lora", f"--max-loras {on_gpu}"] + ([f"--max-cpu-loras {loras}"] if loras > on_gpu else [])
    elif engine == "sglang":
        flags = ["--enable-lora", f"--max-loras-per-batch {on_gpu}"]
    else:
        return [], []
    return flags, [("lora", {"gpu": on_gpu, "all": loras})]


MAX_LORAS_PER_BATCH = 8
"""Adapters one batch may mix on the GPU: SGLang's default --max-loras-per-batch (8); vLLM reserves GPU memory per
slot (--max-loras, default 1), so the plan asks for the same 8 at most, and keeps the rest in host RAM."""


SEQ_CEILING = 256
"""vLLM's V0 default --max-num-seqs: the admission cap never goes above it unless the load does."""


PAGED_ENGINES = frozenset({"vllm", "sglang", "dynamo"})
"""Engines whose KV cache is one paged pool: a higher admission cap reserves nothing up front (the slot
engines and MLX size their buffers or batches by it, so they keep the load's share)."""


def per_replica_seqs(c: Candidate, load: int, paged: bool = False, limit: int | None = None) -> int:
    """Sequences each replica should admit: what its memory holds, at least its share of the load when that
    fits. A cap at the stated load would recreate the ceiling a user reports ("we top out at 16 at once")
    although the KV cache holds more; admitting up to the memory's capacity costs nothing when fewer come."""
    share = -(-load // c.layout.dp)
    held = max(c.figures.max_concurrency, c.figures.in_service if load >= c.figures.in_service else 0)
    cap = held // c.layout.dp if held else share
    if not cap:
        return max(1, share)
    if not paged:
        return max(1, min(share, cap))
    if limit:   # a stated per-token latency target: admit the batch that meets it, not what memory holds
        return max(1, min(cap, -(-limit // c.layout.dp)))
    return max(1, min(cap, max(share, SEQ_CEILING)))


def _instances(c: Candidate) -> list[Note]:
    return [("instances", {"n": c.layout.dp, "group": c.layout.replica_devices})]


def _gcd_note(c: Candidate, gcds: int, device: str) -> list[Note]:
    return [("gcds", {"device": device, "gcds": gcds, "gpus": c.layout.replica_devices * gcds})] if gcds > 1 else []


def vllm(c: Candidate, spec: ModelSpec, ctx: int, seqs: int, nodes: int,
         per_node: int | None = None, gcds: int = 1) -> tuple[str, list[Note]]:
    lay = c.layout
    group = lay.tp * lay.ep * gcds
    repo, online = _served(spec, c.quantization)
    parts = [f"vllm serve {repo}"]
    if lay.attention_dp:
        # attention data-parallel: one engine per GPU (DP rank); the experts form one TP group across the
        # ranks, or an EP group with --enable-expert-parallel (vLLM data/expert parallel deployment docs)
        parts.append(f"--data-parallel-size {group}")
        if lay.ep > 1:
            parts.append("--enable-expert-parallel")
        if online:
            parts.append("--quantization fp8")
        if c.kv_cache_dtype == "fp8":
            parts.append("--kv-cache-dtype fp8")
        each = max(1, -(-seqs // group))
        parts += [f"--max-model-len {ctx}", f"--max-num-seqs {each}"]
        notes = _instances(c) if lay.dp > 1 else []
        if group > 1:   # read as a total, the per-rank cap looks far below the load (r6-zh-05: 10 for 60 users)
            notes.append(("dp-rank-seqs", {"ranks": group, "each": each, "total": each * group}))
        if per_node and group > per_node:   # the ranks span nodes: each node runs its share of them
            parts.append(f"--data-parallel-size-local {per_node} --data-parallel-address HEAD "
                         "--data-parallel-rpc-port PORT")
            notes.append(("vllm-dp-nodes", {"span_rest": group // per_node - 1, "local": per_node}))
        return " ".join(parts), notes + _checkpoint(spec, c.quantization)
    if group > 1:
        parts.append(f"--tensor-parallel-size {group}")
    if lay.pp > 1:
        parts.append(f"--pipeline-parallel-size {lay.pp}")
    if lay.ep > 1:
        parts.append("--enable-expert-parallel")
    if lay.dp > 1 and lay.ep == 1:
        parts.append(f"--data-parallel-size {lay.dp}")
    if online:
        parts.append("--quantization fp8")
    if c.kv_cache_dtype == "fp8":
        parts.append("--kv-cache-dtype fp8")
    parts += [f"--max-model-len {ctx}", f"--max-num-seqs {seqs}"]
    notes: list[Note] = []
    if lay.dp > 1 and lay.ep > 1:   # EP with DP would join all ranks into one expert group
        notes += _instances(c)
    if lay.replica_devices > 1 and nodes > 1 and lay.pp > 1:
        notes.append(("ray", {}))
    return " ".join(parts), notes + _checkpoint(spec, c.quantization)


def sglang(c: Candidate, spec: ModelSpec, ctx: int, seqs: int, per_node: int, gcds: int = 1) -> tuple[str, list[Note]]:
    lay = c.layout
    group = lay.tp * lay.ep * gcds
    repo, online = _served(spec, c.quantization, "sglang")
    parts = [f"python -m sglang.launch_server --model-path {repo}"]
    if group > 1:
        parts.append(f"--tp-size {group}")
    if lay.ep > 1:
        parts.append(f"--ep-size {lay.ep}")
    if lay.attention_dp:   # attention data-parallel over the TP group (SGLang's DeepSeek usage page)
        parts.append(f"--dp-size {group} --enable-dp-attention")
    if lay.pp > 1:
        parts.append(f"--pp-size {lay.pp}")
    if lay.dp > 1 and lay.ep == 1:
        parts.append(f"--dp-size {lay.dp}")
    if online:
        parts.append("--quantization fp8")
    if c.kv_cache_dtype == "fp8":
        parts.append("--kv-cache-dtype fp8_e4m3")
    parts += [f"--context-length {ctx}", f"--max-running-requests {seqs * (lay.dp if lay.ep == 1 else 1)}"]
    notes: list[Note] = _instances(c) if lay.dp > 1 and lay.ep > 1 else []
    if lay.replica_devices > per_node:
        span = -(-lay.replica_devices // per_node)
        parts.append(f"--nnodes {span} --dist-init-addr HEAD:PORT --node-rank RANK")
        notes.append(("multi-node", {"span": span}))
    return " ".join(parts), notes + _checkpoint(spec, c.quantization, "sglang")


def trtllm(c: Candidate, spec: ModelSpec, ctx: int, seqs: int) -> tuple[str, list[Note]]:
    lay = c.layout
    group = lay.tp * lay.ep
    parts = [f"trtllm-serve {_served(spec, c.quantization, 'tensorrt-llm')[0]}"]
    if group > 1:
        parts.append(f"--tp_size {group}")
    if lay.pp > 1:
        parts.append(f"--pp_size {lay.pp}")
    if lay.ep > 1:
        parts.append(f"--ep_size {lay.ep}")
    parts += [f"--max_batch_size {seqs}", f"--max_seq_len {ctx}"]
    notes: list[Note] = _instances(c) if lay.dp > 1 else []
    if c.kv_cache_dtype == "fp8" or lay.attention_dp:
        parts.append("--extra_llm_api_options extra.yaml")
        lines = (["kv_cache_config: {dtype: fp8}"] if c.kv_cache_dtype == "fp8" else []) + \
            (["enable_attention_dp: true"] if lay.attention_dp else [])
        notes.append(("trt-extra", {"lines": "; ".join(lines)}))
    return " ".join(parts), notes + _checkpoint(spec, c.quantization, "tensorrt-llm")


def llama_cpp(c: Candidate, spec: ModelSpec, ctx: int, seqs: int, cpu_only: bool = False) -> tuple[str, list[Note]]:
    lay = c.layout
    # what does not fit the GPUs stays in system RAM: layers (-ngl N) or MoE experts (--n-cpu-moe N);
    # a CPU-only box has nothing to offload to and no GPUs to split over
    gpu = "" if cpu_only else f" {c.figures.offload_flag or '-ngl 999'}"
    parts = [f"llama-server -m {PLACEHOLDER_GGUF}{gpu}"]
    devices = lay.replica_devices
    if devices > 1 and not cpu_only:
        parts.append(f"--split-mode {'row' if lay.tp > 1 else 'layer'} --tensor-split {','.join(['1'] * devices)}")
    if devices > 1 and cpu_only:   # one process over every socket: threads and pages spread over the NUMA nodes
        parts.append("--numa distribute")
    parts += [f"--parallel {seqs}", f"--ctx-size {ctx * seqs}"]
    if c.kv_cache_dtype == "q8_0":
        parts.append("--flash-attn on --cache-type-k q8_0 --cache-type-v q8_0")
    notes: list[Note] = [("ctx-shared", {"seqs": seqs, "ctx": ctx})]
    if cpu_only and (devices > 1 or lay.dp > 1):
        notes.append(("numa-span", {}) if devices > 1 else ("numa-pin", {}))
    return " ".join(parts), (_instances(c) if lay.dp > 1 else []) + notes


def tabby(engine: str, c: Candidate, spec: ModelSpec, ctx: int, seqs: int) -> tuple[str, list[Note]]:
    """TabbyAPI serving an EXL2/EXL3 quant; layers are split over the GPUs by its autosplit unless TP."""
    lay = c.layout
    folder = f"<model>-exl{engine[-1]}"   # exllamav2 loads EXL2 quants, exllamav3 EXL3
    parts = [f"python main.py --model-name {folder} --backend {engine} --max-seq-len {ctx} --max-batch-size {seqs}"]
    if lay.tp > 1:
        parts.append("--tensor-parallel True")
    notes: list[Note] = [("tabby", {"folder": folder, "quant": c.quantization, "model": spec.name})]
    return " ".join(parts), (_instances(c) if lay.dp > 1 else []) + notes


def mlx_lm(c: Candidate, spec: ModelSpec, seqs: int) -> tuple[str, list[Note]] | None:
    """mlx_lm.server on one Mac (a model split over several Macs is started with mlx.launch: not written here)."""
    if c.layout.replica_devices > 1:
        return None
    cmd = f"mlx_lm.server --model {_repo(spec)} --decode-concurrency {seqs}"
    return cmd, (_instances(c) if c.layout.dp > 1 else []) + [("mlx", {"model": spec.name, "quant": c.quantization})]


def ollama(c: Candidate, ctx: int, seqs: int) -> tuple[str, list[Note]]:
    env = [f"OLLAMA_CONTEXT_LENGTH={ctx}", f"OLLAMA_NUM_PARALLEL={seqs}"]
    if c.kv_cache_dtype == "q8_0":
        env += ["OLLAMA_FLASH_ATTENTION=1", "OLLAMA_KV_CACHE_TYPE=q8_0"]
    if c.layout.replica_devices == 1:   # one GPU: where Ollama puts a model that fits one by itself
        return " ".join(env) + " ollama serve", []
    # a model that fits one GPU stays on one unless told to spread (engine catalog: single_server)
    return " ".join(["OLLAMA_SCHED_SPREAD=1", *env]) + " ollama serve", [("ollama-split", {})]


SLOT_ENGINES = frozenset({"llama.cpp", "ollama"})
"""Engines that allocate a whole context window per parallel slot at start-up (llama-server's
--ctx-size is the total shared by its slots; Ollama multiplies its context by OLLAMA_NUM_PARALLEL)."""


def command(engine: str, c: Candidate, spec: ModelSpec, ctx: int, load: int, nodes: int,
            per_node: int, slots: int | None = None, cpu_only: bool = False, gcds: int = 1,
            device: str = "", loras: int | None = None, limit: int | None = None) -> tuple[str, list[Note]] | None:
    """The launch command for `engine` (with the adapter flags when `loras` adapters are served) and its remarks;
    `limit`: the batch a stated per-token latency target allows (the admission cap of paged engines)."""
    found = _command(engine, c, spec, ctx, load, nodes, per_node, slots, cpu_only, gcds, device, limit)
    if found is None or not loras:
        return found
    cmd, notes = found
    extra, more = _lora(engine, loras, per_replica_seqs(c, load, engine in PAGED_ENGINES, limit))
    if not extra:
        return found
    head, sep, tail = cmd.partition(" --max-model-len") if engine != "sglang" else cmd.partition(" --context-length")
    return (head + " " + " ".join(extra) + sep + tail if sep else cmd + " " + " ".join(extra)), notes + more


def _command(engine: str, c: Candidate, spec: ModelSpec, ctx: int, load: int, nodes: int,
             per_node: int, slots: int | None = None, cpu_only: bool = False, gcds: int = 1,
             device: str = "", limit: int | None = None) -> tuple[str, list[Note]] | None:
    """The launch command for `engine` and its remarks, or None when the catalog holds no flags for it.
    `slots`: how many whole windows the memory holds (bounds the slot engines' parallel requests);
    `gcds`: GPUs per package the engine sees (MI250: 2), which its tensor-parallel size counts."""
    seqs = per_replica_seqs(c, load, engine in PAGED_ENGINES, limit)
    if gcds > 1 and engine in ("vllm", "sglang"):
        cmd, notes = (vllm(c, spec, ctx, seqs, nodes, per_node, gcds) if engine == "vllm"
                      else sglang(c, spec, ctx, seqs, per_node, gcds))
        return cmd, notes + _gcd_note(c, gcds, device)
    if engine in SLOT_ENGINES and slots:
        seqs = max(1, min(seqs, slots // c.layout.dp))
    if engine == "vllm":
        return vllm(c, spec, ctx, seqs, nodes, per_node)
    if engine == "sglang":
        return sglang(c, spec, ctx, seqs, per_node)
    if engine == "tensorrt-llm":
        return trtllm(c, spec, ctx, seqs)
    if engine == "llama.cpp":
        return llama_cpp(c, spec, ctx, seqs, cpu_only)
    if engine == "ollama":
        return ollama(c, ctx, seqs)
    if engine in ("exllamav2", "exllamav3"):
        return tabby(engine, c, spec, ctx, seqs)
    if engine == "mlx-lm":
        return mlx_lm(c, spec, seqs)
    if engine == "dynamo":
        inner, notes = vllm(c, spec, ctx, seqs, nodes, per_node)
        return inner.replace("vllm serve ", "python -m dynamo.vllm --model ", 1), notes
    return None


def commands(engines: tuple[str, ...], c: Candidate, spec: ModelSpec, ctx: int, load: int, nodes: int,
             per_node: int, slots: int | None = None, cpu_only: bool = False, gcds: int = 1,
             device: str = "", loras: int | None = None,
             limit: int | None = None) -> tuple[dict[str, str], dict[str, dict[str, list[str]]]]:
    """({engine: command}, {engine: {lang: remarks}}) for every engine that has flags for this layout."""
    cmds, remarks = {}, {}
    from rules import context_window
    w = context_window.window(spec, ctx)   # beyond the config's window: the RoPE scaling the model card documents
    for e in engines:
        found = command(e, c, spec, ctx, load, nodes, per_node, slots, cpu_only, gcds, device, loras, limit)
        if found:
            cmds[e], notes = found
            rope = context_window.rope_flags(e, w) if w else None
            if rope:
                cmds[e] += " " + rope
            if notes:
                remarks[e] = {lang: [note_text(n, lang) for n in notes] for lang in ("en", "zh")}
    return cmds, remarks
