"""A game on the (simulated) board against a GTP engine: `ingboard gtp --engine "CMD"`.

The engine is told the size, komi and time (`kgs-time_settings`, else `time_settings` with
the basic time; Ing penalty periods have no GTP form, so the engine sees absolute time) and,
before each `genmove`, `time_left` from the board's own clock. Its move is shown on the
displays (`on_display`, the clock faces' text line on a device) for the person at the board,
who places it, lifts what it captured and presses the engine's side of the clock. The
person's own moves come from `player`: another GTP engine (e.g. a second GNU Go) or "random"
(random legal moves, never filling a one-point eye of their own, passing when none is left).
Every stone goes onto host_tools/sim_server.LiveBoard, so each one is a scan fed to the
firmware's tracker, and only moves the tracker committed are sent to the engine.

After two passes the game pauses (Ing): the engine's `final_status_list dead` stones are
taken off by the person, then both pass again (rules without passes to end: `agree`), and the
tracker counts. The engine resigning is the person pressing `resign-<engine colour>`.
"""

import random
import shlex
import time

from ingrules import rulesets
from ingrules.board import BLACK, EDGE, EMPTY, SUICIDE_ALLOWED, WHITE
from ingrules.game import ENDED, PAUSED

from host_tools.errors import InputError
from host_tools.gtp import GtpEngine, GtpError, find_gnugo
from host_tools.sim_server import LiveBoard

_NAME = {BLACK: "B", WHITE: "W"}


class PlayError(RuntimeError):
    """The board and the intended game parted ways (a tracker alert or a refused move)."""


def engine_argv(command):
    """argv of an engine command line; `gnugo` is found in /usr/games too (Debian)."""
    try:
        argv = shlex.split(command or "")
    except ValueError as exc:
        raise InputError("bad engine command %r: %s" % (command, exc)) from None
    if not argv:
        raise InputError("the engine command is empty")
    if argv[0] == "gnugo":
        found = find_gnugo()
        if found:
            argv[0] = found
    return argv


def start_engine(command, timeout):
    try:
        engine = GtpEngine(engine_argv(command), timeout=timeout)
        engine.send("protocol_version")
    except GtpError as exc:
        raise InputError("engine %r: %s" % (command, exc)) from None
    return engine


class GtpGame:
    def __init__(
        self,
        engine,
        player="random",
        size=9,
        engine_color="W",
        rules="ing1991",
        komi=None,
        basic_s=600,
        seed=0,
        on_display=None,
        on_event=None,
        timeout=60.0,
        max_plies=None,
    ):
        if engine_color not in ("B", "W"):
            raise InputError("the engine's colour must be B or W")
        try:
            ruleset = rulesets.get(rules)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        if size < 5 or size > 19:
            raise InputError("board size must be 5..19, not %d" % size)
        if basic_s <= 0:
            raise InputError("--time must be a positive number of seconds")
        self.rules = ruleset
        self.size = size
        self.komi = ruleset.komi if komi is None else komi
        config = {
            "size": size,
            "rules": rules,
            "komi": self.komi,
            "time": {"system": "ing-pp" if ruleset.fill_in else "absolute", "basic_s": basic_s},
            "players": {engine_color: "engine", ("W" if engine_color == "B" else "B"): "player"},
        }
        self.board = LiveBoard(config, seed)
        self.engine_color = BLACK if engine_color == "B" else WHITE
        self.rng = random.Random(seed)
        self.on_display = on_display or (lambda text: None)
        self.on_event = on_event or (lambda event: None)
        self.timeout = timeout
        self.basic_s = basic_s
        self.max_plies = max_plies or 3 * size * size
        self.engine = start_engine(engine, timeout)
        self.player = None
        if player != "random":
            self.player = start_engine(player, timeout)
        self.displayed = []

    def close(self):
        for e in (self.engine, self.player):
            if e is not None:
                e.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- GTP -----------------------------------------------------------------------------------

    def _setup(self, engine):
        engine.send("boardsize %d" % self.size)
        engine.send("clear_board")
        engine.send("komi %s" % self.komi)
        try:
            engine.send("kgs-time_settings absolute %d 0 0" % self.basic_s)
        except GtpError:
            engine.send("time_settings %d 0 0" % self.basic_s)

    def _genmove(self, engine, color):
        clock = self.board.tracker.clock.state(self.board.t)[_NAME[color]]
        try:
            engine.send("time_left %s %d 0" % (_NAME[color], clock["main_ms"] // 1000))
        except GtpError:
            pass  # time_left is optional
        started = time.monotonic()
        reply = engine.send("genmove %s" % _NAME[color], timeout=self.timeout).strip()
        thought = int((time.monotonic() - started) * 1000)
        return reply, thought

    def _tell(self, engine, color, vertex):
        engine.send("play %s %s" % (_NAME[color], vertex))

    # -- the person at the board ---------------------------------------------------------------

    def _display(self, text):
        self.displayed.append(text)
        self.on_display(text)

    def _events(self, events):
        for event in events:
            self.on_event(event)
            if event["type"] == "alert" and event["code"] != "remove-captured":
                raise PlayError("the board raised %s: %s" % (event["code"], event["text"]))
        return events

    def _play(self, color, vertex):
        """The person puts the move on the board, lifts its captures, presses the clock.
        Returns the tracker's event for it."""
        b = self.board
        name = _NAME[color]
        if vertex == "pass":
            self._events(b.wait(self.rng.randint(500, 1500)))
            got = self._events(b.press(name))
            passes = [e for e in got if e["type"] == "pass" and e["color"] == name]
            if not passes:
                raise PlayError("the board did not take %s's pass" % name)
            return passes[0]
        self._events(b.wait(self.rng.randint(800, 2500)))
        got = self._events(b.place(vertex, name))
        got += self._events(b.wait(self.rng.randint(250, 600)))
        moves = [e for e in got if e["type"] == "move"]
        if not moves or moves[-1]["point"] != vertex or moves[-1]["color"] != name:
            raise PlayError("the board did not take %s %s (events %r)" % (name, vertex, got))
        move = moves[-1]
        for q in move["captures"]:
            self._events(b.wait(self.rng.randint(200, 600)))
            self._events(b.lift(q))
        self._events(b.wait(self.rng.randint(200, 700)))
        self._events(b.press(name))
        return move

    def _random_move(self, color):
        game = self.board.tracker.game
        board = game.board
        options = []
        for p in board.points:
            if board.get(p) != EMPTY or game.legality(color, p) is not None:
                continue
            if all(board.get(q) == color for q in board.neighbours(p) if board.get(q) != EDGE):
                continue  # one's own eye
            trial = board.copy()
            trial.place(p, color, SUICIDE_ALLOWED)
            if trial.self_removed:
                continue  # no suicide (an engine under other rules would refuse it)
            options.append(p)
        if not options:
            return "pass"
        return board.name(self.rng.choice(options))

    # -- the game ------------------------------------------------------------------------------

    def run(self):
        for engine in (self.engine, self.player):
            if engine is not None:
                self._setup(engine)
        b = self.board
        game = b.tracker.game
        self._events(b.wait(3000))
        plies = 0
        while game.phase != ENDED and game.phase != PAUSED and plies < self.max_plies:
            color = game.to_play
            if color == self.engine_color:
                reply, thought = self._genmove(self.engine, color)
                self._events(b.wait(max(300, thought)))
                if reply.lower() == "resign":
                    self._display("%s resigns" % _NAME[color])
                    self._events(b.button("resign-" + _NAME[color]))
                    break
                self._display("%s plays %s" % (_NAME[color], reply.upper()))
                self._play(color, reply.upper() if reply.lower() != "pass" else "pass")
                if self.player is not None:
                    self._tell(self.player, color, reply)
            else:
                if self.player is not None:
                    reply, thought = self._genmove(self.player, color)
                    self._events(b.wait(max(300, thought)))
                    if reply.lower() == "resign":
                        self._events(b.button("resign-" + _NAME[color]))
                        break
                    vertex = reply.upper() if reply.lower() != "pass" else "pass"
                else:
                    vertex = self._random_move(color)
                self._play(color, vertex)
                self._tell(self.engine, color, vertex)
            plies += 1
        if game.phase == PAUSED:
            self._end_of_play()
        self._events(b.wait(2000))
        return self.summary()

    def _end_of_play(self):
        b = self.board
        game = b.tracker.game
        dead = self.engine.send("final_status_list dead", timeout=self.timeout).split()
        self._display("dead: %s" % (" ".join(dead) or "none"))
        self._events(b.wait(2000))
        for vertex in dead:
            if b.stone(vertex.upper()) != ".":
                self._events(b.lift(vertex.upper()))
                self._events(b.wait(self.rng.randint(300, 800)))
        self._events(b.wait(1500))
        if self.rules.fill_in or self.rules.scoring == rulesets.ING_FILL_IN:
            # Ing 1991 Art. 1: after the dead stones are off, both pass again; play ends.
            for _ in range(2):
                if game.phase != PAUSED:
                    break
                self._play(game.to_play, "pass")
        if game.phase == PAUSED:
            self._events(b.button("agree"))

    def summary(self):
        b = self.board
        events = b.events
        count = next((e for e in events if e["type"] == "count"), None)
        end = next((e for e in events if e["type"] == "end"), None)
        return {
            "moves": sum(1 for e in events if e["type"] == "move"),
            "passes": sum(1 for e in events if e["type"] == "pass"),
            "removed": [p for e in events if e["type"] == "removal" for p in e["points"]],
            "count": count,
            "end": end,
            "result": b.tracker.game.result,
            "displayed": self.displayed,
        }
