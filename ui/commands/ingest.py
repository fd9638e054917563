"""`advisor ingest PATH…`: add your own documents to the knowledge base (idempotent)."""
from __future__ import annotations


def add_parser(sub) -> None:
    """Register `advisor ingest`."""
    parser = sub.add_parser(
        "ingest", help="add your own .md/.txt/.html/.pdf files to the knowledge base",
        description="Chunk the given files (or every supported file under the given folders) and "
                    "add them to the knowledge base. Re-running on unchanged files changes nothing; "
                    "an edited file updates only its changed sections.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="file or folder to ingest")


def run(args) -> int:
    """Ingest the paths and print the summary line."""
    from pathlib import Path

    from knowledge.ingest import ingest

    summary = ingest([Path(p) for p in args.paths])
    print(summary.line())
    return 0
