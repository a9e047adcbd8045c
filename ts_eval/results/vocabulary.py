"""The result vocabulary: one key for one quantity in every non-legacy result (the JSON of score,
fair, rank, compare and GermEval, their CSV columns and the API's dicts), and the layout version
each kind of JSON carries.

README's "Result vocabulary" section documents these words; ``tests/test_vocabulary.py`` walks the
JSON of every result kind and checks every key holding a number (or a list of numbers) against
:data:`WORDS` -- so a new key that names a count or a score differently (``f1``, ``found``,
``correct_count``) fails until it is renamed or documented here and in the README.  Keys that are
names (labels, systems, models, levels, transitions, timing phases) sit under the containers of
:data:`NAME_MAPS`; FairEval's weight syntax (:data:`LEGACY`) keeps the reference tool's words.  GermEval's
``official`` part (the scorer's percentages, which the byte-exact ``nereval`` layout prints) uses the
vocabulary too since layout version 5.
"""
from __future__ import annotations

from typing import Dict

#: layout version of each kind of JSON (``"layout": {"kind": ..., "version": ...}``); bumped when keys change
LAYOUT_VERSIONS: Dict[str, int] = {"score": 4, "germeval": 5, "fair": 3, "rank": 3, "references": 1, "compare": 5,
                                   "analyze": 1, "errors": 1, "agree": 2, "validate": 1}


def layout(kind: str) -> Dict[str, object]:
    """The ``layout`` entry of a result's JSON."""
    return {"kind": kind, "version": LAYOUT_VERSIONS[kind]}


#: the quantity columns of :meth:`ts_eval.results.report.Report.to_frame`, in this order
FRAME_COLUMNS = ("tp", "fp", "fn", "tn", "gold", "system", "gold_hit", "system_hit", "le", "be", "bes", "bel", "beo",
                 "lbe", "precision", "recall", "f", "kappa", "accuracy")

#: counts and scores of every model (the README's main table)
QUANTITIES: Dict[str, str] = {
    "tp": "true positives (units for TS, spans for segment and fair models)",
    "fp": "false positives",
    "fn": "false negatives",
    "tn": "true negatives (TS units)",
    "gold": "gold items (spans, units, tokens); tp + fn where both exist",
    "system": "system items; tp + fp where both exist",
    "gold_hit": "overlap, constrained, contain: gold spans hit",
    "system_hit": "overlap, constrained, contain: system spans hit",
    "le": "fair: labelling errors",
    "be": "fair: boundary errors (bes + bel + beo)",
    "bes": "fair: boundary errors, system span shorter",
    "bel": "fair: boundary errors, system span longer",
    "beo": "fair: boundary errors, overlapping",
    "lbe": "fair: labelling-boundary errors",
    "precision": "precision (a fraction)",
    "recall": "recall",
    "f": "F-beta with the run's beta (fair's F is F1 by definition)",
    "kappa": "Cohen's kappa",
    "accuracy": "accuracy",
    "multiclass_kappa": "TS: kappa over units, labels plus outside (single-tag data)",
    "token_accuracy": "conlleval's token accuracy",
    "tags_correct": "conlleval / GermEval: tags counted as correct",
    "tags_counted": "conlleval: tags counted",
    "labels_averaged": "macro: the labels the mean is over (present ones)",
    "share": "a share of a total (fraction): fair's target_stats, compare's change classes",
}

#: nervaluate's SemEval-2013 words (under ``semeval``), the one documented exception (``overall``)
SEMEVAL: Dict[str, str] = {
    "correct": "SemEval: system spans correct (COR)",
    "incorrect": "SemEval: system spans incorrect (INC)",
    "partial": "SemEval: system spans partial (PAR)",
    "missed": "SemEval: gold spans missed (MIS)",
    "spurious": "SemEval: system spans spurious (SPU); compare: spurious spans of A or B",
    "possible": "SemEval: possible = gold",
    "actual": "SemEval: actual = system",
    "min_overlap_percentage": "SemEval: nervaluate's overlap threshold (when the threshold is nervaluate's)",
}

#: rank's per-system and per-model-pair numbers
RANK: Dict[str, str] = {
    "score": "a model's score of a system",
    "rank": "its rank (1 = best, ties share the mean)",
    "score_low": "bootstrap interval of the score, low end", "score_high": "... high end",
    "score_se": "bootstrap standard error of the score",
    "rank_low": "bootstrap interval of the rank", "rank_high": "... high end",
    "keep_rank": "probability the system keeps its rank", "rank_distribution": "probability of each rank",
    "p_next": "permutation test against the next system", "p_next_holm": "the same, Holm-adjusted",
    "group": "significance group",
    "spearman": "Spearman's rho, models x models", "kendall_tau_b": "Kendall's tau-b, models x models",
    "spearman_low": "interval of rho", "spearman_high": "...", "kendall_tau_b_low": "interval of tau-b",
    "kendall_tau_b_high": "...", "undefined_resamples": "resamples where a coefficient is undefined",
    "mean_spearman": "several tasks: rho averaged", "mean_kendall_tau_b": "several tasks: tau-b averaged",
    "pairs_compared": "flips: system pairs", "changed": "flips: pairs that change order",
    "significant_under_both": "flips: changed pairs significant under both models",
    "tied_under_one": "flips: pairs tied under one model only", "p_a": "flip's p-value under A", "p_b": "under B",
    "resamples": "bootstrap resamples", "units": "resampling units",
    "score_mean": "runs: the mean of a system's runs' scores", "score_sd": "runs: their standard deviation",
    "score_min": "runs: the lowest run's score", "score_max": "runs: the highest", "run_scores": "runs: every run's",
    "eps_min": "runs: ASO's epsilon_min of one system over another", "beat_probability": "runs: P(a random run of "
    "one beats a random run of the other)", "eps_a": "flip's epsilon_min under A", "eps_b": "under B",
    "settled_by_runs": "flips: changed pairs the runs settle under both models", "threshold": "runs: ASO's threshold",
    "confidence": "a confidence level", "bonferroni_confidence": "runs: ASO's Bonferroni-raised confidence level",
    "seed": "a random seed",
}

#: systems given as several runs (training seeds), in rank's and score's ``runs``: per system and model
RUNS: Dict[str, str] = {
    "score_mean": "the mean of a system's runs' scores (what rank ranks it by)",
    "score_sd": "their standard deviation (n - 1 in the denominator; null for one run)",
    "score_min": "the lowest run's score", "score_max": "the highest run's score",
    "run_scores": "every run's score, in the order of the scores",
}

#: compare's numbers (Tuggener's comparative evaluation)
COMPARE: Dict[str, str] = {
    "correct_sentences": "share of sentences without a token error",
    "accuracy_a": "token accuracy of A", "accuracy_b": "of B", "delta_accuracy": "B - A",
    "correct_sentences_a": "share of correct sentences of A", "correct_sentences_b": "of B",
    "tokens": "tokens (also a corpus size)", "differing": "items that changed between A and B",
    "diff": "differing / items (the paper's equation 1)", "count": "changes of a class or transition",
    "share_of_class": "a transition's share of its class", "share_of_diff": "its share of all changes",
    "distinct_transitions": "distinct transitions of a class",
    "correction": "A wrong, B right", "new_error": "A right, B wrong", "changed_error": "both wrong, differently",
    "net": "corrections - new errors", "tp_a": "fair TP under A", "tp_b": "under B",
    "correct_a": "SemEval correct under A", "correct_b": "under B",
    "separators": "separator units (also a corpus size)", "gold_positive": "TS units found", "gold_negative":
    "TS units cleared", "net_units": "units B - units A",
    "overlap": "share of tokens labelled alike", "correct_overlap": "Dice of the correct answers",
    "mean_diff": "mean diff to the others", "nearest_diff": "to the nearest", "farthest_diff": "to the farthest",
    "best": "best single system's score", "best_for_label": "best system for the label",
    "oracle": "right if any system is right", "gain": "oracle - best", "hard": "gold spans no system finds",
    "easy": "gold spans every system finds", "found_by": "gold spans found by j systems",
    "diff_matrix": "pairwise diff", "counts": "a matrix of counts",
}

#: two references of the same tokens (``ts_eval.comparison.references``: what changed from A to B)
REFERENCES: Dict[str, str] = {
    "added": "references: spans B adds", "removed": "references: spans of A that B drops",
    "relabelled": "references: spans B gives another label (same boundaries)",
    "rebounded": "references: spans B gives other boundaries (same label, overlapping)",
    "changed_sentences": "references: the sentences holding a changed span (0-based)",
    "errors_a": "references: a system's exact-match errors (FP + FN) under A", "errors_b": "under B",
    "wrong_a_right_b": "references: a system's errors under A that are none under B",
    "right_a_wrong_b": "references: its errors under B that are none under A",
    "score_a": "references: a model's score of a system under A", "score_b": "under B",
    "rank_a": "references: a system's rank under A", "rank_b": "under B",
    "mean_abs_difference": "references: a model's mean over systems of |B - A|",
    "max_abs_difference": "references: the largest |B - A| of a system",
    "rank_moves": "references: systems whose rank differs under A and B",
    "rank_shift": "references: the sum over systems of |rank under B - rank under A|",
    "interval_excludes_zero": "references: systems whose paired interval of B - A excludes 0",
    "mixed": "references: units with changes of several kinds",
}

#: annotators as references (``ts_eval.comparison.ceiling``: the human ceiling)
CEILING: Dict[str, str] = {
    "mean": "ceiling: a side's mean score over the annotators it is scored against (an annotator: the others)",
    "ceiling": "ceiling: the mean of the annotators' means",
    "reached": "ceiling: annotators whose mean a system reaches or passes, over the same references",
}

#: gold suspects checked against a corrected reference (``ts_eval.analysis.suspects_checked``)
SUSPECTS_CHECKED: Dict[str, str] = {
    "checked": "suspects checked (of the first k, or all)",
    "touched": "suspects a change of the correction touches",
    "agreed": "suspects the correction agrees with (it made gold what the systems say)",
    "precision_agreed": "the share of the first k suspects the correction agrees with",
    "corrections": "changes from reference A to B", "pointed": "changes that touch at least one suspect",
}

#: analyze's numbers (buckets of span and sentence attributes)
ANALYZE: Dict[str, str] = {
    "range": "a bucket's value range [low, high] (null: the bucket of missing values or a name)",
    "accounted": "flips: pairs whose gap a bucket shrinks most", "resolved": "flips: pairs a bucket's removal "
    "resolves", "gap": "flip: d_A - d_B of a pair", "shrink": "flip: per bucket, the gap minus the gap without it",
    "difference": "two systems: B - A in a bucket", "difference_low": "its bootstrap interval, low end",
    "difference_high": "... high end", "p_value": "paired permutation test of the difference",
    "buckets": "setting: buckets per numeric attribute", "vocabulary": "setting: tokens of the vocabulary given",
}

#: the error analysis's numbers (``ts_eval.analysis.errors``: confusion matrices, error lists, gold suspects)
ERRORS: Dict[str, str] = {
    "unpaired": "errors: system spans that are a candidate of a gold span but no gold span's best counterpart",
    "distinct": "errors: distinct errors (type, gold string and label, system string and label)",
    "by_systems": "errors: how many systems make an error (pooled over the systems)",
    "agreeing": "gold suspects: systems that agree with each other against gold",
    "confirming": "gold suspects: systems that agree with gold",
    "annotated": "inconsistent gold: gold spans of a string (in its context, for unannotated ones)",
    "deviating": "inconsistent gold: occurrences without the string's most frequent label, or unannotated",
    "min_agree": "setting: systems that must agree for a gold suspect", "window": "setting: example tokens each side",
    "document": "a document's number (1-based)",
}

#: GermEval 2014's reading checks (``validation``, ``levels``)
GERMEVAL: Dict[str, str] = {
    "ill_formed": "GermEval: ill-formed chunks", "i_start": "chunks opened by an I- tag",
    "label_change_inside": "chunks whose label changes inside", "crosses_sentence": "chunks over a sentence end",
    "eof_dropped": "correct chunks at the end of input the official scorer does not count",
    "eof_dropped_strict": "the same, strict levels", "comment_lines": "comment lines read",
}

#: agree's numbers (agreement between annotators)
AGREE: Dict[str, str] = {
    "value": "agree: a figure's value", "low": "agree: its bootstrap interval, low end", "high": "... high end",
    "agreement": "observed agreement: share of TS units two annotators label alike",
    "f_exact": "F1 of two annotators' spans, exact match (positive specific agreement)",
    "f_overlap": "F1 of two annotators' spans, overlap match", "fleiss": "Fleiss' kappa",
    "alpha_u": "Krippendorff's unitizing alpha", "observed_u": "unitizing alpha's observed disagreement D_o",
    "expected_u": "its expected disagreement D_e", "units_u": "units on the continuum (all annotators)",
    "spans_a": "spans of a pair's first annotator", "spans_b": "of its second", "exact": "spans both have",
    "hit_a": "spans of the first that overlap a same-label span of the second", "hit_b": "the same, of the second",
    "complete_sentences": "sentences every annotator annotated", "continuum_length": "the continuum's length in atoms",
    "token_atoms": "setting: a token's length on the continuum", "separator_atoms": "a separator's",
    "majority": "setting: spans kept by at least this many annotators", "at_least": "the same, in the result",
    "document": "a document's (or sentence's) number", "first_sentence": "its first sentence",
    "total": "disagreement clusters",
}

#: what produced the numbers: corpus sizes, reading summaries, settings, example positions
DESCRIPTIVE: Dict[str, str] = {
    "version": "layout version", "sentences": "corpus sentences", "documents": "corpus documents",
    "docstart_lines": "-DOCSTART- lines", "boundary_lines": "-X- lines", "gold_spans": "gold spans of a corpus",
    "spans": "spans read from a side", "repairs": "ill-formed spans repaired", "discarded": "ill-formed spans dropped",
    "unmapped": "spans dropped by the label map",
    "merged": "spans that coincided with another of their side after the label map, kept once",
    "nested": "spans inside another", "crossing": "crossing spans",
    "misaligned": "character spans off token boundaries (kept by the align setting, or refused)",
    "dropped_no_token": "misaligned spans over no whole token, dropped (align contract)",
    "start": "a character span's first offset", "end": "a character span's end offset (exclusive)",
    "column": "input column", "gold_col": "setting: the gold column read (1-based)",
    "token_col": "setting: the token column (1-based)", "system_cols": "setting: the system columns read",
    "first_repair_line": "line of the first repair", "separator_weight": "setting",
    "beta": "setting", "k1": "setting", "k2": "setting", "zero_division": "setting", "max_spurious": "constrained: k1",
    "partial_weight": "setting: SemEval's credit of a partial match",
    "max_missing": "constrained: k2", "bootstrap": "setting: resamples", "permutations": "setting",
    "seed": "setting", "confidence": "setting", "alpha": "setting", "top": "setting", "examples": "setting",
    "sentence": "example: sentence index", "first_token": "example: its first token", "focus": "example: positions",
    "line": "a line in the input", "index": "a gold span's index",
    "first": "a span's first token in its sentence", "last": "its last token",
    "present": "a label row: the label has gold or system items",
}

#: what placing generated outputs (strings without offsets) found (a system's ``reading.generated``)
GENERATED: Dict[str, str] = {
    "strings": "generated: strings read (the strings model: its result)", "records": "generated: records read",
    "grounded": "generated: strings placed where they occur", "fuzzy_grounded": "generated: placed by near match",
    "ungrounded": "generated: strings found nowhere in the text (false positives)",
    "unplaced": "generated: strings without a span (ungrounded, or repeats with no free occurrence): false positives",
    "duplicates": "generated: repeats of a (normalised string, label) in a record",
    "outside_labels": "generated: strings whose label gold never uses",
    "fuzzy_threshold": "setting: least similarity of a near match (0-100)",
    "record": "generated: a record's id or number",
}

#: validate's numbers (``ts_eval.validation``: a submission's problems)
VALIDATE: Dict[str, str] = {
    "problems": "validate: problems found (every one, also those the list leaves out)",
    "shown": "validate: problems listed (at most max_problems)", "max_problems": "setting: problems listed at most",
    "lines": "validate: lines of a file", "gold_line": "validate: the line of gold a problem is aligned with",
    "byte": "validate: a byte offset in the file",
}

#: every word a key holding a number may use
WORDS: Dict[str, str] = {**QUANTITIES, **SEMEVAL, **RANK, **RUNS, **COMPARE, **REFERENCES, **CEILING,
                         **SUSPECTS_CHECKED, **ANALYZE, **ERRORS, **GERMEVAL, **AGREE, **DESCRIPTIVE, **GENERATED,
                         **VALIDATE}

#: containers whose keys are names, not quantities (their values are still checked)
NAME_MAPS = ("labels", "types", "per_type", "levels", "systems", "models", "rankings", "rank_table", "confusion",
             "transitions", "spurious_moves", "rows", "m4_token_accuracy", "timings", "systems_instead",
             "spans", "where", "tasks", "metrics", "annotators", "kinds", "versus",
             "like_for_like")

#: foreign-syntax parts that keep their own words: fair ``weights`` (FairEval's config syntax, TP/FP/FN
#: per error type)
LEGACY = ("weights",)

#: words that must not name a number outside SemEval: other tools' names for the vocabulary's quantities
SEMEVAL_ONLY = ("correct", "incorrect", "partial", "missed", "possible", "actual", "overall")
