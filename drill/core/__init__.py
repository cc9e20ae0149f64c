"""The headless core of drill: what the app (screens, widgets) and the commands both need.

Practice (settings, sessions, the practice run, Home's and Browse's figures), the stats figures and their
words, the mock's glue and clock, where saves live, the context every screen reads, the interface's words in
both languages: none of it imports textual or either face (``drill.commands``, ``drill.cli``,
``drill.screens``, ``drill.widgets``, ``drill.app``, ``drill.palette``); both faces import it (tests/unit/test_import_hygiene.py checks it).
"""
