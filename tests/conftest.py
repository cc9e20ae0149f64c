import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture
def terminal(monkeypatch):
    """Standard input and output count as a terminal, so ``drill``, ``drill practice``, ``drill mock`` and
    ``drill stats`` open the app in this process (a test then replaces ``DrillApp.run``, or the profile stops
    it first); without a terminal they refuse (drill.commands.app.in_terminal)."""
    monkeypatch.setattr("drill.commands.app.in_terminal", lambda: True)
