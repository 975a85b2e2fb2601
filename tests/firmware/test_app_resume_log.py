"""A power cut after a game's journal start reached flash but before its session log did (found
by the device twin's power-cut soak on littlefs, issue 17): the resumed board writes the log's
header and config itself, so the log across the cut is still a session log that replays to the
game (CPython and MicroPython)."""

from app_fakes import clear_records, power_cut, resume_app, run_app
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

EMPTY = "/".join(["........."] * 9)
ONE = "/".join(["........."] * 4 + ["....B...."] + ["........."] * 4)
TWO = "/".join(["........."] * 4 + ["...WB...."] + ["........."] * 4)
LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + EMPTY + "\n"
    "1000 scan " + ONE + "\n"
    "1500 press B\n"
    "3000 scan " + TWO + "\n"
    "3500 press W\n"
)


def test_a_cut_before_the_session_log_reached_flash_resumes_with_a_whole_log():
    a, b = "/tmp/ingboard-test-resume-log-a", "/tmp/ingboard-test-resume-log-b"
    clear_records(a)
    clear_records(b)
    run_app(LOG, a, 0, stop=False)
    power_cut(a, b)
    # What the power left: the journal's start record; the session log empty.
    f = open(b + "/sessions/0001.log.part", "w")
    f.close()
    app, _hw = resume_app(LOG, b, 6000)
    assert app.failure is None and len(app.tracker.game.plies) == 2
    text = open(b + "/sessions/0001.log.part").read()
    assert text.startswith("ingboard-session 1\n0 config ")
    replayed = track(read_text(text), lambda e: None)
    assert [(p.color, p.point) for p in replayed.game.plies] == [
        (p.color, p.point) for p in app.tracker.game.plies
    ]


def test_a_cut_inside_the_config_line_rewrites_header_and_config():
    a, b = "/tmp/ingboard-test-resume-log-c", "/tmp/ingboard-test-resume-log-d"
    clear_records(a)
    clear_records(b)
    run_app(LOG, a, 0, stop=False)
    power_cut(a, b)
    f = open(b + "/sessions/0001.log.part", "w")
    f.write('ingboard-session 1\n0 config {"size": 9, "ru')  # torn
    f.close()
    app, _hw = resume_app(LOG, b, 6000)
    text = open(b + "/sessions/0001.log.part").read()
    assert text.count("ingboard-session 1") == 1 and text.count(" config ") == 1
    assert len(track(read_text(text), lambda e: None).game.plies) == 2
