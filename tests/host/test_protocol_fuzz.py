"""Fuzz the device's command parser and config loader (seeded, >= 10 000 inputs each): every
bad line gets exactly one error reply, nothing crashes, and the app's state does not change."""

import json
import random

from app_fakes import VirtualTime, hardware
from ingboard.app.app import App
from ingboard.link import protocol
from ingboard.records.store import RecordsStore

LOG = "ingboard-session 1\n0 config %s\n0 scan %s\n" % (
    json.dumps({"size": 9, "rules": "ing1991"}),
    "/".join(["........."] * 9),
)
ATOMS = [None, True, False, 0, -1, 1, 2, 7, 19, 65, 1e9, -0.5, 3.5, "", "B", "W", "x", "a" * 80,
         [], [1], {}, {"a": 1}, "ing1991", "aga", "none", "ing-pp", "0001.sgf"]  # fmt: skip
KEYS = ["cmd", "config", "name", "n", "offset", "count", "B", "W", "size", "rules", "komi",
        "time", "system", "basic_s", "handicap", "handicap_style", "bowls", "w180_g", "players",
        "round_start_ms", "periods", "period_s", "stones", "increment_s", "x"]  # fmt: skip


def value(rng, depth=0):
    r = rng.random()
    if depth < 3 and r < 0.25:
        return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    if depth < 3 and r < 0.3:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if r < 0.4:
        return rng.choice(list(protocol.COMMANDS) + ["reboot", "Ping"])
    return rng.choice(ATOMS)


def bad_line(rng):
    kind = rng.random()
    if kind < 0.15:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    cmd = {"cmd": rng.choice(list(protocol.COMMANDS) + ["nope"])}
    for _ in range(rng.randint(0, 3)):
        cmd[rng.choice(KEYS[1:])] = value(rng)
    text = json.dumps(cmd)
    if kind < 0.3 and text:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice('{}[]",:x\\') + text[i + 1 :]
    return text.encode()


def config(rng):
    cfg = {}
    for _ in range(rng.randint(0, 6)):
        cfg[rng.choice(KEYS[8:])] = value(rng)
    if rng.random() < 0.5:
        cfg["size"] = rng.choice([9, 13, 19, 4, 20, "9"])
        cfg["rules"] = rng.choice(["ing1991", "aga", "japanese", "chess"])
    if rng.random() < 0.3:
        cfg["time"] = {"system": rng.choice(["ing-pp", "byoyomi", "fischer", "none", "egg"]),
                       rng.choice(KEYS[12:]): value(rng)}  # fmt: skip
    return cfg


def state(app):
    game = app.tracker.game
    return (app.number, id(app.tracker), len(game.plies), game.phase, app.inputs.count,
            app.tracker.config)  # fmt: skip


def make_app(tmp_path):
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(
        hw, RecordsStore(str(tmp_path), limit=8192), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg
    )
    return app


def test_fuzz_command_lines(tmp_path):
    app = make_app(tmp_path)
    rng = random.Random(2024)
    errors = 0
    accepted = 0
    for _ in range(12000):
        line = bad_line(rng)
        before = state(app)
        try:
            protocol.parse(line)
            good = True
        except protocol.ProtocolError:
            good = False
        if good:
            accepted += 1  # a well-formed command: carried out (or refused by the app)
            name = json.loads(line)["cmd"]
            if name in ("new-game", "enrol", "button"):
                continue  # these change the state on purpose; checked by the config fuzz
        replies = app.protocol.handle(line)
        if not good:
            errors += 1
            assert len(replies) == 1 and replies[0]["type"] == "error", line
            assert state(app) == before, line
        for r in replies:
            assert "Error" not in r.get("text", ""), (line, r)  # no internal error leaks
    assert errors > 9000 and accepted > 100


def test_fuzz_config_loader(tmp_path):
    app = make_app(tmp_path)
    rng = random.Random(7)
    refused = 0
    started = 0
    for _ in range(10000):
        cfg = config(rng)
        before = state(app)
        replies = app.protocol.handle(json.dumps({"cmd": "new-game", "config": cfg}))
        assert len(replies) == 1, cfg
        if replies[0]["type"] == "error":
            refused += 1
            assert state(app) == before, cfg
        else:
            started += 1
            assert replies[0]["type"] == "ok" and app.tracker.config == cfg
    assert refused > 5000 and started > 50
