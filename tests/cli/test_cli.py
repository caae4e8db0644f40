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
