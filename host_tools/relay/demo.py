"""`ingboard relay --demo-boards N`: a trial venue and a director's evening on one command.

Starts Debian's mosquitto on a free loopback port with the committed venue config and a
password per board (host_tools/relay/broker.py, in a temporary directory), then N simulated
boards (host_tools/relay/fleet.py: the firmware's own relay code on paho clients) that play
19x19 games round after round, while `ingboard relay` archives them and serves the live page
and the director's desk. The demo plays the pairing program's part: it writes each round's
pairings as a CSV (2N players, a new opponent each round) into its output directory, imports
round 1 at the start and the next round once every table of the current one has a result; the
boards start each game from the pairing the relay sends them. Round 1 shows every kind of
event: an illegal move (b002), a bowl-mismatch alert (b003) and a board that goes offline for
30 s (b004). Everything stops on Ctrl-C or SIGTERM; the archive (out/relay-demo/*.sqlite), the
pairings and the director's password file are kept, the broker's and boards' files removed.
"""

import os
import shutil
import tempfile
import time

from host_tools.errors import InputError

MAX_BOARDS = 500
_SURNAMES = (
    "Ito", "Kim", "Lee", "Chen", "Sato", "Park", "Wang", "Novak", "Weber", "Dubois",
    "Rossi", "Smith", "Silva", "Nagy", "Berg", "Costa", "Khan", "Meyer", "Moreau", "Jansen",
)  # fmt: skip
_GIVEN = (
    "Ann", "Bo", "Cas", "Dai", "Eli", "Fen", "Gil", "Hana", "Ines", "Jun",
    "Kai", "Lin", "Mia", "Nils", "Ola", "Pia", "Quin", "Ren", "Sol", "Tao",
)  # fmt: skip


def player_name(i):
    return "%s %s" % (_SURNAMES[i % len(_SURNAMES)], _GIVEN[(i * 7 + i // 20) % len(_GIVEN)])


def pairing(boards):
    """names(board, round) for the fleet: 2N players, a different opponent each round."""
    order = sorted(boards)
    count = len(order)

    def names(board, rnd):
        i = order.index(board)
        black = 2 * i
        white = (2 * ((i + rnd - 1) % count)) + 1
        if rnd % 2 == 0:
            black, white = white, black
        return {"B": player_name(black), "W": player_name(white)}

    return names


class Demo:
    """The broker and the boards of a trial venue (the relay itself is the caller's)."""

    def __init__(self, boards, event="demo", move_s=(1.0, 3.0), plies=(40, 120), rest_s=8.0,
                 out=None, rounds=5):  # fmt: skip
        from host_tools.relay.broker import Broker, BrokerError

        if not 1 <= boards <= MAX_BOARDS:
            raise InputError("--demo-boards must be 1..%d, not %d" % (MAX_BOARDS, boards))
        self.dir = tempfile.mkdtemp(prefix="ingboard-relay-demo-")
        self.names = {"b%03d" % (i + 1): "pw-%d-%s" % (i, os.urandom(4).hex()) for i in
                      range(boards)}  # fmt: skip
        self.password = os.urandom(8).hex()
        self.event = event
        self.fleet = None
        try:
            self.broker = Broker(
                os.path.join(self.dir, "broker"), dict(self.names, relay=self.password)
            ).start()
        except BrokerError as exc:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise InputError(str(exc)) from None
        self.port = self.broker.port
        self.move_s, self.plies, self.rest_s = move_s, plies, rest_s
        self.out = out or os.path.join("out", "relay-demo")
        os.makedirs(self.out, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.archive = os.path.join(self.out, "%s-%s.sqlite" % (event, stamp))
        self.director_password_file = os.path.join(self.out, "director-password.txt")
        if not os.path.exists(self.director_password_file):
            fd = os.open(self.director_password_file, os.O_WRONLY | os.O_CREAT, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(os.urandom(9).hex() + "\n")
        self.director = None  # set by the relay command when the desk runs
        self.rounds = rounds

    def pairings_csv(self, rnd):
        """Round `rnd`'s pairings as the CSV a director would import (written to out/)."""
        names = pairing(self.names)
        lines = ["table,black,white,handicap,komi,board"]
        for i, board in enumerate(sorted(self.names)):
            p = names(board, rnd)
            lines.append("%d,%s,%s,0,7.5,%s" % (i + 1, p["B"], p["W"], board))
        text = "\n".join(lines) + "\n"
        with open(os.path.join(self.out, "pairings-round%d.csv" % rnd), "w") as f:
            f.write(text)
        return text

    def tick(self):
        """The pairing program's part: the next round once every table has a result."""
        d = self.director
        if d is None:
            return
        rnd = d.current_round()
        if rnd == 0:
            d.import_file(self.pairings_csv(1), "pairings-round1.csv", 1)
            return
        rows = d.desk.results(d.event, rnd)
        tables = d.tournament().tables.get(rnd, {})
        done = all((rnd, n) in rows and rows[(rnd, n)]["outcome"] for n in tables)
        if tables and done and rnd < self.rounds:
            d.import_file(self.pairings_csv(rnd + 1), "pairings-round%d.csv" % (rnd + 1), rnd + 1)

    def start_boards(self):
        from host_tools.relay.fleet import Fleet

        order = sorted(self.names)
        mishaps = {}
        for i, kind in ((1, "illegal"), (2, "alert:bowl-mismatch"), (3, "offline")):
            if i < len(order):
                mishaps[(order[i], 1, 6 + 2 * i)] = kind
        self.tick()
        self.fleet = Fleet(
            "127.0.0.1",
            self.port,
            self.event,
            self.names,
            os.path.join(self.dir, "boards"),
            move_s=self.move_s,
            plies=self.plies,
            names=pairing(self.names),
            rest_s=self.rest_s,
            follow_pairings=self.director is not None,
            mishaps=mishaps,
        )
        self.fleet.play(True)

    def stop_boards(self):
        if self.fleet is not None:
            self.fleet.close()
            self.fleet = None

    def stop(self):
        self.stop_boards()
        self.broker.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
