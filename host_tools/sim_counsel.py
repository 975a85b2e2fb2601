"""GNU Go's opinion for the virtual board's count: which stones are dead at the pause (GTP
`final_status_list dead`, for the players to confirm with one click per group) and a score
estimate on demand (`estimate_score`). It never decides anything: the firmware's count does.

`Counsel(command)` starts the engine lazily, on the first question; one worker thread asks,
so the page never waits: `want(game)` asks for the dead stones of the game's position (once
per position), `view(game)` is what is known for it, `estimate(game)` answers at once (GNU Go
estimates a 19x19 position in well under a second at its default level).
"""

import threading

from host_tools.errors import InputError
from host_tools.gtp import GtpEngine, GtpError, find_gnugo
from host_tools.sim_engine import game_moves

TIMEOUT_S = 60.0


def default_command():
    """GNU Go's GTP mode, or None when it is not installed."""
    gnugo = find_gnugo()
    return [gnugo, "--mode", "gtp", "--level", "10"] if gnugo else None


class Counsel:
    def __init__(self, argv):
        self.argv = argv
        self.engine = None
        self.lock = threading.Lock()  # one GTP conversation at a time
        self.cond = threading.Condition()
        self.wanted = None
        self.dead = {}  # position key -> [points]
        self.error = None
        self.closed = False
        self.thread = threading.Thread(target=self._work, daemon=True)
        self.thread.start()

    def _key(self, game):
        return (game.size, game.komi, game_moves(game))

    def want(self, game):
        key = self._key(game)
        with self.cond:
            if key not in self.dead and key != self.wanted:
                self.wanted = key
                self.cond.notify_all()

    def view(self, game):
        with self.cond:
            return {"dead": self.dead.get(self._key(game)), "error": self.error}

    def estimate(self, game):
        """GNU Go's estimate of the score ("W+3.5"), InputError when it fails."""
        try:
            with self.lock:
                self._setup(self._key(game))
                return self.engine.send("estimate_score", timeout=TIMEOUT_S).split()[0]
        except (GtpError, IndexError) as exc:
            raise InputError("the score estimate failed: %s" % exc) from None

    def _setup(self, key):
        if self.engine is None:
            self.engine = GtpEngine(self.argv, timeout=TIMEOUT_S)
        size, komi, moves = key
        send = self.engine.send
        send("boardsize %d" % size)
        send("clear_board")
        send("komi %s" % komi)
        for color, vertex in moves:
            send("play %s %s" % (color, vertex))

    def _work(self):
        while True:
            with self.cond:
                while not self.closed and self.wanted is None:
                    self.cond.wait()
                if self.closed:
                    return
                key = self.wanted
            try:
                with self.lock:
                    self._setup(key)
                    dead = self.engine.send("final_status_list dead", timeout=TIMEOUT_S)
                points = sorted(set(v.upper() for v in dead.split()))
                with self.cond:
                    self.dead[key] = points
                    if self.wanted == key:
                        self.wanted = None
            except GtpError as exc:
                with self.cond:
                    self.error = str(exc)
                    self.wanted = None

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        if self.engine is not None:
            self.engine.close(timeout=2)


def start():
    """A Counsel on GNU Go, or None when GNU Go is not installed."""
    argv = default_command()
    if argv is None:
        return None
    try:
        return Counsel(argv)
    except GtpError as exc:
        raise InputError("GNU Go: %s" % exc) from None
