"""Where the catalogue's data files are.

Read by question_bank.catalogue (the validator) and question_bank.catalogue_cache (the cache the app starts
from)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent
BUILTIN_FILES: dict[str, Path] = {"links": DATA / "interconnects.toml", "accelerators": DATA / "accelerators.toml",
                                  "models": DATA / "models.toml", "ranges": DATA / "ranges.toml"}
# The built-in files in two groups, each read (and cached) when first needed: hardware.py asks for the
# accelerators and their links, models.py for the models, question_bank.ranges for the ranges.
GROUPS: dict[str, tuple[str, ...]] = {"hardware": ("links", "accelerators"), "models": ("models",),
                                      "ranges": ("ranges",)}
