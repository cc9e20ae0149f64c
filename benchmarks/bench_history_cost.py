"""What a long history costs: ``drill stats``, ``drill export`` and ``drill import`` at 200,000 reviews, as ratios.

Each command runs in a child process whose own CPU time (user + sys) and peak resident memory (VmHWM) are
the figures (CPU time moves far less than wall time on a busy machine); the stats runs alternate and the
median of :data:`RUNS` is kept.  Printed, with the promise each is held to:

- ``drill stats`` (the text summary, as piped) on a profile of 200,000 reviews against one of 100: at most
  2x the CPU time and 2x the peak memory (the figures come from the running totals kept beside the log,
  ``engine.stats_running``, so the log is not read);
- ``drill stats --json`` the same way, for information: it adds the readiness and its calibration, fitted
  on the newest answers (drill.core.readiness_view.READINESS_ROWS), a cost that stops growing once the
  history passes that window but is several times a 100-review profile's (docs/performance.md).  Each of
  its runs comes right after a ``drill check --record`` in the same profile (not measured), so nothing kept
  from before the answer is counted;
- ``Profile.record`` of one answer (durable: the log file, its journal and the manifest's entry of the
  newest log file, each fsynced) at 200,000 reviews against 1,000, wall time, median of
  ``bench_storage.RECORDS``, the two profiles taking turns: for information (~1.2x is the aim: the
  manifest's write at every answer is of constant size, docs/saves.md);
- ``drill export`` of the 200,000 reviews and ``drill import`` of that file into a new profile, against
  ``json.load`` + ``json.dump`` of the same file in a child of its own: at most 3x and 4x its CPU time.

The children write and read byte-code caches as an installed copy does (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment and a first run of each command is not counted): compiling every module at
each start would add the same ~0.3 s to both profiles and flatter the ratios.

The ratios are printed, never asserted by a test (they depend on the machine); a ratio over its promise
makes this benchmark fail.  docs/performance.md keeps dated figures.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_storage import history, time_records
from engine.storage import Profile

SMALL, LARGE = 100, 200_000
RUNS = 3  # runs of each stats command (cheap); export, import and the baseline run once each (seconds each)

# The child's own CPU time and peak (VmHWM): a parent's getrusage of its children would mix the runs.
_CHILD = """
import resource, sys
argv = sys.argv[1:]
if argv[0] == "--json-load-dump":
    import json
    with open(argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(doc, f)
    code = 0
else:
    from drill.cli import main
    code = main(argv)
r = resource.getrusage(resource.RUSAGE_SELF)
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(r.ru_utime + r.ru_stime, int(hwm.split()[1]), file=sys.stderr)
sys.exit(code)
"""


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# an answer recorded before each stats --json run (a template of one step; the answer need not be right)
_RECORD = ("check", "roofline.classify_kernel", "memory-bound", "--seed", "1", "--record")


def child(*argv: str) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one run of ``drill argv`` (or of the JSON baseline) in a child process."""
    r = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, env=_ENV)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {r.stderr[-2000:]}")
    cpu, kb = r.stderr.strip().splitlines()[-1].split()
    return float(cpu), int(kb) / 1024


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(c for c, _ in runs), statistics.median(m for _, m in runs)


def verdict(ratio: float, promise: float, what: str, over: list[str]) -> str:
    if ratio <= promise:
        return f"within {promise:g}x"
    over.append(f"{what} {ratio:.2f}x (promise {promise:g}x)")
    return f"OVER {promise:g}x"


def main() -> None:
    over: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        roots = {n: Path(tmp) / str(n) for n in (SMALL, LARGE)}
        t0 = time.perf_counter()
        for n, root in roots.items():
            with Profile.open(root) as p:
                p.import_document(history(n, random.Random(7)))
        print(f"   built profiles of {SMALL:,} and {LARGE:,} reviews in {time.perf_counter() - t0:.0f} s")

        for root in roots.values():  # byte-code cached, as installed (not counted)
            child("--saves", str(root), "stats", "--json")
        for args, promise in ((("stats",), 2.0), (("stats", "--json"), None)):
            runs: dict[int, list] = {SMALL: [], LARGE: []}
            for _ in range(RUNS):
                for n, root in roots.items():
                    if "--json" in args:  # the first call after an answer: nothing kept from before it
                        child("--saves", str(root), *_RECORD)
                    runs[n].append(child("--saves", str(root), *args))
            (c1, m1), (c2, m2) = medians(runs[SMALL]), medians(runs[LARGE])
            name = "drill " + " ".join(args)
            print(f"history: {name} at {LARGE:,} reviews vs {SMALL:,}: CPU {c2:.2f} s vs {c1:.2f} s "
                  f"({c2 / c1:.2f}x), peak {m2:.0f} MB vs {m1:.0f} MB ({m2 / m1:.2f}x); "
                  + (f"{verdict(c2 / c1, promise, name + ' CPU', over)} CPU, "
                     f"{verdict(m2 / m1, promise, name + ' memory', over)} memory" if promise else
                     "for information (the readiness's fit: see docs/performance.md)"), flush=True)

        small = Path(tmp) / "1000"
        with Profile.open(small) as p:
            p.import_document(history(1000, random.Random(7)))
        with Profile.open(small) as a, Profile.open(roots[LARGE]) as b:
            r1, r2 = time_records([a, b], random.Random(11))
        print(f"history: record one answer at {LARGE:,} reviews vs 1,000: {1000 * r2:.1f} ms vs {1000 * r1:.1f} ms "
              f"median wall ({r2 / r1:.2f}x, for information: ~1.2x is the aim)", flush=True)

        out, copy = Path(tmp) / "export.json", Path(tmp) / "copy.json"
        ce, me = child("--saves", str(roots[LARGE]), "export", str(out))
        cb, mb = child("--json-load-dump", str(out), str(copy))
        ci, mi = child("--saves", str(Path(tmp) / "imported"), "import", str(out))
        size = out.stat().st_size / 1e6
        print(f"history: json.load + json.dump of the {size:.0f} MB export of {LARGE:,} reviews: CPU {cb:.2f} s, "
              f"peak {mb:.0f} MB", flush=True)
        print(f"history: drill export: CPU {ce:.2f} s ({ce / cb:.2f}x, {verdict(ce / cb, 3.0, 'export CPU', over)}), "
              f"peak {me:.0f} MB; drill import: CPU {ci:.2f} s ({ci / cb:.2f}x, "
              f"{verdict(ci / cb, 4.0, 'import CPU', over)}), peak {mi:.0f} MB", flush=True)
    if over:
        raise AssertionError("; ".join(over))


if __name__ == "__main__":
    main()
