"""question_bank/README.md shows a real template of the bank: its copy must be the code as it stands."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from question_bank import registry

README = Path(__file__).resolve().parents[2] / "question_bank" / "README.md"


def test_the_readme_example_is_the_template_in_the_bank():
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    tid = re.search(r'@template\("([\w.]+)"', block).group(1)
    assert f"`{tid}`" in text
    assert block == inspect.getsource(registry.get(tid).fn)
