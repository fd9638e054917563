"""The reliability suite's summary: per suite, inputs tried, crashes, calls over 5 s CPU."""
from __future__ import annotations

from fuzzkit import TALLIES


def pytest_terminal_summary(terminalreporter):
    if not TALLIES:
        return
    terminalreporter.write_sep("-", "reliability: inputs tried / crashes / over 5 s CPU / slowest call")
    for suite, t in sorted(TALLIES.items()):
        terminalreporter.write_line(f"{suite:28s} {t.tried:5d} tried  {len(t.crashes)} crashes  "
                                    f"{len(t.slow)} slow  max {t.max_cpu:.2f}s CPU"
                                    + (f"  peak {t.max_rss_mb:.0f} MB" if t.max_rss_mb else ""))
