import argparse
import subprocess
import sys

from benchmark import __version__
from benchmark.cli import main


def test_python_dash_m_is_the_same_program():
    result = subprocess.run(
        [sys.executable, "-m", "benchmark", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == f"atlbench {__version__}"


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: atlbench" in capsys.readouterr().out


def _commands():
    import argparse

    from benchmark.cli import build_parser

    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices.items())


def test_every_command_has_a_description_and_help_without_rest_markup():
    """``--help`` prints what a user reads: no ``literal`` or :role:`target` markup, and every command
    says what it does (``ocl --help`` said nothing, ``baseline --help`` printed raw reST)."""
    commands = _commands()
    assert {"baseline", "ocl", "roundtrip", "import"} <= {name for name, _ in commands}
    for name, parser in commands:
        text = parser.format_help()
        assert parser.description, name
        assert "``" not in text and ":func:`" not in text and ":mod:`" not in text, name


def test_validate_accepts_every_spelling_of_every_session_option():
    """``atlbench validate`` takes the pytest session's options as the harness and tracks declare them,
    older spellings (aliases) included; ``--reports-dir`` alone differs: no default folder."""
    from benchmark.cli import build_parser
    from benchmark.cli.validate import _classes
    from benchmark.harness.options import VALIDATION_ROOT, all_options

    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    validate = action.choices["validate"]
    spelt = {flag for a in validate._actions for flag in a.option_strings}
    options = [o for o in all_options(_classes()) if o is not VALIDATION_ROOT]
    assert any(o.aliases for o in options)  # the check below is about something
    for option in options:
        assert set(option.flags) <= spelt, option.flag
    (reports,) = [a for a in validate._actions if "--reports-dir" in a.option_strings]
    assert reports.default in (None, "") and "also write the report files" in reports.help
