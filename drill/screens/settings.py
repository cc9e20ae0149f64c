"""Settings: new items a day, the review cap a day, the interview date, the scheduler; saved in the profile,
whose folder is named at the bottom (:func:`drill.core.paths.saves_note`).

Each field is saved when Enter is pressed in it (:func:`drill.core.flow.parse_setting` checks it first; a bad value
is refused with the reason under the field and nothing is saved).  Below the fields: what the interview date
does today (days left, the pace of new items, a warning when that is more than a person can do).  A date whose
pace is above the daily limit asks whether to take it (:class:`ConfirmPaceScreen`); the limit changes only on yes.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, Static

from drill.core import flow
from drill.core.i18n import t
from drill.core.paths import saves_note
from drill.screens import DrillModal, DrillScreen
from engine.schedule.stretch import STRETCH_DAYS as FINAL_STRETCH
from engine.session import PACE_WARNING
from engine.storage import SaveFailed

FIELDS = (("new_per_day", "settings.new_per_day"), (flow.REVIEWS_KEY, "settings.reviews_per_day"),
          (flow.INTERVIEW_KEY, "settings.interview"), (flow.HARDWARE_KEY, "settings.hardware"),
          (flow.SCHEDULER_KEY, "settings.scheduler"))
MAX_LENGTH = {flow.HARDWARE_KEY: 48}  # an accelerator id; the other fields: 10


class SettingsScreen(DrillScreen):
    DEFAULT_CSS = """
    SettingsScreen {
        #settings { padding: 0 2; }
        #settings-title { margin: 1 0 0 0; }
        .setting-label { margin: 1 0 0 0; }
        .setting-input { width: 30; }
        .setting-hint { color: $text-muted; }
        #settings-plan { margin: 1 0 0 0; height: auto; }
    }
    """
    BINDINGS = [Binding("escape", "back", "Back", id="key.back")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="settings"):
            yield Static(id="settings-title")
            yield Static(id="settings-plan")  # on top: in view in 80x24 whatever the hints' wrapping
            for key, _ in FIELDS:
                yield Static(id=f"label-{key}", classes="setting-label")
                yield Input(id=f"input-{key}", classes="setting-input", max_length=MAX_LENGTH.get(key, 10))
                yield Static(id=f"hint-{key}", classes="setting-hint")
            yield Static(id="settings-saves", classes="setting-label")  # where progress is saved
        yield Footer()

    def on_mount(self) -> None:
        rules = flow.learning(self.ctx.profile)
        values = {"new_per_day": str(rules.new_per_day), flow.REVIEWS_KEY: str(rules.reviews_per_day),
                  flow.INTERVIEW_KEY: rules.interview.isoformat() if rules.interview else "",
                  flow.HARDWARE_KEY: self.ctx.profile.settings().get(flow.HARDWARE_KEY) or "",
                  flow.SCHEDULER_KEY: rules.scheduler}
        for key, _ in FIELDS:
            self.query_one(f"#input-{key}", Input).value = values[key]
        self.draw()
        self.query_one(f"#input-{FIELDS[0][0]}", Input).focus()

    def apply_lang(self) -> None:
        self.draw()

    def hint(self, key: str) -> str:
        return self.tr(f"settings.{key}_hint", stretch=FINAL_STRETCH)

    def draw(self) -> None:
        self.query_one("#settings-title", Static).update(Text.assemble(
            (self.tr("settings.title"), "bold"), "   ", (self.tr("settings.keys"), "dim")))
        for key, label in FIELDS:
            self.query_one(f"#label-{key}", Static).update(Text(self.tr(label), "bold"))
            self.query_one(f"#hint-{key}", Static).update(Text(self.hint(key)))
        path = getattr(self.ctx.profile, "path", None)
        self.query_one("#settings-saves", Static).update(
            Text(saves_note(None, self.lang, folder=path.parent if path is not None else None), "dim"))
        self.draw_plan()

    def draw_plan(self) -> None:
        self.query_one("#settings-plan", Static).update(plan_text(self.ctx, self.tr))

    @on(Input.Submitted, ".setting-input")
    def _save(self, event: Input.Submitted) -> None:
        key = (event.input.id or "").removeprefix("input-")
        value, problem = flow.parse_setting(key, event.value, self.ctx.today(), self.ctx.profile.root)
        hint = self.query_one(f"#hint-{key}", Static)
        if problem is not None:
            lo, hi = flow.SETTING_BOUNDS.get(key, (0, 0))
            hint.update(Text(self.tr(problem, lo=lo, hi=hi), "bold red"))  # nothing saved; the text stays in the box
            return
        try:
            self.ctx.profile.set_setting(key, value)
        except SaveFailed as e:  # nothing changed: the value stays in the box, Enter saves it again
            hint.update(Text(self.tr("save.setting_kept", why=e.text(self.lang)), "bold red"))
            return
        if key == flow.HARDWARE_KEY:
            self.ctx.hardware = value  # the next problem drawn is on it
        hint.update(Text.assemble((self.tr("settings.saved") + " ", "green"), self.hint(key)))
        self.draw_plan()
        self.focus_next()
        if key == flow.INTERVIEW_KEY and value is not None:
            self.offer_pace()

    def offer_pace(self) -> None:
        """A date that needs more new items a day than the limit: ask before changing it (the limit stays
        unless the learner says yes)."""
        plan = flow.plan(self.ctx)
        if not (plan.active and plan.behind and plan.pace <= flow.SETTING_BOUNDS["new_per_day"][1]):
            return
        body = self.tr("settings.pace_body", line=flow.pace_line(plan, self.tr), limit=plan.new_today, pace=plan.pace)

        def answered(yes: bool | None) -> None:
            box, hint = self.query_one("#input-new_per_day", Input), self.query_one("#hint-new_per_day", Static)
            if not yes:
                hint.update(Text(self.tr("settings.pace_kept", limit=plan.new_today), "dim"))
                return
            try:
                self.ctx.profile.set_setting("new_per_day", plan.pace)
            except SaveFailed as e:
                hint.update(Text(self.tr("save.setting_kept", why=e.text(self.lang)), "bold red"))
                return
            box.value = str(plan.pace)
            hint.update(Text(self.tr("settings.pace_taken", pace=plan.pace), "green"))
            self.draw_plan()

        self.app.push_screen(ConfirmPaceScreen(body), answered)

    def action_back(self) -> None:
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
        Binding("y", "answer(True)", "Yes", id="key.mock_yes"),
        Binding("n,escape", "answer(False)", "No", id="key.mock_no"),
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
    plan = flow.plan(ctx)
    if plan.interview is None:
        return Text(tr("settings.no_interview"), "dim")
    text = Text(flow.interview_line(plan, tr), "bold")
    if plan.active and plan.left:
        text.append("  ·  " + flow.pace_line(plan, tr))
        if plan.too_many:
            text.append("  " + tr("home.pace_warning", limit=PACE_WARNING), "bold yellow")
    return text
