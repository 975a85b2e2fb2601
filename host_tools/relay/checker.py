"""Every move the relay receives goes through the firmware's rules core before it is shown.

A `GameCheck` holds one game (ingrules.game.Game) built from the board's `game` message
(size, rules, komi, handicap, handicap_style). `play(color, point)` returns None when the move
is legal (and makes it), else the reason: the rules core's (occupied, suicide, ko, superko,
recycle, not-your-turn, game-over) or `bad-point` for a point that is not on the board.
"""

from ingrules.board import color_from_name
from ingrules.game import Game, IllegalMove

import host_tools  # noqa: F401  (firmware on sys.path)

MAX_NAME = 64  # characters of a player's name


class BadGame(ValueError):
    pass


class GameCheck:
    def __init__(self, info):
        if not isinstance(info, dict):
            raise BadGame("a game's settings are an object")
        players = info.get("players", {})
        if not isinstance(players, dict) or not set(players) <= {"B", "W"}:
            raise BadGame("players must be an object with B and W")
        for p in players.values():
            name = p.get("name") if isinstance(p, dict) else p
            if not (name is None or isinstance(name, str)) or len(name or "") > MAX_NAME:
                raise BadGame("a player's name is text of at most %d characters" % MAX_NAME)
        try:
            self.game = Game(
                info.get("size", 19),
                info.get("rules", "ing1991"),
                komi=info.get("komi"),
                handicap=info.get("handicap", 0),
                handicap_style=info.get("handicap_style"),
            )
        except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:
            raise BadGame(str(exc)) from None
        self.size = self.game.size

    def play(self, color, point):
        game = self.game
        try:
            c = color_from_name(color)
        except (ValueError, KeyError, TypeError):
            return "bad-colour"
        try:
            if point == "pass":
                game.pass_move(c)
            else:
                if not isinstance(point, str):
                    return "bad-point"
                try:
                    p = game.board.parse(point)
                except ValueError:
                    return "bad-point"
                game.play(c, p)
        except IllegalMove as exc:
            return exc.reason
        return None

    def rows(self):
        return self.game.board.rows()

    def captures(self):
        """Stones captured by Black and by White so far."""
        return {"B": self.game.prisoners[1], "W": self.game.prisoners[2]}
