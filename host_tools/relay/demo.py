"""`ingboard relay --demo-boards N`: a trial venue on one command.

Starts Debian's mosquitto on a free loopback port with the committed venue config and a
password per board (host_tools/relay/broker.py, in a temporary directory), then N simulated
boards (host_tools/relay/fleet.py: the firmware's own relay code on paho clients) that play
19x19 games round after round, with a pause between rounds, while `ingboard relay` archives
them and serves the live page. Everything stops on Ctrl-C or SIGTERM and the temporary
directory is removed.
"""

import os
import shutil
import tempfile

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

    def __init__(self, boards, event="demo", move_s=(1.0, 3.0), plies=(40, 120), rest_s=8.0):
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

    def start_boards(self):
        from host_tools.relay.fleet import Fleet

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
