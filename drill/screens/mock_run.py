"""The mock interview's timed run, and its go-back and end-now dialogs.

:class:`MockRunScreen` (``"mock_run"``): a countdown always visible (warning colour in the
last 10 %), question n of N, the time on this question; answers are read as
typed (an unreadable one is refused before it is submitted) but no verdict
or solution is shown.  Skip, flag, go back; the mock ends by itself when the
time runs out, or by hand (Esc, or quitting the app): either way a readable answer
typed but not submitted is submitted.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from drill.core import mock as glue
from drill.core.i18n import placeholder, t, template_title
from drill.core.mock import format_clock
from drill.keybindings import bind
from drill.screens import DrillModal, question_in_view, scroll_bindings, scroll_view
from drill.screens.mock import MockScreen, problem_context, step_prompt
from drill.widgets.footer import KeyFooter
from drill.widgets.formulas import Wrapped
from engine.mock import ANSWERED, SKIPPED, MockError, MockPlan, MockRun, reading, unreadable_reason
from engine.storage import SaveFailed
from question_bank import registry
from question_bank.template import Problem


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
        slot = event.option.id
        assert slot is not None, "each option is made with its slot's index as id (compose)"
        self.dismiss(int(slot))

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


BODY_FRAME = 7  # rows around the mock's problem: the two bars, its top margin, the answer box, the footer


class MockRunScreen(MockScreen):
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
        *bind("key.mock_hint", "hint", show=False),  # refused, with the reason: a mock is the interview's conditions
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
        yield KeyFooter()

    @property
    def active_run(self) -> MockRun:
        """The run, begun on mount: before any key, answer or tick reaches the screen."""
        assert self.run is not None, "begun on mount"
        return self.run

    @property
    def active_save(self) -> glue.MockSave:
        """The finished mock's save, built by :meth:`_save` before the report or a quit reads it."""
        assert self.saving is not None, "built by _save() first"
        return self.saving

    def on_mount(self) -> None:
        if self.plan is None:  # opened by name: a default 30-minute mock
            settings = glue.make_settings(new_seed=self.ctx.new_seed)
            self.plan = glue.make_plan(settings, weakness=glue.weakness(self.ctx))
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
        run, lang = self.active_run, self.lang
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
        # at its question, as in practice: every step says what it asks at once (PgUp reads the givens)
        question_in_view(self.query_one("#mock-body", VerticalScroll))
        box = self.answer_box
        box.placeholder = placeholder(slot.expected, lang, "mock.placeholder")
        if not keep_text:
            box.value = slot.draft or (slot.typed if slot.status == ANSWERED else "")
        box.focus()
        self.show_reading()
        self.show_clock()

    def show_status(self) -> None:
        run, lang = self.active_run, self.lang
        c = run.counts()
        text = Text(t("mock.counts", lang, answered=c[ANSWERED], skipped=c[SKIPPED], flagged=c["flagged"],
                       total=len(run.slots)))
        if run.slot.flagged:
            text.append("   " + t("mock.flagged", lang), style="bold yellow")
        self.query_one("#mock-status", Static).update(text)

    def show_clock(self) -> None:
        run, lang, now = self.active_run, self.lang, self.now()
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
        ok, message = reading(box.value, self.active_run.slot.expected, lang)
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
        if self.active_run.finished:
            self.end_mock()
        else:
            self.show_slot()

    def action_skip(self) -> None:
        if self.run is None or self._ending:
            return
        self.run.skip(self.now(), draft=self.answer_box.value)
        self._after_action()

    def action_hint(self) -> None:
        self.notify(self.tr("mock.no_hint"), severity="warning", timeout=3, markup=False)

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
        slot, text = self.active_run.slot, draft.strip()
        return (bool(text) and not (slot.status == ANSWERED and text == slot.typed)
                and unreadable_reason(text, slot.expected) is None)

    def _finish_by_hand(self, draft: str) -> None:
        """End the mock now; a readable answer typed but not submitted is submitted, as at time-out
        (unreadable text stays unanswered)."""
        now = self.now()
        if self._submits(draft):
            self.active_run.answer(draft, now)
            self.active_run.finish(now)  # answer() may have moved on to another question
        else:
            self.active_run.finish(now, draft=draft)

    def end_mock(self) -> None:
        """Save the finished mock (record + review rows) and show the report.

        Grading a symbolic answer may take seconds (:mod:`engine.symbolic`), so a mock with one is
        graded and saved in a thread; the report shows when it is done.  A save that fails shows the
        report all the same, with the reason (:meth:`_save`).
        """
        if self._ending:
            return
        if not any(s.expected.answer_kind.slow and s.status == ANSWERED for s in self.active_run.slots):
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
            self.saving = glue.MockSave(ctx.profile, self.active_run)
        try:
            self.saving.write(ctx.profile, ctx.local_date)
        except SaveFailed as e:
            self.save_error = e
            return False
        self.save_error = None
        return True

    def _report_kwargs(self) -> dict:
        unsaved = not self.active_save.done
        return {"record": self.active_save.shown, "saving": self.saving if unsaved else None,
                "error": self.save_error if unsaved else None}

    async def _after_save(self) -> None:
        if self._quit_after and self.active_save.done:
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
                assert self.save_error is not None, "_save() keeps why it failed"
                self.app.unsaved[self.active_save] = self.active_save.lost(self.save_error.text(self.lang), self.lang)
                self.app.call_later(self.app.open_screen, "mock_report", **self._report_kwargs())

    async def _show_report(self) -> None:
        while self.app.screen is not self:  # a dialog open when the time ran out
            await self.app.pop_screen()
        await self.app.switch_to("mock_report", **self._report_kwargs())
