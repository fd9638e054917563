"""`advisor search QUERY [--k N] [--json]`: hybrid search over the knowledge base."""
from __future__ import annotations

import re

SNIPPET = 220


def add_parser(sub) -> None:
    """Register `advisor search`."""
    parser = sub.add_parser(
        "search", help="search the knowledge base (English or Chinese)",
        description="Hybrid search (BM25 + multilingual embeddings) over the shipped notes and "
                    "your ingested files. Prints chunk id, title, source and a snippet per hit.")
    parser.add_argument("query", nargs="+", metavar="QUERY", help="what to look for")
    parser.add_argument("--k", type=int, default=5, metavar="N", help="number of hits (default 5)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list of {id, title, source, text, score}")


def snippet(text: str, query: str, width: int = SNIPPET) -> str:
    """`text` flattened to one line, cut to `width` around the first query word it contains."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= width:
        return flat
    lowered = flat.lower()
    words = re.findall(r"[a-z0-9][a-z0-9.\-]+|[\u4e00-\u9fff]{2}", query.lower())
    found = [lowered.find(w) for w in words if lowered.find(w) >= 0]
    start = max(0, min(found) - width // 4) if found else 0
    start = min(start, len(flat) - width)
    if start and flat[start - 1] != " ":                  # begin at a word boundary
        space = flat.find(" ", start, start + 30)
        start = space + 1 if space >= 0 else start
    cut = flat[start:start + width].strip()
    return ("…" if start else "") + cut + ("…" if start + width < len(flat) else "")


def run(args) -> int:
    """Search and print the hits."""
    from knowledge.retrieve import search

    query = " ".join(args.query).strip()
    hits = search(query, k=args.k)
    if args.json:
        from ui.output import print_json
        print_json([h.model_dump() for h in hits], indent=1)
        return 0
    if not hits:
        print("no matches")
    for rank, hit in enumerate(hits, start=1):
        print(f"{rank}. {hit.id}  ({hit.score:.4f})\n   {hit.title}\n   {hit.source}\n"
              f"   {snippet(hit.text, query)}")
    return 0
