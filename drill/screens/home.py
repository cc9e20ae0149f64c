"""Home: today at a glance and the ways in (practice, mock, stats, browse), one key each."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from drill.core import home_figures, readiness_view
from drill.core.i18n import t, when
from drill.core.paths import damaged_text, ignored_lines
from drill.keybindings import bind, key_display
from drill.screens import DrillScreen
from drill.widgets.footer import KeyFooter
from engine.session import PACE_WARNING

# each way in, with its key from the key table (drill/keybindings.py)
WAYS = tuple((name, key_display(label), label) for name, label in (
    ("practice", "key.practice"), ("mock", "key.mock"), ("stats", "key.stats"), ("browse", "key.browse"),
    ("settings", "key.settings")))


def damaged_line(profile, lang: str) -> Text:
    """An older log file found damaged while counting today (left out of the figures): its path and the fix;
    and each setting whose stored value is not used (:func:`ignored_lines`)."""
    found = list(getattr(profile, "damaged", {}).values())
    lines = []
    if found:
        e = found[0]
        line = damaged_text(e, lang)
        if len(found) > 1:
            line += t("save.damaged_more", lang, n=len(found) - 1)
        lines.append(line)
    lines += ignored_lines(profile, lang)
    return Text("\n".join(lines), "bold red")


class HomeScreen(DrillScreen):
    DEFAULT_CSS = """
    HomeScreen {
        #home { padding: 0 2; height: 1fr; }
        #home-title { height: 1; margin: 1 0 1 0; }
        #tiles { height: 4; }
        .tile { width: 1fr; height: 4; border: round $primary 50%; content-align: center middle;
                text-align: center; margin-right: 1; }
        #home-next { height: auto; margin: 1 0 0 0; }
        #home-plan { height: auto; }
        #ways { height: auto; max-height: 9; margin: 1 0 0 0; border: round $accent 40%; }
        #home-bank { height: 1; margin-top: 1; }
    }
    """
    BINDINGS = [
        *bind("key.practice", "open('practice')"),
        *bind("key.mock", "open('mock')"),
        *bind("key.stats", "open('stats')"),
        *bind("key.browse", "open('browse')"),
        *bind("key.settings", "open('settings')"),
        *bind("key.help", "app.help", keys="question_mark", show=False),
        *bind("key.quit", "app.quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            yield Static(id="home-title")
            with Horizontal(id="tiles"):
                for key in ("due", "new", "streak", "today"):
                    yield Static(id=f"tile-{key}", classes="tile")
            yield Static(id="home-next")
            yield Static(id="home-damaged")
            yield Static(id="home-plan")
            yield OptionList(id="ways")
            yield Static(id="home-bank")
        yield KeyFooter()

    def on_screen_resume(self) -> None:
        self.draw()

    def apply_lang(self) -> None:
        self.draw()

    def draw(self) -> None:
        f = home_figures.today_figures(self.ctx)
        lang, today = self.lang, self.ctx.today()
        profile = getattr(self.ctx.profile, "name", "default")
        title = Text.assemble(("infra-drill", "bold"), "  ", self.tr("home.title", date=today.isoformat()),
                              ("   " + self.tr("home.profile", name=profile), "dim"))
        self.query_one("#home-title", Static).update(title)
        tiles = {"due": f.due, "new": f.new, "streak": self.tr("home.days", n=f.streak), "today": f.reviews_today}
        for key, value in tiles.items():
            self.query_one(f"#tile-{key}", Static).update(
                Text.assemble((str(value), "bold"), "\n", (self.tr(f"home.{key}"), "dim")))
        # the next due date only when nothing is due now (answering today's items moves dates anyway)
        nxt = ("" if f.due else self.tr("home.next_due", when=when(f.next_due, today, lang)) if f.next_due
               else self.tr("home.nothing_scheduled"))
        self.query_one("#home-next", Static).update(Text(nxt, "dim"))
        damaged = self.query_one("#home-damaged", Static)
        damaged.update(damaged_line(self.ctx.profile, lang))
        damaged.display = bool(getattr(self.ctx.profile, "damaged", None) or
                               getattr(self.ctx.profile, "ignored_settings", None))
        self.query_one("#home-plan", Static).update(self.plan_text(f))
        n = f.session
        practice = (self.tr("home.way.practice_one") if n == 1 else self.tr("home.way.practice", n=n)) if n \
            else self.tr("home.way.practice_done")
        if f.queued:
            practice += self.tr("home.way.queued", k=f.queued)
        if f.held_back:
            practice += self.tr("home.held_back", k=f.held_back)
        details = {
            "practice": practice,
            "mock": self.tr("home.way.mock"),
            "stats": self.tr("home.way.stats"),
            "browse": self.tr("home.way.browse"),
            "settings": self.tr("home.way.settings"),
        }
        ways = self.query_one("#ways", OptionList)
        highlighted = ways.highlighted
        ways.clear_options()
        for name, key, label in WAYS:
            ways.add_option(Option(Text.assemble((f" {key} ", "bold reverse"), "  ", (self.tr(label), "bold"),
                                                 ("  " + details[name], "dim")), id=name))
        ways.highlighted = highlighted if highlighted is not None else 0
        self.query_one("#home-bank", Static).update(
            Text(self.tr("home.bank", n=f.bank, topics=f.topics), "dim"))
        ways.focus()

    def plan_text(self, f: home_figures.Today) -> Text:
        """With an interview date: the days left and the pace of new items (a warning when too many); the
        readiness fitted on the learner's answers is in Stats and `drill plan` (it reads the whole log)."""
        plan = f.plan
        if plan is None or plan.interview is None:
            return Text()
        text = Text(readiness_view.interview_line(plan, self.tr), "bold")
        if plan.active and plan.left:
            text.append("  ·  " + readiness_view.pace_line(plan, self.tr))
            if plan.too_many:
                text.append("\n" + self.tr("home.pace_warning", limit=PACE_WARNING), "bold yellow")
        return text

    @on(OptionList.OptionSelected, "#ways")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None, "each way's id is its screen's name"
        self.action_open(event.option.id)

    def action_open(self, name: str) -> None:
        self.app.open_screen(name)
