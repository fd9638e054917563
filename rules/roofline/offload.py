"""Partial offload: weights that do not fit the GPUs stay in system RAM and are read from there.

llama.cpp (and Ollama on it) keeps the first layers on the GPU and the rest on the CPU (`-ngl N`), or,
for a MoE model, keeps attention and the shared weights on the GPU and the routed-expert tensors of
the first N layers in RAM (`--n-cpu-moe N`, or `-ot` patterns); see the engine catalog's hybrid_cpu
entry. Decode is then two memory streams one after the other:

    time per token = GPU-resident bytes read / GPU bandwidth + RAM-resident bytes read / RAM bandwidth

A dense model reads every weight per token; a MoE model reads its non-expert weights and only the
experts the token is routed to, so only those experts' bytes in RAM cost RAM bandwidth.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.catalog_schema import Hardware, ModelSpec
from rules.roofline.figure import gb
from rules.roofline.memory import expert_bits, experts_touched, step_weight_bytes, weight_bytes

HYBRID_ENGINES = frozenset({"llama.cpp", "ollama"})
"""Engines that compute offloaded layers or experts on the CPU (catalog: hybrid_cpu)."""

HOST_FOR_CLASS = {"datacenter": "cpu_server_generic"}
"""The host a GPU of this class sits in when none is stated: servers have 8-channel DDR5
(hardware catalog cpu_server_generic, 307.2 GB/s); every other GPU a desktop with dual-channel
DDR5-5600 (cpu_desktop_amd, 89.6 GB/s; DDR5 per JEDEC JESD79-5)."""
DEFAULT_HOST = "cpu_desktop_amd"
DDR4_HOST = "cpu_desktop_ddr4"
DDR4_ERA_ARCHS = ("Ampere", "Turing", "Pascal", "Volta", "Maxwell")
"""Consumer and workstation GPUs of these generations (2020 and before) sit in DDR4 desktops: AM4 and
LGA1200 boards take only DDR4 (dual-channel DDR4-3200, 51.2 GB/s; cpu_desktop_ddr4)."""

HOST_BW_EFFICIENCY = 0.5
"""Share of the host's datasheet bandwidth llama.cpp's CPU matrix-vector kernels stream at: Qwen3-30B-A3B
Q4_K_M decodes at 10.6 tok/s CPU-only on an i7-8700 (dual-channel DDR4-2666, 42.7 GB/s), reading about
2.0 GB per token = 21 GB/s, half the datasheet figure (https://inventivehq.com/blog/moe-on-cpu-benchmark)."""


@dataclass(frozen=True)
class Split:
    """Where the weights live and what one decode token reads from each memory."""

    gpu_bytes: float
    ram_bytes: float
    gpu_read: float
    """Bytes one token reads from GPU memory (batch 1)."""
    ram_read: float
    """Bytes one token reads from system RAM (MoE: only the routed experts kept there)."""
    ngl: int | None
    """Dense (or MoE whose shared weights do not fit): layers on the GPU, `-ngl N`."""
    n_cpu_moe: int | None
    """MoE: layers whose expert tensors stay in RAM, `--n-cpu-moe N`."""
    why: str


def host_for(hw: Hardware) -> str:
    """Catalog id of the host whose RAM holds the offloaded weights."""
    if hw.hw_class in HOST_FOR_CLASS:
        return HOST_FOR_CLASS[hw.hw_class]
    arch = (hw.arch or "").split()[0] if hw.arch else ""
    return DDR4_HOST if hw.platform == "nvidia-cuda" and arch in DDR4_ERA_ARCHS else DEFAULT_HOST


def split(model: ModelSpec, quant: str, engine: str | None, room: float) -> Split | None:
    """How the weights divide between `room` bytes of GPU memory (all devices of a replica, after the
    reserve and one sequence's KV cache) and system RAM; None when they fit or nothing fits the GPU."""
    total = weight_bytes(model, quant, engine).value
    if total <= room or room <= 0:
        return None
    read = step_weight_bytes(model, quant, 1, engine).value
    if model.architecture == "moe" and model.moe_layers:
        b_ne, b_e = expert_bits(model, quant, engine)
        experts = model.routed_expert_params_b * 1e9 * b_e / 8
        shared = total - experts
        if shared < room:   # attention and shared weights on the GPU, experts of n layers in RAM
            per_layer = experts / model.moe_layers
            on_gpu = min(model.moe_layers, int((room - shared) // per_layer))
            n_cpu = model.moe_layers - on_gpu
            ram = n_cpu * per_layer
            active = experts * experts_touched(model, 1).value
            ram_read = active * n_cpu / model.moe_layers
            return Split(total - ram, ram, read - ram_read, ram_read, None, n_cpu,
                         f"--n-cpu-moe {n_cpu}: the experts of {n_cpu} of {model.moe_layers} MoE layers "
                         f"({gb(ram):.1f} GB) stay in system RAM; a token reads {gb(ram_read):.2f} GB of them")
    per_layer = total / model.layers
    ngl = max(0, min(model.layers, int(room // per_layer)))
    ram = total - ngl * per_layer
    ram_read = read * ram / total
    return Split(total - ram, ram, read - ram_read, ram_read, ngl, None,
                 f"-ngl {ngl}: {ngl} of {model.layers} layers on the GPU, {gb(ram):.1f} GB in system RAM, "
                 f"all of it read every token")


def ram_seconds(s: Split, bw_gbs: float, name: str) -> tuple[float, str]:
    """Seconds per token spent streaming the RAM-resident weights from a host of `bw_gbs`, with the formula."""
    bw = HOST_BW_EFFICIENCY * bw_gbs * 1e9
    t = s.ram_read / bw
    return t, (f"system RAM: {gb(s.ram_read):.2f} GB per token / ({HOST_BW_EFFICIENCY:g} x {bw_gbs:g} GB/s, "
               f"{name}) = {t * 1e3:.1f} ms")


BYTES_PER_TRANSFER = 8
"""A DDR4/DDR5 channel (one DIMM slot's, DDR5's two 32-bit subchannels together) moves 64 bits per transfer,
so its peak is MT/s x 8 bytes: DDR4-3200 = 25.6 GB/s, DDR5-4800 = 38.4 GB/s per channel (JEDEC JESD79-4 and
JESD79-5; https://en.wikipedia.org/wiki/DDR5_SDRAM)."""
DEFAULT_MTS = {"ddr4": 3200, "ddr5": 5600}
"""Transfer rate assumed when only the type is stated: the catalog's desktop hosts (cpu_desktop_ddr4, cpu_desktop_amd)."""


def host_bandwidth(mts: int, channels: int) -> tuple[float, str]:
    """Peak bandwidth of `channels` DDR channels at `mts` MT/s, GB/s, with the formula."""
    bw = round(channels * mts * BYTES_PER_TRANSFER / 1000, 1)
    return bw, f"{channels} channels x {mts} MT/s x 8 bytes = {bw:g} GB/s"


def stated_host(mem_type: str | None, mts: int | None, channels: int | None, hw: Hardware) -> tuple[float, str] | None:
    """(GB/s, description) of the host RAM the user described, None when they said nothing about it. What is
    missing comes from the host a GPU of this class is assumed to sit in: a server's 8 channels or a desktop's
    two, and the type's common speed. One socket's channels: llama.cpp's threads do not add a second
    socket's bandwidth across NUMA nodes."""
    if not (mem_type or mts or channels) or (hw.hw_class == "cpu" and not channels):
        return None   # a CPU's own catalog entry already has its channels; only a stated count replaces it
    default = host_for(hw)
    kind = mem_type or ("ddr4" if default == DDR4_HOST else "ddr5")
    mts = mts or DEFAULT_MTS[kind]
    channels = channels or (8 if default in HOST_FOR_CLASS.values() else 2)
    bw, why = host_bandwidth(mts, channels)
    return bw, f"stated host RAM, {kind.upper()}-{mts}: {why}"
