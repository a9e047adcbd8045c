"""The public names of ``rank --anonymise`` (issue 35.4): the mapping file the organiser keeps, created in the
documented order (SHA-256 of ``"<seed>:<real name>"``), read as it is on every later run, appended to and
never rewritten, and its errors (file, line, what was expected)."""
from __future__ import annotations

import hashlib
import re

import pytest

from ts_eval.errors import InputError, OptionError
from ts_eval.io.public_names import HEADER, public_names, read_public_names

SYSTEMS = ["crf-lab-x", "bert-lab-y", "hmm-lab-z"]


def by_digest(names, seed=0):
    """The documented order, worked out here without the module."""
    return sorted(names, key=lambda n: hashlib.sha256(f"{seed}:{n}".encode()).hexdigest())


def test_a_new_file_numbers_the_systems_in_the_order_of_their_digests(tmp_path) -> None:
    path = str(tmp_path / "names.tsv")
    mapping, added = public_names(path, SYSTEMS)
    order = by_digest(SYSTEMS)
    assert mapping == {n: f"team-{order.index(n) + 1:02d}" for n in SYSTEMS}
    assert sorted(added) == sorted(SYSTEMS)
    text = (tmp_path / "names.tsv").read_text(encoding="utf-8")
    assert text == HEADER + "".join(f"{n}\tteam-{k:02d}\n" for k, n in enumerate(order, 1))
    other, _ = public_names(str(tmp_path / "seeded.tsv"), SYSTEMS, seed=7)
    assert other == {n: f"team-{by_digest(SYSTEMS, 7).index(n) + 1:02d}" for n in SYSTEMS}


def test_running_again_gives_the_same_names_and_leaves_the_file_as_it_was(tmp_path) -> None:
    path = tmp_path / "names.tsv"
    first, _ = public_names(str(path), SYSTEMS)
    before = path.read_bytes()
    again, added = public_names(str(path), list(reversed(SYSTEMS)), seed=99)    # order and seed do not matter now
    assert again == first and added == [] and path.read_bytes() == before
    some, _ = public_names(str(path), SYSTEMS[:1])             # a subset: no error, nothing written
    assert some == {SYSTEMS[0]: first[SYSTEMS[0]]} and path.read_bytes() == before


def test_a_new_system_is_an_error_unless_added_then_it_is_appended(tmp_path) -> None:
    path = tmp_path / "names.tsv"
    first, _ = public_names(str(path), SYSTEMS)
    before = path.read_bytes()
    with pytest.raises(OptionError, match=r"1 system\(s\) without a public name: new-lab; .*anonymise_add"):
        public_names(str(path), SYSTEMS + ["new-lab"])
    assert path.read_bytes() == before
    mapping, added = public_names(str(path), SYSTEMS + ["new-lab", "another-lab"], add=True)
    assert added == by_digest(["new-lab", "another-lab"])
    assert {n: mapping[n] for n in SYSTEMS} == first                 # nobody renamed
    assert [mapping[n] for n in added] == ["team-04", "team-05"]
    assert path.read_bytes() == before + "".join(f"{n}\t{mapping[n]}\n" for n in added).encode()


def test_the_organisers_edits_are_kept_and_a_last_line_without_its_end_is_continued(tmp_path) -> None:
    path = tmp_path / "names.tsv"
    path.write_text("# mine\ncrf-lab-x\tThe CRF team\n\nbert-lab-y\tteam-02", encoding="utf-8")
    mapping, added = public_names(str(path), SYSTEMS, add=True)
    assert mapping == {"crf-lab-x": "The CRF team", "bert-lab-y": "team-02", "hmm-lab-z": "team-03"}
    assert added == ["hmm-lab-z"]
    assert path.read_text(encoding="utf-8") == ("# mine\ncrf-lab-x\tThe CRF team\n\nbert-lab-y\tteam-02\n"
                                                "hmm-lab-z\tteam-03\n")
    assert read_public_names(str(path)) == mapping


@pytest.mark.parametrize("text, line, needle", [
    ("a\tteam-01\nb team-02\n", 2, "expected a real name, a tab and a public name"),
    ("a\tteam-01\na\tteam-02\n", 2, "system 'a' is given a public name twice (line 1 and here)"),
    ("a\tteam-01\n# c\nb\tteam-01\n", 3, "public name 'team-01' is given twice (line 1 and here)"),
    ("a\t\n", 1, "expected a real name, a tab and a public name"),
])
def test_a_bad_line_names_the_file_and_the_line(tmp_path, text, line, needle) -> None:
    path = tmp_path / "names.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        public_names(str(path), ["a"])
    assert (err.value.path, err.value.line) == (str(path), line) and needle in str(err.value)
    assert path.read_text(encoding="utf-8") == text


def test_a_public_name_that_is_another_systems_real_name_is_refused(tmp_path) -> None:
    path = tmp_path / "names.tsv"
    path.write_text("a\tb\nb\tteam-02\n", encoding="utf-8")
    with pytest.raises(OptionError, match="the public name of 'a' is 'b', which is the real name of another system"):
        public_names(str(path), ["a", "b"])
    path.write_text("a\ta\n", encoding="utf-8")         # a team shown by its own name: allowed
    assert public_names(str(path), ["a"])[0] == {"a": "a"}


def test_a_public_name_on_a_later_line_than_the_real_name_it_takes_is_told_as_such(tmp_path) -> None:
    """The other order of the lines: the refusal says whose real name it is, not 'given twice' (it was told that
    'b' is a public name given twice, on a line where 'b' is a real name); a mapping kept from an earlier phase
    that names a system not ranked now lets its public name be that system's real name."""
    path = tmp_path / "names.tsv"
    path.write_text("b\tteam-02\na\tb\n", encoding="utf-8")
    with pytest.raises(OptionError, match="the public name of 'a' is 'b', which is the real name of another system"):
        public_names(str(path), ["a", "b"])
    assert public_names(str(path), ["a"])[0] == {"a": "b"}


def test_a_byte_order_mark_an_editor_saved_is_not_part_of_the_first_real_name(tmp_path) -> None:
    """A mapping saved with a BOM: its first system kept its public name (it was 'without a public name')."""
    path = tmp_path / "names.tsv"
    path.write_bytes("\ufeffcrf-lab-x\tThe CRF team\nbert-lab-y\tteam-02\n".encode("utf-8"))
    mapping, added = public_names(str(path), ["crf-lab-x", "bert-lab-y"])
    assert mapping == {"crf-lab-x": "The CRF team", "bert-lab-y": "team-02"} and added == []


@pytest.mark.parametrize("name", ["#1", " lead", "trail ", "a\tb", "a\nb"])
def test_a_name_that_would_not_read_back_is_refused_not_written(tmp_path, name) -> None:
    """A file '#1.conll' was written as the line '#1<TAB>team-01', a comment on the next run: the system was
    'without a public name' again (with --anonymise-add, a new public name on every run)."""
    path = tmp_path / "names.tsv"
    with pytest.raises(OptionError, match=re.escape(f"the system name {name!r} would not read back from the file")):
        public_names(str(path), ["ok", name])
    assert not path.exists()


def test_more_than_99_systems_get_three_digits(tmp_path) -> None:
    names = [f"s{k}" for k in range(100)]
    mapping, _ = public_names(str(tmp_path / "n.tsv"), names)
    assert sorted(mapping.values()) == [f"team-{k:03d}" for k in range(1, 101)]
