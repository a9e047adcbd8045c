#!/usr/bin/env python3
"""Every command and output format of this checkout against an earlier commit, byte for byte.

The earlier commit's ``ts_eval`` is taken from this repository (``git archive COMMIT``) and both
versions run the same list of command lines: ``score`` in every output format and with every model,
option and input mode (one file, several system columns, one file per system, standard input,
compressed files, JSON Lines and CoNLL-U inputs, formats mixed), ``fair``, ``rank``, ``compare``, ``germeval``,
``analyze`` (every format, training data, documents, a JSON Lines field, resamples, two systems), ``agree``
(a column file, a file per annotator, resamples, the majority file it writes) and ``convert`` (every
target from every source layout, the written files and brat directories compared), a few bad inputs
(their exit codes and messages), on the reference data (the 28 CoNLL-2003 system outputs, GermEval
2014, conlleval's tricky files) and on seeded synthetic corpora (1M and 10M tokens by default, the
generator of ``bench.py``; ``analyze`` only up to 1M tokens, the earlier versions' is slow).  Each
version runs its commands in one process (standard input cases in their own), so the whole comparison
takes minutes; ``--commands`` keeps one command's lines.  Every output file, standard output, standard
error and exit code must be equal; the script prints what differs and exits 1 if anything does.

    python scripts/compare_outputs.py --baseline b28481f --data /path/to/data
    python scripts/compare_outputs.py --baseline b28481f --data DATA --quick       # fewer commands
    python scripts/compare_outputs.py --baseline b28481f --data DATA --sizes 1M,10M,30M
    python scripts/compare_outputs.py --baseline i32-base --data DATA --sizes 1M --commands analyze,agree

``--data`` is the folder holding ``conll2003-en/``, ``germeval2014/`` and ``conlleval/``
(docs/benchmarks.md describes them).  Some commands record the command line or the input's path in
their output: both versions run identical command lines on identical paths.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench import baseline_tree  # noqa: E402
from bench_scale import Corpora, parse_size  # noqa: E402
from bench_two_files import converted, generated_output  # noqa: E402

RUNNER = r'''
import io, json, os, sys
import ts_eval
from ts_eval.cli.app import main

assert os.path.dirname(os.path.dirname(ts_eval.__file__)) == os.getcwd(), ts_eval.__file__
jobs = json.load(open(sys.argv[1]))
for job in jobs:
    out = open(job["stdout"], "wb")
    err = io.StringIO()
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = err
    try:
        code = main(job["argv"])
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdout.flush()
        sys.stdout, sys.stderr = stdout, stderr
        out.close()
    if os.path.exists(job["written"]):
        os.replace(job["written"], job["out"])
    with open(job["stderr"], "w", encoding="utf-8") as fh:
        fh.write(err.getvalue())
    with open(job["code"], "w") as fh:
        fh.write(str(code))
'''

FORMATS = ("table", "json", "csv", "markdown", "latex", "html")
SCORE_OPTIONS = (
    [],
    ["--models", "ts,exact,overlap,constrained,contain,fair,semeval"],
    ["--all-labels-row", "--details"],
    ["--separator-weight", "0", "--beta", "2", "--k1", "2", "--k2", "0", "--models", "ts,constrained,contain"],
    ["--scheme", "conlleval"],
    ["--scheme", "auto", "--policy", "discard"],
    ["--labels", "PER,LOC"],
    ["--exclude", "MISC", "--map-label", "PER=PERSON"],
    ["--fair-mode", "faireval-skip", "--focus", "system", "--weights", "eq6"],
    ["--no-labels", "--models", "ts,exact,semeval"],
)


class Jobs:
    """Command lines, each with where its outputs go in either version's folder."""

    def __init__(self) -> None:
        self.items: List[Dict[str, object]] = []

    def add(self, name: str, argv: List[str], output: bool = True, stdin: Optional[Path] = None,
            suffix: str = "") -> None:
        """``argv`` may hold ``{out}`` (the job's output file or directory, replaced per version; ``suffix`` ends
        its name).  ``argv[0]`` is the command (``--commands`` selects by it)."""
        self.items.append({"name": name, "argv": argv, "output": output, "stdin": str(stdin) if stdin else None,
                           "suffix": suffix})

    def only(self, commands: Optional[str]) -> None:
        """Keep the jobs of these commands (comma-separated; None: all)."""
        if commands:
            wanted = {c.strip() for c in commands.split(",") if c.strip()}
            self.items = [job for job in self.items if job["argv"][0] in wanted]  # type: ignore[index]


def build_jobs(data: Path, corpora: List[Path], work: Path, quick: bool) -> Jobs:
    jobs = Jobs()
    conll = data / "conll2003-en"
    systems = sorted((conll / "systems").glob("*.conll"))
    gold = conll / "gold.iob2"
    few = systems[:2] if quick else systems[:4]
    for s in (systems[:6] if quick else systems):
        for fmt in ("table", "json", "conlleval"):
            jobs.add(f"score {s.stem} {fmt}", ["score", str(s), "--format", fmt, "-o", "{out}"])
    for s in few:
        for opts in SCORE_OPTIONS:
            for fmt in FORMATS + ("conlleval", "faireval"):
                if quick and fmt not in ("table", "json", "conlleval"):
                    continue
                jobs.add(f"score {s.stem} {fmt} {' '.join(opts)}", ["score", str(s), "--format", fmt, *opts,
                                                                   "-o", "{out}"])
        jobs.add(f"score stdin {s.stem}", ["score", "-"], output=False, stdin=s)
        jobs.add(f"score stdin json {s.stem}", ["score", "-", "--format", "json"], output=False, stdin=s)
        jobs.add(f"score stdin scheme auto {s.stem}", ["score", "-", "--scheme", "auto"], output=False, stdin=s)
        for fmt in FORMATS:
            jobs.add(f"fair {s.stem} {fmt}", ["fair", str(s), "--format", fmt, "-o", "{out}"])
    # compressed files
    for suffix, opener in ((".gz", gzip.open), (".xz", lzma.open)):
        packed = work / f"{few[0].stem}.conll{suffix}"
        with open(few[0], "rb") as src, opener(packed, "wb") as dst:
            shutil.copyfileobj(src, dst)
        for fmt in ("table", "json"):
            jobs.add(f"score {packed.name} {fmt}", ["score", str(packed), "--format", fmt, "-o", "{out}"])
        jobs.add(f"score --gold gold {packed.name}", ["score", "--gold", str(gold), str(packed), "--format", "json",
                                                      "-o", "{out}"])
    # one file per system, and several system columns in one file
    chosen = [str(s) for s in (systems[:3] if quick else systems)]
    for fmt in ("table", "json", "csv", "html"):
        jobs.add(f"score --gold gold.iob2 systems {fmt}", ["score", "--gold", str(gold), *chosen, "--format", fmt,
                                                          "-o", "{out}"])
    jobs.add("score --gold gold.iob2 semeval", ["score", "--gold", str(gold), *chosen[:3], "--models",
                                                "ts,exact,overlap,fair,semeval", "--format", "json", "-o", "{out}"])
    jobs.add("score --gold gold.iob2 --tags-only", ["score", "--gold", str(gold), *chosen[:2], "--tags-only",
                                                    "--format", "json", "-o", "{out}"])
    multi = work / "multi.conll"
    _paste_columns(multi, [Path(p) for p in chosen[:4]])
    for fmt in ("table", "json"):
        jobs.add(f"score multi-column {fmt}", ["score", str(multi), "--gold-col", "2", "--format", fmt,
                                                "-o", "{out}"])
    # other input formats (made once with this checkout's converter; both versions read the same files)
    for fmt, ext in (("jsonl-tokens", "jsonl"), ("conllu", "conllu"), ("jsonl-text", "json")):
        if fmt == "conllu":
            continue     # no CoNLL-U writer: columns cover the rest
        g, s = work / f"gold.{fmt}.{ext}", work / f"sys.{fmt}.{ext}"
        subprocess.run([sys.executable, "-m", "ts_eval", "convert", str(gold), str(g), "--to", fmt, "--column",
                        "-1"], check=True, cwd=REPO, capture_output=True)
        subprocess.run([sys.executable, "-m", "ts_eval", "convert", str(few[0]), str(s), "--to", fmt],
                       check=True, cwd=REPO, capture_output=True)
        for out_fmt in ("table", "json"):
            jobs.add(f"score {fmt} {out_fmt}", ["score", "--gold", str(g), str(s), "--format", out_fmt,
                                                "--models", "ts,exact,fair,semeval", "-o", "{out}"])
        jobs.add(f"score {fmt} gold vs columns", ["score", "--gold", str(g), str(few[1]), "--format", "json",
                                                  "-o", "{out}"])
        if fmt == "jsonl-text":     # a span beyond its text late in the file (read by the byte scan)
            recs = s.read_text(encoding="utf-8").split("\n")
            late = next(k for k in range(len(recs) * 9 // 10, len(recs)) if '"spans": [{' in recs[k])
            rec = json.loads(recs[late])
            rec["spans"][0]["end"] = len(rec["text"]) + 5
            recs[late] = json.dumps(rec, ensure_ascii=False)
            bad_text = work / "bad-span.jsonl"
            bad_text.write_text("\n".join(recs), encoding="utf-8")
            jobs.add("error: jsonl-text a span beyond its text late", ["score", "--gold", str(g), str(bad_text),
                                                                       "-o", "{out}"])
            # a generated output (strings, no offsets) made from the system's text spans, some strings changed
            gen = work / "generated.jsonl"
            with open(gen, "w", encoding="utf-8") as dst:
                for k, line in enumerate(x for x in s.read_text(encoding="utf-8").split("\n") if x.strip()):
                    r = json.loads(line)
                    ents = [{"text": r["text"][sp["start"]:sp["end"]], "label": sp["label"]} for sp in r["spans"]]
                    for j, ent in enumerate(ents):
                        how = (k + j) % 7
                        ent["text"] = {1: ent["text"].lower(), 2: ent["text"] + ".", 3: " " + ent["text"] + " ,",
                                       4: ent["text"].replace(" ", "  "), 5: ent["text"] + " zzz"}.get(how, ent["text"])
                    rec = {"id": r["id"], "entities": ents} if "id" in r else {"entities": ents}   # else: by order
                    dst.write(json.dumps(rec, ensure_ascii=False) + "\n")
            for name, extra in (("ground", []), ("ground all", ["--ground", "all"]), ("normalize none",
                                ["--normalize", "none"]), ("universalner", ["--normalize", "universalner"]),
                                ("strings", ["--generated", "strings", "--models", "ts,exact,fair,strings"])):
                jobs.add(f"score generated {name}", ["score", "--gold", str(g), str(gen), *extra, "--format", "json",
                                                     "-o", "{out}"])
    # CoNLL-U, read in lock-step blocks (made here from the column files: there is no CoNLL-U writer)
    cu_gold, cu_systems = work / "gold.conllu", [work / f"{s.stem}.conllu" for s in few]
    to_conllu(gold, cu_gold, -1, ids=True)
    for s, out in zip(few, cu_systems):
        to_conllu(s, out, -1, ids=True)
    lock_step_jobs(jobs, "conllu", cu_gold, cu_systems, "conllu", b"7\tbad")
    cu_key, cu_key_sys = work / "gold-key.conllu", work / "sys-key.conllu"
    to_conllu(gold, cu_key, -1, key="TAG")
    to_conllu(few[0], cu_key_sys, -1, key="TAG")
    jobs.add("score conllu misc key, no ids", ["score", "--gold", str(cu_key), str(cu_key_sys), "--misc-key", "TAG",
                                               "--format", "json", "-o", "{out}"])
    # JSON Lines, read in lock-step blocks of records: formats mixed, records in another order (read whole)
    js_gold = work / "gold.jsonl-tokens.jsonl"
    js_systems = [work / f"{s.stem}.jsonl" for s in few]
    for s, out in zip(few, js_systems):
        subprocess.run([sys.executable, "-m", "ts_eval", "convert", str(s), str(out), "--to", "jsonl-tokens"],
                       check=True, cwd=REPO, capture_output=True)
    lock_step_jobs(jobs, "jsonl", js_gold, js_systems, "jsonl-tokens", b'{"tokens": ["a"], "spans": [')
    # brat directories, read in lock-step blocks of documents: beside JSON Lines, a document missing, rank
    br_gold, br_systems = work / "gold-brat", [work / f"{s.stem}-brat" for s in few[:2]]
    for src, out, column in [(gold, br_gold, "-1"), *((s, o, "-1") for s, o in zip(few, br_systems))]:
        subprocess.run([sys.executable, "-m", "ts_eval", "convert", str(src), f"{out}/", "--to", "brat", "--column",
                        column], check=True, cwd=REPO, capture_output=True)
    for fmt in ("table", "json"):
        jobs.add(f"score brat {fmt}", ["score", "--gold", str(br_gold), *map(str, br_systems), "--format", fmt,
                                       "-o", "{out}"])
    jobs.add("score brat gold, jsonl system", ["score", "--gold", str(br_gold), str(js_systems[0]), "--format",
                                               "json", "-o", "{out}"])
    short = work / "short-brat"
    shutil.copytree(br_systems[0], short)
    last = sorted(short.glob("*.ann"))[-1]
    last.unlink()
    last.with_suffix(".txt").unlink()
    jobs.add("error: brat a document missing", ["score", "--gold", str(br_gold), str(short), "-o", "{out}"])
    jobs.add("rank brat", ["rank", "--gold", str(br_gold), *map(str, br_systems), str(js_systems[1]), "--bootstrap",
                           "50", "--permutations", "50", "--no-progress", "--format", "json", "-o", "{out}"])
    jobs.add("score jsonl-text gold, jsonl and conllu systems",
             ["score", "--gold", str(work / "gold.jsonl-text.json"), str(js_systems[0]), str(cu_systems[1]),
              "--format", "json", "-o", "{out}"])
    jobs.add("score columns gold, jsonl and jsonl-text systems",
             ["score", "--gold", str(gold), str(js_systems[1]), str(work / "sys.jsonl-text.json"), "--format",
              "json", "-o", "{out}"])
    js_lines = js_systems[0].read_bytes().split(b"\n")
    with_ids = work / "ids.jsonl"
    with_ids.write_bytes(b"\n".join(b'{"id": "r%d", ' % k + line[1:] for k, line in enumerate(js_lines) if line))
    reversed_ids = work / "ids-reversed.jsonl"
    reversed_ids.write_bytes(b"\n".join(reversed(with_ids.read_bytes().split(b"\n"))))
    jobs.add("score jsonl ids in another order", ["score", "--gold", str(with_ids), str(reversed_ids), "--format",
                                                  "json", "-o", "{out}"])
    # a file that is one JSON array (pretty-printed): read in blocks, an element a record
    arrays = []
    for src in (js_systems[0], work / "sys.jsonl-text.json"):
        recs = [json.loads(line) for line in src.read_text(encoding="utf-8").splitlines() if line.strip()]
        arrays.append(src.with_name(src.stem + ".array.json"))
        arrays[-1].write_text(json.dumps(recs, indent=2, ensure_ascii=False), encoding="utf-8")
    jobs.add("score jsonl array system", ["score", "--gold", str(js_gold), str(arrays[0]), "--input-format",
                                          "jsonl-tokens", "--format", "json", "-o", "{out}"])
    jobs.add("score jsonl-text array system", ["score", "--gold", str(work / "gold.jsonl-text.json"), str(arrays[1]),
                                               "--input-format", "jsonl-text", "--format", "json", "-o", "{out}"])
    broken = work / "broken.array.json"
    broken.write_text(arrays[0].read_text(encoding="utf-8")[:-200] + "]", encoding="utf-8")
    jobs.add("error: jsonl array broken late", ["score", "--gold", str(js_gold), str(broken), "--input-format",
                                                "jsonl-tokens", "-o", "{out}"])
    # standard input among lock-step files: read in blocks, and whole again (kept in a temporary file) when needed
    jobs.add("score jsonl system on stdin", ["score", "--gold", str(js_gold), "-", "--format", "json"],
             output=False, stdin=js_systems[0])
    jobs.add("score jsonl ids in another order on stdin", ["score", "--gold", str(with_ids), "-", "--format", "json"],
             output=False, stdin=reversed_ids)
    jobs.add("score conllu gold on stdin", ["score", "--gold", "-", str(cu_systems[0]), "--format", "json"],
             output=False, stdin=cu_gold)
    jobs.add("rank jsonl system on stdin", ["rank", "--gold", str(js_gold), str(js_systems[1]), "-", "--bootstrap",
                                            "50", "--permutations", "50", "--no-progress", "--format", "json"],
             output=False, stdin=js_systems[0])
    # other commands
    jobs.add("compare two", ["compare", "--gold", str(gold), *chosen[:2], "--format", "json", "-o", "{out}"])
    jobs.add("compare three", ["compare", "--gold", str(gold), *chosen[:3], "-o", "{out}"])
    jobs.add("rank", ["rank", "--gold", str(gold), *chosen[:5], "--bootstrap", "50", "--permutations", "50",
                      "--format", "json", "-o", "{out}", "--no-progress"])
    # rank reads column files and two-file mode with CoNLL-U and JSON Lines in blocks (statistics block by block)
    quick_rank = ["--bootstrap", "50", "--permutations", "50", "--no-progress"]
    for fmt in (["table"], ["table", "--details"], ["html"], ["csv"], ["json", "--unit", "document"],
                ["json", "--models", "all", "--min-overlap", "iou:0.5", "--map-label", "^MISC$="]):
        jobs.add(f"rank {' '.join(fmt)}", ["rank", "--gold", str(gold), *chosen[:4], *quick_rank, "--format", *fmt,
                                           "-o", "{out}"])
    jobs.add("rank default bootstrap", ["rank", "--gold", str(gold), *chosen[:3], "--format", "json", "--seed", "3",
                                        "-o", "{out}", "--no-progress"])
    jobs.add("rank multi-column", ["rank", str(multi), "--gold-col", "2", *quick_rank, "--format", "json",
                                   "-o", "{out}"])
    jobs.add("rank multi-column stdin", ["rank", "-", "--gold-col", "2", *quick_rank, "--format", "json"],
             output=False, stdin=multi)
    jobs.add("rank gz", ["rank", "--gold", str(gold), str(work / f"{few[0].stem}.conll.gz"), *chosen[1:3],
                         *quick_rank, "--format", "json", "-o", "{out}"])
    jobs.add("rank conllu", ["rank", "--gold", str(cu_gold), *map(str, cu_systems), *quick_rank, "--format", "json",
                             "-o", "{out}"])
    jobs.add("rank jsonl", ["rank", "--gold", str(js_gold), *map(str, js_systems), *quick_rank, "--format", "json",
                            "-o", "{out}"])
    jobs.add("rank columns gold, jsonl and conllu systems", ["rank", "--gold", str(gold), str(js_systems[0]),
                                                             str(cu_systems[1]), *quick_rank, "--format", "json",
                                                             "-o", "{out}"])
    jobs.add("rank two tasks", ["rank", "--task", "a", str(gold), *chosen[:3], "--task", "b", str(gold),
                                *chosen[1:4], *quick_rank, "--format", "json", "-o", "{out}"])
    jobs.add("error: rank a line missing late", ["rank", "--gold", str(gold), chosen[0], str(cut_column(few[1], work)),
                                                 *quick_rank, "-o", "{out}"])
    germ = data / "germeval2014"
    study_jobs(jobs, Shared(data, gold, systems, few, chosen, multi, cu_gold, cu_systems, js_gold, js_systems,
                            br_gold), work, quick)
    six = sorted((germ / "systems-6col").glob("*.tsv"))
    for s in six[:2]:
        jobs.add(f"germeval {s.stem}", ["germeval", str(s), "-o", "{out}"])
    for s in six[:2] if quick else six:         # every system: its JSON and the official scorer's layout
        for fmt in ("json", "nereval"):
            jobs.add(f"germeval {s.stem} {fmt}", ["germeval", str(s), "--format", fmt, "-o", "{out}"])
    for fmt in ("markdown", "latex", "csv", "html"):
        jobs.add(f"germeval {six[0].stem} {fmt}", ["germeval", str(six[0]), "--format", fmt, "-o", "{out}"])
    for name, extra in (("conlleval policy, no fair", ["--policy", "conlleval", "--no-fair"]),
                        ("last chunk counted, separators at 0.5", ["--count-last-chunk", "--separator-weight", "0.5"])):
        jobs.add(f"germeval {six[0].stem} {name}", ["germeval", str(six[0]), *extra, "--format", "json", "-o", "{out}"])
    for s in sorted((germ / "systems").glob("*.conll"))[:3]:
        jobs.add(f"score germeval {s.stem}", ["score", "--gold", str(germ / "gold.iob2"), str(s), "--format", "json",
                                              "-o", "{out}"])
    for f in sorted((data / "conlleval").glob("*.conll")):
        jobs.add(f"score {f.name} conlleval", ["score", str(f), "--format", "conlleval", "-o", "{out}"])
        jobs.add(f"score {f.name} json conlleval scheme", ["score", str(f), "--scheme", "conlleval", "--format",
                                                           "json", "-o", "{out}"])
    # bad inputs: the exit code and the message
    other = work / "other.conll"
    shutil.copyfile(germ / "gold.iob2", other)
    jobs.add("error: misaligned", ["score", "--gold", str(gold), str(other), "-o", "{out}"])
    jobs.add("error: strict", ["score", str(few[0]), "--scheme", "IOE2", "--policy", "strict", "-o", "{out}"])
    jobs.add("error: unknown label", ["score", str(few[0]), "--labels", "NOPE", "-o", "{out}"])
    # synthetic corpora
    for c in corpora:
        for fmt in ("table", "json", "conlleval"):
            jobs.add(f"score {c.name} {fmt}", ["score", str(c), "--format", fmt, "-o", "{out}"])
        jobs.add(f"score {c.name} all models", ["score", str(c), "--models",
                                                 "ts,exact,overlap,constrained,contain,fair,semeval",
                                                 "--all-labels-row", "--format", "json", "-o", "{out}"])
        lines = c.read_bytes().split(b"\n")
        cut = work / f"cut-{c.name}"
        cut.write_bytes(b"\n".join(lines[:len(lines) * 9 // 10] + lines[len(lines) * 9 // 10 + 1:]))
        jobs.add(f"error: {c.name} a line missing late", ["score", "--gold", str(c), str(cut), "-o", "{out}"])
        c_gold, c_sys = work / f"gold-{c.stem}.conllu", work / f"sys-{c.stem}.conllu"
        to_conllu(c, c_gold, -2, ids=True)
        to_conllu(c, c_sys, -1, ids=True)
        jobs.add(f"score {c.name} conllu", ["score", "--gold", str(c_gold), str(c_sys), "--format", "json",
                                            "-o", "{out}"])
        jobs.add(f"score {c.name} conllu system on stdin", ["score", "--gold", str(c_gold), "-", "--format", "json"],
                 output=False, stdin=c_sys)
        j_gold, j_sys = converted(c, "jsonl-tokens", [sys.executable, "-m", "ts_eval"])
        jobs.add(f"score {c.name} jsonl", ["score", "--gold", str(j_gold), str(j_sys), "--format", "json",
                                           "-o", "{out}"])
        t_gold, t_sys = converted(c, "jsonl-text", [sys.executable, "-m", "ts_eval"])
        jobs.add(f"score {c.name} jsonl-text", ["score", "--gold", str(t_gold), str(t_sys), "--format", "json",
                                                "-o", "{out}"])
        gen = generated_output(t_sys)       # the system's spans as strings with labels, no offsets, no ids
        for out_fmt in ("json", "table"):
            jobs.add(f"score {c.name} generated {out_fmt}", ["score", "--gold", str(t_gold), str(gen), "--format",
                                                             out_fmt, "-o", "{out}"])
        jobs.add(f"score {c.name} generated strings", ["score", "--gold", str(t_gold), str(gen), "--generated",
                                                       "strings", "--models", "ts,exact,strings", "--format", "json",
                                                       "-o", "{out}"])
        recs = gen.read_bytes().split(b"\n")
        late = len(recs) * 9 // 10
        gen_cut, gen_bad = work / f"generated-cut-{c.stem}.jsonl", work / f"generated-bad-{c.stem}.jsonl"
        gen_cut.write_bytes(b"\n".join(recs[:late] + recs[late + 1:]))
        gen_bad.write_bytes(b"\n".join(recs[:late] + [b'[["x"]]'] + recs[late:]))
        for what, path in (("a record missing late", gen_cut), ("a bad record late", gen_bad)):
            jobs.add(f"error: {c.name} generated {what}", ["score", "--gold", str(t_gold), str(path), "-o", "{out}"])
        synthetic_study_jobs(jobs, c, work, quick)
        rank_files = rank_systems(c, work)
        jobs.add(f"rank {c.name}", ["rank", "--gold", *map(str, rank_files), "--bootstrap", "200", "--permutations",
                                    "200", "--no-progress", "--format", "json", "-o", "{out}"])
        if not quick:
            jobs.add(f"score {c.name} stdin", ["score", "-", "--format", "json"], output=False, stdin=c)
            jobs.add(f"score {c.name} stdin scheme auto", ["score", "-", "--scheme", "auto", "--format", "json"],
                     output=False, stdin=c)
            jobs.add(f"score {c.name} two files", ["score", "--gold", str(c), str(c), "--format", "json",
                                                   "-o", "{out}"])
    return jobs


@dataclass
class Shared:
    """The inputs ``build_jobs`` made that the studies (analyze, agree, convert) read too."""

    data: Path
    gold: Path                  # CoNLL-2003 gold (TOKEN ... TAG)
    systems: List[Path]         # every CoNLL-2003 system (TOKEN GOLD SYSTEM)
    few: List[Path]             # the systems of the many-option jobs
    chosen: List[str]           # the systems of the several-system jobs
    multi: Path                 # TOKEN GOLD S1 S2 S3 S4
    cu_gold: Path               # CoNLL-U
    cu_systems: List[Path]
    js_gold: Path               # jsonl-tokens
    js_systems: List[Path]
    br_gold: Path               # a brat directory


SMALL_RESAMPLES = ["--bootstrap", "20", "--permutations", "20", "--seed", "3"]


def study_jobs(jobs: Jobs, d: Shared, work: Path, quick: bool) -> None:
    """analyze, agree and convert on the reference data: every output format, the options that change what is
    computed (training data, documents, JSON Lines fields, resamples, two systems, a majority written), every
    input mode, and a few errors."""
    conll, germ = d.data / "conll2003-en", d.data / "germeval2014"
    train = conll / "train.iob2"
    three = d.chosen[:3]
    # analyze
    analyze = ["analyze", "--gold", str(d.gold)]
    for fmt in (("table", "json") if quick else FORMATS):
        jobs.add(f"analyze three {fmt}", [*analyze, *three, "--bootstrap", "0", "--format", fmt, "-o", "{out}"])
    jobs.add("analyze three table --details", [*analyze, *three, "--bootstrap", "0", "--details", "-o", "{out}"])
    for fmt in ("table", "json", "html"):
        jobs.add(f"analyze two --train resamples {fmt}", [*analyze, *d.chosen[:2], "--train", str(train),
                                                          *SMALL_RESAMPLES, "--format", fmt, "-o", "{out}"])
    jobs.add("analyze one --train --by document", [*analyze, d.chosen[0], "--train", str(train), "--by", "document",
                                                   "--bootstrap", "0", "--format", "json", "-o", "{out}"])
    jobs.add("analyze two --by document resamples", [*analyze, *d.chosen[1:3], "--by", "document", *SMALL_RESAMPLES,
                                                     "-o", "{out}"])
    jobs.add("analyze options", [*analyze, *three, "--attributes", "length,label", "--buckets", "3", "--models",
                                 "exact-f1-micro,ts-f1-micro,fair-f1", "--reference", "ts-f1-micro", "--no-errors",
                                 "--bootstrap", "0", "--format", "json", "-o", "{out}"])
    jobs.add("analyze --top 3 --min-agree 2", [*analyze, *d.chosen[:4], "--top", "3", "--min-agree", "2",
                                               "--bootstrap", "0", "--format", "json", "-o", "{out}"])
    jobs.add("analyze multi-column", ["analyze", str(d.multi), "--gold-col", "2", "--bootstrap", "0", "--format",
                                      "json", "-o", "{out}"])
    jobs.add("analyze multi-column stdin", ["analyze", "-", "--gold-col", "2", "--system-col", "3", "4",
                                            *SMALL_RESAMPLES, "--format", "json"], output=False, stdin=d.multi)
    jobs.add("analyze conllu", ["analyze", "--gold", str(d.cu_gold), *map(str, d.cu_systems[:2]), "--bootstrap",
                                "0", "--format", "json", "-o", "{out}"])
    # JSON Lines records with a field (--by FIELD)
    fielded = [work / f"fielded-{p.name}" for p in (d.js_gold, *d.js_systems[:2])]
    for src, dst in zip((d.js_gold, *d.js_systems[:2]), fielded):
        with open(src, encoding="utf-8") as fh, open(dst, "w", encoding="utf-8") as out:
            for k, line in enumerate(x for x in fh if x.strip()):
                rec = json.loads(line)
                rec["meta"] = {"genre": ("news", "sport", "markets")[k % 3 if k % 7 else 0]}
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    for fmt in ("table", "json"):
        jobs.add(f"analyze jsonl --by meta.genre {fmt}", ["analyze", "--gold", *map(str, fielded), "--by",
                                                          "meta.genre", *SMALL_RESAMPLES, "--format", fmt,
                                                          "-o", "{out}"])
    germ_systems = [str(p) for p in sorted((germ / "systems").glob("*.conll"))[:3]]
    jobs.add("analyze germeval", ["analyze", "--gold", str(germ / "gold.iob2"), *germ_systems, "--bootstrap", "0",
                                  "--format", "json", "-o", "{out}"])
    jobs.add("error: analyze an unknown attribute", [*analyze, d.chosen[0], "--attributes", "nope", "-o", "{out}"])
    jobs.add("error: analyze a line missing late", [*analyze, d.chosen[0], str(cut_column(d.few[1], work)),
                                                    "--bootstrap", "0", "-o", "{out}"])
    # agree
    for fmt in (("table", "json") if quick else FORMATS):
        jobs.add(f"agree columns {fmt}", ["agree", str(d.multi), "--columns", "2", "3", "4", "5", "--format", fmt,
                                          "-o", "{out}"])
    jobs.add("agree columns --details --cases 3", ["agree", str(d.multi), "--columns", "2", "3", "4", "--details",
                                                    "--cases", "3", "-o", "{out}"])
    for fmt in ("table", "json", "csv"):
        jobs.add(f"agree files {fmt}", ["agree", *three, "--format", fmt, "-o", "{out}"])
    jobs.add("agree files --bootstrap 20", ["agree", *three, "--bootstrap", "20", "--seed", "3", "--format", "json",
                                            "-o", "{out}"])
    jobs.add("agree files --bootstrap 20 table", ["agree", *three, "--bootstrap", "20", "--seed", "3", "-o", "{out}"])
    jobs.add("agree --separator-weight 0 --continuum characters", ["agree", *three, "--separator-weight", "0",
                                                                    "--continuum", "characters", "--format", "json",
                                                                    "-o", "{out}"])
    jobs.add("agree --names", ["agree", *three, "--names", "a", "b", "c", "--format", "json", "-o", "{out}"])
    for k, extra, suffix in (("2", [], ".conll"), ("2", ["--to", "jsonl-tokens"], ""),
                             ("3", ["--to", "jsonl-text"], ""), ("2", ["--to", "brat"], ""),
                             ("2", ["--majority-scheme", "IOBES"], ".conll")):
        jobs.add(f"agree --majority {k} {' '.join(extra)}", ["agree", *three, "--majority", k, *extra, "-o", "{out}"],
                 suffix=suffix)
    jobs.add("agree --majority 2 json report", ["agree", str(d.multi), "--columns", "3", "4", "5", "--majority", "2",
                                                "--format", "json", "-o", "{out}"], suffix=".conll")
    jobs.add("error: agree --majority without a format", ["agree", *three, "--majority", "2", "-o", "{out}"])
    jobs.add("agree jsonl files", ["agree", *map(str, d.js_systems[:3]), "--format", "json", "-o", "{out}"])
    jobs.add("agree conllu files", ["agree", *map(str, d.cu_systems[:2]), "--format", "json", "-o", "{out}"])
    jobs.add("agree columns stdin", ["agree", "-", "--columns", "2", "3", "4", "--format", "json"], output=False,
             stdin=d.multi)
    for fmt in ("table", "json"):
        jobs.add(f"agree germeval {fmt}", ["agree", *germ_systems, "--format", fmt, "-o", "{out}"])
    jobs.add("error: agree a line missing late", ["agree", d.chosen[0], str(cut_column(d.few[1], work)), "-o",
                                                  "{out}"])
    jobs.add("error: agree one column", ["agree", str(d.multi), "--columns", "2", "-o", "{out}"])
    # convert: from every readable layout to every writable one; the written files compared
    sources = [("columns", d.few[0], ["--column", "-1"]), ("columns gold", d.gold, []),
               ("jsonl", d.js_systems[0], []), ("conllu", d.cu_systems[0], []),
               ("jsonl-text", work / "sys.jsonl-text.json", []), ("brat", d.br_gold, []),
               ("germeval", sorted((germ / "systems-6col").glob("*.tsv"))[0], ["--from", "germeval", "--side",
                                                                                 "system"])]
    for name, src, extra in sources[:4] if quick else sources:
        for to in ("columns", "jsonl-tokens", "jsonl-text", "brat"):
            if to == "brat" and name not in ("columns", "jsonl"):
                continue        # a file per document: about 10 s each on a slow file system
            jobs.add(f"convert {name} to {to}", ["convert", str(src), "{out}", "--to", to, *extra])
    jobs.add("convert columns to columns IOBES --verify", ["convert", str(d.few[0]), "{out}", "--to", "columns",
                                                           "--scheme", "IOBES", "--verify"])
    jobs.add("convert columns to columns BILOU", ["convert", str(d.gold), "{out}", "--to", "columns", "--scheme",
                                                  "BILOU"])
    jobs.add("convert germeval to columns --overlapping outermost", ["convert", str(sources[-1][1]), "{out}", "--to",
                                                                      "columns", "--overlapping", "outermost",
                                                                      *sources[-1][2]])
    jobs.add("convert IOB1 columns", ["convert", str(conll / "gold.iob1"), "{out}", "--to", "jsonl-tokens",
                                      "--in-scheme", "IOB1"])
    jobs.add("convert to standard output", ["convert", str(d.js_systems[1]), "-", "--to", "columns"], output=False)
    jobs.add("convert from standard input", ["convert", "-", "{out}", "--from", "columns", "--to", "jsonl-tokens"],
             stdin=d.few[1])
    jobs.add("convert to .gz", ["convert", str(d.few[0]), "{out}", "--to", "jsonl-tokens"], suffix=".gz")
    jobs.add("error: convert an unknown scheme", ["convert", str(work / "sys.jsonl-text.json"), "{out}",
                                                             "--to", "columns", "--scheme", "nope"])


def synthetic_study_jobs(jobs: Jobs, c: Path, work: Path, quick: bool) -> None:
    """analyze (up to 1M tokens: the baseline's is slow), agree and convert on a synthetic corpus."""
    size = c.stat().st_size
    if size <= 15_000_000:         # about 1M tokens
        jobs.add(f"analyze {c.name} table", ["analyze", str(c), "--bootstrap", "0", "-o", "{out}"])
        if not quick:
            jobs.add(f"analyze {c.name} --by document resamples", ["analyze", str(c), "--by", "document",
                                                                   *SMALL_RESAMPLES, "--format", "json",
                                                                   "-o", "{out}"])
    jobs.add(f"agree {c.name} json", ["agree", str(c), "--columns", "2", "3", "--format", "json", "-o", "{out}"])
    if size <= 15_000_000:
        jobs.add(f"agree {c.name} table --bootstrap 20", ["agree", str(c), "--columns", "2", "3", "--bootstrap",
                                                          "20", "-o", "{out}"])
        jobs.add(f"agree {c.name} --majority 1", ["agree", str(c), "--columns", "2", "3", "--majority", "1", "--to",
                                                  "jsonl-tokens", "-o", "{out}"])
    for to, extra in (("jsonl-tokens", []), ("jsonl-text", []), ("columns", ["--scheme", "IOBES"])):
        jobs.add(f"convert {c.name} to {to}", ["convert", str(c), "{out}", "--to", to, *extra])


def lock_step_jobs(jobs: Jobs, name: str, gold: Path, systems: List[Path], fmt: str, bad: bytes) -> None:
    """Two-file mode read in lock-step blocks (CoNLL-U, JSON Lines): every format, several systems, every
    model, a compressed system file, a record missing and a ``bad`` line late."""
    found = [str(x) for x in systems]
    for out in ("table", "json", "csv", "html", "markdown", "faireval"):
        jobs.add(f"score {name} {out}", ["score", "--gold", str(gold), *found[:2], "--format", out, "-o", "{out}"])
    jobs.add(f"score {name} conlleval", ["score", "--gold", str(gold), found[0], "--format", "conlleval",
                                         "-o", "{out}"])
    jobs.add(f"score {name} all models", ["score", "--gold", str(gold), *found, "--models",
                                          "ts,exact,overlap,constrained,contain,fair,semeval", "--all-labels-row",
                                          "--map-label", "^MISC$=", "--format", "json", "-o", "{out}"])
    packed = systems[0].with_name(f"{name}-sys0.gz")
    with open(systems[0], "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    jobs.add(f"score {name} gz", ["score", "--gold", str(gold), str(packed), "--input-format", fmt,
                                  "--format", "json", "-o", "{out}"])
    lines = systems[0].read_bytes().split(b"\n")
    late = len(lines) * 9 // 10
    cut, broken = systems[0].with_name(f"{name}-cut"), systems[0].with_name(f"{name}-bad")
    cut.write_bytes(b"\n".join(lines[:late] + lines[late + 1:]))
    jobs.add(f"error: {name} a line missing late", ["score", "--gold", str(gold), str(cut), "--input-format", fmt,
                                                    "-o", "{out}"])
    broken.write_bytes(b"\n".join(lines[:late] + [bad] + lines[late:]))
    jobs.add(f"error: {name} a bad line late", ["score", "--gold", str(gold), str(broken), "--input-format", fmt,
                                                "-o", "{out}"])


def to_conllu(src: Path, out: Path, column: int, ids: bool = False, key: str = "NER") -> None:
    """A column file as CoNLL-U: its tokens, the tags of ``column`` as the MISC key ``key`` (``# sent_id``
    lines when ``ids``; -DOCSTART- lines left out)."""
    with open(src, encoding="utf-8") as fh, open(out, "w", encoding="utf-8") as dst:
        k = sentence = 0
        for line in fh:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if k:
                    dst.write("\n")
                k = 0
                continue
            if not k:
                sentence += 1
                if ids:
                    dst.write(f"# sent_id = s{sentence}\n")
            k += 1
            dst.write(f"{k}\t{fields[0]}\t_\t_\t_\t_\t{k - 1}\tdep\t_\t{key}={fields[column]}\n")


def cut_column(src: Path, work: Path) -> Path:
    """``src`` without one token line nine tenths in (a file that no longer lines up late)."""
    lines = src.read_bytes().split(b"\n")
    out = work / f"cut-{src.name}"
    out.write_bytes(b"\n".join(lines[:len(lines) * 9 // 10] + lines[len(lines) * 9 // 10 + 1:]))
    return out


def rank_systems(src: Path, work: Path) -> List[Path]:
    """A gold file and three system files (``TOKEN TAG``) of a ``TOKEN GOLD PRED`` corpus: the system's tags,
    the system's in even sentences (gold's in odd ones), the system's in every third sentence."""
    paths = [work / f"rank-{src.stem}-{k}.conll" for k in ("gold", "a", "b", "c")]
    with contextlib.ExitStack() as stack:
        outs = [stack.enter_context(open(p, "w", encoding="utf-8")) for p in paths]
        sentence = 0
        for line in stack.enter_context(open(src, encoding="utf-8")):
            f = line.split()
            if not f:
                for out in outs:
                    out.write("\n")
                sentence += 1
                continue
            tags = [f[-2], f[-1], f[-1] if sentence % 2 == 0 else f[-2], f[-1] if sentence % 3 == 0 else f[-2]]
            for out, tag in zip(outs, tags):
                out.write(f"{f[0]} {tag}\n")
    return paths


def _paste_columns(out: Path, files: List[Path]) -> None:
    """TOKEN GOLD S1 S2 ... from files in TOKEN ... GOLD SYSTEM layout (the same tokens)."""
    with contextlib.ExitStack() as stack:
        handles = [stack.enter_context(open(f, encoding="utf-8")) for f in files]
        dst = stack.enter_context(open(out, "w", encoding="utf-8"))
        for lines in zip(*handles):
            fields = [ln.split() for ln in lines]
            if not fields[0]:
                dst.write("\n")
                continue
            dst.write(" ".join([fields[0][0], fields[0][-2]] + [f[-1] for f in fields]) + "\n")


def run_version(name: str, root: Path, jobs: Jobs, out: Path, python: str) -> float:
    """Run every job with the ts_eval package in ``root``; outputs under ``out``."""
    out.mkdir(parents=True)
    inproc, t0 = [], time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "100"}
    written = out.parent / "written"     # the same path in both versions (pages show the command line)
    written.mkdir(exist_ok=True)
    for k, job in enumerate(jobs.items):
        files = {x: str(out / f"{k:04d}.{x}") for x in ("out", "stdout", "stderr", "code")}
        files["written"] = str(written / f"{k:04d}.out{job['suffix']}")
        argv = [a.replace("{out}", files["written"]) if isinstance(a, str) else a for a in job["argv"]]
        if job["stdin"]:
            with open(job["stdin"], "rb") as fin, open(files["stdout"], "wb") as fout:
                proc = subprocess.run([python, "-m", "ts_eval", *argv], stdin=fin, stdout=fout,
                                      stderr=subprocess.PIPE, cwd=root, env=env)
            Path(files["stderr"]).write_text(proc.stderr.decode("utf-8", "replace"))
            Path(files["code"]).write_text(str(proc.returncode))
            if os.path.exists(files["written"]):
                os.replace(files["written"], files["out"])
        else:
            inproc.append({"argv": argv, **files})
    spec = out / "jobs.json"
    spec.write_text(json.dumps(inproc))
    script = out / "runner.py"
    script.write_text(RUNNER)
    subprocess.run([python, str(script), str(spec)], cwd=root, env=env, check=True)
    return time.perf_counter() - t0


def comparable(path: Path) -> bytes:
    """A file's bytes; in a JSON result, the ``timings`` (seconds each phase took) are left out; a directory
    (brat): the names and bytes of its files."""
    if path.is_dir():
        return b"".join(f"\0{f.relative_to(path)}\0".encode() + f.read_bytes()
                        for f in sorted(path.rglob("*")) if f.is_file())
    data = path.read_bytes()
    if data.startswith(b"{") and b'"timings"' in data:
        obj = json.loads(data)
        obj.pop("timings", None)
        for task in (obj.get("tasks") or {}).values():     # several rank tasks: each has its timings
            task.pop("timings", None)
        return json.dumps(obj).encode()
    return data


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", required=True, metavar="COMMIT", help="the commit to compare with")
    ap.add_argument("--data", type=Path, default=REPO.parent / "data",
                    help="folder with conll2003-en/, germeval2014/ and conlleval/")
    ap.add_argument("--sizes", default="1M,10M", help="synthetic corpora in tokens (default %(default)s; '' for none)")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench_scale")
    ap.add_argument("--quick", action="store_true", help="fewer systems and formats")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="keep both versions' outputs here")
    ap.add_argument("--commands", metavar="LIST", help="only these commands' command lines, e.g. analyze,agree "
                                                        "(default: every command)")
    args = ap.parse_args(argv)
    if not (args.data / "conll2003-en").is_dir():
        ap.error(f"no conll2003-en/ in {args.data}: give --data")
    work = Path(tempfile.mkdtemp(prefix="compare_outputs_")) if not args.keep else args.keep
    work.mkdir(parents=True, exist_ok=True)
    corpora = Corpora(args.cache_dir, 13, 10)
    synthetic = [corpora.file(parse_size(s)) for s in args.sizes.split(",") if s.strip()]
    inputs = work / "inputs"
    inputs.mkdir(exist_ok=True)
    jobs = build_jobs(args.data, synthetic, inputs, args.quick)
    jobs.only(args.commands)
    base = baseline_tree(args.baseline, work)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO).stdout
    print(f"{len(jobs.items)} command lines; baseline {args.baseline} against this checkout ({head.strip()}, "
          f"with its uncommitted changes); synthetic corpora: {', '.join(p.name for p in synthetic) or 'none'}")
    times = {}
    for name, root in (("baseline", base), ("now", REPO)):
        times[name] = run_version(name, root, jobs, work / f"out-{name}", sys.executable)
        print(f"  {name}: {times[name]:.1f} s", flush=True)
    differ = 0
    for k, job in enumerate(jobs.items):
        for part in ("out", "stdout", "stderr", "code"):
            a, b = work / "out-baseline" / f"{k:04d}.{part}", work / "out-now" / f"{k:04d}.{part}"
            if a.exists() != b.exists() or (a.exists() and comparable(a) != comparable(b)):
                differ += 1
                print(f"DIFFERENT {part}: {job['name']}  ({a} vs {b})")
                break
    print(f"{len(jobs.items) - differ} of {len(jobs.items)} command lines give identical outputs, "
          f"standard error and exit codes" + ("" if not differ else f"; {differ} differ"))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
