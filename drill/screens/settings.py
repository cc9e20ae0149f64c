"""Settings: new items a day, the review cap a day, the interview date, the scheduler; saved in the profile,
whose folder is named at the bottom (:func:`drill.core.paths.saves_note`).

Each setting is a :class:`drill.widgets.setting.SettingField`: an edit is saved on Enter, on leaving the field
(Tab) and on leaving the screen (Esc), once :func:`drill.core.settings.parse_setting` has read it; a value that
cannot be read is refused with the reason under the field, nothing is saved and the focus stays in it (a
second Esc leaves without it).  Below the fields: what the interview date
does today (days left, the pace of new items, a warning when that is more than a person can do).  A date whose
pace is above the daily limit asks whether to take it (:class:`ConfirmPaceScreen`); the limit changes only on yes.
FSRS: the desired retention is a field (its hint says the simulated reviews a day), and a button fits the
weights to the learner's reviews in a worker thread (:mod:`drill.core.fsrs_tuning`), saved on the UI thread;
Esc while it runs cancels it (nothing saved) instead of leaving.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState, get_current_worker

from drill.core import fsrs_tuning, readiness_view, settings
from drill.core.i18n import t
from drill.core.paths import saves_note
from drill.core.sessions import catalog
from drill.keybindings import bind
from drill.screens import DrillModal, DrillScreen
from drill.widgets.footer import KeyFooter
from drill.widgets.setting import OK, SettingField
from engine import convention_set
from engine.schedule.stretch import STRETCH_DAYS as FINAL_STRETCH
from engine.session import PACE_WARNING
from engine.storage import SaveFailed

# Settings → conventions: one field per choosable convention (engine.convention_set), after the others
FIELDS = (("new_per_day", "settings.new_per_day"), (settings.REVIEWS_KEY, "settings.reviews_per_day"),
          (settings.INTERVIEW_KEY, "settings.interview"), (settings.HARDWARE_KEY, "settings.hardware"),
          (settings.MODEL_KEY, "settings.model"), (settings.SCHEDULER_KEY, "settings.scheduler"),
          (settings.RETENTION_KEY, "settings.retention")) + tuple(
    (settings.CONVENTION_FIELD + c.key, "settings.convention") for c in convention_set.CHOOSABLE)
MAX_LENGTH = {settings.HARDWARE_KEY: 48, settings.MODEL_KEY: 48}  # an accelerator or model id; the other fields: 10


class SettingsScreen(DrillScreen):
    DEFAULT_CSS = """
    SettingsScreen {
        #settings { padding: 0 2; }
        #settings-title { margin: 1 0 0 0; }
        .setting-label { margin: 1 0 0 0; }
        .setting-input { width: 30; }
        .setting-hint { color: $text-muted; }
        #settings-plan { margin: 1 0 0 0; height: auto; }
        #fsrs-fit { margin: 1 0 0 0; height: auto; }
        #fsrs-optimize { margin: 1 0 0 0; }
    }
    """
    BINDINGS = [*bind("key.back", "back")]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._leaving = False  # Esc: saving the edits before the screen closes
        self._leaving_without: str | None = None  # the refused text a second Esc leaves behind
        self._fitting: Worker | None = None  # fitting FSRS's weights (Esc cancels it)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="settings"):
            yield Static(id="settings-title")
            yield Static(id="settings-plan")  # on top: in view in 80x24 whatever the hints' wrapping
            for key, label in FIELDS:
                yield self.field(key, label)
            yield Static(id="fsrs-fit")  # the weights in use, or what the last fit did
            yield Button(self.tr("settings.fsrs_optimize"), id="fsrs-optimize")
            yield Static(id="settings-saves", classes="setting-label")  # where progress is saved
        yield KeyFooter()

    def field(self, key: str, label: str) -> SettingField:
        profile = self.ctx.profile
        conv = convention_set.BY_KEY.get(key.removeprefix(settings.CONVENTION_FIELD))
        if not key.startswith(settings.CONVENTION_FIELD):
            conv = None

        def why(problem: str) -> str:
            lo, hi = settings.SETTING_BOUNDS.get(key, (0, 0))
            return self.tr(problem, lo=lo, hi=hi, values=" / ".join(conv.values) if conv else "")

        def save(value) -> None:
            if conv is None:
                profile.set_setting(key, value)
                return
            chosen = settings.with_convention(settings.saved_conventions(profile), conv.key, value)
            profile.set_setting(settings.CONVENTIONS_KEY, chosen)
            self.ctx.conventions = chosen  # the next problem drawn follows it

        return SettingField(
            key, label=(lambda: self.tr(label, name=conv.label_in(self.lang))) if conv else (lambda: self.tr(label)),
            value=self.stored(key),
            read=lambda text: settings.parse_setting(key, text, self.ctx.today(), profile.root),
            save=save, hint=lambda: self.hint(key), why=why,
            saved_words=lambda: self.tr("settings.saved"),
            kept_words=lambda e: self.tr("save.setting_kept", why=e.text(self.lang)),
            max_length=MAX_LENGTH.get(key, 10))

    def stored(self, key: str) -> str:
        if key.startswith(settings.CONVENTION_FIELD):
            name = key.removeprefix(settings.CONVENTION_FIELD)
            return settings.saved_conventions(self.ctx.profile).get(name, convention_set.BY_KEY[name].default)
        rules = settings.learning(self.ctx.profile)
        values = {"new_per_day": str(rules.new_per_day), settings.REVIEWS_KEY: str(rules.reviews_per_day),
                  settings.INTERVIEW_KEY: rules.interview.isoformat() if rules.interview else "",
                  settings.HARDWARE_KEY: self.ctx.profile.settings().get(settings.HARDWARE_KEY) or "",
                  settings.MODEL_KEY: self.ctx.profile.settings().get(settings.MODEL_KEY) or "",
                  settings.SCHEDULER_KEY: rules.scheduler,
                  settings.RETENTION_KEY: f"{settings.retention(self.ctx.profile):.2f}"}
        return values[key]

    def on_mount(self) -> None:
        self.draw()
        self.query_one(f"#input-{FIELDS[0][0]}").focus()

    def apply_lang(self) -> None:
        self.draw()
        for f in self.query(SettingField):
            f.draw()

    def hint(self, key: str) -> str:
        if key.startswith(settings.CONVENTION_FIELD):
            c = convention_set.BY_KEY[key.removeprefix(settings.CONVENTION_FIELD)]
            which = "settings.convention_bytes_hint" if c.key == "bytes_per_param" else "settings.convention_hint"
            return self.tr(which, choices=c.choices_text(self.lang))
        if key == settings.RETENTION_KEY:
            r, n = fsrs_tuning.expected_workload(self.ctx.profile, settings.learning(self.ctx.profile).new_per_day,
                                                 len(catalog()))
            return self.tr("settings.retention_hint", r=r, n=n)
        return self.tr(f"settings.{key}_hint", stretch=FINAL_STRETCH)

    def draw(self) -> None:
        self.query_one("#settings-title", Static).update(Text.assemble(
            (self.tr("settings.title"), "bold"), "   ", (self.tr("settings.keys"), "dim")))
        path = getattr(self.ctx.profile, "path", None)
        self.query_one("#settings-saves", Static).update(
            Text(saves_note(None, self.lang, folder=path.parent if path is not None else None), "dim"))
        self.draw_plan()
        self.query_one("#fsrs-optimize", Button).label = self.tr("settings.fsrs_optimize")
        if self._fitting is None:
            self.query_one("#fsrs-fit", Static).update(Text(fsrs_tuning.lines(
                self.ctx.profile, self.lang, settings.learning(self.ctx.profile).new_per_day, len(catalog()))[0]))

    def draw_plan(self) -> None:
        self.query_one("#settings-plan", Static).update(plan_text(self.ctx, self.tr))

    @on(SettingField.Saved)
    def _saved(self, event: SettingField.Saved) -> None:
        if event.key == settings.HARDWARE_KEY:
            self.ctx.hardware = event.value  # the next problem drawn is on it
        if event.key == settings.MODEL_KEY:
            self.ctx.model = event.value  # the next problem drawn is of it
        self.draw_plan()
        if event.key == settings.INTERVIEW_KEY and event.value is not None and not self._leaving:
            self.offer_pace()

    @on(Button.Pressed, "#fsrs-optimize")
    def _optimize(self) -> None:
        """Fit FSRS's weights in a worker thread (the log is read there); Esc cancels."""
        if self._fitting is not None:
            return
        ctx = self.ctx
        self.query_one("#fsrs-fit", Static).update(Text(self.tr("settings.fsrs_fitting"), "bold"))

        def fit():
            worker = get_current_worker()
            return fsrs_tuning.compute(ctx.profile, ctx.today(), cancelled=lambda: worker.is_cancelled)

        self._fitting = self.run_worker(fit, name="fsrs-fit", group="fsrs-fit", thread=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._fitting or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR,
                                                                   WorkerState.CANCELLED):
            return
        self._fitting = None
        shown = self.query_one("#fsrs-fit", Static)
        result = event.worker.result if event.state == WorkerState.SUCCESS else None
        if result is None:  # cancelled while it read the log, or the log could not be read
            error = event.worker.error
            said = getattr(error, "text", None)
            why = said(self.lang) if callable(said) else str(error) if error is not None else None
            shown.update(Text(why, "bold red") if why else Text(fsrs_tuning.say("cancelled", self.lang), "dim"))
            return
        try:
            fsrs_tuning.keep(self.ctx.profile, result)
        except SaveFailed as e:
            shown.update(Text(self.tr("save.setting_kept", why=e.text(self.lang)), "bold red"))
            return
        shown.update(Text(fsrs_tuning.result_line(result, self.lang), "green"))
        retention = self.query_one(f"#setting-{settings.RETENTION_KEY}", SettingField)
        retention.draw()  # its workload follows the new weights

    def offer_pace(self, then=None) -> bool:
        """A date that needs more new items a day than the limit: ask before changing it (the limit stays
        unless the learner says yes)."""
        plan = readiness_view.plan(self.ctx)
        if not (plan.active and plan.behind and plan.pace is not None and plan.pace <= settings.SETTING_BOUNDS["new_per_day"][1]):
            return False
        body = self.tr("settings.pace_body", line=readiness_view.pace_line(plan, self.tr), limit=plan.new_today, pace=plan.pace)

        def answered(yes: bool | None) -> None:
            self.pace_answered(plan, yes)
            if then is not None:
                then()

        self.app.push_screen(ConfirmPaceScreen(body), answered)
        return True

    def pace_answered(self, plan, yes: bool | None) -> None:
        """The answer to the pace question: yes sets the limit to the pace, no keeps it."""
        field = self.query_one("#setting-new_per_day", SettingField)
        box, hint = field.box, self.query_one("#hint-new_per_day", Static)
        if not yes:
            hint.update(Text(self.tr("settings.pace_kept", limit=plan.new_today), "dim"))
            return
        try:
            self.ctx.profile.set_setting("new_per_day", plan.pace)
        except SaveFailed as e:
            hint.update(Text(self.tr("save.setting_kept", why=e.text(self.lang)), "bold red"))
            return
        box.value = field.stored = str(plan.pace)
        hint.update(Text(self.tr("settings.pace_taken", pace=plan.pace), "green"))
        self.draw_plan()

    def action_back(self) -> None:
        """Leave, saving every edit first; an edit that cannot be saved keeps the screen open once (its field
        says why and that a second Esc leaves without it).  A new interview date whose pace is above the limit
        is asked about first.  While FSRS's weights are being fitted, Esc cancels the fit instead."""
        if self._fitting is not None:  # its result is dropped; the library's call ends within seconds (bounded)
            self._fitting.cancel()
            self._fitting = None
            self.query_one("#fsrs-fit", Static).update(Text(fsrs_tuning.say("cancelled", self.lang), "dim"))
            return
        self._leaving = True
        interview = self.query_one(f"#setting-{settings.INTERVIEW_KEY}", SettingField)
        before = interview.stored
        for f in self.query(SettingField):
            if f.commit() != OK and f.box.value != self._leaving_without:
                self._leaving, self._leaving_without = False, f.box.value
                f.box.focus()
                hint = f.query_one(f"#hint-{f.key}", Static)
                shown = hint.content.copy() if isinstance(hint.content, Text) else Text(str(hint.content))
                f.say(shown.append("  " + self.tr("settings.esc_again"), "bold"))
                return
        if interview.stored != before and interview.stored.strip() and self.offer_pace(then=self.app.pop_screen):
            return
        self.app.pop_screen()


class ConfirmPaceScreen(DrillModal[bool]):
    """Asks whether to take the pace an interview date needs (y / n; Esc keeps the limit)."""

    DEFAULT_CSS = """
    ConfirmPaceScreen { align: center middle; }
    ConfirmPaceScreen > Vertical { width: 64; height: auto; border: thick $warning; background: $surface;
                                   padding: 1 2; }
    ConfirmPaceScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmPaceScreen Button { margin-right: 2; }
    """
    BINDINGS = [
        *bind("key.mock_yes", "answer(True)"),
        *bind("key.mock_no", "answer(False)", keys=("n", "escape")),
    ]

    def __init__(self, body: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.body = body

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical():
            yield Static(Text(t("settings.pace_title", lang), style="bold"))
            yield Static(Text(self.body))
            with Horizontal():
                yield Button(t("key.mock_yes", lang) + " (y)", id="yes", variant="warning")
                yield Button(t("key.mock_no", lang) + " (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def plan_text(ctx, tr) -> Text:
    """The interview date's effect today, as Home and Settings show it: days left, the pace, a warning."""
    plan = readiness_view.plan(ctx)
    if plan.interview is None:
        return Text(tr("settings.no_interview"), "dim")
    text = Text(readiness_view.interview_line(plan, tr), "bold")
    if plan.active and plan.left:
        text.append("  ·  " + readiness_view.pace_line(plan, tr))
        if plan.too_many:
            text.append("  " + tr("home.pace_warning", limit=PACE_WARNING), "bold yellow")
    return text
