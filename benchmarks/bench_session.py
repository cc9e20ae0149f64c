"""Building today's session with and without an interview date, on a profile of 100,000 reviews.

An interview date adds the pace (a count of the templates not yet introduced) and the cap on
each review's due date; Home also computes the readiness per topic.  Both are measured against
the same profile without a date: the ratio should stay within 2x.  The runs alternate (with,
without, ...) so that a burst of load on the shared machine slows both alike; medians of 15.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from datetime import time as day_time
from pathlib import Path

from benchmarks.bench_storage import TODAY, history
from drill.core import home_figures, sessions, settings
from drill.core.context import AppContext
from engine.storage import Profile

RUNS = 15


def main() -> None:
    noon = datetime.combine(TODAY, day_time(12)).astimezone()
    with tempfile.TemporaryDirectory(prefix="bench-session-") as tmp:
        root = Path(tmp)
        with Profile.open(root) as p:
            p.import_document(history(100_000, random.Random(7)))
        with Profile.open(root) as p:
            ctx = AppContext(p, clock=lambda: noon, rng=random.Random(1))
            sessions.today_session(ctx)  # warm: the templates' chain flags, the kept figures
            interview = (TODAY + timedelta(days=10)).isoformat()
            times = {"plain": [], "interview": [], "home_plain": [], "home_interview": []}
            for _ in range(RUNS):
                for setting, key in ((None, "plain"), (interview, "interview")):
                    p.set_setting(settings.INTERVIEW_KEY, setting)
                    t = time.perf_counter()
                    sessions.today_session(ctx)
                    times[key].append(time.perf_counter() - t)
                    t = time.perf_counter()
                    home_figures.today_figures(ctx)
                    times["home_" + key].append(time.perf_counter() - t)
    m = {k: statistics.median(v) for k, v in times.items()}
    print(f"session: today's session on 100,000 reviews: {m['plain'] * 1e3:.2f} ms without an interview date, "
          f"{m['interview'] * 1e3:.2f} ms with one ({m['interview'] / m['plain']:.2f}x; median of {RUNS})")
    print(f"session: Home's figures (the session, streak, readiness): {m['home_plain'] * 1e3:.2f} ms without, "
          f"{m['home_interview'] * 1e3:.2f} ms with ({m['home_interview'] / m['home_plain']:.2f}x)")


if __name__ == "__main__":
    main()
