"""What ``drill sync`` costs: two copies of a profile of 20,000 reviews each, synced through a shared folder.

Each sync runs in a child process (``bench_history_cost.child``: its own CPU time and peak resident memory).
Printed, for information (no promise yet; docs/performance.md keeps dated figures):

- the first copy's first sync (nothing to merge: it writes its file, and replays its own 20,000 reviews);
- the second copy's, which merges the first's 20,000 reviews into its own (a replay of 40,000, the profile
  rewritten, its file written);
- the first copy's second, which merges the second's 20,000 (the same work from the other side);
- a sync with nothing new (the replay runs and finds every state as it was: nothing is written);
- the second copy's merge again with an interview date set, so each replayed answer counts the final
  stretch's load (every other item's due date, the new items still to come).
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks.bench_history_cost import child
from benchmarks.bench_storage import history
from engine.storage import Profile

REVIEWS = 20_000


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        a, b, shared = Path(tmp) / "a", Path(tmp) / "b", Path(tmp) / "shared"
        shared.mkdir()
        t0 = time.perf_counter()
        for root, seed in ((a, 1), (b, 2)):
            with Profile.open(root) as p:
                p.import_document(history(REVIEWS, random.Random(seed)))
        print(f"   built two profiles of {REVIEWS:,} reviews in {time.perf_counter() - t0:.0f} s", flush=True)
        for what, root in (("first copy, nothing to merge", a), (f"second copy merging {REVIEWS:,}", b),
                           (f"first copy merging {REVIEWS:,}", a), ("nothing new", b)):
            cpu, mb = child("--saves", str(root), "sync", str(shared))
            print(f"sync: {what}: CPU {cpu:.2f} s, peak {mb:.0f} MB", flush=True)
        c = Path(tmp) / "c"  # the second copy again, from before its merge, with an interview date
        with Profile.open(c) as p:
            p.import_document(history(REVIEWS, random.Random(2)))
            p.set_settings({"interview": "2026-12-20"})
        (shared / f"{Profile.open(b, read_only=True).replica}.json").unlink()
        cpu, mb = child("--saves", str(c), "sync", str(shared))
        print(f"sync: a copy merging {REVIEWS:,} with an interview date: CPU {cpu:.2f} s, peak {mb:.0f} MB",
              flush=True)
