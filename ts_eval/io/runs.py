"""Systems given as several runs (training seeds): which files are whose runs, and what the corpus calls them.

A system of several runs is given by its name and its run files: a glob pattern (``runs/crf/*.conll``), a
folder (its files that match ``glob``, as :func:`ts_eval.io.inputs.expand` takes a system folder), or a list
of paths.  :func:`run_files` finds each system's files; :func:`with_runs` adds them to
:class:`~ts_eval.io.inputs.Inputs` as systems of the corpus, each run named ``NAME/<its file's system name>``
(``crf/seed1``), and gives the grouping that ``rank(..., runs=...)`` and
:func:`ts_eval.ranking.blocks.score_runs` take (system name -> the names of its runs).  A run is read as
any system file is (every format, detected per file; its tokens must be gold's).
"""
from __future__ import annotations

import glob as globbing
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Dict, List, Mapping, Sequence, Tuple, Union

from ..errors import Hint, InputError, OptionError
from .paths import expand, system_names
from .source import STDIN

if TYPE_CHECKING:
    from .inputs import Inputs

#: what a system's runs are given as: a glob pattern or folder, or the paths of its run files
RunsGiven = Union[str, Sequence[str]]


def run_files(runs: Mapping[str, RunsGiven], glob: str = "*", exclude: Sequence[str] = ()) -> Dict[str, List[str]]:
    """Each system's run files, sorted: a pattern's matches (hidden files left out), a folder's files that match
    ``glob``, or the paths given (``exclude``: files that are no run, gold).  An empty name, a pattern or folder
    without a file, or a file that is the run of two systems is an error naming the option and the value."""
    skip = {os.path.realpath(x) for x in exclude if x != STDIN}
    out: Dict[str, List[str]] = {}
    owner: Dict[str, str] = {}
    for name, given in runs.items():
        if not isinstance(name, str) or not name.strip():
            raise OptionError("a system given as runs needs a name (NAME=PATTERN)", option="runs",
                              value=f"={given}" if isinstance(given, str) else given)
        if "/" in name:
            raise OptionError(f"system name {name!r} holds '/', which separates a system from its run's name",
                              option="runs", value=_shown(name, given))
        files = [f for f in _files(given, glob) if os.path.realpath(f) not in skip]
        if not files:
            why = ("no run file given" if not isinstance(given, str) else
                   f"no run file matching {glob!r} in this folder" if os.path.isdir(given) else
                   "no file matches this pattern")
            raise OptionError(f"system {name!r}: {why}", option="runs", value=_shown(name, given))
        for f in files:
            real = os.path.realpath(f)
            if real in owner:
                raise OptionError(f"{f} is a run of two systems ({owner[real]!r} and {name!r})", option="runs",
                                  value=_shown(name, given))
            owner[real] = name
        out[name] = files
    return out


def _shown(name: str, given: RunsGiven) -> str:
    return f"{name}={given}" if isinstance(given, str) else f"{name}={','.join(given)}"


def _files(given: RunsGiven, pattern: str) -> List[str]:
    """A pattern's matches, a folder's files (:func:`~ts_eval.io.inputs.expand`), or the paths given."""
    if not isinstance(given, str):
        return sorted(expand(list(given), pattern))
    if os.path.isdir(given):
        try:
            return expand([given], pattern)
        except InputError:          # (no file in the folder: the caller names the option)
            return []
    if os.path.isfile(given):
        return [given]
    return sorted(f for f in globbing.glob(given) if os.path.isfile(f))


def run_names(runs: Mapping[str, Sequence[str]]) -> Dict[str, List[str]]:
    """Each system's runs as the corpus calls them: ``NAME/<the file's system name>`` (two runs of a system with
    the same file name are an error naming both files)."""
    out = {}
    for name, files in runs.items():
        own = system_names(files, what=f"run files of {name!r}")
        out[name] = [f"{name}/{n}" for n in own]
    return out


def with_runs(inputs: Inputs, runs: Mapping[str, RunsGiven], glob: str = "*") -> Tuple[Inputs, Dict[str, List[str]]]:
    """``inputs`` (a gold input and its system inputs; a folder among them stands for its files when
    ``inputs.glob`` is given) with the runs of ``runs`` (system name -> a pattern, a folder or paths, see
    :func:`run_files`) added as systems, and the grouping: system name -> the names of its runs in the corpus.
    The systems keep their names (``inputs.names``, else their files'); a run file that is also one of them, or
    a system name given both ways, is an error."""
    if inputs.gold is None:
        raise OptionError(["systems given as runs need a gold input and a file per run: give ", Hint("gold")],
                          option="runs")
    found = run_files(runs, glob, exclude=[inputs.gold])
    systems = inputs.system_inputs()
    if inputs.names is not None and len(inputs.names) != len(systems):
        raise OptionError([Hint("names"), f": {len(inputs.names)} names for {len(systems)} system files (the "
                           "names are the system files'; a system given as runs is named by its own name)"])
    names = system_names(systems, inputs.names)
    given = {os.path.realpath(s): s for s in systems if s != STDIN}
    for name, files in found.items():
        for f in files:
            if os.path.realpath(f) in given:
                raise OptionError(f"{f} is a run of {name!r} and also a system of its own; give it one way",
                                  option="runs", value=_shown(name, runs[name]))
        if name in names:
            raise OptionError(f"system name {name!r} is given as runs and names a system file too "
                              f"({systems[names.index(name)]})", option="runs", value=_shown(name, runs[name]))
    grouping = run_names(found)
    files = [f for fs in found.values() for f in fs]
    every = names + [n for ns in grouping.values() for n in ns]
    return replace(inputs, systems=tuple(systems) + tuple(files), names=tuple(every), glob=None), grouping
