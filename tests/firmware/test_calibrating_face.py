"""The displays while a host calibrates the board (app/standalone.py, faces/calibrating_face.py):
in the calibration mode the stones and the bowls are not the game's, so both faces say
CALIBRATING instead of showing a game clock that ignores the stones; the mode's end - the
host's `off`, or its lapse 30 minutes after the host's last request - brings the clock back.
What a face shows is read off the display's pixels: the text drawn in the faces' font on a
scratch framebuf, looked for anywhere on the display."""

import framebuf
from app_fakes import new_app
from ingboard.app import inputs
from ingboard.faces.clock_face import text, text_width

ROOT = "/tmp/ingboard-test-calibrating-face"
EMPTY = "/".join(["........."] * 9)
LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + EMPTY + "\n"
)
ON = b'{"cmd": "calibrating", "on": true}\n'
OFF = b'{"cmd": "calibrating", "on": false}\n'


def _app(host_lines):
    return new_app(LOG, ROOT, host_lines)


def _rows(fb, w, h):
    # The pixels as strings, a row each: "#" set, "." clear.
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(w)) for y in range(h)]


def _pattern(s, scale=1):
    # s in the faces' small font (rows of "#" and "."), each pixel scale x scale.
    w = text_width(s)
    scratch = framebuf.FrameBuffer(bytearray((w + 7) & ~7), w, 5, framebuf.MONO_VLSB)
    scratch.fill(0)
    text(scratch, 0, 0, s)
    out = []
    for row in _rows(scratch, w, 5):
        wide = "".join(ch * scale for ch in row)
        for _ in range(scale):
            out.append(wide)
    return out


def _shows(fb, s, scale=1):
    """Whether fb shows s in the faces' font (at scale), anywhere, set pixels on clear."""
    shown = _rows(fb, 128, 64)
    pattern = _pattern(s, scale)
    for y in range(64 - len(pattern) + 1):
        x = shown[y].find(pattern[0])
        while x >= 0:
            if all(shown[y + r][x : x + len(pattern[r])] == pattern[r] for r in range(1, 5)):
                return True
            x = shown[y].find(pattern[0], x + 1)
    return False


def _calibrating(fb):
    return (
        _shows(fb, "CALIBRATING", 2)
        and _shows(fb, "STONES ARE NOT MOVES")
        and _shows(fb, "THE GAME IGNORES THE BOARD")
    )


def _clock(fb):
    # The clock face of the game (started, Black to move): its status and move count.
    return _shows(fb, "BASIC TIME") and _shows(fb, "MOVES 0")


def test_both_faces_say_calibrating_while_the_mode_holds_and_the_clock_is_back_after_off():
    vt, hw, app = _app([(1000, ON), (4000, OFF)])
    displays = hw["displays"]
    vt.drive(app, 900, stop=False)
    assert all(_clock(fb) and not _calibrating(fb) for fb in displays.values())
    vt.drive(app, 3500, stop=False)
    assert app.calibrating is not None and app.standalone.shown == "calibrating"
    for fb in displays.values():
        assert _calibrating(fb) and not _clock(fb)
    assert bytes(displays["B"].buf) == bytes(displays["W"].buf)  # the same on both sides
    vt.drive(app, 5500)
    assert app.calibrating is None and app.standalone.shown == "clock"
    assert all(_clock(fb) and not _calibrating(fb) for fb in displays.values())


def test_the_clock_face_is_back_when_the_mode_lapses():
    vt, hw, app = _app([(200, ON)])
    displays = hw["displays"]
    vt.drive(app, 2500, stop=False)
    assert all(_calibrating(fb) for fb in displays.values())
    # The host went away: its last request was CALIBRATING_MS ago.
    app.calibrating = vt.ticks_ms() - inputs.CALIBRATING_MS
    vt.drive(app, 4000)
    warnings = [m["text"] for m in hw["link"].messages() if m["type"] == "warning"]
    assert any("no request from the host" in w for w in warnings), warnings
    assert app.calibrating is None
    assert all(_clock(fb) and not _calibrating(fb) for fb in displays.values())
