"""``make bench``: run every ``benchmarks/bench_*.py`` module's ``main()``, in name order."""

import importlib
import pkgutil
from pathlib import Path

for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
    if info.name.startswith("bench_"):
        print(f"== {info.name}")
        importlib.import_module(f"benchmarks.{info.name}").main()
