"""The version lives in ts_eval.version (no import of the package __init__ needed), and the
error classes: OptionError is a ValueError, UsageError (the command line's exit-2 error, in ts_eval.cli)
an OptionError."""
import ast
import configparser
from pathlib import Path

import ts_eval
from ts_eval import version
from ts_eval.cli.errors import UsageError
from ts_eval.errors import InputError, OptionError, TsEvalError


def test_one_version():
    assert ts_eval.__version__ is version.__version__
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).parents[1] / "setup.cfg")
    assert cfg["metadata"]["version"] == "attr: ts_eval.version.__version__"


def test_version_module_imports_nothing_of_the_package():
    tree = ast.parse(Path(version.__file__).read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_option_error_is_a_value_error_and_usage_error_an_option_error():
    assert issubclass(OptionError, TsEvalError) and issubclass(OptionError, ValueError)
    assert issubclass(UsageError, OptionError)
    assert not issubclass(InputError, OptionError)
