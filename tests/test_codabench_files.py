"""Where the scoring program finds the submission in ``input/res`` (ts_eval.cli.codabench_files), without running
the program: the organiser's review of issue 35 zipped a submission in the ways participants do."""
from __future__ import annotations

import pytest

from ts_eval.cli.codabench_files import found
from ts_eval.errors import InputError


def test_a_file_two_folders_down_is_found(tmp_path):
    """A zip of ``outputs/run1/team.conll`` (made from the folder above the one holding the file)."""
    (tmp_path / "outputs" / "run1").mkdir(parents=True)
    (tmp_path / "outputs" / "run1" / "team.conll").write_text("John B-PER\n")
    (tmp_path / "metadata").write_text("exitCode: 0\n")          # the platform's own file beside it
    assert found(str(tmp_path), "submission", None) == str(tmp_path / "outputs" / "run1" / "team.conll")


def test_one_folder_beside_a_folder_is_named_in_the_singular_and_two_in_the_plural(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "c").mkdir()
    with pytest.raises(InputError, match=r"holds no file and the folders b, c; expected one file$"):
        found(str(tmp_path), "submission", None)
    (tmp_path / "a" / "c").rmdir()
    (tmp_path / "a" / "x.conll").write_text("John B-PER\n")
    (tmp_path / "a" / "y.conll").write_text("John B-PER\n")
    with pytest.raises(InputError, match=r"holds 2 files \(x.conll, y.conll\) and the folder b; expected one file$"):
        found(str(tmp_path), "submission", None)


def test_empty_folders_all_the_way_down_hold_no_file(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    with pytest.raises(InputError, match=r"the submission holds no file; expected one file$"):
        found(str(tmp_path), "submission", None)
