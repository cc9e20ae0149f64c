"""End of a session: what was answered, how well, by topic, and what is due tomorrow."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.core.i18n import template_title, topic_name
from drill.core.practice_run import Summary
from drill.core.stats import duration
from drill.keybindings import bind
from drill.screens import DrillScreen, screen_name
from drill.widgets.footer import KeyFooter
from question_bank import registry
from question_bank.topics import TOPICS

# what the summary names as the screen Enter goes back to (drill.app.SCREEN_PATHS name -> drill.core.i18n id)
BACK_NAMES = {"home": "key.home", "browse": "key.browse", "practice": "practice.title", "stats": "key.stats",
              "mock_report": "mock.title", "help": "key.help"}


class SummaryScreen(DrillScreen):
    """``SummaryScreen(summary=...)``: Enter or Escape goes back to the screen the session was started from
    (Home, Browse…), and says so."""

    DEFAULT_CSS = """
    SummaryScreen #summary-body { padding: 1 2; }
    """

    BINDINGS = [
        *bind("key.home", "home"),  # Enter, and Esc
    ]

    def __init__(self, summary: Summary | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.summary = summary
        self.home_words: str | None = None  # what Enter's key is named: where it goes back to (set on compose)

    def compose(self) -> ComposeResult:
        # the Enter key named after where it goes (Browse, not Home, when the session began there)
        self.home_words = self.back_to()
        with VerticalScroll(id="summary-body"):
            yield Static(self.render_summary(), id="summary")
        yield KeyFooter()

    def key_words(self, binding):
        if binding.id == "key.home" and self.home_words is not None:
            return self.home_words
        return super().key_words(binding)

    def back_to(self) -> str:
        """The name of the screen Enter goes back to: the one below this (Home when there is none)."""
        stack = self.app.screen_stack
        below = stack[stack.index(self) - 1] if self in stack and stack.index(self) > 0 else None
        name = screen_name(below) if below is not None else "home"
        return self.tr(BACK_NAMES.get(name or "", "key.home"))

    def render_summary(self):
        s, lang = self.summary, self.lang
        out = Table.grid(padding=(0, 2))
        out.add_column()
        title = Text(self.tr("summary.title"), "bold underline")
        if s is None or not s.answered:
            out.add_row(title)
            out.add_row(Text(self.tr("summary.nothing")))
            out.add_row(Text(self.tr("summary.back", where=self.back_to()), "dim"))
            return out
        counts = Table.grid(padding=(0, 3))
        for _ in range(6):
            counts.add_column(justify="right")
        counts.add_row(*[Text(self.tr(k), "dim") for k in ("summary.answered", "summary.correct", "summary.close",
                                                           "summary.wrong", "summary.dont_know", "summary.time")])
        counts.add_row(Text(str(s.answered), "bold"), Text(str(s.correct), "bold green"),
                       Text(str(s.close), "bold yellow"), Text(str(s.wrong), "bold red"),
                       Text(str(s.dont_know), "bold magenta"), Text(duration(s.seconds, lang), "bold"))
        topics = Table(box=None, padding=(0, 2), header_style="dim")
        topics.add_column(self.tr("summary.topic"))
        topics.add_column(self.tr("summary.accuracy"), justify="right")
        topics.add_column("", justify="right")
        for topic in TOPICS:
            if topic in s.by_topic:
                passed, answered = s.by_topic[topic]
                pct = round(100 * passed / answered)
                style = "green" if pct >= 80 else "yellow" if pct >= 50 else "red"
                topics.add_row(Text(topic_name(topic, lang)), Text(f"{pct} %", style),
                               Text(f"{passed}/{answered}", "dim"))
        due = Text(self.tr("summary.due_tomorrow", n=len(s.due_tomorrow)), "bold")
        for item in s.due_tomorrow[:8]:
            tpl = registry.get(item)
            due.append(f"\n  • {template_title(tpl, lang)}", "")
        if len(s.due_tomorrow) > 8:
            due.append(f"\n  … +{len(s.due_tomorrow) - 8}", "dim")
        for row in (title, counts, Text(self.tr("summary.counted_by"), "dim"), Text(""),
                    Text(self.tr("summary.by_topic"), "bold"), topics, Text(""), due,
                    Text(""), Text(self.tr("summary.back", where=self.back_to()), "dim")):
            out.add_row(row)
        return out

    def action_home(self) -> None:
        self.app.pop_screen()
