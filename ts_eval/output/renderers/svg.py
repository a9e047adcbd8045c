"""Figures of a page as inline SVG, drawn in Python (no plotting library, no script).

Each figure kind of :class:`ts_eval.output.page.Figure` (bump chart, heatmap, bars, stacked
bars, interval bars) becomes one ``<svg>`` element at its natural size: text stays readable
on a phone because the page scrolls a wide figure inside its box once it has shrunk to 80%
(its viewBox scales it).  Interval bars scale to any width instead: their point is where each
mark sits against the others, so a phone sees them all, smaller.
Every name and number is escaped; every mark has a ``<title>`` (a tooltip with the exact
value) so nothing is only a colour.  Values are written by :func:`.format.value`, as in every other format.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from markupsafe import Markup, escape

from ..page import Figure
from ..values import interval as format_interval
from ..values import value as format_value

FONT = 12                  # px, labels
SMALL = 10                 # px, intervals and ticks
ROW = 22                   # px per row of bars and of the bump chart
MIN_SCALE = 0.8           # a figure shrinks to 80% of its natural width on a narrow screen, then scrolls
PLOT = 500                 # px, width of the value axis of bars
PLOT_INTERVALS = 380       # px, width of the value axis of interval bars, which scale to any width
PARTS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C564B", "#7F7F7F")


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _el(tag: str, content: str = "", **attrs: Optional[Union[str, float]]) -> str:
    """``<tag attrs>content</tag>``; attribute values are escaped, ``class_`` -> ``class``,
    ``font_size`` -> ``font-size``; ``content`` must already be markup."""
    parts = [tag]
    for k, v in attrs.items():
        if v is None:
            continue
        key = k.rstrip("_").replace("_", "-")
        parts.append(f'{key}="{escape(_n(v) if isinstance(v, float) else v)}"')
    return f"<{' '.join(parts)}>{content}</{tag}>"


def _title(text: str) -> str:
    return _el("title", str(escape(text)))


def _text(x: float, y: float, text: str, **attrs: Optional[Union[str, float]]) -> str:
    return _el("text", str(escape(text)), x=float(x), y=float(y), **attrs)


def _width(text: str, size: float = FONT) -> float:
    return len(text) * 0.62 * size


def _svg(fig: Figure, width: float, height: float, body: List[str], min_scale: float = MIN_SCALE) -> Markup:
    """The figure at its natural size; on a narrower screen its viewBox scales it down to
    ``min_scale`` of that size (then its box scrolls), or to any width with ``min_scale`` 0."""
    width, height = math.ceil(width), math.ceil(height)
    return Markup(_el("svg", _title(fig.title) + "".join(body), xmlns="http://www.w3.org/2000/svg",
                      class_=f"chart chart-{fig.kind}", id=f"fig-{fig.id}", role="img",
                      width=str(width), height=str(height), viewBox=f"0 0 {width} {height}",
                      style=f"min-width:{math.ceil(width * min_scale)}px" if min_scale else None,
                      font_size=str(FONT)))


def _finite(v: Any) -> bool:
    return v is not None and not isinstance(v, str) and math.isfinite(float(v))


# ---------------------------------------------------------------------------
# scales and colours


def nice_ticks(lo: float, hi: float, count: int = 5) -> List[float]:
    """About ``count`` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 5, 10) if s * mag >= raw)
    first = math.floor(lo / step + 1e-9) * step
    ticks = []
    t = first
    while t <= hi + step * 1e-6:
        if t >= lo - step * 1e-6:
            ticks.append(round(t, 12))
        t += step
    return ticks


def _tick_label(v: float, kind: str, ticks: Sequence[float]) -> str:
    scale = 100 if kind in ("score", "signed") else 1
    step = abs(ticks[1] - ticks[0]) * scale if len(ticks) > 1 else 1
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    return f"{v * scale:.{decimals}f}"


def _mix(c1: Tuple[int, int, int], c2: Tuple[int, int, int], t: float) -> Tuple[int, int, int]:
    (r1, g1, b1), (r2, g2, b2) = c1, c2
    return round(r1 + (r2 - r1) * t), round(g1 + (g2 - g1) * t), round(b1 + (b2 - b1) * t)


def _hex(c: str) -> Tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


SEQUENTIAL = [_hex(c) for c in ("#f7fbff", "#9ecae1", "#3182bd", "#08306b")]
DIVERGING = [_hex(c) for c in ("#b2182b", "#f4a582", "#f7f7f7", "#92c5de", "#2166ac")]


def colour(v: float, lo: float, hi: float) -> Tuple[int, int, int]:
    """Colour of ``v`` on [lo, hi]: diverging (red - white - blue) when the range spans 0,
    sequential (white - blue) otherwise."""
    stops = DIVERGING if lo < 0 < hi else SEQUENTIAL
    if lo < 0 < hi:                       # 0 is the middle stop whatever the range
        t = 0.5 + 0.5 * (v / -lo if v < 0 else v / hi)
    else:
        t = (v - lo) / (hi - lo) if hi > lo else 0.5
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    k = min(int(t), len(stops) - 2)
    return _mix(stops[k], stops[k + 1], t - k)


def _css(c: Tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _dark(c: Tuple[int, int, int]) -> bool:
    r, g, b = (x / 255 for x in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5


def series_colour(k: int) -> str:
    """Distinct hues for n lines (golden-angle steps, two lightnesses alternating)."""
    hue = (k * 137.508) % 360
    light = (32 if k % 2 else 42) - (8 if 40 <= hue <= 190 else 0)   # yellows and greens darker: legible on white
    return f"hsl({hue:.0f},75%,{light}%)"


def _axis(x0: float, width: float, y: float, lo: float, hi: float, kind: str, height: float) -> List[str]:
    """Ticks and light grid lines of a horizontal value axis below ``y``."""
    ticks = nice_ticks(lo, hi)
    out = []
    for t in ticks:
        x = x0 + (t - lo) / (hi - lo) * width if hi > lo else x0
        out.append(_el("line", x1=x, x2=x, y1=y - height, y2=y, class_="grid"))
        out.append(_text(x, y + SMALL + 4, _tick_label(t, kind, ticks), text_anchor="middle",
                         font_size=str(SMALL), class_="tick"))
    return out


# ---------------------------------------------------------------------------
# the five kinds


def bump(fig: Figure) -> Markup:
    """Ranks across models: one line per system, rank 1 at the top; names at both ends."""
    models: List[str] = list(fig.data["models"])
    systems: List[str] = list(fig.data["systems"])
    ranks: List[List[Any]] = fig.data["ranks"]
    n, m = len(systems), len(models)
    step = max(56.0, max((_width(t, SMALL) for t in models), default=0) + 10)
    rotate = step > 110
    if rotate:
        step = 56.0
    label_w = max((_width(f"{n}. {s}") for s in systems), default=0) + 16
    top = (max(_width(t, SMALL) for t in models) * 0.6 + 24) if rotate else 30
    left, right = label_w, label_w
    width = left + step * max(m - 1, 1) + right
    height = top + ROW * max(n, 1) + 8

    def x(j: int) -> float:
        return left + step * j

    def y(r: float) -> float:
        return top + ROW * (r - 1) + ROW / 2

    body = []
    for j, t in enumerate(models):
        body.append(_el("line", x1=x(j), x2=x(j), y1=top, y2=height - 8, class_="grid"))
        if rotate:
            body.append(_text(x(j), top - 8, t, font_size=str(SMALL), class_="axis",
                              transform=f"rotate(-35 {_n(x(j))} {_n(top - 8)})"))
        else:
            body.append(_text(x(j), top - 10, t, font_size=str(SMALL), class_="axis", text_anchor="middle"))
    for k, name in enumerate(systems):
        c = series_colour(k)
        pts = [(x(j), y(float(r))) for j, r in enumerate(ranks[k]) if _finite(r)]
        g = [_title(name)]
        if len(pts) > 1:
            g.append(_el("polyline", points=" ".join(f"{_n(a)},{_n(b)}" for a, b in pts), stroke=c,
                         fill="none", class_="line"))
        for j, r in enumerate(ranks[k]):
            if _finite(r):
                g.append(_el("circle", _title(f"{name}: rank {format_value(r, 'rank')} under {models[j]}"),
                             cx=x(j), cy=y(float(r)), r="4", fill=c))
        first, last = ranks[k][0], ranks[k][-1]
        if _finite(first):
            g.append(_text(left - 10, y(float(first)) + 4, f"{format_value(first, 'rank')}. {name}",
                           text_anchor="end", fill=c, class_="name"))
        if _finite(last) and m > 1:
            g.append(_text(x(m - 1) + 10, y(float(last)) + 4, f"{format_value(last, 'rank')}. {name}",
                           fill=c, class_="name"))
        body.append(_el("g", "".join(g), class_="series"))
    return _svg(fig, width, height, body)


def heatmap(fig: Figure) -> Markup:
    """A matrix of coloured cells, each with its value and (when given) its interval."""
    rows: List[str] = list(fig.data["rows"])
    cols: List[str] = list(fig.data["columns"])
    values = fig.data["values"]
    low, high = fig.data.get("low"), fig.data.get("high")
    kind = fig.data.get("kind", "number")
    finite = [float(v) for row in values for v in row if _finite(v)]
    lo, hi = (float(x) for x in (fig.data.get("range") or [min(finite, default=0.0), max(finite, default=1.0)]))
    if finite and max(finite) - min(finite) < 0.5 * (hi - lo):   # colour the spread that is there
        lo, hi = min(finite), max(finite)
    texts = [[format_value(v, kind) for v in row] for row in values]
    ivs = [[format_interval(low[i][j], high[i][j], kind) if low and high else "" for j in range(len(cols))]
           for i in range(len(rows))]
    has_iv = any(t for row in ivs for t in row)
    cw = max([56.0] + [_width(t) + 12 for row in texts for t in row]
             + [_width(t, SMALL) + 10 for row in ivs for t in row])
    ch = 40.0 if has_iv else 26.0
    head_w = max((_width(c, SMALL) for c in cols), default=0)
    rotate = head_w > cw - 6
    top = (head_w * 0.72 + 16) if rotate else 24
    left = max((_width(r) for r in rows), default=0) + 12
    width, height = left + cw * len(cols) + (head_w * 0.72 if rotate else 0) + 8, top + ch * len(rows) + 4
    body = _scale(left, height + 4, lo, hi, kind)
    width, height = max(width, left + 260), height + 30
    for j, c in enumerate(cols):
        cx = left + cw * j + cw / 2
        if rotate:
            body.append(_text(cx, top - 6, c, font_size=str(SMALL), class_="axis",
                              transform=f"rotate(-45 {_n(cx)} {_n(top - 6)})"))
        else:
            body.append(_text(cx, top - 8, c, font_size=str(SMALL), class_="axis", text_anchor="middle"))
    for i, r in enumerate(rows):
        ytop = top + ch * i
        body.append(_text(left - 8, ytop + ch / 2 + 4, r, text_anchor="end", class_="axis"))
        for j in range(len(cols)):
            v = values[i][j]
            fill = colour(float(v), lo, hi) if _finite(v) else (238, 238, 238)
            ink = "#fff" if _dark(fill) else "#111"
            x0 = left + cw * j
            tip = f"{r} × {cols[j]}: {texts[i][j] or 'n/a'}" + (f" ({ivs[i][j]})" if ivs[i][j] else "")
            cell = [_title(tip), _el("rect", x=x0, y=ytop, width=cw - 2, height=ch - 2, fill=_css(fill))]
            vy = ytop + (ch / 2 - 2 if has_iv else ch / 2 + 3)
            cell.append(_text(x0 + cw / 2 - 1, vy, texts[i][j] or "n/a", text_anchor="middle", fill=ink,
                              class_="value"))
            if ivs[i][j]:
                cell.append(_text(x0 + cw / 2 - 1, ytop + ch - 9, ivs[i][j], text_anchor="middle", fill=ink,
                                  font_size=str(SMALL), class_="interval"))
            body.append(_el("g", "".join(cell), class_="cell"))
    return _svg(fig, width, height, body)


def _scale(x: float, y: float, lo: float, hi: float, kind: str) -> List[str]:
    """The colour scale of a heatmap: a bar of 32 steps from ``lo`` to ``hi`` with both ends written
    (plain rectangles, not a gradient: a gradient needs a ``url(#id)`` reference, which a page
    fragment in a notebook should not carry)."""
    steps = 32
    bar = "".join(_el("rect", x=float(x) + 5.0 * k, y=float(y + 2), width="5.4", height="12",
                      fill=_css(colour(lo + (hi - lo) * (k + 0.5) / steps, lo, hi))) for k in range(steps))
    return [_text(x, y + 12, format_value(lo, kind), text_anchor="end", font_size=str(SMALL), class_="tick",
                  dx="-4"),
            _el("g", bar, class_="scale"),
            _text(x + 164, y + 12, format_value(hi, kind), font_size=str(SMALL), class_="tick")]


def _label_width(labels: Sequence[str]) -> float:
    return max((_width(s) for s in labels), default=0) + 12


def bars(fig: Figure) -> Markup:
    """Horizontal bars from zero, the value written after each bar."""
    labels: List[str] = list(fig.data["labels"])
    values = fig.data["values"]
    kind = fig.data.get("kind", "number")
    finite = [float(v) for v in values if _finite(v)]
    lo, hi = min([0.0] + finite), max([0.0] + finite)
    hi = hi if hi > lo else lo + 1
    left = _label_width(labels)
    texts = [format_value(v, kind) for v in values]
    right = max((_width(t) for t in texts), default=0) + 12
    top = 6
    height = top + ROW * len(labels) + 22

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * PLOT

    body = _axis(left, PLOT, height - 20, lo, hi, kind, height - 20 - top)
    for i, (s, v) in enumerate(zip(labels, values)):
        yc = top + ROW * i + ROW / 2
        g = [_title(f"{s}: {texts[i] or 'n/a'}"), _text(left - 8, yc + 4, s, text_anchor="end", class_="axis")]
        if _finite(v):
            a, b = sorted((x(0.0), x(float(v))))
            g.append(_el("rect", x=a, y=yc - 7, width=max(b - a, 1.0), height="14", class_="bar"))
            g.append(_text(max(a, b) + 4, yc + 4, texts[i], class_="value"))
        body.append(_el("g", "".join(g), class_="row"))
    return _svg(fig, left + PLOT + right, height, body)


def stacked_bars(fig: Figure) -> Markup:
    """One horizontal bar per label split into its parts (e.g. the fair error types of a system),
    with a legend; the total is written after the bar."""
    labels: List[str] = list(fig.data["labels"])
    parts: List[str] = list(fig.data["parts"])
    values = [[float(v) if _finite(v) else 0.0 for v in row] for row in fig.data["values"]]
    kind = fig.data.get("kind", "count")
    totals = [sum(row) for row in values]
    hi = max(totals, default=0.0) or 1.0
    left = _label_width(labels)
    right = max((_width(format_value(t, kind)) for t in totals), default=0) + 12
    legend_h = 22
    top = legend_h + 6
    height = top + ROW * len(labels) + 22
    body = []
    lx = left
    for p, name in enumerate(parts):
        body.append(_el("rect", x=float(lx), y="4", width="12", height="12", fill=PARTS[p % len(PARTS)]))
        body.append(_text(lx + 16, 14, name, class_="legend"))
        lx += 16 + _width(name) + 14
    body += _axis(left, PLOT, height - 20, 0.0, hi, kind, height - 20 - top)
    for i, s in enumerate(labels):
        yc = top + ROW * i + ROW / 2
        g = [_title(f"{s}: " + ", ".join(f"{p} {format_value(v, kind)}" for p, v in zip(parts, values[i]))),
             _text(left - 8, yc + 4, s, text_anchor="end", class_="axis")]
        x0 = float(left)
        for p, v in enumerate(values[i]):
            w = v / hi * PLOT
            if w > 0:
                g.append(_el("rect", _title(f"{s}, {parts[p]}: {format_value(v, kind)}"), x=x0, y=yc - 7,
                             width=w, height="14", fill=PARTS[p % len(PARTS)]))
            x0 += w
        g.append(_text(x0 + 4, yc + 4, format_value(totals[i], kind), class_="value"))
        body.append(_el("g", "".join(g), class_="row"))
    return _svg(fig, max(left + PLOT + right, lx), height, body)


def intervals(fig: Figure) -> Markup:
    """A point per label at its value with a bar over its interval; rows of one significance
    group share a background band, the group number is written on the right.  With ``runs`` (each
    label's runs' scores) a strip under the interval shows one dot per run and a tick at the
    value (their mean).  The chart scales to any width (a phone sees every mark, smaller, rather
    than a part of the axis)."""
    labels: List[str] = list(fig.data["labels"])
    values, lows, highs = fig.data["values"], fig.data.get("low"), fig.data.get("high")
    groups = fig.data.get("groups")
    runs: Optional[List[List[Any]]] = fig.data.get("runs")
    kind = fig.data.get("kind", "score")
    ends = [float(v) for v in list(values) + list(lows or []) + list(highs or []) + [
        v for each in runs or [] for v in each] if _finite(v)]
    lo, hi = min(ends, default=0.0), max(ends, default=1.0)
    pad = (hi - lo) * 0.05 or 0.01
    ticks = nice_ticks(lo - pad, hi + pad)
    lo, hi = min(ticks[0], lo - pad), max(ticks[-1], hi + pad)
    left = _label_width(labels)
    right = 60 if groups else 12
    top = 6
    row = ROW_RUNS if runs else ROW
    height = top + row * len(labels) + 22

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * PLOT_INTERVALS

    body = []
    if groups:
        for i, grp in enumerate(groups):
            if i == 0 or grp != groups[i - 1]:
                span = next((k for k in range(i, len(groups)) if groups[k] != grp), len(groups)) - i
                band = "band" if (grp or 0) % 2 else "band alt"
                body.append(_el("rect", x="0", y=float(top + row * i), width=float(left + PLOT_INTERVALS + right),
                                height=float(row * span), class_=band))
                body.append(_text(left + PLOT_INTERVALS + 10, top + row * i + row / 2 + 4, f"group {grp}",
                                  font_size=str(SMALL), class_="group"))
    body += _axis(left, PLOT_INTERVALS, height - 20, lo, hi, kind, height - 20 - top)
    for i, s in enumerate(labels):
        yc = top + row * i + row / 2
        v = values[i]
        iv = format_interval(lows[i], highs[i], kind) if lows and highs else ""
        tip = f"{s}: {format_value(v, kind) or 'n/a'}" + (f" ({iv})" if iv else "") + \
              (f", group {groups[i]}" if groups else "")
        g = [_title(tip), _text(left - 8, yc + 4, s, text_anchor="end", class_="axis")]
        yi = yc - 6 if runs else yc           # the interval above the strip of runs
        if lows and highs and _finite(lows[i]) and _finite(highs[i]):
            a, b = x(float(lows[i])), x(float(highs[i]))
            g.append(_el("line", x1=a, x2=b, y1=yi, y2=yi, class_="iv"))
            g += [_el("line", x1=e, x2=e, y1=yi - 4, y2=yi + 4, class_="iv") for e in (a, b)]
        if _finite(v):
            g.append(_el("circle", cx=x(float(v)), cy=yi, r="4", class_="point"))
        if runs:
            g += _strip(s, runs[i], (fig.data.get("run_names") or [[]] * len(labels))[i], v, x, yc + 7, kind)
        body.append(_el("g", "".join(g), class_="row"))
    return _svg(fig, left + PLOT_INTERVALS + right, height, body, min_scale=0)


ROW_RUNS = 32              # px per row of an interval chart with a strip of runs under each interval
ACCENT, INK = "#1f5fa8", "#1b1f24"   # the page's --accent and --ink (drawn as attributes: the page's CSS is as before)


def _strip(label: str, scores: Sequence[Any], names: Sequence[str], mean: Any, x: Callable[[float], float],
           y: float, kind: str) -> List[str]:
    """One label's runs at height ``y``: a dot per run and a tick at their ``mean`` (dots half transparent, so
    that runs of one score show darker; a run within a dot's width of the one before it is drawn a little
    higher or lower), each with its name and score as its tooltip."""
    out = []
    placed: List[float] = []
    for j, v in enumerate(scores):
        if not _finite(v):
            continue
        cx = x(float(v))
        near = sum(1 for p in placed if abs(p - cx) < 4)
        placed.append(cx)
        dy = 0.0 if not near else (3.0 if near % 2 else -3.0)
        name = names[j] if j < len(names) else f"run {j + 1}"
        out.append(_el("circle", _title(f"{label}, {name}: {format_value(v, kind)}"), cx=cx, cy=y + dy, r="3.5",
                       class_="run", fill=ACCENT, fill_opacity=".45", stroke=ACCENT))
    if _finite(mean):        # over the dots
        out.append(_el("line", _title(f"{label}: mean of the runs {format_value(mean, kind)}"), x1=x(float(mean)),
                       x2=x(float(mean)), y1=y - 6, y2=y + 6, class_="run-mean", stroke=INK, stroke_width="2"))
    return out


def grouped_bars(fig: Figure) -> Markup:
    """Groups of horizontal bars (one per series, one colour per series, a legend above), each
    with its interval as a whisker; a group without a value (an empty bucket) says so.  Like
    interval bars the chart scales to any width."""
    groups: List[str] = list(fig.data["groups"])
    series: List[str] = list(fig.data["series"])
    values, lows, highs = fig.data["values"], fig.data.get("low"), fig.data.get("high")
    kind = fig.data.get("kind", "score")
    ends = [float(v) for rows in (values, lows or [], highs or []) for r in rows for v in r if _finite(v)]
    lo, hi = min([0.0] + ends), max(ends, default=1.0)
    if ends and min(ends) > 0.4 * hi:      # every value high: the axis starts near them (its ticks say where)
        pad = (hi - min(ends)) * 0.05 or 0.01
        lo = nice_ticks(min(ends) - pad, hi)[0]
        lo = lo if lo <= min(ends) - pad / 2 else lo - (hi - lo) / 5
    ticks = nice_ticks(lo, hi if hi > lo else lo + 1)
    hi = max(ticks[-1], hi)
    bar = max(3.0, min(12.0, 96.0 / max(len(series), 1)))
    left = _label_width(groups)
    legend_w = max((_width(s, SMALL) for s in series), default=0) + 18
    plot = PLOT_INTERVALS if len(series) <= 4 else 560       # many systems: a wider axis
    per_line = max(1, int((left + plot) // legend_w))
    legend_rows = -(-len(series) // per_line)
    top = 8 + legend_rows * 14 + 6
    gap = 8.0
    height = top + len(groups) * (bar * len(series) + gap) + 22

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * plot

    body = []
    for k, s in enumerate(series):
        lx, ly = (k % per_line) * legend_w, 8 + (k // per_line) * 14
        body.append(_el("g", _title(s) + _el("rect", x=float(lx), y=float(ly), width="10", height="10",
                                             fill=series_colour(k))
                        + _text(lx + 14, ly + 9, s, font_size=str(SMALL), class_="axis"), class_="legend"))
    body += _axis(left, plot, height - 20, lo, hi, kind, height - 20 - top)
    y = float(top)
    for g, name in enumerate(groups):
        block = bar * len(series)
        row = [_text(left - 8, y + block / 2 + 4, name, text_anchor="end", class_="axis")]
        if not any(_finite(v) for v in values[g]):
            row.append(_text(left + 4, y + block / 2 + 4, "no spans", font_size=str(SMALL), class_="tick"))
        for k, s in enumerate(series):
            v = values[g][k]
            yb = y + k * bar
            iv = format_interval(lows[g][k], highs[g][k], kind) if lows and highs else ""
            tip = f"{name}, {s}: {format_value(v, kind) or 'n/a'}" + (f" ({iv})" if iv else "")
            mark = [_title(tip)]
            if _finite(v):
                a, b = sorted((x(max(lo, 0.0)), x(max(float(v), lo))))
                mark.append(_el("rect", x=a, y=yb + 0.5, width=max(b - a, 1.0), height=float(max(bar - 1, 2)),
                                fill=series_colour(k)))
            if lows and highs and _finite(lows[g][k]) and _finite(highs[g][k]):
                a, b = x(float(lows[g][k])), x(float(highs[g][k]))
                yc = yb + bar / 2
                mark.append(_el("line", x1=a, x2=b, y1=yc, y2=yc, class_="iv"))
                mark += [_el("line", x1=e, x2=e, y1=yc - min(3.0, bar / 2), y2=yc + min(3.0, bar / 2), class_="iv")
                         for e in (a, b)]
            row.append(_el("g", "".join(mark), class_="bar-mark"))
        body.append(_el("g", "".join(row), class_="row"))
        y += block + gap
    return _svg(fig, max(left + plot + 12, per_line * legend_w), height, body, min_scale=0)


def _spread(ys: Sequence[float], gap: float, top: float, bottom: float) -> List[float]:
    """Label positions near ``ys`` (ascending) at least ``gap`` apart, within [top, bottom] where they fit."""
    out: List[float] = []
    for y in ys:
        out.append(max(y, top, out[-1] + gap) if out else max(y, top))
    for k in range(len(out) - 1, -1, -1):
        limit = bottom if k == len(out) - 1 else out[k + 1] - gap
        out[k] = min(out[k], limit)
    return out


def slope(fig: Figure) -> Markup:
    """Each system's value from one reference to the next: a vertical value axis at the left, one column per
    reference, one line per system; at the right end its rank under the last reference and its name, spread apart
    so that no two names overlap (a thin leader joins each name to its line's end); every dot's tooltip gives the
    score and rank (the leaderboard's numbers).  Names only, no scores, at the end: a phone sees them all."""
    refs: List[str] = list(fig.data["references"])
    systems: List[str] = list(fig.data["systems"])
    values: List[List[Any]] = fig.data["values"]
    ranks: List[List[Any]] = fig.data.get("ranks") or [[None] * len(refs) for _ in systems]
    kind = fig.data.get("kind", "score")
    finite = [float(v) for row in values for v in row if _finite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    pad = (hi - lo) * 0.04 or 0.01
    ticks = nice_ticks(lo - pad, hi + pad)
    lo, hi = min(ticks[0], lo), max(ticks[-1], hi)
    gap = FONT + 1.0
    plot_h = max(240.0, gap * len(systems) * 1.5)
    top = 30.0
    step = 110.0
    left = max(_width(_tick_label(t, kind, ticks), SMALL) for t in ticks) + 16
    right = max((_width(f"{format_value(r[-1], 'rank')}. {s}") for s, r in zip(systems, ranks)), default=0) + 30
    width = left + step * max(len(refs) - 1, 1) + right
    height = top + plot_h + 12

    def x(j: int) -> float:
        return left + step * j

    def y(v: float) -> float:
        return top + (hi - v) / (hi - lo) * plot_h if hi > lo else top + plot_h / 2

    body = []
    for t in ticks:
        body.append(_el("line", x1=left - 4, x2=x(len(refs) - 1), y1=y(t), y2=y(t), class_="grid"))
        body.append(_text(left - 8, y(t) + 4, _tick_label(t, kind, ticks), text_anchor="end",
                          font_size=str(SMALL), class_="tick"))
    for j, name in enumerate(refs):
        body.append(_el("line", x1=x(j), x2=x(j), y1=top, y2=top + plot_h, class_="grid"))
        body.append(_text(x(j), top - 12, name, font_size=str(SMALL), class_="axis",
                          text_anchor="start" if j == 0 and len(refs) > 1 else "middle"))
    ends = sorted((float(v[-1]), k) for k, v in enumerate(values) if _finite(v[-1]))
    spots = dict(zip([k for _, k in reversed(ends)],
                     _spread([y(v) for v, _ in reversed(ends)], gap, top + 4, top + plot_h + 4)))
    for k, name in enumerate(systems):
        c = series_colour(k)
        pts = [(x(j), y(float(v))) for j, v in enumerate(values[k]) if _finite(v)]
        g = [_title(name)]
        if len(pts) > 1:
            g.append(_el("polyline", points=" ".join(f"{_n(a)},{_n(b)}" for a, b in pts), stroke=c, fill="none",
                         class_="line"))
        for j, v in enumerate(values[k]):
            if _finite(v):
                tip = f"{name}: {format_value(v, kind)} under {refs[j]}"
                if _finite(ranks[k][j]):
                    tip += f", rank {format_value(ranks[k][j], 'rank')}"
                g.append(_el("circle", _title(tip), cx=x(j), cy=y(float(v)), r="3.5", fill=c, class_="dot"))
        if k in spots:
            ly, end = spots[k], y(float(values[k][-1]))
            g.append(_el("line", x1=x(len(refs) - 1) + 5, x2=x(len(refs) - 1) + 20, y1=end, y2=ly, stroke=c,
                         class_="leader"))
            label = f"{format_value(ranks[k][-1], 'rank')}. {name}"
            g.append(_text(x(len(refs) - 1) + 24, ly + 4, label, fill=c, class_="name"))
        body.append(_el("g", "".join(g), class_="series"))
    return _svg(fig, width, height, body)


DRAW: Dict[str, Callable[[Figure], Markup]] = {
    "bump": bump, "heatmap": heatmap, "bars": bars, "stacked_bars": stacked_bars, "intervals": intervals,
    "grouped_bars": grouped_bars, "slope": slope,
}

def figure_svg(fig: Figure) -> Markup:
    """The ``<svg>`` element of ``fig`` (one of :data:`ts_eval.output.page.FIGURE_KINDS`)."""
    return DRAW[fig.kind](fig)
