"""``drill`` and ``drill practice`` are parsed by the app's command module alone (a faster first
problem); every other command line sees the whole parser, and both parsers read the app's lines alike."""

from __future__ import annotations

import pytest

from drill import cli

APP_LINES = [
    [],
    ["practice"],
    ["--saves", "/tmp/s", "practice"],
    ["--lang", "zh", "--profile", "ana", "practice"],
    ["--saves=/tmp/s", "--lang=zh"],
    ["--lang", "en"],
]
OTHER_LINES = [
    ["-h"],
    ["practice", "--help"],
    ["calc", "practice"],
    ["stats"],
    ["--saves", "/tmp/s", "due"],
    ["--sav", "/tmp/s", "practice"],  # an abbreviation: only the whole parser knows it
    ["practice", "extra"],
]


@pytest.mark.parametrize("argv", APP_LINES)
def test_the_app_lines_need_only_the_app_module(argv):
    assert cli.command_modules(argv) == (cli.APP_MODULE,)


@pytest.mark.parametrize("argv", OTHER_LINES)
def test_any_other_line_gets_every_command(argv):
    assert cli.command_modules(argv) == cli.COMMAND_MODULES


def test_the_app_module_registers_exactly_the_app_commands():
    parser = cli.build_parser((cli.APP_MODULE,))
    sub = next(a for a in parser._actions if a.dest == "command")
    assert tuple(sub.choices) == cli.APP_COMMANDS


@pytest.mark.parametrize("argv", APP_LINES)
def test_both_parsers_read_an_app_line_alike(argv):
    short, whole = cli.build_parser((cli.APP_MODULE,)).parse_args(argv), cli.build_parser().parse_args(argv)
    assert vars(short) == vars(whole)


def test_a_bad_global_option_is_refused_as_by_the_whole_parser(capsys):
    with pytest.raises(SystemExit) as short:
        cli.main(["--lang", "fr"])
    short_err = capsys.readouterr().err
    with pytest.raises(SystemExit) as whole:
        cli.build_parser().parse_args(["--lang", "fr"])
    assert short.value.code == whole.value.code == 2
    assert short_err == capsys.readouterr().err


@pytest.mark.parametrize("argv, expected", [
    (["practice", "--lang", "zh"], {"lang": "zh", "saves": None, "profile": None}),
    (["--lang", "zh", "practice"], {"lang": "zh", "saves": None, "profile": None}),
    (["--lang", "en", "practice", "--lang", "zh"], {"lang": "zh", "saves": None, "profile": None}),
    (["stats", "--saves", "/tmp/s", "--profile", "ana"], {"lang": None, "saves": "/tmp/s", "profile": "ana"}),
    (["--saves", "/tmp/s", "due", "--json"], {"lang": None, "saves": "/tmp/s", "profile": None}),
    (["mock", "--plan", "--seed", "3", "--lang", "zh"], {"lang": "zh", "saves": None, "profile": None}),
])
def test_global_options_work_before_or_after_the_command(argv, expected):
    args = cli.build_parser(cli.command_modules(argv)).parse_args(argv)
    assert {k: getattr(args, k) for k in expected} == expected


def test_a_global_option_after_the_command_is_still_checked():
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["stats", "--lang", "fr"])
    assert e.value.code == 2
