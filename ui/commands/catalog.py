"""`advisor catalog [models|hardware|engines] [--json]`: what the advisor knows, with sources.

Reads everything through rules.catalog, so entries other helpers add to the hardware or engine
catalogs appear here without changes.
"""
from __future__ import annotations

import argparse

KINDS = ("models", "hardware", "engines")
EPILOG = """examples:
  advisor catalog                      # counts per catalog
  advisor catalog models               # one line per model: id, size, attention, native format, context
  advisor catalog hardware --json      # export the hardware catalog (every field, with sources)"""


def add_parser(sub) -> None:
    """Register `advisor catalog`."""
    p = sub.add_parser("catalog", help="list the models, hardware and engines the advisor knows, with sources",
                       description="List the catalogs the advisor reasons from; --json exports them whole.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", nargs="?", choices=KINDS, help="which catalog (default: a summary of all three)")
    p.add_argument("--json", action="store_true", help="print the catalog(s) as JSON (every field, with sources)")


def _tables() -> dict:
    from rules import catalog
    return {"models": catalog.all_models(), "hardware": catalog.all_hardware(), "engines": catalog.all_engines()}


def _url(source: str) -> str:
    """The first URL of a source text (else its first words)."""
    import re
    m = re.search(r"https?://\S+", source)
    return m.group(0) if m else source[:60]


def _model_line(m) -> str:
    size = f"{m.params_b:g}B" + (f" (A{m.active_params_b:g}B)" if m.architecture == "moe" else "")
    att = m.attention.kind.upper() + (f", {m.attention.layer_pattern}" if m.attention.layer_pattern else "")
    return f"{m.id:32} {size:18} {att:44} {m.native_dtype:6} {m.max_context:>9,}  {m.confidence:8}  {_url(m.source)}"


def _hardware_line(h) -> str:
    return f"{h.id:24} {h.name[:34]:34} {h.memory_gb:>7g} GB {h.mem_bw_gbs:>8,g} GB/s  {h.platform:14} {_url(h.source)}"


def _engine_line(e) -> str:
    return f"{e.id:16} {e.name:22} {', '.join(e.platforms)[:60]:60} {e.doc}"


def render(kind: str, table: dict) -> str:
    """One line per entry, with a header naming the columns."""
    head, line = {
        "models": (f"{'id':32} {'params':18} {'attention':44} {'native':6} {'context':>9}  {'confid.':8}  source", _model_line),
        "hardware": (f"{'id':24} {'name':34} {'memory':>10} {'bandwidth':>13}  {'platform':14} source", _hardware_line),
        "engines": (f"{'id':16} {'name':22} {'platforms':60} documentation", _engine_line),
    }[kind]
    return "\n".join([f"{len(table)} {kind}", head, *(line(v) for v in table.values())])


def run(args) -> int:
    """Print or export the catalogs."""
    tables = _tables()
    kinds = [args.kind] if args.kind else list(KINDS)
    if args.json:
        data = {k: [v.model_dump(mode="json") for v in tables[k].values()] for k in kinds}
        from ui.output import print_json
        print_json(data[args.kind] if args.kind else data, indent=1)
    elif args.kind:
        print(render(args.kind, tables[args.kind]))
    else:
        for kind in KINDS:
            print(f"{kind:9} {len(tables[kind]):4} entries   (advisor catalog {kind})")
    return 0
