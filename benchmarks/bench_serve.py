"""First paint in a browser: ``drill serve`` against textual-serve serving Textual's own minimal app.

Each server is started afresh, then a headless Chromium (Debian's, driven by Playwright: tests/browser.py)
opens the page; the time is taken from the page's request to the first frame of the web socket that holds
the app's first words (Home's "Practise today"; the minimal app's label).  Both go through the same
textual-serve, browser and web socket, so the ratio is what drill's own start adds.  Runs alternate; the
best and median times are printed with their ratios.  Without Chromium (``apt-get install chromium``) it
says so and measures nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

RUNS = 5
MINIMAL_APP = '''
from textual.app import App
from textual.widgets import Input, Label


class Minimal(App):
    def compose(self):
        yield Label("What is the ridge point of the H100 SXM at bf16, in FLOP/B?")
        yield Input(placeholder="your answer")


Minimal().run()
'''
MINIMAL_SERVER = '''
import sys
from textual_serve.server import Server

Server(f"{sys.executable} {sys.argv[1]}", host="127.0.0.1", port=int(sys.argv[2])).serve()
'''


def first_paint(argv: list[str], port: int, words: str) -> float:
    from tests import browser

    with browser.served(argv, port) as url, browser.browser_page(url) as (page, screen):
        screen.wait_for(page, words, timeout=60)
        took = screen.first_drawn(words)
    assert took is not None, "drawn, so its frame is known"
    return took

def main() -> None:
    from tests import browser

    if why := browser.missing():
        print(f"  skipped: {why}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "minimal_app.py").write_text(MINIMAL_APP)
        (tmp_path / "minimal_server.py").write_text(MINIMAL_SERVER)

        def programs(port: int) -> dict[str, tuple[list[str], str]]:
            return {"textual-serve, minimal Textual app": ([sys.executable, str(tmp_path / "minimal_server.py"),
                                                             str(tmp_path / "minimal_app.py"), str(port)],
                                                            "What is the ridge point"),
                    "drill serve (Home)": (browser.drill_serve(tmp_path / "saves", port), "Practise today")}

        names = list(programs(0))
        times: dict[str, list[float]] = {name: [] for name in names}
        for run in range(RUNS + 1):  # the first round warms the file cache and bytecode
            for name in names:
                port = browser.free_port()
                argv, words = programs(port)[name]
                took = first_paint(argv, port, words)
                if run:
                    times[name].append(took)
    (base, drill) = times.values()
    print(f"first paint in headless Chromium, from the page's start to the app's first words ({RUNS} alternating "
          "runs each)")
    print(f"  {'':<38} {'best':>7} {'median':>8}")
    for name, values in times.items():
        print(f"  {name:<38} {min(values):6.3f}s {statistics.median(values):7.3f}s")
    print(f"  {'drill serve / minimal app':<38} {min(drill) / min(base):6.2f}x "
          f"{statistics.median(drill) / statistics.median(base):7.2f}x")


if __name__ == "__main__":
    main()
