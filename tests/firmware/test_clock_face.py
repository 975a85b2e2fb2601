"""The clock face's text and drawing rules, with a recording stand-in for framebuf."""

from expect import raises
from ingboard.clock.clock import Clock
from ingboard.faces import clock_face as cf
from ingrules.board import BLACK, WHITE


class Canvas:
    """The two framebuf calls the face uses, on a 128x64 grid of 0/1 (row-major list)."""

    def __init__(self):
        self.px = [0] * (cf.WIDTH * cf.HEIGHT)
        self.calls = 0

    def fill(self, c):
        for i in range(len(self.px)):
            self.px[i] = c

    def fill_rect(self, x, y, w, h, c):
        self.calls += 1
        assert 0 <= x and x + w <= cf.WIDTH and 0 <= y and y + h <= cf.HEIGHT, (x, y, w, h)
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.px[yy * cf.WIDTH + xx] = c

    def at(self, x, y):
        return self.px[y * cf.WIDTH + x]


def test_clock_text_rounds_up_to_whole_seconds():
    assert cf.clock_text(3600000) == "1:00:00"
    assert cf.clock_text(3599001) == "1:00:00"
    assert cf.clock_text(3599000) == "59:59"
    assert cf.clock_text(7200) == "0:08"
    assert cf.clock_text(1) == "0:01"
    assert cf.clock_text(0) == "0:00"


def test_small_and_big_fonts_draw_known_glyphs_only():
    c = Canvas()
    cf.text(c, 0, 0, "1")
    # "1" is 010/110/010/010/111.
    assert [c.at(x, 0) for x in range(3)] == [0, 1, 0]
    assert [c.at(x, 4) for x in range(3)] == [1, 1, 1]
    raises(ValueError, cf.text, c, 0, 0, "@")
    raises(ValueError, cf.big, c, 0, 0, "1a")
    assert cf.text_width("ABC") == 11
    assert cf.big_width("0:00") == 3 * 18 + 9 - 3


def test_ing_pp_face_shows_both_penalties_and_the_net():
    # Ing 1991 Art. 7 (1): opposing penalty points cancel; the face shows both and the net.
    clock = Clock({"system": "ing-pp", "basic_s": 60})
    clock.start(0, BLACK)
    clock.moved(71001, BLACK)  # Black: 4 points, period 2
    label, time, status, penalty, moves = cf.lines(clock, BLACK, 71001)
    assert (label, time, status) == ("ING PP", "0:09", "PERIOD 2 OF 3")
    assert penalty == "PENALTY B4 W0  NET B4"
    assert moves == "MOVES 1"
    assert cf.lines(clock, WHITE, 71001 + 60001)[3] == "PENALTY B4 W2  NET B2"


def test_byoyomi_face_counts_the_periods_left():
    clock = Clock({"system": "byoyomi", "basic_s": 0, "periods": 3, "period_s": 20})
    clock.start(0, WHITE)
    assert cf.lines(clock, WHITE, 25000)[1:3] == ("0:15", "BYO-YOMI 2 LEFT")
    assert cf.lines(clock, BLACK, 25000)[2] == "BASIC  THEN 3x20S"
    clock.pause(25000)
    assert cf.lines(clock, WHITE, 99000)[2] == "PAUSED"
    clock.resume(99000)
    clock.advance(99000 + 45001)
    assert cf.lines(clock, WHITE, 99000 + 45001)[2] == "LOST ON TIME"
    assert cf.lines(clock, BLACK, 99000 + 45001)[2] == "OPPONENT OUT OF TIME"


def test_header_is_inverted_only_on_the_side_whose_clock_runs():
    clock = Clock({"system": "absolute", "basic_s": 600})
    clock.start(0, BLACK)
    black, white = Canvas(), Canvas()
    cf.draw(black, clock, BLACK, 1000)
    cf.draw(white, clock, WHITE, 1000)
    assert black.at(cf.WIDTH - 1, 0) == 1 and white.at(cf.WIDTH - 1, 0) == 0
    assert white.at(cf.WIDTH - 1, 8) == 1  # the idle side has a rule under its header
    assert black.px != white.px and black.calls > 50
    clock.pause(1000)
    paused = Canvas()
    cf.draw(paused, clock, BLACK, 1000)
    assert paused.at(cf.WIDTH - 1, 0) == 0


def _framebuf_face():
    import framebuf

    buf = bytearray(cf.WIDTH * cf.HEIGHT // 8)
    return buf, framebuf.FrameBuffer(buf, cf.WIDTH, cf.HEIGHT, framebuf.MONO_VLSB)


def test_the_time_redrawn_over_the_last_shows_what_it_shows_drawn_whole():
    # A running clock's time is redrawn each second over the last one: only its characters
    # that changed are drawn again (clock_face.draw_part's `old`). Over the times a face shows
    # - the seconds, the minutes and the hours turning over, H:MM:SS to M:SS, one digit of
    # minutes to two and back, "-:--" - the frame is the one the time drawn whole gives, on
    # framebuf (blit) and on the recording canvas.
    times = [3600000 * 2, 3600000 + 1, 3600000, 3599001, 600000, 599999, 60000, 59001, 10000]
    times += [9000, 1000, 1, 0, 61000 * 11, 37000 * 13]
    texts = [cf.clock_text(ms) for ms in times] + ["-:--", "0:00", "12:34:56", "1:23"]
    steps = 0
    for old in texts:
        for new in texts:
            whole_buf, whole = _framebuf_face()
            cf.draw_part(whole, 1, new, BLACK)
            buf, fb = _framebuf_face()
            cf.draw_part(fb, 1, old, BLACK)
            cf.draw_part(fb, 1, new, BLACK, True, old)
            assert buf == whole_buf, (old, new)
            canvas_whole, canvas = Canvas(), Canvas()
            cf.draw_part(canvas_whole, 1, new, BLACK)
            cf.draw_part(canvas, 1, old, BLACK)
            cf.draw_part(canvas, 1, new, BLACK, True, old)
            assert canvas.px == canvas_whole.px, (old, new)
            steps += 1
    assert steps == len(texts) ** 2
