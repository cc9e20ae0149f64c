"""The mock interview: setup, the timed run, and the report.

* :class:`MockSetupScreen` (``open_screen("mock")``): length in minutes or a
  number of questions, the topic mix, chains, a seed.  It says how mock
  answers move the review schedule (a first answer, a due template, a miss).
* :class:`MockRunScreen` (``"mock_run"``): a countdown always visible (warning colour in the
  last 10 %), question n of N, the time on this question; answers are read as
  typed (an unreadable one is refused before it is submitted) but no verdict
  or solution is shown.  Skip, flag, go back; the mock ends by itself when the
  time runs out, or by hand (Esc, or quitting the app): either way a readable answer
  typed but not submitted is submitted.
* :class:`MockReportScreen` (``"mock_report"``): score, time, a per-question table, misconceptions,
  weakest topics, the comparison with earlier mocks; Enter opens a question's
  worked solution, ``p`` sends the missed templates to the next practice
  session (profile setting ``queued_items``).

Saving a mock can fail (a full disk, no permission: ``engine.storage.SaveFailed``).
Its report opens all the same, saying what was stored, the path and the
cause; ``r`` saves the rest (:class:`drill.core.mock.MockSave`: nothing is
stored twice), and so does leaving the report or quitting the app, which ask
before losing what still cannot be stored.

The clock is ``ctx.clock`` (tests inject one); :mod:`engine.mock` does the work.
Text from formulas or from the learner is shown as ``rich.text.Text``, never
parsed as markup.
"""

from __future__ import annotations

from typing import Any, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from drill.core import flow
from drill.core import mock as glue
from drill.core.i18n import placeholder, points, t, template_title, topic_name
from drill.core.mock import format_clock
from drill.keybindings import bind
from drill.screens import VERDICT_COLOUR, DrillModal, DrillScreen, scroll_bindings, scroll_view
from drill.widgets.formulas import Wrapped
from drill.widgets.problem import givens_table
from engine.grading import misconception_label
from engine.mock import ANSWERED, SKIPPED, UNANSWERED, MockError, MockPlan, MockRun, Report, reading, unreadable_reason
from engine.storage import SaveFailed
from question_bank import registry
from question_bank.template import Problem
from question_bank.topics import TOPICS


def verdict_name(verdict: str, lang: str) -> str:
    return t(f"verdict.{verdict}", lang)


class _MockScreen(DrillScreen):
    """A mock screen: the context and language from DrillScreen, the clock in seconds."""

    def now(self) -> float:
        return self.ctx.clock().timestamp()


# --------------------------------------------------------------------------- #
# Setup


class MockSetupScreen(_MockScreen):
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
        yield Footer()

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
            seed=self.query_one("#mock-seed", Input).value, new_seed=self._new_seed)

    def refresh_preview(self) -> None:
        preview = self.query_one("#mock-preview", Static)
        try:
            settings = self.settings()
            if settings.weighted and self._weakness is None:  # read the history once, not per keystroke
                self._weakness = flow.weakness(self.ctx)
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
        preview.update(Text(t("mock.preview", lang, n=len(p.questions), chains=chains,
                               time=format_clock(p.limit_seconds), seed=p.settings.seed, how=how) + "\n"
                            + t("mock.start_hint", lang)))

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


# --------------------------------------------------------------------------- #
# The run


class GoBackScreen(DrillModal[int | None]):
    """Pick a skipped, flagged or unseen question to go back to."""

    DEFAULT_CSS = """
    GoBackScreen { align: center middle; }
    GoBackScreen > Vertical { width: 80; height: auto; max-height: 80%; border: thick $primary; background: $surface;
                              padding: 0 1; }
    GoBackScreen OptionList { height: auto; max-height: 16; }
    """
    BINDINGS = [*bind("key.back", "close")]

    def __init__(self, choices: list[tuple[int, str]] | None = None, title: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices = choices or []
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*[Option(Text(label), id=str(i)) for i, label in self.choices], id="goto-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id))

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmEndScreen(DrillModal[bool]):
    DEFAULT_CSS = """
    ConfirmEndScreen { align: center middle; }
    ConfirmEndScreen > Vertical { width: 60; height: auto; border: thick $warning; background: $surface;
                                  padding: 1 2; }
    ConfirmEndScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmEndScreen Button { margin-right: 2; }
    """
    BINDINGS = [
        *bind("key.mock_yes", "answer(True)"),
        *bind("key.mock_no", "answer(False)", keys=("n", "escape")),
    ]

    def __init__(self, body: str = "", title: str = "mock.end_title", **kwargs) -> None:
        super().__init__(**kwargs)
        self.body = body
        self.title_key = title

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical():
            yield Static(Text(t(self.title_key, lang), style="bold"))
            yield Static(Text(self.body))
            with Horizontal():
                yield Button(t("key.mock_yes", lang) + " (y)", id="yes", variant="warning")
                yield Button(t("key.mock_no", lang) + " (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


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


BODY_FRAME = 7  # rows around the mock's problem: the two bars, its top margin, the answer box, the footer


class MockRunScreen(_MockScreen):
    """The timed mock: no verdicts until the end."""

    # laid out as practice is: the problem (givens table, question) with the answer box right under it;
    # the problem scrolls (to its question) when the terminal is too short for all of it
    DEFAULT_CSS = """
    MockRunScreen { layout: vertical; }
    MockRunScreen #mock-head { dock: top; height: 2; }
    MockRunScreen #mock-bar { height: 1; background: $boost; padding: 0 1; }
    MockRunScreen #mock-position { width: 1fr; text-style: bold; }
    MockRunScreen #mock-qtime { width: auto; margin-right: 3; }
    MockRunScreen #mock-clock { width: auto; text-style: bold; padding: 0 1; }
    MockRunScreen #mock-clock.-warning { background: $error; color: $text; }
    MockRunScreen #mock-status { height: 1; padding: 0 1; color: $text-muted; }
    MockRunScreen #mock-body { height: auto; max-height: 16; padding: 0 1; margin-top: 1; }
    MockRunScreen #mock-prompt { margin-top: 1; }
    MockRunScreen #mock-answer { margin: 0 1; }
    MockRunScreen #mock-reading { height: auto; padding: 0 3; color: $text-muted; }
    MockRunScreen #mock-reading.-unreadable { color: $warning; }
    MockRunScreen #mock-reading.-error { color: $error; }
    """

    BINDINGS = [
        *bind("key.mock_skip", "skip"),
        *bind("key.mock_flag", "flag"),
        *bind("key.mock_goto", "goto"),  # return; Ctrl+G is "I don't know" everywhere
        *bind("key.mock_end", "end"),
        *scroll_bindings(),  # the problem scrolls while the answer box keeps the focus
    ]

    TICK = 0.25  # seconds between clock refreshes (the time itself comes from ctx.clock)

    def __init__(self, plan: MockPlan | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.plan = plan
        self.run: MockRun | None = None
        self.problems: list[Problem] = []
        self.saving: glue.MockSave | None = None  # the finished mock being saved (built once)
        self.save_error: SaveFailed | None = None  # why the last attempt to save it failed (None: it did not)
        self._ending = False
        self._quit_after = False  # the app quits once the mock is saved (Ctrl+Q mid-mock)
        self._box: Input | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="mock-head"):
            with Horizontal(id="mock-bar"):
                yield Static(id="mock-position")
                yield Static(id="mock-qtime")
                yield Static(id="mock-clock")
            yield Static(id="mock-status")
        with VerticalScroll(id="mock-body", can_focus=False):
            yield Static(id="mock-problem")
            yield Static(id="mock-prompt")
        yield Input(id="mock-answer")
        yield Static(id="mock-reading")
        yield Footer()

    def on_mount(self) -> None:
        if self.plan is None:  # opened by name: a default 30-minute mock
            settings = glue.make_settings(new_seed=self.ctx.new_seed)
            self.plan = glue.make_plan(settings, weakness=flow.weakness(self.ctx))
        self.run, self.problems = glue.begin_run(self.plan, self.now())
        self.show_slot()
        self.set_interval(self.TICK, self.tick)

    def action_scroll_problem(self, how: str) -> None:
        scroll_view(self.query_one("#mock-body", VerticalScroll), how)

    def on_resize(self) -> None:
        """The problem takes what the bars, the answer box and its line leave (that line wraps below 80 columns)."""
        reading = 1 if self.size.width >= 80 else 2
        self.query_one("#mock-body").styles.max_height = max(3, self.size.height - BODY_FRAME - reading)

    def apply_lang(self) -> None:
        if self.run is not None and not self.run.finished:
            self.show_slot(keep_text=True)

    # --- drawing ---------------------------------------------------------- #

    @property
    def answer_box(self) -> Input:
        if self._box is None:
            self._box = self.query_one("#mock-answer", Input)
        return self._box  # kept: its text is still needed while the screen is being removed

    def show_slot(self, keep_text: bool = False) -> None:
        run, lang = self.run, self.lang
        slot = run.slot
        problem = self.problems[slot.question]
        answers = {s.step: s.typed for s in run.slots if s.question == slot.question and s.status == ANSWERED}
        context = problem_context(problem, slot.step, lang, answers)
        context.rstrip()
        self.query_one("#mock-problem", Static).update(Wrapped(context))  # broken as a person would (engine.wrap)
        prompt = step_prompt(problem, slot.step, lang)
        if slot.status == ANSWERED:
            prompt.append("\n" + t("mock.answered_before", lang, typed=slot.typed), style="italic")
        self.query_one("#mock-prompt", Static).update(Wrapped(prompt))
        # from its first line, as in practice (PgDn reads on)
        body = self.query_one("#mock-body", VerticalScroll)
        body.scroll_home(animate=False, immediate=True)
        self.call_after_refresh(body.scroll_home, animate=False)
        box = self.answer_box
        box.placeholder = placeholder(slot.expected, lang, "mock.placeholder")
        if not keep_text:
            box.value = slot.draft or (slot.typed if slot.status == ANSWERED else "")
        box.focus()
        self.show_reading()
        self.show_clock()

    def show_status(self) -> None:
        run, lang = self.run, self.lang
        c = run.counts()
        text = Text(t("mock.counts", lang, answered=c[ANSWERED], skipped=c[SKIPPED], flagged=c["flagged"],
                       total=len(run.slots)))
        if run.slot.flagged:
            text.append("   " + t("mock.flagged", lang), style="bold yellow")
        self.query_one("#mock-status", Static).update(text)

    def show_clock(self) -> None:
        run, lang, now = self.run, self.lang, self.now()
        slot = run.slot
        pos = t("mock.position", lang, n=slot.question + 1, total=run.total_questions)
        if slot.steps > 1:
            pos += t("mock.step", lang, n=slot.step + 1, total=slot.steps)
        self.query_one("#mock-position", Static).update(Text(pos))
        self.query_one("#mock-qtime", Static).update(
            Text(t("mock.this_question", lang, time=format_clock(run.question_seconds(now)))))
        clock = self.query_one("#mock-clock", Static)
        clock.update(Text(t("mock.left", lang, time=format_clock(run.remaining(now), up=True))))
        clock.set_class(run.warning(now), "-warning")
        self.show_status()

    def show_reading(self, error: str | None = None) -> None:
        box, out, lang = self.answer_box, self.query_one("#mock-reading", Static), self.lang
        out.set_class(False, "-unreadable")
        out.set_class(error is not None, "-error")
        if error is not None:
            out.update(Text(t("mock.not_submitted", lang, why=error)))
            return
        if not box.value.strip():
            out.update(Text(t("mock.keys", lang)))
            return
        ok, message = reading(box.value, self.run.slot.expected, lang)
        out.set_class(not ok, "-unreadable")
        out.update(Text(t("mock.understood" if ok else "mock.cannot_read", lang,
                           **({"what": message} if ok else {"why": message}))))

    # --- the clock -------------------------------------------------------- #

    def tick(self) -> None:
        """Refresh the countdown; end the mock when the time is up (submitting a readable answer)."""
        if self.run is None or self._ending:
            return
        if self.run.tick(self.now(), draft=self.answer_box.value):
            self.end_mock()
        else:
            self.show_clock()

    # --- actions ---------------------------------------------------------- #

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.run is not None and not self.run.finished:
            self.show_reading()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.run is None or self._ending:
            return
        try:
            self.run.answer(event.value, self.now())
        except MockError as e:
            ok, why = reading(event.value, self.run.slot.expected, self.lang)  # the reason in the UI language
            self.show_reading(error=str(e) if ok else why)
            return
        self._after_action()

    def _after_action(self) -> None:
        if self.run.finished:
            self.end_mock()
        else:
            self.show_slot()

    def action_skip(self) -> None:
        if self.run is None or self._ending:
            return
        self.run.skip(self.now(), draft=self.answer_box.value)
        self._after_action()

    def action_flag(self) -> None:
        if self.run is None or self._ending:
            return
        self.run.toggle_flag(self.now(), draft=self.answer_box.value)
        if self.run.finished:
            self.end_mock()
        else:
            self.show_status()

    def action_goto(self) -> None:
        if self.run is None or self._ending:
            return
        lang, run = self.lang, self.run
        choices = []
        for i in run.revisitable():
            s = run.slots[i]
            what = [t("mock.goto_flagged", lang)] if s.flagged else []
            what.append(t({"pending": "mock.goto_unseen", SKIPPED: "mock.goto_skipped",
                            ANSWERED: "mock.goto_answered"}[s.status], lang))
            title = template_title(registry.get(s.template_id), lang)
            choices.append((i, f"{s.label:>5}  {title}  ({', '.join(what)})"))
        if not choices:
            self.notify(t("mock.nothing_to_revisit", lang))
            return
        draft = self.answer_box.value

        def chosen(index: int | None) -> None:
            if index is None or self._ending or run.finished:
                return
            try:
                run.goto(index, self.now(), draft=draft)
            except MockError as e:
                self.notify(str(e), severity="warning")
            self._after_action()

        self.app.push_screen(GoBackScreen(choices, t("mock.goto_title", self.lang)), chosen)

    def action_end(self) -> None:
        if self.run is None or self._ending:
            return
        lang, run = self.lang, self.run
        draft = self.answer_box.value
        submits = self._submits(draft)
        missing = sum(1 for s in run.slots if s.status != ANSWERED) - (submits and run.slot.status != ANSWERED)
        body = t("mock.end_body", lang, n=missing, total=len(run.slots)) if missing else t("mock.end_body_all",
                                                                                            lang)
        if submits:
            body += "\n" + t("mock.end_submits", lang, typed=draft.strip())

        def confirmed(yes: bool | None) -> None:
            if yes and not self._ending and not run.finished:
                self._finish_by_hand(draft)
                self.end_mock()

        self.app.push_screen(ConfirmEndScreen(body), confirmed)

    def _submits(self, draft: str) -> bool:
        """Would ending now submit ``draft``: readable, and not the answer already given."""
        slot, text = self.run.slot, draft.strip()
        return (bool(text) and not (slot.status == ANSWERED and text == slot.typed)
                and unreadable_reason(text, slot.expected) is None)

    def _finish_by_hand(self, draft: str) -> None:
        """End the mock now; a readable answer typed but not submitted is submitted, as at time-out
        (unreadable text stays unanswered)."""
        now = self.now()
        if self._submits(draft):
            self.run.answer(draft, now)
            self.run.finish(now)  # answer() may have moved on to another question
        else:
            self.run.finish(now, draft=draft)

    def end_mock(self) -> None:
        """Save the finished mock (record + review rows) and show the report.

        Grading a symbolic answer may take seconds (:mod:`engine.symbolic`), so a mock with one is
        graded and saved in a thread; the report shows when it is done.  A save that fails shows the
        report all the same, with the reason (:meth:`_save`).
        """
        if self._ending:
            return
        if not any(s.expected.answer_kind.slow and s.status == ANSWERED for s in self.run.slots):
            self._save()  # numbers and choices grade in microseconds
            self.app.call_later(self._after_save)
            return
        self._ending = True

        def work() -> None:
            self._save()
            try:
                self.app.call_from_thread(self.app.call_later, self._after_save)
            except RuntimeError:  # the app closed meanwhile: nothing to show
                pass

        self.run_worker(work, thread=True, group="mock-save", exit_on_error=True)

    def _save(self) -> bool:
        """Save the finished mock; False when a write failed: :attr:`save_error` says why and
        :attr:`saving` what is stored (saving it again stores only the rest)."""
        self._ending = True
        ctx = self.ctx
        if self.saving is None:
            self.saving = glue.MockSave(ctx.profile, self.run)
        try:
            self.saving.write(ctx.profile, ctx.local_date)
        except SaveFailed as e:
            self.save_error = e
            return False
        self.save_error = None
        return True

    def _report_kwargs(self) -> dict:
        unsaved = not self.saving.done
        return {"record": self.saving.shown, "saving": self.saving if unsaved else None,
                "error": self.save_error if unsaved else None}

    async def _after_save(self) -> None:
        if self._quit_after and self.saving.done:
            self.app.exit()
            return
        if self not in self.app.screen_stack:  # left meanwhile (the palette): the report opens on top
            self.app.open_screen("mock_report", **self._report_kwargs())
            return
        await self._show_report()

    def before_quit(self) -> bool:
        """Quitting mid-mock ends the mock (a readable answer typed but not submitted is submitted, as
        with Esc) and saves it: the app closes once it is saved, or shows the report with the reason
        when it cannot be (:meth:`DrillApp.action_quit`)."""
        if self.run is None:
            return True
        if self._ending:  # being saved (in a thread), or saved and its report on its way
            if self.saving is not None and self.saving.done:
                return True
            self._quit_after = True
            return False
        if not self.run.finished:
            self._finish_by_hand(self.answer_box.value)
        self._quit_after = True
        self.end_mock()
        return False

    def on_unmount(self) -> None:
        """Leaving mid-mock another way (the palette) ends the mock there: it is saved like any other;
        when that fails, its report opens on top with the reason (and should the app be closing, the
        reason is printed after it: ``DrillApp.unsaved``)."""
        if self.run is not None and not self._ending:
            if not self.run.finished:
                self._finish_by_hand(self.answer_box.value)
            if not self._save():
                self.app.unsaved[self.saving] = self.saving.lost(self.save_error.text(self.lang), self.lang)
                self.app.call_later(self.app.open_screen, "mock_report", **self._report_kwargs())

    async def _show_report(self) -> None:
        while self.app.screen is not self:  # a dialog open when the time ran out
            await self.app.pop_screen()
        await self.app.switch_to("mock_report", **self._report_kwargs())


# --------------------------------------------------------------------------- #
# The report


class SolutionScreen(DrillModal[None]):
    """One question of a mock with your answer, the expected one and the worked solution."""

    DEFAULT_CSS = """
    SolutionScreen { align: center middle; }
    SolutionScreen > VerticalScroll { width: 90%; height: 90%; border: thick $primary; background: $surface;
                                      padding: 1 2; }
    """
    BINDINGS = [*bind("key.close", "close", keys=("escape", "enter"))]

    def __init__(self, question: Mapping | None = None, label: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.question = dict(question or {})
        self.label = label

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.render_text(), id="solution-text")

    def render_text(self) -> Text:
        lang, q = self.lang, self.question
        asked = asked_step(q.get("item", ""), q.get("seed", 0), q.get("step"))
        if asked is None:
            return Text(t("mock.unknown_template", lang))
        problem, step_i = asked
        step = problem.steps[step_i]
        title = template_title(problem.template, lang)
        out = Text(t("mock.solution_title", lang, label=self.label, title=title, seed=problem.seed) + "\n\n",
                   style="bold")
        out.append_text(step_prompt(problem, step_i, lang))
        verdict = q.get("verdict", UNANSWERED)
        out.append("\n" + t("mock.col.answer", lang) + ": ", style="dim")
        out.append((q.get("typed") or "—") + "   ")
        out.append(verdict_name(verdict, lang), style=VERDICT_COLOUR.get(verdict, ""))
        out.append("\n" + t("mock.col.expected", lang) + ": ", style="dim")
        out.append(step.expected.display_in(lang) + "\n")
        if q.get("misconception"):
            out.append(misconception_label(q["misconception"], lang) + "\n", style="yellow")
        out.append("\n" + t("solution", lang) + "\n", style="bold")
        for line in step.solution_lines(lang):
            out.append(line + "\n")
        out.append("\n" + t("mock.problem", lang) + "\n", style="bold")
        out.append_text(problem_context(problem, step_i, lang))
        out.append("\n\n" + t("mock.close_hint", lang), style="dim")
        return out

    def action_close(self) -> None:
        self.dismiss(None)


class MockReportScreen(_MockScreen):
    """The report of a saved mock (the latest one when none is given), or of one whose save failed
    (``saving``, ``error``): it says so, and ``r`` saves the rest."""

    DEFAULT_CSS = """
    MockReportScreen #report-unsaved { height: auto; margin: 0 1 1 1; color: $error; text-style: bold; }
    MockReportScreen #report-head { height: auto; margin: 0 1 1 1; }
    MockReportScreen #report-table { height: 1fr; min-height: 5; margin: 0 1; }
    MockReportScreen #report-notes { height: auto; max-height: 12; margin: 1 1 0 1; }
    """
    CELL_WIDTH = 20  # most cells of an answer in the table: the verdict stays in view at 80 columns
    BINDINGS = [
        *bind("key.mock_queue", "queue_missed"),
        *bind("key.mock_save_again", "save_again"),
        *bind("key.back", "back"),
    ]

    def __init__(self, record: Mapping | None = None, saving: "glue.MockSave | None" = None,
                 error: SaveFailed | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.record = dict(record) if record is not None else None
        self.report: Report | None = None
        self.saving = saving  # a mock not wholly saved yet (a write failed): r saves the rest
        self.save_error = error

    def compose(self) -> ComposeResult:
        yield Static(id="report-unsaved")
        yield Static(id="report-head")
        table: DataTable = DataTable(id="report-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="report-notes")
        yield Footer()

    def on_mount(self) -> None:
        if self.record is None:
            mocks = self.ctx.profile.mocks()
            self.record = mocks[-1] if mocks else None
        if self.record is not None:
            self.report = glue.report_of(self.ctx.profile, self.record)
        self._keep_unsaved()
        self.apply_lang()
        self.query_one("#report-table", DataTable).focus()

    # --- a mock whose save failed ----------------------------------------- #

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save_again":
            return self.saving is not None
        return True

    def _keep_unsaved(self) -> None:
        """While part of the mock is not stored, the app knows (it says so on stderr should it close anyway)."""
        if self.saving is not None:
            self.app.unsaved[self.saving] = self.saving.lost(self.save_error.text(self.lang), self.lang)

    def show_unsaved(self) -> None:
        box = self.query_one("#report-unsaved", Static)
        box.display = self.saving is not None
        if self.saving is not None:
            box.update(Text(self.saving.progress(self.save_error.text(self.lang), self.lang)))

    def save_again(self) -> bool:
        """Store what is not stored yet; True when the whole mock is saved now."""
        if self.saving is None:
            return True
        try:
            self.record = dict(self.saving.write(self.ctx.profile, self.ctx.local_date))
        except SaveFailed as e:
            self.save_error = e
            self._keep_unsaved()
            self.show_unsaved()
            return False
        self.app.unsaved.pop(self.saving, None)
        self.saving = self.save_error = None
        self.show_unsaved()
        self.refresh_bindings()
        return True

    def action_save_again(self) -> None:
        if self.saving is None:
            return
        total = self.saving.total
        if self.save_again():
            self.notify(t("mock.saved_now", self.lang, n=total), timeout=4)
        else:
            self.notify(t("mock.still_not_saved", self.lang), severity="error", timeout=4)

    def _confirm_losing(self, title: str, then) -> None:
        """Ask before leaving with part of the mock not stored (``then``: what yes does)."""
        if isinstance(self.app.screen, ConfirmEndScreen):  # already asking
            return
        saving = self.saving

        def answered(yes: bool | None) -> None:
            if yes and self.saving is saving:
                self.app.unsaved.pop(saving, None)  # the learner chose to lose it: nothing more to say
                then()

        body = self.saving.progress(self.save_error.text(self.lang), self.lang) + "\n\n" + t("mock.lose", self.lang)
        self.app.push_screen(ConfirmEndScreen(body, title=title), answered)

    def before_quit(self) -> bool:
        """Quitting saves what is not stored yet; if it still cannot be, asks first (``DrillApp.action_quit``)."""
        if self.save_again():
            return True
        self._confirm_losing("mock.quit_title", self.app.exit)
        return False

    def apply_lang(self) -> None:
        self._keep_unsaved()
        self.show_unsaved()
        lang, rep, rec = self.lang, self.report, self.record
        head = self.query_one("#report-head", Static)
        table = self.query_one("#report-table", DataTable)
        notes = self.query_one("#report-notes", Static)
        table.clear(columns=True)
        if rep is None:
            head.update(Text(t("mock.no_mocks", lang)))
            notes.update("")
            return
        text = Text(t("mock.report", lang, date=str(rec.get("ts", ""))[:10], seed=rec.get("seed", "")) + "\n",
                    style="bold")
        text.append(t("mock.score", lang, percent=rep.percent) + "  ", style="bold")
        text.append(t("mock.tally", lang, **rep.score) + "\n")
        text.append(t("mock.time_used", lang, used=format_clock(rep.seconds_used),
                       limit=format_clock(rep.limit_seconds)) + (t("mock.timed_out", lang) if rep.timed_out else "")
                    + "\n")
        c = rep.comparison
        text.append(t("mock.first", lang) if c is None else
                    t("mock.compare", lang, n=c.earlier, previous=c.previous, delta=points(c.delta(rep.percent), lang),
                       best=c.best, average=c.average), style="italic")
        head.update(text)
        cols = ["mock.col.n", "mock.col.topic", "mock.col.answer", "mock.col.expected", "mock.col.verdict",
                "mock.col.time"]
        table.add_columns(*[t(k, lang) for k in cols], "⚑")
        for i, r in enumerate(rep.results):
            typed, expected = Text(r.typed or "—"), Text(expected_shown(r.template_id, r.seed, r.step, r.expected,
                                                                         lang))
            for cell in (typed, expected):  # in full on the question's solution (Enter)
                cell.truncate(self.CELL_WIDTH, overflow="ellipsis")
            table.add_row(Text(r.label), Text(topic_name(r.topic, lang)), typed, expected,
                          Text(verdict_name(r.verdict, lang), style=VERDICT_COLOUR.get(r.verdict, "")),
                          Text(format_clock(r.seconds)), Text("⚑" if r.flagged else ""), key=str(i))
        out = Text(t("mock.misconceptions", lang), style="bold")
        if rep.misconceptions:
            out.append("; ".join(f"{misconception_label(label, lang)} (×{n})" for label, n in rep.misconceptions))
        else:
            out.append(t("mock.no_misconceptions", lang), style="dim")
        out.append("\n" + t("mock.weakest", lang), style="bold")
        weak = [(t, p, n) for t, p, n in rep.weakest_topics if p < 100][:3]
        if weak:
            out.append(" · ".join(f"{topic_name(t, lang)} {p:.0f} % ({n})" for t, p, n in weak))
        else:
            out.append(t("mock.no_weak_topic", lang), style="dim")
        out.append("\n" + (t("mock.report_keys", lang, n=len(rep.missed_templates)) if rep.missed_templates
                            else t("mock.report_keys_none", lang)), style="dim")
        notes.update(out)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_solution(int(event.row_key.value))

    def open_solution(self, index: int) -> None:
        if self.record is None or self.report is None:
            return
        q = self.record["questions"][index]
        self.app.push_screen(SolutionScreen(question=q, label=self.report.results[index].label))

    def action_queue_missed(self) -> None:
        if self.report is None:
            return
        if not self.report.missed_templates:
            self.notify(t("mock.nothing_missed", self.lang))
            return
        try:
            glue.queue_missed(self.ctx.profile, self.report)
        except SaveFailed as e:
            self.notify(t("mock.not_queued", self.lang, why=e.text(self.lang)), severity="error", timeout=8,
                        markup=False)
            return
        self.notify(t("mock.queued", self.lang, n=len(self.report.missed_templates)))

    def action_back(self) -> None:
        """Back; a mock not wholly saved is saved first, and if it still cannot be, asks first."""
        if self.save_again():
            self.app.pop_screen()
            return
        self._confirm_losing("mock.leave_title", self.app.pop_screen)
