"""Built-in checks a rule can run against the engine catalog (`effects.check`).

Each returns what the rule applies: engines to exclude (hardware support) or engines to
penalise (no kernel for the chosen quantization), with the catalog's own reasons.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules import catalog, engines
from rules.ids import ENGINES

QUANT_PENALTY = -3
"""Points taken from an engine that can load the format but has no optimized kernel for it."""
QUANT_MISSING_PENALTY = -6
"""Points taken from an engine that cannot load the format at all (it would need a re-quantization)."""


@lru_cache(maxsize=512)
def _verdict(engine_id: str, hardware_id: str, slow_fp16: bool) -> engines.Verdict:
    return engines.verdict(engine_id, catalog.hardware(hardware_id), slow_fp16)


def hardware_verdicts(facts: dict[str, Any]) -> dict[str, engines.Verdict]:
    """Every engine's verdict on the profile's hardware (empty when the hardware is unknown)."""
    if not facts.get("hardware"):
        return {}
    return {e: _verdict(e, facts["hardware"], bool(facts.get("slow_fp16"))) for e in ENGINES}


def hardware_support(facts: dict[str, Any]) -> dict[str, str]:
    """Engines that do not run on the profile's hardware, each with the catalog's reason."""
    return {e: f"{v.en} ({v.source})" for e, v in hardware_verdicts(facts).items() if not v.ok}


def quant_kernels(facts: dict[str, Any]) -> dict[str, tuple[int, str]]:
    """Engines without an optimized kernel for the chosen quantization: penalty and reason (shared
    within a turn by the profiles that agree on the facts it reads: the interview's probes and the
    decision)."""
    from rules import memo
    return dict(memo.once_by_reads("quant_kernels", facts, _quant_kernels))


def _quant_kernels(facts: dict[str, Any]) -> dict[str, tuple[int, str]]:
    quant, platform, cc = facts.get("quantization"), facts.get("platform"), facts.get("cuda_cc")
    out: dict[str, tuple[int, str]] = {}
    if not quant:
        return out
    for engine_id in ENGINES:
        kernel = kernel_for(engine_id, quant, platform, cc, bool(facts.get("quantization_assumed")),
                            _device(facts))
        if kernel == "optimized":
            continue
        where = f" on {platform}" if platform else ""
        if kernel == "supported" and engines.weight_only(engine_id, quant, platform, cc):
            out[engine_id] = (QUANT_PENALTY, f"runs {quant} weight-only{where} ({WEIGHT_ONLY_EN})")
        elif kernel == "supported":
            out[engine_id] = (QUANT_PENALTY, f"loads {quant} but has no optimized kernel for it{where}")
        else:
            gate = gate_reason(facts, engine_id)
            out[engine_id] = (QUANT_MISSING_PENALTY, gate[0] if gate else f"has no kernel for {quant}{where}")
    return out


WEIGHT_ONLY_EN = ("the Marlin kernel keeps the weights in 8 bits and computes in 16-bit: half the weight memory, "
                  "no 8-bit compute speed-up on a GPU without FP8 tensor cores")
WEIGHT_ONLY_ZH = "Marlin kernel 以 8 位元存權重、以 16 位元計算：權重記憶體減半，但沒有 FP8 tensor core 的 GPU 得不到 8 位元算力加速"
WEIGHT_ONLY_SOURCE = "https://github.com/vllm-project/vllm/pull/5975"


def weight_only_engines(facts: dict[str, Any], engines_: Any) -> list[str]:
    """Of `engines_`, those that run the profile's quantization weight-only on its NVIDIA GPU (FP8 on Ampere)."""
    quant, platform, cc = facts.get("quantization"), facts.get("platform"), facts.get("cuda_cc")
    return sorted(e for e in engines_ if quant and engines.weight_only(e, quant, platform, cc))


SIXTEEN_BIT = ("bf16", "f16")
"""An assumed 16-bit format is the published weights at 16 bits: each engine reads them in the 16-bit
dtype it runs (llama.cpp converts to an F16 GGUF; its CANN backend has no BF16), as a bare "4-bit"
is each engine's own 4-bit format. A stated BF16 or F16 is taken as said."""


def _device(facts: dict[str, Any]) -> Any:
    """The profile's device spec (None when unknown or not in the catalog)."""
    try:
        return catalog.hardware(facts["hardware"]) if facts.get("hardware") else None
    except Exception:  # noqa: BLE001 - an unknown id just skips the device-level gate
        return None


def kernel_for(engine_id: str, quant: str, platform: str | None, cc: Any, assumed: bool,
               hw: Any = None) -> str | None:
    """The engine's kernel for the format; for an assumed 16-bit format, its best 16-bit kernel (on `hw`
    when given: AMD kernels that need a dtype the device lacks do not count)."""
    formats = SIXTEEN_BIT if assumed and quant in SIXTEEN_BIT else (quant,)
    found = [engines.device_kernel(engine_id, q, hw) if hw is not None and hw.platform == platform
             else engines.quant_kernel(engine_id, q, platform, cc) for q in formats]
    return "optimized" if "optimized" in found else ("supported" if "supported" in found else None)


def gate_reason(facts: dict[str, Any], engine_id: str) -> tuple[str, str] | None:
    """(en, zh) when the engine's kernel for the chosen quantization is gated by compute capability."""
    hw_id = facts.get("hardware")
    name = getattr(catalog.hardware(hw_id), "name", hw_id) if hw_id else None
    hw = _device(facts)
    amd = engines.amd_dtype_gate(engine_id, facts.get("quantization") or "", hw) if hw is not None else None
    if amd:
        return amd
    return engines.cc_gate(engine_id, facts.get("quantization") or "", facts.get("platform"), facts.get("cuda_cc"), name)


def quant_warning(quant: str, penalised: dict[str, tuple[int, str]], platform: str | None,
                  weight_only: Any = ()) -> str:
    """One line naming the engines ranked down for lacking a kernel for `quant`, or for running it only weight-only
    on this GPU (FP8 on Ampere: an optimized Marlin kernel, but no FP8 compute)."""
    loads = sorted(e for e, (p, _) in penalised.items() if p == QUANT_PENALTY and e not in weight_only)
    missing = sorted(e for e, (p, _) in penalised.items() if p != QUANT_PENALTY)
    where = f" on {platform}" if platform else ""
    out = []
    if weight_only:
        out.append(f"Quantization {quant}{where}: {', '.join(sorted(weight_only))} run it weight-only "
                   f"({WEIGHT_ONLY_EN}; {WEIGHT_ONLY_SOURCE}), so they rank a little lower.")
    parts = []
    if loads:
        parts.append(f"{', '.join(loads)} can load {quant} but have no optimized kernel for it")
    if missing:
        parts.append(f"{', '.join(missing)} cannot run {quant} without re-quantizing")
    if parts:
        out.append(f"Quantization {quant}: " + "; ".join(parts) + f"{where}, so they were ranked down.")
    return " ".join(out)


def is_orchestrator(engine_id: str) -> bool:
    """True for engines that coordinate other engines (Dynamo) rather than run a model."""
    return engines.engine(engine_id).kind == "orchestrator"
