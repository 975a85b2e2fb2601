"""Session log format 1: reader, writer, round trips and malformed logs (CPython + MicroPython)."""

import io

from expect import raises
from ingboard import config_check, game_config
from ingboard.clock import time_settings
from ingboard.records.session import Record, SessionLogError, SessionWriter
from ingboard.records.session_read import SessionReader, read_text, records
from ingrules import rulesets
from ingrules.board import BLACK, WHITE, Board


class Out:
    """A write()-only sink, like a file on the board."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def text(self):
        return "".join(self.parts)


EMPTY5 = [".....", ".....", ".....", ".....", "....."]
CONFIG5 = {"size": 5, "rules": "ing1991"}
GOOD = (
    "# a 5x5 session\n"
    "ingboard-session 1\n"
    "\n"
    '0 config {"size": 5, "rules": "ing1991", "komi": 8, "time": {"system": "ing-pp", '
    '"basic_s": 3600}}\n'
    "0 scan ...../...../...../...../.....\n"
    "0 bowl B 1188.4\n"
    "1200 bowl B 1181.8\n"
    "# the hand is over C3\n"
    "1500 scan ...../.???./.???./.???./.....\n"
    "1800 scan ...../...../..B../...../.....\n"
    "2100 press B\n"
    "2100 lid W -0.3\n"
    "9000 button pause\n"
)


def bad_log(*body):
    """A log with a good header and config (lines 1-2) followed by `body` from line 3."""
    return "ingboard-session 1\n" + '0 config {"size": 5, "rules": "aga"}\n' + "\n".join(body)


def error_of(text):
    return raises(SessionLogError, read_text, text)


def test_reader_parses_every_kind():
    recs = read_text(GOOD)
    assert [r.kind for r in recs] == [
        "config",
        "scan",
        "bowl",
        "bowl",
        "scan",
        "scan",
        "press",
        "lid",
        "button",
    ]
    assert recs[0].payload["komi"] == 8 and recs[0].payload["time"]["basic_s"] == 3600
    assert recs[1].payload == EMPTY5
    assert recs[2].payload == (BLACK, 1188.4)
    assert recs[4].payload[1] == ".???."
    assert recs[5].payload[2] == "..B.."
    assert recs[6].payload == BLACK and recs[6].t_ms == 2100
    assert recs[7].kind == "lid" and recs[7].payload == (WHITE, -0.3)
    assert recs[8].payload == "pause"
    # Line numbers count blank and comment lines too (they are lines of the file).
    assert recs[0].line == 4 and recs[4].line == 9 and recs[8].line == 13


def test_reader_streams_line_by_line():
    reader = SessionReader()
    assert reader.feed("ingboard-session 1\n") is None
    assert reader.feed("# note\n") is None
    rec = reader.feed('5 config {"size": 9, "rules": "chinese"}\n')
    assert rec.kind == "config" and reader.size == 9
    rec = reader.feed("7 press W\r\n")  # a CR from a Windows editor is tolerated
    assert rec.payload == WHITE and rec.line == 4
    reader.finish()


def test_scan_rows_match_board_rows():
    b = Board(5)
    b.place(b.parse("C3"), BLACK)
    b.place(b.parse("D4"), WHITE)
    out = Out()
    w = SessionWriter(out)
    w.config(0, CONFIG5)
    w.scan(10, b.rows())
    recs = read_text(out.text())
    assert recs[1].payload == b.rows()
    assert recs[1].payload[1] == "...W." and recs[1].payload[2] == "..B.."


def test_writer_round_trip():
    recs = read_text(GOOD)
    out = Out()
    w = SessionWriter(out)
    for r in recs:
        assert w.write(r)
    assert w.lines == 1 + len(recs)
    again = read_text(out.text())
    assert again == recs
    # Writing the re-read records gives the same text: the format is stable.
    out2 = Out()
    w2 = SessionWriter(out2)
    for r in again:
        w2.write(r)
    assert out2.text() == out.text()
    assert out.text().startswith("ingboard-session 1\n0 config {")


def test_writer_skips_unchanged_scans_only_when_asked():
    rows = list(EMPTY5)
    changed = [".....", ".....", "..B..", ".....", "....."]
    out = Out()
    w = SessionWriter(out)
    w.config(0, CONFIG5)
    assert w.scan(0, rows)
    assert not w.scan(25, rows)
    assert w.scan(50, changed)
    assert not w.scan(75, changed)
    w.press(80, BLACK)
    assert not w.scan(100, changed)  # a press between scans does not reset the comparison
    assert w.scan(125, rows)
    scans = [r for r in read_text(out.text()) if r.kind == "scan"]
    assert [r.t_ms for r in scans] == [0, 50, 125]

    out = Out()
    w = SessionWriter(out, only_changes=False)
    w.config(0, CONFIG5)
    assert w.scan(0, rows) and w.scan(25, rows)
    assert len([r for r in read_text(out.text()) if r.kind == "scan"]) == 2


def test_writer_refuses_misuse_and_writes_nothing_for_it():
    out = Out()
    w = SessionWriter(out)
    raises(ValueError, w.press, 0, BLACK)  # before the config
    raises(ValueError, w.config, 0, {"size": 5})  # no rules
    raises(ValueError, w.config, 0, {"size": 21, "rules": "aga"})
    w.config(100, CONFIG5)
    raises(ValueError, w.config, 200, CONFIG5)  # only once
    raises(ValueError, w.press, 50, BLACK)  # time going back
    raises(ValueError, w.press, 150.5, BLACK)  # not an integer
    raises(ValueError, w.press, 150, 3)  # not a colour
    raises(ValueError, w.button, 150, "explode")
    raises(ValueError, w.scan, 150, [".....", "....", ".....", ".....", "....."])
    raises(ValueError, w.scan, 150, [".....", ".....", "..X..", ".....", "....."])
    raises(ValueError, w.bowl, 150, BLACK, "heavy")
    raises(ValueError, w.bowl, 150, BLACK, float("inf"))
    raises(ValueError, w.comment, "two\nlines")
    text = out.text()
    assert text == 'ingboard-session 1\n100 config {"size": 5, "rules": "ing1991"}\n' or (
        # MicroPython's dict may order the two keys the other way round.
        text == 'ingboard-session 1\n100 config {"rules": "ing1991", "size": 5}\n'
    )
    w.bowl(150, WHITE, 12)
    w.comment("ok")
    assert read_text(out.text())[-1] == Record(150, "bowl", (WHITE, 12.0))


def test_all_rules_buttons_and_time_systems_are_accepted():
    # One table each: the log accepts exactly what the rules core and the clock know.
    assert sorted(game_config.RULES) == sorted(rulesets.NAMES)
    assert sorted(game_config.TIME_SYSTEMS) == sorted(time_settings.SYSTEMS)
    for rules in (
        "ing1991",
        "ing1996",
        "simplified-ing",
        "aga",
        "aga-territory",
        "chinese",
        "japanese",
        "nz",
        "tromp-taylor",
    ):
        config_check.check_config({"size": 19, "rules": rules})
    text = "ingboard-session 1\n" + '0 config {"size": 5, "rules": "nz"}\n'
    for i in range(len(game_config.BUTTONS)):
        text += "%d button %s\n" % (i, game_config.BUTTONS[i])
    assert [r.payload for r in read_text(text)[1:]] == list(game_config.BUTTONS)
    buttons = game_config.BUTTONS
    assert "resign-B" in buttons and "new-game" in buttons and "accept-shift" in buttons
    assert "enrol" in buttons
    assert len(buttons) == 10  # the spec's eight, accept-shift (issue 14), enrol (issue 15)
    for time in (
        {"system": "none"},
        {"system": "absolute", "basic_s": 600},
        {"system": "byoyomi", "basic_s": 600, "periods": 5, "period_s": 30},
        {"system": "canadian", "basic_s": 600, "stones": 25, "period_s": 300},
        {"system": "fischer", "basic_s": 600, "increment_s": 10},
    ):
        config_check.check_config({"size": 9, "rules": "aga", "time": time})
    config_check.check_config(
        {
            "size": 19,
            "rules": "ing1991",
            "komi": 8,
            "handicap": 0,
            "handicap_style": "ing-plays",
            "round_start_ms": 0,
            "players": {"B": "Go Seigen", "W": "Kitani"},
            "bowls": {"B": {"w180_g": 1188.4}, "W": {"w180_g": 1171.9}},
            "future_key": [1, 2],
        }
    )


def test_header_errors():
    e = error_of("ingboard-session 2\n")
    assert e.line == 1 and "version 2" in str(e)
    e = error_of("# comment\n\ningboard session 1\n")
    assert e.line == 3 and "header" in e.message
    e = error_of('0 config {"size": 5, "rules": "aga"}\n')
    assert e.line == 1 and "header" in e.message
    e = error_of("")
    assert e.line == 1 and "empty" in e.message
    assert str(e).startswith("line 1: ")


def test_time_errors():
    e = error_of(bad_log("100 press B", "99 press W"))
    assert e.line == 4 and "before" in e.message and "99" in e.message
    e = error_of(bad_log("100 press B", "1e3 press W"))
    assert e.line == 4 and "whole number" in e.message
    e = error_of(bad_log("-5 press B"))
    assert e.line == 3 and "whole number" in e.message
    e = error_of(bad_log("12.5 press B"))
    assert e.line == 3
    e = error_of(bad_log(" 12 press B"))
    assert e.line == 3 and "time" in e.message
    # Equal times are fine (never decreasing).
    assert len(read_text(bad_log("100 press B", "100 press W"))) == 3


def test_scan_errors():
    e = error_of(bad_log("0 scan ...../...../...../....."))
    assert e.line == 3 and "4 rows, expected 5" in e.message
    e = error_of(bad_log("0 scan ...../...../...../...../...../....."))
    assert e.line == 3 and "6 rows" in e.message
    e = error_of(bad_log("5 press B", "10 scan ...../...../..../...../....."))
    assert e.line == 4 and "row 3 has 4 points, expected 5" in e.message
    e = error_of(bad_log("0 scan ...../...../..X../...../....."))
    assert e.line == 3 and "'X'" in e.message
    e = error_of(bad_log("0 scan ...../...../..b../...../....."))
    assert e.line == 3 and "row 3" in e.message
    e = error_of(bad_log("0 scan"))
    assert e.line == 3 and "no payload" in e.message


def test_kind_press_button_errors():
    e = error_of(bad_log("0 move B C3"))
    assert e.line == 3 and "unknown record kind 'move'" in e.message
    e = error_of(bad_log("0 press", "1 press B"))
    assert e.line == 3 and "no payload" in e.message
    e = error_of(bad_log("0 press X"))
    assert e.line == 3 and "colour" in e.message
    e = error_of(bad_log("0 press b"))
    assert e.line == 3 and "colour" in e.message
    e = error_of(bad_log("0 button pause", "1 button resign"))
    assert e.line == 4 and "unknown button 'resign'" in e.message
    e = error_of(bad_log("12"))
    assert e.line == 3 and "expected" in e.message


def test_bowl_errors():
    e = error_of(bad_log("0 bowl B"))
    assert e.line == 3
    e = error_of(bad_log("0 bowl X 12.5"))
    assert e.line == 3 and "colour" in e.message
    for grams in ("heavy", "1e3", "1.2.3", "-", ".", "nan", "inf", "12g", "+4"):
        e = error_of(bad_log("0 bowl W " + grams))
        assert e.line == 3 and "grams" in e.message, grams
    e = error_of(bad_log("0 lid B 12 13"))
    assert e.line == 3
    assert read_text(bad_log("0 bowl B -0.4", "0 bowl W 12", "0 lid W .5"))[1].payload == (
        BLACK,
        -0.4,
    )


def test_config_errors():
    head = "ingboard-session 1\n"
    cases = (
        ("0 config {size: 5}", "JSON"),
        ('0 config {"size": 5, "rules": "aga"', "JSON"),
        ("0 config [5]", "object"),
        ('0 config {"rules": "aga"}', "no size"),
        ('0 config {"size": 9}', "no rules"),
        ('0 config {"size": 9, "rules": "korean"}', "unknown rules 'korean'"),
        ('0 config {"size": 4, "rules": "aga"}', "5..19"),
        ('0 config {"size": 20, "rules": "aga"}', "5..19"),
        ('0 config {"size": "19", "rules": "aga"}', "5..19"),
        ('0 config {"size": true, "rules": "aga"}', "5..19"),
        ('0 config {"size": 9, "rules": "aga", "komi": "7.5"}', "komi"),
        ('0 config {"size": 9, "rules": "aga", "handicap": -1}', "handicap"),
        ('0 config {"size": 9, "rules": "aga", "handicap_style": "x"}', "handicap_style"),
        ('0 config {"size": 9, "rules": "aga", "time": {"system": "sudden"}}', "time system"),
        ('0 config {"size": 9, "rules": "aga", "time": {"system": "ing-pp"}}', "basic_s"),
        ('0 config {"size": 9, "rules": "aga", "players": {"X": "a"}}', "players"),
        ('0 config {"size": 9, "rules": "aga", "bowls": {"B": {"w180_g": 0}}}', "w180_g"),
    )
    for line, words in cases:
        e = error_of(head + line + "\n")
        assert e.line == 2 and words in e.message, (line, e.message)
    # Missing: the first record is not the config; or the log ends without one.
    e = error_of(head + "0 scan ...../...../...../...../.....\n")
    assert e.line == 2 and "config" in e.message
    e = error_of(head + "\n# only a comment\n")
    assert e.line == 4 and "without a config" in e.message
    # Repeated.
    e = error_of(bad_log('5 config {"size": 5, "rules": "aga"}'))
    assert e.line == 3 and "repeated" in e.message


def test_records_generator_reads_a_file_like_iterable():
    lines = GOOD.split("\n")
    got = []
    for rec in records(iter(lines)):
        got.append(rec.kind)
    assert got[0] == "config" and got[-1] == "button" and len(got) == 9
    # The error comes out of the generator at the bad line, after the good records.
    seen = []

    def consume():
        for rec in records(bad_log("1 press B", "2 press W", "3 bowl B x").split("\n")):
            seen.append(rec.kind)

    e = raises(SessionLogError, consume)
    assert e.line == 5 and seen == ["config", "press", "press"]


def test_records_stream_from_a_file_object():
    # On the board the log is a file in flash: read it line by line, never whole.
    f = io.StringIO(GOOD)
    kinds = [rec.kind for rec in records(f)]
    assert kinds[0] == "config" and kinds[-1] == "button" and len(kinds) == 9


def test_scan_rows_are_checked_point_by_point():
    # check_rows: every point one of '.BW?' (the fast path strips them in C; a row with any
    # other character anywhere - first, middle, last - is refused with the point named).
    from ingboard.records.session import check_rows

    check_rows([".B", "W?"], 2)
    check_rows(["...", "BBB", "W?W"], 3)
    for bad in ("x..", ".x.", "..x", ".b.", ". .", "...\n"):
        rows = ["...", bad, "..."]
        if len(bad) != 3:
            raises(ValueError, check_rows, rows, 3)
            continue
        err = raises(ValueError, check_rows, rows, 3)
        assert "row 2" in str(err) and repr(bad.strip(".BW?")[0]) in str(err), str(err)
    raises(ValueError, check_rows, ["...", "..."], 3)


def test_a_scan_given_its_line_writes_the_same_log():
    # The board's scan task makes the line first and the app hands it to the log with its
    # rows (written as it is, in pieces): the same text as the rows joined, unchanged scans
    # skipped the same; a line that is not its rows' is refused, nothing written.
    seed = [5]

    def pick(n):  # a small generator of its own (runs under MicroPython too)
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (seed[0] >> 8) % n

    for _ in range(20):
        scans = []
        for _k in range(8):
            scans.append(["".join(".BW?"[pick(4)] for _c in range(5)) for _r in range(5)])
            if pick(3) == 0:
                scans.append(list(scans[-1]))
        joined, given = Out(), Out()
        a, b = SessionWriter(joined), SessionWriter(given)
        a.config(0, CONFIG5)
        b.config(0, CONFIG5)
        for t, rows in enumerate(scans):
            assert a.scan(t * 40, rows) == b.scan(t * 40, rows, "/".join(rows))
        assert given.text() == joined.text()
    raises(ValueError, b.scan, 10000, list(EMPTY5), "/".join(EMPTY5) + ".")
    assert given.text() == joined.text()


def test_bowl_lines_are_the_records_text():
    # The writer's bowl line (made in one piece) is the record's own text, for whole tenths
    # of both signs and other grams; a whole tenth reads as "%.1f" writes it.
    from ingboard.records.session import grams_text

    for d in list(range(-2105, 2105, 7)) + [1, -1, 5, -5, 10, -10, 11699, 12600, -12600]:
        g = d / 10
        assert grams_text(g) == "%.1f" % g, (d, grams_text(g))
    for g in (0, 7, -3, 0.05, 1171.93, 1e5, -0.04):
        for color in (BLACK, WHITE):
            out = Out()
            w = SessionWriter(out)
            w.config(0, CONFIG5)
            w.bowl(40, color, g)
            assert out.text().split("\n")[2] == Record(40, "bowl", (color, g)).text()
