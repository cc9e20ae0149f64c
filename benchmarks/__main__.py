"""``make bench``: run every ``benchmarks/bench_*.py`` module's ``main()``, in name order.

``python -m benchmarks parse stats`` runs only the modules whose name contains one of the words.
A benchmark that fails is reported and the others still run; the exit status is then 1.
"""

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path


def run(words: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.name.startswith("bench_"))
    failed = []
    for name in names:
        if words and not any(w in name for w in words):
            continue
        print(f"== {name}", flush=True)
        start = time.perf_counter()
        try:
            importlib.import_module(f"benchmarks.{name}").main()
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
        print(f"   ({time.perf_counter() - start:.1f} s)", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


sys.exit(run(sys.argv[1:]))
