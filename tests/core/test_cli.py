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
