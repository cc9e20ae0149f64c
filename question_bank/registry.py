"""All templates: importing this module registers every template module."""

from __future__ import annotations

import importlib
import pkgutil

from . import templates as _templates_pkg
from .base import REGISTRY, TOPICS, Template

for _m in pkgutil.iter_modules(_templates_pkg.__path__):
    importlib.import_module(f"{_templates_pkg.__name__}.{_m.name}")


class UnknownTemplate(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return self.args[0]


def get(template_id: str) -> Template:
    try:
        return REGISTRY[template_id]
    except KeyError:
        raise UnknownTemplate(f"unknown template {template_id!r} (see `drill templates`)") from None


def all_templates() -> list[Template]:
    """Every template, topic by topic (in TOPICS order), then by difficulty and id."""
    order = {t: i for i, t in enumerate(TOPICS)}
    return sorted(REGISTRY.values(), key=lambda t: (order[t.topic], t.difficulty, t.id))
