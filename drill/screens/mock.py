"""What the mock interview's screens share: their base screen, verdict names, and a question as the mock shows it.

The screens are :class:`~drill.screens.mock_setup.MockSetupScreen`, :class:`~drill.screens.mock_run.MockRunScreen`
and :class:`~drill.screens.mock_report.MockReportScreen`.  The clock is ``ctx.clock`` (tests inject one);
:mod:`engine.mock` does the work.  Text from formulas or from the learner is shown as ``rich.text.Text``,
never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from drill.core.i18n import t
from drill.screens import DrillScreen
from drill.widgets.problem import givens_table
from question_bank import registry
from question_bank.template import Problem


def verdict_name(verdict: str, lang: str) -> str:
    return t(f"verdict.{verdict}", lang)


class MockScreen(DrillScreen):
    """A mock screen: the context and language from DrillScreen, the clock in seconds."""

    def now(self) -> float:
        return self.ctx.clock().timestamp()


def problem_context(problem: Problem, upto: int, lang: str, answers: Mapping[int, str] | None = None) -> Text:
    """Scenario, the givens table (as practice draws it), conventions, and the steps before ``upto``
    with the answers given to them (no verdicts)."""
    answers = answers or {}
    out = Text()
    if problem.scenario(lang):
        out.append(problem.scenario(lang) + "\n\n")
    out.append_text(givens_table(problem, lang))
    if problem.conventions(lang):
        out.append(problem.conventions(lang) + "\n\n", style="dim italic")
    for s in problem.steps[:upto]:
        out.append(f"{s.index + 1}. {s.prompt(lang)}\n", style="dim")
        if answers.get(s.index):
            out.append("   " + t("mock.your_answer", lang, typed=answers[s.index]) + "\n", style="dim")
        out.append("\n")
    return out


def step_prompt(problem: Problem, step: int, lang: str) -> Text:
    s = problem.steps[step]
    return Text((f"{s.index + 1}. " if problem.is_chain else "") + s.prompt(lang), style="bold")


def asked_step(item: str, seed: int, step: int | None) -> tuple[Problem, int] | None:
    """The problem of a saved question and the 0-based index of its step (None: template unknown)."""
    try:
        problem = registry.get(item).generate(int(seed))
    except KeyError:
        return None
    return problem, min(max((step or 1) - 1, 0), len(problem.steps) - 1)


def expected_shown(item: str, seed: int, step: int | None, saved: str, lang: str) -> str:
    """The expected answer in ``lang`` (a choice as its Chinese label in Chinese); ``saved`` when the
    template is gone."""
    asked = asked_step(item, seed, step)
    return saved if asked is None else asked[0].steps[asked[1]].expected.display_in(lang)
