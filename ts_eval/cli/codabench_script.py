"""The scoring program's script: ``ts-eval codabench`` copies this file, as it is, into the program it writes
(``score.py``, beside ``settings.json`` and ``metadata.yaml``), and Codabench or CodaLab runs it as
``python3 score.py INPUT OUTPUT`` (``INPUT/ref``: the reference data, ``INPUT/res``: the submission, ``OUTPUT``:
where ``scores.json`` goes).

It uses only the standard library until it has found ts_eval and checked its version, so that a platform image
without ts_eval, or with a release of another series than the one that made the program, fails with one line that
says what to install, not with a traceback; and it is written in Python 3.6's syntax, because the platforms'
default images are that old.  The rest (finding the files, validating, scoring, writing the outputs) is
:mod:`ts_eval.cli.codabench_run` of the ts_eval that runs it.
"""
import importlib
import json
import os
import sys


def series(version: str) -> str:
    """The release series of ``version``: its major version; for a 0.x release the major and the minor, since a
    0.x minor release may change what the program relies on."""
    parts = version.split(".")
    return ".".join(parts[:2]) if parts[0] == "0" else parts[0]


def fail(text: str) -> int:
    print("scoring program: " + text, file=sys.stderr)
    return 1


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    try:    # (a file edited by hand, or left out of the zip: the organiser's to fix, told in one line)
        with open(os.path.join(here, "settings.json"), encoding="utf-8") as f:
            settings = json.load(f)
        made, program_id, made_on = settings["ts_eval"], settings["program"], settings["made"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        return fail("its settings.json cannot be read (" + type(err).__name__ + ": " + str(err) + "); make the "
                    "program again with ts-eval codabench, and do not edit settings.json")
    install = "install it in the competition's docker image (pip install 'ts-eval==" + made + "')"
    try:
        from ts_eval.version import __version__
    except ImportError:
        return fail("ts_eval is not installed in this image; this program was made by ts_eval " + made + ": "
                    + install)
    except Exception as err:    # a Python too old for ts_eval (a SyntaxError), a broken installation
        return fail("ts_eval cannot be imported with Python " + sys.version.split()[0] + " (" + type(err).__name__
                    + ": " + str(err) + "); it needs Python 3.9 or later: " + install)
    running = __version__
    print("scoring program " + program_id + " made by ts_eval " + made + " on " + made_on
          + "; run by ts_eval " + running + " (Python " + sys.version.split()[0] + ")")
    if series(running) != series(made):
        return fail("this program was made by ts_eval " + made + " and ts_eval " + running + " runs it; a "
                    "release of the " + series(made) + ".x series must run it: " + install + ", or make the "
                    "program again with ts-eval codabench of ts_eval " + running)
    try:    # by name: this file runs outside the package, with whichever ts_eval the image has
        program = importlib.import_module("ts_eval.cli.codabench_run")
    except ImportError:
        return fail("ts_eval " + running + " cannot run this program (made by ts_eval " + made + "): " + install)
    code: int = program.run(sys.argv[1:], settings, here)
    return code


if __name__ == "__main__":
    sys.exit(main())
