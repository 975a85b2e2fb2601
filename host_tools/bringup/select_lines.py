"""The eight select lines a mux sees (S0-S3 channel select, A0-A3 group select), inferred
from which sensor each scan index really reads (pure; grid_wiring.py gathers the pairs).

Each physical line is, across every (scan index, sensor) pair, one of the eight GPIO bits the
scan commands or a constant level: the source that agrees with the most pairs is its wiring -
a swap, a rotation, two lines on one GPIO, a line stuck low or high. A line that agrees with
nothing well (under 80 % of the pairs) is floating. Nothing is looked up: any permutation of
the eight lines is inferred, and a few odd pairs (a swapped sensor) do not sway it.
"""

from ingboard import board_config as bc

from host_tools.bringup.findings import finding

CH = bc.CHANNELS_PER_GROUP
GPB = bc.GROUPS_PER_BANK
LINES = ("S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3")
AGREE = 0.8


def bits(index):
    """The 8 line levels (S0-S3, A0-A3) and the bank of a slot (= scan index)."""
    g, c = divmod(index, CH)
    bank, a = divmod(g, GPB)
    return [(c >> b) & 1 for b in range(4)] + [(a >> b) & 1 for b in range(4)], bank


def line_gpio(cfg, k):
    grid = cfg["grid"]
    return (tuple(grid["channel_select"]) + tuple(grid["group_select"]))[k]


def chips(k):
    if k < 4:
        return "first-level muxes U1-U23 (S0-S3)"
    return "second-level muxes and 74HC154s (A0-A3)"


def fit(pairs):
    """(source per line, adc_swapped) from [(scan index, sensor it reads)]: a source is the
    commanded bit m (0-7), ("const", level), or None (floating)."""
    source = list(range(8))
    if len(pairs) < 8:
        return source, False
    cross = sum(1 for j, i in pairs if bits(j)[1] != bits(i)[1])
    adc_swapped = cross * 2 > len(pairs)
    for k in range(8):
        scores = []
        for m in range(8):
            agree = sum(1 for j, i in pairs if bits(i)[0][k] == bits(j)[0][m])
            scores.append((agree, 2 if m == k else 1, m))
        for v in (0, 1):
            agree = sum(1 for j, i in pairs if bits(i)[0][k] == v)
            scores.append((agree, 0, ("const", v)))
        agree, _pref, src = max(scores, key=lambda s: (s[0], s[1]))
        source[k] = src if agree >= AGREE * len(pairs) else None
    return source, adc_swapped


def slot(source, adc_swapped, j):
    """The slot (group*16 + channel) scan index j reads under these lines (None: unknown, a
    floating line; a slot past the last sensor or group: an input tied to GND)."""
    v, bank = bits(j)
    u = []
    for k in range(8):
        src = source[k]
        if src is None:
            return None
        u.append(src[1] if isinstance(src, tuple) else v[src])
    if adc_swapped:
        bank = 1 - bank
    c = sum(u[b] << b for b in range(4))
    a = sum(u[4 + b] << b for b in range(4))
    return (bank * GPB + a) * CH + c


def _line_text(cfg, k):
    return "%s (GP%d)" % (LINES[k], line_gpio(cfg, k))


def findings(source, adc_swapped, cfg):
    out = []
    done = set()
    for k in range(8):
        src = source[k]
        if k in done or src == k:
            continue
        if src is None:
            out.append(
                finding(
                    "line-floating",
                    LINES[k],
                    "%s of the %s follows no GPIO: an open or intermittent wire between"
                    " the Pico and the %s inputs (check that wire and its connector)"
                    % (_line_text(cfg, k), chips(k), chips(k)),
                )
            )
        elif isinstance(src, tuple):
            out.append(
                finding(
                    "line-stuck",
                    LINES[k],
                    "%s is stuck %s at the %s: its wire from the Pico is broken or shorted"
                    " to %s (points whose %s bit is %d are never read)"
                    % (
                        _line_text(cfg, k),
                        "low" if src[1] == 0 else "high",
                        chips(k),
                        "GND" if src[1] == 0 else "3.3 V",
                        LINES[k],
                        1 - src[1],
                    ),
                )
            )
        elif source[src] == k:
            done.update((k, src))
            out.append(
                finding(
                    "lines-swapped",
                    "%s/%s" % (LINES[k], LINES[src]),
                    "%s and %s are swapped: the wires from GP%d and GP%d go to each"
                    " other's inputs (%s); exchange them at the Pico or the cable"
                    % (
                        LINES[k],
                        LINES[src],
                        line_gpio(cfg, k),
                        line_gpio(cfg, src),
                        chips(k) if chips(k) == chips(src) else "%s, %s" % (chips(k), chips(src)),
                    ),
                )
            )
        else:
            out.append(
                finding(
                    "lines-swapped",
                    LINES[k],
                    "%s of the %s is wired to GP%d (the pin of %s), not GP%d"
                    % (
                        LINES[k],
                        chips(k),
                        line_gpio(cfg, src),
                        LINES[src],
                        line_gpio(cfg, k),
                    ),
                )
            )
    if adc_swapped:
        adc = cfg["grid"]["adc"]
        out.append(
            finding(
                "adc-swapped",
                "GP%d/GP%d" % (adc[0], adc[1]),
                "the two banks' analog lines are swapped: GP%d must go to bank 0's"
                " second-level mux (COM), GP%d to bank 1's" % (adc[0], adc[1]),
            )
        )
    return out
