"""The clock's cues: what the beeper plays and what a voice module says, one table.

The clock (clock.py) emits cue events `(at_ms, "cue", color, (cue_id, n))`; the app looks the
cue up here and drives the buzzer and, if fitted, a voice module. `n` fills the text's `%d`.

- `five-minutes`: 5 minutes of basic time left (Ing 1991 Art. 9 "Timekeeper": "inform a player
  when he is about to run out of basic time").
- `basic-over`: basic time over, byo-yomi and Canadian (Ing 1991 Art. 7 "Additional time").
- `points`: Ing PP, basic time over or a new period entered; n = points charged so far: 2, 4, 6
  (Ing 1991 Art. 7 (1)).
- `period`: byo-yomi or Canadian, a new period (block) entered; n = its number (Art. 7 (2)).
- `countdown`: byo-yomi, 10..1 seconds left in the period; n = seconds (Ing 1991 Art. 9 "the
  reading out of seconds").
- `forfeit`: lost on time (Ing 1991 Art. 8 "Forfeiture (4) Excessive time").

A beep pattern is (frequency_hz, durations): durations in ms alternate sound, silence, sound...
"""

FIVE_MINUTES = "five-minutes"
BASIC_OVER = "basic-over"
POINTS = "points"
PERIOD = "period"
COUNTDOWN = "countdown"
FORFEIT = "forfeit"

CUES = {
    FIVE_MINUTES: ((2000, (120, 80, 120)), "Five minutes left"),
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
    """The words a voice module says for a cue (its `%d` filled with n)."""
    words = CUES[cue_id][1]
    if "%d" in words:
        return words % n
    return words
