"""The clock's cues: what the beeper plays and what a voice module says, one table.

The clock (clock.py) emits cue events `(at_ms, "cue", color, (cue_id, n))`; the app looks the
cue up here and drives the buzzer and, if fitted, a voice module. `n` fills the text's `%d`.

- `basic-ending`: the basic time is about to run out; n = seconds left (the clock's `warn_s`,
  5 minutes by default, half the basic time when that is shorter) (Ing 1991 Art. 10
  "Timekeeper": "inform a player when he is about to run out of basic time or additional
  time").
- `points-next`: Ing PP, the current period is about to run out and two more penalty points
  follow; n = seconds left (Art. 10, Art. 7 (1)).
- `forfeit-next`: the last of the time is about to run out (the third Ing PP period, a Canadian
  block); n = seconds left (Art. 10, Art. 8 "Forfeiture (4)").
- `basic-over`: basic time over, byo-yomi and Canadian (Ing 1991 Art. 7 "Additional time").
- `points`: Ing PP, basic time over or a new period entered; n = points charged so far: 2, 4, 6
  (Ing 1991 Art. 7 (1)).
- `period`: byo-yomi or Canadian, a new period (block) entered; n = its number (Art. 7 (2)).
- `countdown`: byo-yomi, 10..1 seconds left in the period; n = seconds (Ing 1991 Art. 9 "the
  reading out of seconds").
- `forfeit`: lost on time (Ing 1991 Art. 8 "Forfeiture (4) Excessive time").

A beep pattern is (frequency_hz, durations): durations in ms alternate sound, silence, sound...
"""

BASIC_ENDING = "basic-ending"
POINTS_NEXT = "points-next"
FORFEIT_NEXT = "forfeit-next"
BASIC_OVER = "basic-over"
POINTS = "points"
PERIOD = "period"
COUNTDOWN = "countdown"
FORFEIT = "forfeit"

CUES = {
    BASIC_ENDING: ((2000, (120, 80, 120)), "%s of basic time left"),
    POINTS_NEXT: ((1800, (120, 80, 120, 80, 120)), "%s to the next penalty points"),
    FORFEIT_NEXT: ((1400, (120, 80, 120, 80, 120)), "%s left before the time is up"),
    BASIC_OVER: ((2000, (400,)), "Basic time over"),
    POINTS: ((1600, (400, 100, 400)), "%d points"),
    PERIOD: ((2000, (200, 100, 200)), "Period %d"),
    COUNTDOWN: ((2400, (60,)), "%d"),
    FORFEIT: ((1200, (1500,)), "Time is up"),
}


def beeps(cue_id):
    """(frequency_hz, durations_ms) of a cue; KeyError for a cue that does not exist."""
    return CUES[cue_id][0]


def text(cue_id, n=0):
    """The words a voice module says for a cue (its `%d` filled with n; its `%s` with n
    seconds said as minutes when whole: "5 minutes", "1 minute", "30 seconds")."""
    words = CUES[cue_id][1]
    if "%d" in words:
        return words % n
    if "%s" in words:
        return words % duration(n)
    return words


def duration(seconds):
    """Seconds as a voice says them: "5 minutes", "1 minute", "90 seconds", "1 second"."""
    if seconds >= 60 and seconds % 60 == 0:
        m = seconds // 60
        return "%d minute%s" % (m, "" if m == 1 else "s")
    return "%d second%s" % (seconds, "" if seconds == 1 else "s")


def pattern(cue_id):
    """The buzzer's pattern of a cue (drivers/buzzer.py): frequency and duration pairs, the
    silences between the sounds at frequency 0."""
    freq, durations = beeps(cue_id)
    out = []
    for i in range(len(durations)):
        out.append(freq if i % 2 == 0 else 0)
        out.append(durations[i])
    return tuple(out)


def clock_cue(event, last):
    """The cue of a `clock` event, if any, read off its state against `last` (each side's
    state at the last clock event; updated): lost on time (Ing 1991 Art. 8 "Forfeiture (4)"),
    penalty points charged (Art. 7 (1)), a new period entered (Art. 7 (2))."""
    cue = None
    for name in ("B", "W"):
        side = event[name]
        before = last.get(name)
        if side["forfeit"] and not (before and before["forfeit"]):
            cue = FORFEIT
        elif before is not None and side["penalty"] > before["penalty"]:
            cue = POINTS
        elif before is not None and side["period"] > before["period"]:
            cue = PERIOD
        last[name] = side
    return cue
