"""The mock interview's setup screen.

:class:`MockSetupScreen` (``open_screen("mock")``): length in minutes or a
number of questions, the topic mix, chains, a seed.  It says how mock
answers move the review schedule (a first answer, a due template, a miss).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, SelectionList, Static

from drill.core import mock as glue
from drill.core.i18n import t, topic_name
from drill.core.mock import format_clock
from drill.core.world import ChosenWorld
from drill.keybindings import bind
from drill.screens.mock import MockScreen
from drill.widgets.footer import KeyFooter
from engine.mock import MockError, MockPlan
from engine.storage import SaveFailed
from question_bank.topics import TOPICS


class MockSetupScreen(MockScreen):
    """Choose the mock: minutes or questions, topics, chains, seed."""

    DEFAULT_CSS = """
    MockSetupScreen #mock-form { height: 1fr; padding: 1 2 0 2; }
    MockSetupScreen #mock-foot { height: auto; padding: 0 2 1 2; }
    MockSetupScreen #mock-title { text-style: bold; }
    MockSetupScreen #mock-note { color: $warning; margin-bottom: 1; }
    MockSetupScreen .mock-row { height: auto; margin-bottom: 1; }
    MockSetupScreen .mock-row Label { width: 16; padding-right: 1; }
    MockSetupScreen #mock-minutes { width: 8; margin-right: 2; }
    MockSetupScreen #mock-questions { width: 26; }
    MockSetupScreen #mock-seed { width: 1fr; }
    MockSetupScreen #mock-topics { height: auto; max-height: 9; width: 40; }
    MockSetupScreen #mock-chains { width: auto; }
    MockSetupScreen #mock-preview.-error { color: $error; }
    MockSetupScreen #mock-start { margin-top: 1; }
    """

    BINDINGS = [
        *bind("key.back", "back"),
        *bind("key.mock_start", "start"),
    ]

    def __init__(self, seed: Any = None, minutes: Any = None, questions: Any = None, topics: Any = None,
                 chains: bool | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.given = {"seed": seed, "minutes": minutes, "questions": questions, "topics": topics, "chains": chains}
        self._auto_seed: int | None = None
        self._weakness: dict[str, float] | None = None
        self.plan: MockPlan | None = None

    def compose(self) -> ComposeResult:
        lang = self.lang
        last = self.app.ctx.profile.settings().get(glue.SETTINGS_KEY) or {}
        g = self.given
        minutes = g["minutes"] if g["minutes"] is not None else (
            None if g["questions"] is not None else last.get("minutes"))
        questions = g["questions"] if g["questions"] is not None else (
            None if g["minutes"] is not None else last.get("questions"))
        if minutes is None and questions is None:
            minutes = 30
        topics = set(g["topics"] or last.get("topics") or TOPICS)
        chains = g["chains"] if g["chains"] is not None else last.get("chains", True)
        with VerticalScroll(id="mock-form"):  # scrolls on a short terminal; the plan and Start stay in view
            yield Static(id="mock-title")
            yield Static(id="mock-note")
            with Horizontal(classes="mock-row"):
                yield Label(id="lbl-minutes")
                yield Input(str(minutes or ""), id="mock-minutes", type="integer", compact=True)
                yield Label(id="lbl-questions")
                yield Input(str(questions or ""), id="mock-questions", type="integer", compact=True)
            # the seed and chains before the topics: their list grows with the bank, and scrolls last
            with Horizontal(classes="mock-row"):
                yield Label(id="lbl-seed")
                yield Input("" if g["seed"] is None else str(g["seed"]), id="mock-seed", type="integer",
                            compact=True)
            with Horizontal(classes="mock-row"):
                yield Label("")
                yield Checkbox(id="mock-chains", value=bool(chains), compact=True)
            with Horizontal(classes="mock-row"):
                yield Label(id="lbl-topics")
                yield SelectionList[str](*[(topic_name(t, lang), t, t in topics) for t in TOPICS],
                                         id="mock-topics", compact=True)
        with Vertical(id="mock-foot"):
            yield Static(id="mock-preview")
            yield Button(id="mock-start", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.apply_lang()
        self.query_one("#mock-minutes", Input).focus()

    def apply_lang(self) -> None:
        lang = self.lang
        self.query_one("#mock-title", Static).update(Text(t("mock.title", lang)))
        self.query_one("#mock-note", Static).update(
            Text(t("mock.schedule_note", lang) + "\n" + t("mock.no_feedback", lang)))
        self.query_one("#lbl-minutes", Label).update(Text(t("mock.minutes", lang)))
        self.query_one("#lbl-questions", Label).update(Text(t("mock.questions", lang)))
        self.query_one("#mock-questions", Input).placeholder = t("mock.questions_ph", lang)
        self.query_one("#lbl-topics", Label).update(Text(t("mock.topics", lang)))
        topics = self.query_one("#mock-topics", SelectionList)
        for i, topic in enumerate(TOPICS):
            topics.replace_option_prompt_at_index(i, topic_name(topic, lang))
        self.query_one("#mock-chains", Checkbox).label = t("mock.chains", lang)
        self.query_one("#lbl-seed", Label).update(Text(t("mock.seed", lang)))
        self.query_one("#mock-seed", Input).placeholder = t("mock.seed_ph", lang)
        self.query_one("#mock-start", Button).label = t("key.mock_start", lang)
        self.refresh_preview()

    # --- reading the form ------------------------------------------------- #

    def _new_seed(self) -> int:
        if self._auto_seed is None:
            self._auto_seed = self.ctx.new_seed()
        return self._auto_seed

    def settings(self):
        """The settings in the form (MockError with the reason when something is unreadable)."""
        topics = self.query_one("#mock-topics", SelectionList).selected
        if not topics:
            raise MockError(t("mock.no_topics", self.lang))
        return glue.make_settings(
            minutes=self.query_one("#mock-minutes", Input).value,
            questions=self.query_one("#mock-questions", Input).value,
            topics=() if set(topics) == set(TOPICS) else tuple(t for t in TOPICS if t in topics),
            chains=self.query_one("#mock-chains", Checkbox).value,
            seed=self.query_one("#mock-seed", Input).value, new_seed=self._new_seed,
            world=ChosenWorld(self.ctx.hardware, self.ctx.model, dict(self.ctx.conventions)))

    def refresh_preview(self) -> None:
        preview = self.query_one("#mock-preview", Static)
        try:
            settings = self.settings()
            if settings.weighted and self._weakness is None:  # read the history once, not per keystroke
                self._weakness = glue.weakness(self.ctx)
            self.plan = glue.make_plan(settings, weakness=self._weakness)
        except MockError as e:
            self.plan = None
            preview.set_class(True, "-error")
            preview.update(Text(str(e)))
            return
        p, lang = self.plan, self.lang
        chains = sum(1 for q in p.questions if q.steps > 1)
        how = t("mock.preview_weighted" if p.settings.weighted else "mock.preview_shared", lang)
        preview.set_class(False, "-error")
        world = glue.world_of_plan(p)  # the hardware, model and conventions of Settings: said when chosen
        preview.update(Text(t("mock.preview", lang, n=len(p.questions), chains=chains,
                               time=format_clock(p.limit_seconds), seed=p.settings.seed, how=how) + "\n"
                            + (world.line(lang) + "\n" if world.chosen else "") + t("mock.start_hint", lang)))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refresh_preview()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        self.refresh_preview()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.refresh_preview()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "mock-start":
            self.action_start()

    def action_start(self) -> None:
        self.refresh_preview()
        if self.plan is None:
            self.app.bell()
            return
        s = self.plan.settings
        try:
            self.ctx.profile.set_setting(glue.SETTINGS_KEY, {"minutes": s.minutes, "questions": s.questions,
                                                             "topics": list(s.topics), "chains": s.chains})
        except SaveFailed as e:  # the mock runs all the same; said now, not after thirty minutes
            self.app.notify(self.tr("mock.setup_not_kept", why=e.text(self.lang)), severity="error", timeout=12,
                            markup=False)
        self.app.switch_to("mock_run", plan=self.plan)

    def action_back(self) -> None:
        self.app.pop_screen()
