"""A GTP engine as the opponent of the person at the virtual board (`ingboard sim --engine`).

The engine never touches the board: its move is shown for the person to place (and its clock
to press), and every move the tracker commits - the person's and the engine's as placed - goes
to the engine. `EngineSeat.want(game)` is called after anything happened at the board; one
worker thread does all the talking, so the page never waits for the engine to think:

- the engine's game is kept equal to the tracker's: new plies are sent as `play`; anything
  else (an undo, a stone placed elsewhere than suggested, a new game) is `clear_board` and
  the whole game again;
- on the engine's turn it is asked `genmove`; the answer is a suggestion for that ply only
  (`view(game)` drops it as soon as the game moved on);
- in the pause after the passes it is asked `final_status_list dead`: the stones it would
  take off, shown for the person to lift, then its pass.

The handshake (`protocol_version`, answered by a number within `handshake_s`) tells a GTP
engine from any other program: a clear InputError otherwise, before the page starts.
"""

import threading

from ingrules.board import BLACK, WHITE
from ingrules.game import PAUSED, PLAY

from host_tools.errors import InputError
from host_tools.gtp import GtpEngine, GtpError

HANDSHAKE_S = 10.0
_NAME = {BLACK: "B", WHITE: "W"}


def handshake(command, timeout=HANDSHAKE_S):
    """Start `command` and check it speaks GTP; returns (GtpEngine, its name)."""
    from host_tools.gtp_play import engine_argv

    argv = engine_argv(command)
    try:
        engine = GtpEngine(argv, timeout=timeout)
    except GtpError as exc:
        raise InputError("engine %r: %s" % (command, exc)) from None
    try:
        version = engine.send("protocol_version", timeout=timeout)
        if not version.strip().isdigit():
            raise GtpError("answered protocol_version with %r" % version[:60])
    except GtpError as exc:
        engine.kill()
        raise InputError(
            "%r does not speak GTP (%s); give a GTP engine's command line, e.g. "
            '"gnugo --mode gtp" or "katago gtp -model M -config C"' % (command, exc)
        ) from None
    try:
        name = engine.send("name", timeout=timeout).strip() or argv[0]
    except GtpError:
        name = argv[0]
    return engine, name[:40]


def game_moves(game):
    """The game as GTP plays: setup stones, then every ply ("pass" for any pass)."""
    board = game.board
    out = [(_NAME[c], board.name(p)) for p, c in game.setup]
    for ply in game.plies:
        out.append((_NAME[ply.color], board.name(ply.point) if ply.point >= 0 else "pass"))
    return tuple(out)


class EngineSeat:
    def __init__(self, command, color="W", timeout=60.0, handshake_s=HANDSHAKE_S):
        if color not in ("B", "W"):
            raise InputError("the engine's colour must be B or W, not %r" % (color,))
        self.engine, self.name = handshake(command, handshake_s)
        self.color = color
        self.timeout = timeout
        self.cond = threading.Condition()
        self.wanted = None  # (setup key, moves, phase, to_play) the worker should reach
        self.done = None
        self.told = None  # the engine's game: (setup key, moves) or None before the first
        self.suggestion = None  # (moves, "D4" | "pass" | "resign")
        self.dead = None  # (moves, [points]) in the pause
        self.thinking = False
        self.error = None
        self.closed = False
        self.thread = threading.Thread(target=self._work, daemon=True)
        self.thread.start()

    # -- the session's side (under its lock) ---------------------------------------------------

    def want(self, game):
        key = (game.size, game.komi)
        wanted = (key, game_moves(game), game.phase, _NAME[game.to_play])
        with self.cond:
            if wanted != self.wanted:
                self.wanted = wanted
                self.cond.notify_all()

    def view(self, game):
        """What the page shows: the engine's name, colour, move for this ply, dead stones."""
        moves = game_moves(game)
        with self.cond:
            move = None
            if self.suggestion and self.suggestion[0] == moves and game.phase == PLAY:
                move = self.suggestion[1]
            dead = None
            if self.dead and self.dead[0] == moves and game.phase == PAUSED:
                dead = self.dead[1]
            return {
                "name": self.name,
                "color": self.color,
                "move": move,
                "dead": dead,
                "thinking": self.thinking,
                "error": self.error,
            }

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        self.engine.close(timeout=2)

    # -- the worker ----------------------------------------------------------------------------

    def _work(self):
        while True:
            with self.cond:
                while not self.closed and (self.wanted is None or self.wanted == self.done):
                    self.cond.wait()
                if self.closed:
                    return
                wanted = self.wanted
                self.thinking = True
            try:
                self._reach(wanted)
            except GtpError as exc:
                with self.cond:
                    self.error = "%s: %s" % (self.name, exc)
                    self.thinking = False
                return
            with self.cond:
                self.done = wanted
                self.thinking = False

    def _reach(self, wanted):
        key, moves, phase, to_play = wanted
        told = self.told
        send = self.engine.send
        if told is None or told[0] != key or moves[: len(told[1])] != told[1]:
            size, komi = key
            send("boardsize %d" % size)
            send("clear_board")
            send("komi %s" % komi)
            told = (key, ())
        for color, vertex in moves[len(told[1]) :]:
            send("play %s %s" % (color, vertex))
        self.told = (key, moves)
        if phase == PLAY and to_play == self.color:
            reply = send("genmove %s" % self.color, timeout=self.timeout).strip().lower()
            if reply != "resign":
                self.told = (key, moves + ((self.color, reply.upper()),))
            with self.cond:
                self.suggestion = (moves, "pass" if reply == "pass" else reply.upper())
        elif phase == PAUSED:
            dead = send("final_status_list dead", timeout=self.timeout).split()
            with self.cond:
                self.dead = (moves, sorted(set(v.upper() for v in dead)))
