"""Ing penalty points: what the Ing time system charges instead of more time, and what they are
worth at the count. Entering each of the three Ing PP periods charges two points; the points of
the two players cancel, and the net becomes one penalty stone per two points in the fill-in
count, of the colour of the player who benefits (Ing 1991 Art. 7 (1) and Art. 4 "Positioning":
"one stone for every two points is filled into a separate area near the winning or shared
space"; Ing 1996 Diagram 2: a 4-point penalty on White is two black stones). A mixin of `Clock`
(the points live in each player's state list, so the journal keeps them with the time).
"""

from ingrules.board import BLACK, WHITE
from micropython import const

from ingboard import cues
from ingboard.clock.time_systems import EV_CUE, EV_PENALTY, EV_PERIOD, colour

ING_PP_POINTS = const(2)  # Ing 1991 Art. 7 (1): two points on exceeding each limit
_POINTS = const(4)  # a player's penalty points: time_systems.py's _POINTS (test_clock.py checks)


class IngPenalty:
    """The penalty points of a Clock's players (a mixin: uses the Clock's `_players`)."""

    def _charge_points(self, c, p, k, at_ms, events):
        # Ing 1991 Art. 7 (1): two points for exceeding the basic time, two more past 1/6
        # and past 2/6 of it (color c has just entered Ing PP period k).
        p[_POINTS] += ING_PP_POINTS
        events.append((at_ms, EV_PENALTY, c, p[_POINTS]))
        events.append((at_ms, EV_PERIOD, c, k))
        events.append((at_ms, EV_CUE, c, (cues.POINTS, p[_POINTS])))

    def penalty(self, color):
        """Penalty points charged to color (Ing PP)."""
        return self._players[colour(color) - 1][_POINTS]

    def net_penalty(self):
        """(color, points): the player penalized after opposing points cancel, or (0, 0).

        Ing 1991 Art. 7 (1): "If both players are penalized, opposing penalty points cancel".
        """
        d = self._players[0][_POINTS] - self._players[1][_POINTS]
        if d > 0:
            return BLACK, d
        if d < 0:
            return WHITE, -d
        return 0, 0

    def penalty_stones(self):
        """(stone colour, count) for the fill-in count, or (0, 0).

        Ing 1991 Art. 4 "Positioning": "one stone for every two points is filled into a separate
        area near the winning or shared space"; Ing 1996 Diagram 2: a 4-point penalty on White
        is two black stones. The stones are the colour of the player who benefits.
        """
        color, points = self.net_penalty()
        if not color:
            return 0, 0
        return 3 - color, points // 2
