"""The systems ranked under two references (issue 34.3): ts_eval.ranking.references.rank_references.

The hand-worked example (two sentences; the references differ in one span, B re-bounds LOC New York):

    s0  John lives in New York City    A: PER John, LOC New York       B: PER John, LOC New York City
    s1  Mary met Tom                   A = B: PER Mary, PER Tom
    system X: PER John, LOC New York, PER Mary
    system Y: PER John, LOC New York City, PER Mary, PER Tom

Exact-match F1 = 2 TP / (reference spans + system spans), 4 reference spans under both:
X under A: 3 spans, TP 3 -> 6/7; under B: TP 2 -> 4/7; difference -2/7.
Y under A: 4 spans, TP 3 (John, Mary, Tom) -> 6/8; under B: TP 4 -> 1; difference +1/4.
A ranks X first, B ranks Y first: the pair (X, Y) flips; rho = tau = -1; both systems move.
The one change is a re-bounding in s0, so A with the re-boundings only is B: mean |difference| with the
re-boundings alone = (2/7 + 1/4) / 2 = 15/56, and 0 for the kinds that do not occur.

Per sentence (TP, reference spans, system spans): X s0 (2, 2, 2) under A, (1, 2, 2) under B; s1 (1, 2, 1);
Y s0 (1, 2, 2) under A, (2, 2, 2) under B; s1 (2, 2, 2).  A resample with counts (w0, w1) gives X under A
2 (2 w0 + w1) / (4 w0 + 3 w1) and so on: the paired interval is recomputed from the resamples' counts.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from ts_eval.comparison.references import read_references
from ts_eval.errors import OptionError
from ts_eval.ranking.references import rank_references
from ts_eval.ranking.rows import bootstrap_weights

sys.path.insert(0, str(Path(__file__).parent))
from test_references import SENTENCES as SENTENCES5
from test_references import SYSTEM as SYSTEM5
from test_references import A as A5
from test_references import B as B5
from test_references import write

SENTENCES = [["John", "lives", "in", "New", "York", "City"], ["Mary", "met", "Tom"]]
A = [[("PER", 0, 1), ("LOC", 3, 5)], [("PER", 0, 1), ("PER", 2, 3)]]
B = [[("PER", 0, 1), ("LOC", 3, 6)], [("PER", 0, 1), ("PER", 2, 3)]]
X = [[("PER", 0, 1), ("LOC", 3, 5)], [("PER", 0, 1)]]
Y = [[("PER", 0, 1), ("LOC", 3, 6)], [("PER", 0, 1), ("PER", 2, 3)]]
EXACT = "exact-f1-micro"
MODELS = [EXACT, "ts-f1-micro", "overlap-f1-micro"]


@pytest.fixture
def tiny(tmp_path):
    paths = {k: write(tmp_path / f"{k}.conll", v, SENTENCES) for k, v in (("a", A), ("b", B), ("x", X), ("y", Y))}
    return read_references(paths["a"], paths["b"], {"X": paths["x"], "Y": paths["y"]})


def test_the_hand_worked_two_references(tiny):
    r = rank_references(tiny, "B", models=[EXACT], bootstrap=200, permutations=0, seed=4)
    assert (r.reference_a, r.reference_b, r.systems) == ("A", "B", ["X", "Y"])
    assert r.a.scores[:, 0] == pytest.approx([6 / 7, 6 / 8])
    assert r.b.scores[:, 0] == pytest.approx([4 / 7, 1.0])
    assert r.difference[:, 0] == pytest.approx([-2 / 7, 1 / 4])
    assert r.a.ranks[:, 0].tolist() == [1, 2] and r.b.ranks[:, 0].tolist() == [2, 1]
    assert r.spearman[0] == pytest.approx(-1) and r.kendall[0] == pytest.approx(-1)
    f = r.flips[EXACT]
    assert [(p.better_under_a, p.better_under_b) for p in f.pairs] == [("X", "Y")]
    row = r.sensitivity()[0]
    assert row["mean_abs_difference"] == pytest.approx((2 / 7 + 1 / 4) / 2)
    assert row["max_abs_difference"] == pytest.approx(2 / 7)
    assert (row["rank_moves"], row["rank_shift"], row["changed"]) == (2, 2.0, 1)
    assert row["by_kind"] == pytest.approx({"added": 0, "removed": 0, "relabelled": 0, "rebounded": 15 / 56,
                                            "mixed": 0})
    assert r.kind_units == {"added": 0, "removed": 0, "relabelled": 0, "rebounded": 1, "mixed": 0}


def test_the_interval_is_paired(tiny):
    """The interval of B - A from the resamples' counts by hand: the same counts under both references."""
    r = rank_references(tiny, "B", models=[EXACT], bootstrap=300, permutations=0, seed=9, confidence=0.9)
    w = bootstrap_weights(np.random.default_rng(np.random.SeedSequence(9).spawn(3)[0]), 300, 2)
    w0, w1 = w[:, 0], w[:, 1]
    x = 2 * (w0 + w1) / (4 * w0 + 3 * w1) - 2 * (2 * w0 + w1) / (4 * w0 + 3 * w1)
    with np.errstate(invalid="ignore"):
        y = 2 * (2 * w0 + 2 * w1) / (4 * w0 + 4 * w1) - 2 * (w0 + 2 * w1) / (4 * w0 + 4 * w1)
    for i, d in enumerate((x, y)):
        assert r.difference_low[i, 0] == pytest.approx(np.quantile(d, 0.05))
        assert r.difference_high[i, 0] == pytest.approx(np.quantile(d, 0.95))
    assert r.difference_low[0, 0] < 0 and r.difference_high[1, 0] > 0


@pytest.fixture
def five(tmp_path):
    """test_references' five sentences with three systems (one is reference A itself)."""
    other = [s[:1] for s in A5]
    paths = {k: write(tmp_path / f"{k}.conll", v, SENTENCES5)
             for k, v in (("a", A5), ("b", B5), ("s", SYSTEM5), ("o", other))}
    return paths


def test_a_reference_against_itself_changes_nothing(five):
    corpus = read_references(five["a"], five["a"], {"sys": five["s"], "gold-like": five["b"], "few": five["o"]})
    r = rank_references(corpus, "B", models=MODELS, bootstrap=100, permutations=10, seed=1)
    assert np.all(r.difference == 0)
    assert np.all(r.difference_low == 0) and np.all(r.difference_high == 0)
    assert r.spearman == pytest.approx(np.ones(len(MODELS)))
    assert all(f.changed == 0 for f in r.flips.values())
    assert all(row["rank_moves"] == 0 and row["mean_abs_difference"] == 0 for row in r.sensitivity())


def test_swapping_the_references_negates_every_difference(five):
    systems = {"sys": five["s"], "few": five["o"]}
    ab = rank_references(read_references(five["a"], five["b"], systems), "B", models=MODELS, bootstrap=100,
                         permutations=0, seed=2)
    ba = rank_references(read_references(five["b"], five["a"], systems), "B", models=MODELS, bootstrap=100,
                         permutations=0, seed=2)
    np.testing.assert_allclose(ba.difference, -ab.difference, atol=1e-12)
    np.testing.assert_allclose(ba.difference_low, -ab.difference_high, atol=1e-12)
    np.testing.assert_allclose(ba.difference_high, -ab.difference_low, atol=1e-12)
    np.testing.assert_allclose(ba.spearman, ab.spearman)
    assert ({(p.better_under_a, p.better_under_b) for p in ba.flips[EXACT].pairs}
            == {(p.better_under_b, p.better_under_a) for p in ab.flips[EXACT].pairs})


def test_the_order_of_the_systems_does_not_matter(five):
    corpus = read_references(five["a"], five["b"], {"sys": five["s"], "few": five["o"], "a-like": five["a"]})
    one = rank_references(corpus, "B", systems=["sys", "few", "a-like"], models=MODELS, bootstrap=80,
                          permutations=0, seed=3)
    two = rank_references(corpus, "B", systems=["a-like", "sys", "few"], models=MODELS, bootstrap=80,
                          permutations=0, seed=3)
    at = [two.systems.index(n) for n in one.systems]
    for name in ("difference", "difference_low", "difference_high"):
        np.testing.assert_allclose(getattr(two, name)[at], getattr(one, name), atol=1e-12)
    np.testing.assert_allclose(two.spearman, one.spearman)
    assert one.sensitivity() == pytest.approx(two.sensitivity()) or one.sensitivity() == two.sensitivity()


def test_same_seed_same_numbers_and_the_json(five):
    corpus = read_references(five["a"], five["b"], {"sys": five["s"], "few": five["o"]})
    one = rank_references(corpus, "B", models=MODELS, bootstrap=50, permutations=10, seed=5).to_dict()
    two = rank_references(corpus, "B", models=MODELS, bootstrap=50, permutations=10, seed=5).to_dict()
    for d in (one, two):
        d["rankings"]["A"].pop("timings"), d["rankings"]["B"].pop("timings")
    assert one == two
    assert one["layout"] == {"kind": "references", "version": 1}
    assert set(one["systems"][0]["models"][EXACT]) == {"score_a", "score_b", "difference", "difference_low",
                                                       "difference_high", "rank_a", "rank_b"}


def test_a_reference_named_as_a_system_is_refused(five):
    corpus = read_references(five["a"], five["b"], {"sys": five["s"]})
    with pytest.raises(OptionError, match="is a reference"):
        rank_references(corpus, "B", systems=["sys", "B"])


# ---------------------------------------------------------------------------
# the command line: ts-eval rank --gold NAME=PATH --gold NAME=PATH SYSTEM...


def _cli_files(tmp_path):
    paths = {k: write(tmp_path / f"{k}.conll", v, SENTENCES) for k, v in (("a", A), ("b", B), ("x", X), ("y", Y))}
    return ["--gold", f"original={paths['a']}", "--gold", f"fixed={paths['b']}", paths["x"], paths["y"],
            "--no-progress", "--models", EXACT, "--bootstrap", "50", "--permutations", "0"]


def test_the_command_line_gives_the_librarys_numbers(tmp_path, capsys):
    import json

    from support import run_cli

    code, out, err = run_cli(["rank", *_cli_files(tmp_path), "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert (d["reference_a"], d["reference_b"]) == ("original", "fixed")
    got = {s["name"]: s["models"][EXACT] for s in d["systems"]}
    assert got["x"]["difference"] == pytest.approx(-2 / 7) and got["y"]["difference"] == pytest.approx(1 / 4)
    assert (got["x"]["rank_a"], got["x"]["rank_b"]) == (1, 2)
    assert d["flips"][EXACT]["changed"] == 1


@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_tables_fit_the_width(tmp_path, capsys, monkeypatch, width):
    from support import run_cli

    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(["rank", *_cli_files(tmp_path)[:-4]], capsys)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= width
    for needle in ("Leaderboards under original and fixed", "Difference fixed - original", "Sensitivity", "Flips"):
        assert needle in out


def test_the_command_line_errors(tmp_path, capsys):
    from support import run_cli

    argv = _cli_files(tmp_path)
    code, _, err = run_cli(["rank", "--gold", argv[1], "--gold", argv[3].split("=", 1)[1], *argv[4:]], capsys)
    assert code == 2 and "NAME=PATH" in err
    other = write(tmp_path / "other.conll", B, [["John", "lives", "in", "New", "York", "Town"], SENTENCES[1]])
    code, _, err = run_cli(["rank", "--gold", argv[1], "--gold", f"fixed={other}", *argv[4:]], capsys)
    assert code != 0 and "City" in err and "Town" in err and "other.conll" in err
    assert "reference fixed" in err and "system" not in err        # what the messages call each side
