"""From classified snapshots of the physical board to an exact game record.

The tracker keeps two things apart (ARCHITECTURE "The physical board is not the game"): the
*game* (game.py: what the rules say the position is) and the *board* (the last scan: what the
sensors see). It commits a move only when the difference is explained, raises an alert when it
is not, and never adopts the physical board as the game.

Inputs, each with the board time `t` in ms (never decreasing): `scan(t, rows)` (rows top line
first, '.', 'B', 'W', '?'), `press(t, color)`, `button(t, name)`, `bowl(t, color, grams)`,
`tick(t)`. Each returns a list of events (dicts with "t" and "type", the schema of
`ingboard track`, session-log spec). `next_deadline()` tells when something will happen with
no new input (a stone becoming stable, a clock period), so a replay or the device loop can call
`tick()` exactly then.

How a scan is read (per point; '?' points are unknown and change nothing):
- a stone where the game has none: a *new stone*. When the player to move has exactly one new
  stone, stable for `settle_ms` (default 100 ms of board time, not a count of scans), at a legal
  point, it is committed as that player's move. A single flicker (one scan) never lasts that
  long. At an illegal point it raises the rule's alert (occupied, suicide, ko, superko,
  recycle) and the game is unchanged until the stone is taken back.
- a new stone of the player not to move: `wrong-colour`; two or more of the player to move:
  `two-stones` (Ing 1991 Art. 9: two stones on the board signal resignation; the player
  resigns with the button, the tracker never decides it).
- a stone missing where the game has one: a stone *captured but not yet lifted* is expected to
  go (lifted one by one, in any order, over seconds, even after the opponent's next stone:
  `remove-captured` reminds when the next move comes while some remain); any other missing
  stone is `stone-missing`, or `stone-moved` when a new stone of the same colour stands on a
  neighbouring point. During the pause after two passes, missing stones are dead stones being
  taken away (a whole chain gone = removed in the game).
- the clock press: completes or confirms the presser's move; with no new stone and no unknown
  points it is a pass (per the ruleset's pass semantics); with unknown points it waits (up to
  `press_wait_ms`) for the board to become readable.
Alerts are raised when a condition has held for `alert_ms` and once per condition; they are
resolved when the board is put right. Nothing is ever resynchronised silently.
"""

from micropython import const

from ingboard.core import clock_sgf
from ingboard.core.alerts import alert_text
from ingboard.core.board import BLACK, EMPTY, WHITE, color_name
from ingboard.core.bowls import Bowls
from ingboard.core.clock import Clock
from ingboard.core.counting import count_game
from ingboard.core.game import ENDED, MANDATORY_PASS, PAUSED, Game, IllegalMove

UNKNOWN = const(4)
# Scan character (byte) -> point code; anything else reads as unknown.
_CODE_OF = bytearray(256)
for _i in range(256):
    _CODE_OF[_i] = UNKNOWN
_CODE_OF[46] = EMPTY  # '.'
_CODE_OF[66] = BLACK  # 'B'
_CODE_OF[87] = WHITE  # 'W'
_NO_EVENTS = ()
_UNDO_DEPTH = const(8)  # clock snapshots kept for accepted retractions

SETTLE_MS = const(100)
ALERT_MS = const(400)
PRESS_WAIT_MS = const(1500)
PUT_AWAY_MS = const(2000)
_FAR = const(0x3FFFFFFF)


class Tracker:
    """Tracks one game from its session-log config (see session-log.md `config`)."""

    def __init__(self, config, settle_ms=SETTLE_MS, alert_ms=ALERT_MS):
        self.config = config
        size = config["size"]
        self.game = Game(
            size,
            config["rules"],
            komi=config.get("komi"),
            handicap=config.get("handicap", 0),
            handicap_style=config.get("handicap_style"),
        )
        time = config.get("time")
        if (
            self.game.rules.late_forfeit
            and isinstance(time, dict)
            and "basic_s" in time
            and "late_forfeit" not in time
        ):
            time = dict(time, late_forfeit=True)  # the ruleset's default (Ing 1996 Rule 10)
        self.clock = Clock(time)
        # Lateness (Ing 1991 Art. 8, Ing 1996 Rule 10): with `round_start_ms` in the config,
        # each player presses their own key on arrival (or their first stone is their arrival);
        # the clock starts once both are there, each late player's basic time reduced.
        self.round_start = config.get("round_start_ms")
        self.arrived = [True, True, True] if self.round_start is None else [True, False, False]
        self.bowls = Bowls(config.get("bowls"), size, self.game.rules.fill_in)
        self.settle_ms = settle_ms
        self.alert_ms = alert_ms
        board = self.game.board
        n = len(board.cells)
        # What the sensors see (EMPTY/BLACK/WHITE/UNKNOWN per padded index) and since when.
        self.seen = bytearray(n)
        self.since = [0] * n
        # Captured (or retracted) stones still allowed on the board until lifted: point -> colour
        self.leaving = {}
        # Scan position -> padded board index, top line first.
        order = []
        for i in range(size):
            row = size - 1 - i
            for col in range(size):
                order.append(board.index(col, row))
        self.order = order
        self.started = False
        self.awaiting_press = 0  # colour whose committed move has not been pressed yet
        # A colour whose move the tracker confirmed itself (the opponent played before the
        # press): that player's late press is then expected and changes nothing.
        self.press_owed = [False, False, False]
        self.moved = {}  # point a stone was nudged to -> the point it came from
        self.press_pending = 0  # colour whose press waits for a readable board
        self.press_time = 0
        self.active = {}  # alert key -> True while its condition holds
        self.clock_before = []  # clock snapshots before the last switches (for undo)
        self.clock_pushes = 0  # snapshots pushed so far (the journal follows this count)
        self.clock_logged_t = -1  # board time of the last `clock` event
        self.pause_announced = False  # the pause after two passes has been announced
        self.ply_props = []  # SGF text of each ply's properties (BL/WL...), by game.plies
        self.counted = None
        self.due = 0  # board time before which nothing happens without new input
        self.plan = None  # the fill-in plan of the count (Ing rules)
        self.fill_target = None  # stones per colour on the board once filled in
        self.filled = False
        self.put_away = False
        self.empty_since = 0  # board time since which the board has been empty after the end
        self.checked_before = False
        self.last_t = 0

    # -- inputs ---------------------------------------------------------------------------------

    def scan(self, t, rows):
        """A classified snapshot as rows of '.', 'B', 'W', '?' (top line first)."""
        changed = False
        k = 0
        for row in rows:
            if self._read(t, row, k):
                changed = True
            k += len(row)
        return self._scanned(t, changed)

    def scan_codes(self, t, codes):
        """The same from the classifier's bytearray (scan order, one byte per point): the
        device's path, which allocates nothing when the board has not changed."""
        return self._scanned(t, self._read(t, codes, 0))

    def _read(self, t, row, k):
        seen = self.seen
        since = self.since
        order = self.order
        code_of = _CODE_OF
        changed = False
        if isinstance(row, str):
            row = row.encode()
        for i in range(len(row)):
            v = code_of[row[i]]
            p = order[k + i]
            if seen[p] != v:
                seen[p] = v
                since[p] = t
                changed = True
        return changed

    def _scanned(self, t, changed):
        if not changed and self._quiet(t):
            return _NO_EVENTS  # nothing new and nothing due: the steady state
        return self._done(self._start(t) + self._evaluate(t))

    def tick(self, t):
        if self._quiet(t):
            return _NO_EVENTS
        return self._done(self._start(t) + self._evaluate(t))

    def _quiet(self, t):
        # Nothing can happen before self.due: keep the clock current and allocate nothing.
        if not self.started or t >= self.due or self.press_pending:
            return False
        if t < self.last_t:
            raise ValueError("time went backwards: %d after %d" % (t, self.last_t))
        self.last_t = t
        self.clock.advance(t)  # no event before self.due, so nothing to report
        return True

    def _done(self, events):
        # The next instant anything can happen without new input (see next_deadline).
        due = self.next_deadline()
        self.due = _FAR if due is None else due
        return events

    def press(self, t, color):
        return self._done(self._press(t, color))

    def _press(self, t, color):
        events = self._start(t) + self._evaluate(t)
        game = self.game
        if game.phase == ENDED:
            return events
        if self.awaiting_press == color:
            # The press that confirms the presser's committed move: the clock switches now.
            # The opponent's late press for their own earlier move is then no longer expected.
            self.awaiting_press = 0
            self.press_owed[3 - color] = False
            return events + self._clock_moved(t, color)
        if game.free_stones_left:
            return events  # presses while Black places a free handicap change nothing
        if self.press_owed[color]:
            self.press_owed[color] = False
            return events
        if not self.arrived[color]:
            return events + self._arrive(t, color)  # the first press says "I am here"
        if color != game.to_play:
            return events  # a second press, or the opponent's key: nothing to do
        self.press_time = t
        if self._unknown_points():
            self.press_pending = color
            return events
        return events + self._press_now(t, color)

    def button(self, t, name):
        return self._done(self._button(t, name))

    def _button(self, t, name):
        events = self._start(t) + self._evaluate(t)
        game = self.game
        try:
            if name == "resign-B" or name == "resign-W":
                game.resign(BLACK if name == "resign-B" else WHITE)
                return events + self._ended(t)
            if name == "agree":
                game.agree()
                return events + self._ended(t)
            if name == "dispute":
                game.dispute()
                return events + self._resumed(t)
            if name == "pause":
                return events + self._clock_events(t, self.clock.pause(t)) + [self._ev(t, "pause")]
            if name == "resume":
                return events + self._resumed(t)
            if name == "undo":
                return events + self._undo(t)
        except IllegalMove as exc:
            return events + [self._alert_event(t, "not-your-turn", [], str(exc))]
        return events  # new-game: handled by the app, which starts a new Tracker

    def bowl(self, t, color, grams):
        return self._done(self._bowl(t, color, grams))

    def _bowl(self, t, color, grams):
        events = self._start(t)
        if t >= self.due:
            events += self._evaluate(t)  # a stone may have become stable at this very instant
        if self.game.phase == ENDED:
            events += self._put_away(t)
        self.bowls.feed(color, grams, t)
        if not self.checked_before and not self.game.plies and self.bowls.settled():
            # Ing 1991 Art. 9 custom 1: verify 180 each before the first move.
            self.checked_before = True
            events.append(self._bowls_event(t, "before"))
        return events + self._bowl_alerts(t)

    def take(self, record):
        """One session-log record other than `config` (session.Record) at its own time; the
        caller has stepped tick() to the deadlines before it. Returns its events."""
        kind = record.kind
        t = record.t_ms
        if kind == "scan":
            return self.scan(t, record.payload)
        if kind == "press":
            return self.press(t, record.payload)
        if kind == "button":
            return self.button(t, record.payload)
        if kind == "bowl":
            return self.bowl(t, record.payload[0], record.payload[1])
        return _NO_EVENTS  # lid readings: prisoners are allowed for from the board's counts

    def next_deadline(self):
        """Board time at which tick() may produce something, or None."""
        best = _FAR
        if self.press_pending:
            best = self.press_time + PRESS_WAIT_MS
        seen = self.seen
        cells = self.game.board.cells
        since = self.since
        for p in self.order:
            v = seen[p]
            if v != UNKNOWN and v != cells[p]:
                due = since[p] + self.settle_ms
                if due > self.last_t and due < best:
                    best = due
                due = since[p] + self.alert_ms
                if due > self.last_t and due < best:
                    best = due
        clock_next = self.clock.next_event_ms()
        if clock_next is not None and clock_next < best:
            best = clock_next
        return None if best == _FAR else best

    # -- the core: explain the difference between board and game --------------------------------

    def _start(self, t):
        if t < self.last_t:
            raise ValueError("time went backwards: %d after %d" % (t, self.last_t))
        self.last_t = t
        events = []
        if not self.started:
            self.started = True
            if self.round_start is None:
                self.clock.start(t, self.game.to_play)
        clock = self.clock
        while True:
            # Step to each clock event's own instant, so its state is logged as it was then.
            due = clock.next_event_ms()
            if due is None or due > t:
                break
            for ev in clock.advance(due):
                events += self._clock_event(ev)
        for ev in clock.advance(t):
            events += self._clock_event(ev)
        return events

    def _unknown_points(self):
        seen = self.seen
        for p in self.order:
            if seen[p] == UNKNOWN:
                return True
        return False

    def _evaluate(self, t):
        events = []
        game = self.game
        if game.phase == ENDED:
            return events + self._after_end(t)
        settle = self.settle_ms
        # Keep committing while the board explains a move (an early next move follows at once).
        while True:
            new, missing, lifted = self._differences(t)
            for p in lifted:
                del self.leaving[p]
            if game.phase == PAUSED:
                events += self._dead_stones(t, missing)
                back = self._put_back(t, new)
                if back:
                    events += back
                    continue  # the position changed: read the board again
            if game.free_stones_left:
                placed = self._handicap_stones(t, new)
                if placed:
                    events += placed
                    continue
            color = game.to_play
            mine = [p for p in new if self.seen[p] == color]
            theirs = [p for p in new if self.seen[p] != color]
            committed = False
            if (
                len(mine) == 1
                and not self._moved_stone(mine[0], missing)
                and not self._hidden_neighbour(mine[0])
            ):
                p = mine[0]
                stable = t - self.since[p] >= settle
                forced = self.press_pending == color
                if stable or forced:
                    reason = game.legality(color, p)
                    if reason is None:
                        events += self._commit(t, color, p)
                        committed = True
                    elif t - self.since[p] >= settle:
                        events += self._alert(t, reason, [p])
            if not committed:
                break
        events += self._alerts(t, new, missing, color, mine, theirs)
        if self.press_pending and (
            not self._unknown_points() or t - self.press_time >= PRESS_WAIT_MS
        ):
            events += self._press_now(t, self.press_pending)
        return events

    def _differences(self, t):
        seen = self.seen
        cells = self.game.board.cells
        leaving = self.leaving
        new = []
        missing = []
        lifted = []
        for p in self.order:
            v = seen[p]
            if v == UNKNOWN:
                continue
            c = cells[p]
            if p in leaving:
                if v == EMPTY:
                    lifted.append(p)
                continue
            if v == c:
                continue
            if c == EMPTY:
                new.append(p)
            elif v == EMPTY:
                missing.append(p)
            else:
                new.append(p)  # a stone of the other colour where the game has one
        return new, missing, lifted

    def _moved_stone(self, p, missing):
        # A stone nudged to a neighbouring point: the same colour is missing next to it - or
        # was, when the nudge was seen, and its point has not been seen holding it again since
        # (a hand putting it back hides both points for a while).
        color = self.seen[p]
        cells = self.game.board.cells
        origin = self.moved.get(p)
        if origin is not None:
            if self.seen[origin] != cells[origin]:
                return True
            del self.moved[p]
        for q in self.game.board.neighbours(p):
            if q in missing and cells[q] == color:
                return True
        return False

    def _hidden_neighbour(self, p):
        # A neighbour of the same colour under the hand: the stone at p may be that stone,
        # nudged, rather than a new one. Wait until the board around it is readable.
        color = self.seen[p]
        cells = self.game.board.cells
        seen = self.seen
        for q in self.game.board.neighbours(p):
            if cells[q] == color and seen[q] == UNKNOWN:
                return True
        return False

    def _commit(self, t, color, p):
        game = self.game
        events = []
        if self.awaiting_press and self.awaiting_press != color:
            # The opponent played before pressing: their move is confirmed now.
            events += self._clock_moved(t, self.awaiting_press)
            self.press_owed[self.awaiting_press] = True
            self.awaiting_press = 0
        left_over = [q for q in self.leaving if self.game.board.get(q) == EMPTY]
        if not self.arrived[color]:
            events += self._arrive(t, color)  # playing a stone is arriving too
            if game.phase == ENDED:
                return events
        was_paused = game.phase == PAUSED
        try:
            ply = game.play(color, p)
        except IllegalMove as exc:
            # The board changed between the check and the play: an alert, never a crash.
            return events + self._alert(t, exc.reason, [p])
        if was_paused:
            events += self._resumed(t)  # a board play during the pause resumes play and time
        for q in ply.captured:
            self.leaving[q] = 3 - color
        for q in ply.self_removed:
            self.leaving[q] = color
        board = game.board
        events.append(
            {
                "t": t,
                "type": "move",
                "n": len([x for x in game.plies if x.kind != MANDATORY_PASS]),
                "color": color_name(color),
                "point": board.name(p),
                "captures": [board.name(q) for q in ply.captured],
            }
        )
        if ply.self_removed:
            events[-1]["self_removed"] = [board.name(q) for q in ply.self_removed]
        if game.plies[-1].kind == MANDATORY_PASS:
            events.append(self._pass_event(t, WHITE, mandatory=True))
        if self.press_pending == color:
            self.press_pending = 0
            events += self._clock_moved(t, color)
        else:
            self.awaiting_press = color
        if left_over:
            events += self._alert(t, "remove-captured", left_over, force=True)
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        if not self.checked_before:
            # Ing 1991 Art. 9: 180 each before the game (the first stone is on the board now).
            self.checked_before = True
            events.append(self._bowls_event(t, "before"))
        return events + self._bowl_alerts(t)

    def _press_now(self, t, color):
        # The press completes the presser's one new stone; with none, it is a pass play.
        self.press_pending = 0
        game = self.game
        new, _missing, _lifted = self._differences(t)
        mine = [p for p in new if self.seen[p] == color]
        if len(mine) > 1:
            # More than one candidate (a flicker, a second stone): never a pass. Wait for the
            # board to settle; past the wait, the two-stones alert stands.
            if t - self.press_time < PRESS_WAIT_MS:
                self.press_pending = color
                return []
            return self._alert(t, "two-stones", mine)
        if len(mine) == 1:
            reason = game.legality(color, mine[0])
            if reason is None:
                self.press_pending = color  # so that the commit switches the clock now
                return self._commit(t, color, mine[0])
            # The player completed an illegal move: the ruleset says what that means.
            outcome = game.commit_illegal(color, reason)
            if outcome == "forfeit":
                return self._ended(t)
            if outcome == "pass":
                return self._passed(t, color)
            return self._alert(t, reason, mine, force=True)
        if game.phase == ENDED or color != game.to_play:
            return []
        try:
            game.pass_move(color)
        except IllegalMove as exc:
            return [self._alert_event(t, "not-your-turn", [], str(exc))]
        return self._passed(t, color)

    def _passed(self, t, color):
        game = self.game
        events = [self._pass_event(t, color)]
        events += self._clock_moved(t, color)
        if game.phase == PAUSED and not self.pause_announced:
            # Play pauses (once: the passes made during the pause do not pause it again).
            self.pause_announced = True
            events += self._clock_events(t, self.clock.pause(t))
            events.append(self._ev(t, "pause"))
        elif game.phase == ENDED:
            events += self._ended(t)
        return events

    def _pass_event(self, t, color, mandatory=False):
        n = len([x for x in self.game.plies if x.kind != MANDATORY_PASS or mandatory])
        ev = {"t": t, "type": "pass", "n": n, "color": color_name(color)}
        if mandatory:
            ev["mandatory"] = True
        return ev

    def _dead_stones(self, t, missing):
        # During the pause: a chain whose stones are all gone from the board is dead.
        events = []
        board = self.game.board
        done = []
        for p in missing:
            if p in done or board.get(p) == EMPTY:
                continue
            chain = board.chain(p)
            gone = True
            for q in chain:
                if q not in missing or t - self.since[q] < self.settle_ms:
                    gone = False
            for q in chain:
                done.append(q)
            if gone:
                color = board.get(p)
                self.game.remove_dead(p)
                events.append(
                    {
                        "t": t,
                        "type": "removal",
                        "color": color_name(color),
                        "points": [board.name(q) for q in chain],
                    }
                )
        return events

    def _put_back(self, t, new):
        # During the pause a stone put back where a dead stone was taken off (by mistake)
        # restores that removal (Ing 1991 Art. 8 "Mistaken removal": parity is restored with no
        # penalty); it is no move.
        events = []
        game = self.game
        for p in new:
            color = self.seen[p]
            if (p, color) in game.dead and t - self.since[p] >= self.settle_ms:
                chain = game.restore_dead_chain(p)
                board = game.board
                events.append(
                    {
                        "t": t,
                        "type": "restored",
                        "color": color_name(color),
                        "points": [board.name(q) for q in chain],
                    }
                )
        return events

    def _handicap_stones(self, t, new):
        # Free handicap (AGA Rule 4; Ing "free placement"): Black places the stones one by one
        # before White's first move; each stable black stone is one of them.
        events = []
        game = self.game
        board = game.board
        for p in new:
            if not game.free_stones_left:
                break
            if self.seen[p] != BLACK or board.get(p) != EMPTY:
                continue
            if t - self.since[p] < self.settle_ms:
                continue
            game.place_handicap_stone(p)
            events.append({"t": t, "type": "handicap", "point": board.name(p)})
            if not game.free_stones_left:
                events += self._clock_moved(t, BLACK)  # White's clock runs now
        if events:
            self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        return events

    def _resumed(self, t):
        self.pause_announced = False
        events = self._clock_events(t, self.clock.resume(t))
        events.append(self._ev(t, "resume"))
        return events

    def _undo(self, t):
        game = self.game
        if not game.plies:
            return []
        last = game.plies[-1]
        if last.kind == MANDATORY_PASS and len(game.plies) > 1:
            last = game.plies[-2]
        game.undo()
        del self.ply_props[len(game.plies) :]
        if last.point >= 0:
            self.leaving[last.point] = last.color  # the retracted stone goes back to the bowl
        for q in last.captured:
            self.leaving.pop(q, None)
        self.awaiting_press = 0
        self.press_owed = [False, False, False]
        self.undo_clock(t)
        board = game.board
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        return [{"t": t, "type": "undo", "to_play": color_name(game.to_play)}]

    # -- end of the game -----------------------------------------------------------------------

    def _ended(self, t):
        game = self.game
        events = self._clock_events(t, self.clock.pause(t)) if self.clock.running() else []
        if game.end_reason == "count":
            pb = self.clock.penalty(BLACK)
            pw = self.clock.penalty(WHITE)
            count, plan = count_game(game, penalty_b=pb, penalty_w=pw)
            count["t"] = t
            game.result = count["result"]
            self.counted = count
            self.plan = plan
            board = game.board
            if plan is None:
                self.fill_target = (board.count[BLACK], board.count[WHITE])
            elif plan.get("final"):
                # Ing 1991 Art. 4 "All stones are filled in to count": the board will hold
                # the plan's final position once both players have filled in.
                final = "".join(plan["final"])
                self.fill_target = (final.count("B"), final.count("W"))
            else:
                self.fill_target = None  # no layout fits (territory too small): no check
            events.append(count)
        events.append({"t": t, "type": "end", "result": game.result, "reason": game.end_reason})
        return events

    def _after_end(self, t):
        # After the count: the bowls are checked when the fill-in is complete (Ing 1991 Art. 9
        # "to confirm that the game was counted correctly") and once the stones are put away.
        counts = [0, 0, 0, 0, 0]
        seen = self.seen
        since = self.since
        latest = 0
        for p in self.order:
            counts[seen[p]] += 1
            if since[p] > latest:
                latest = since[p]
        if counts[UNKNOWN] or t - latest < self.settle_ms:
            return []
        events = []
        target = self.fill_target
        if not self.filled and target and (counts[BLACK], counts[WHITE]) == target:
            self.filled = True
            event = self.bowls.check("after-count", t, counts[BLACK], counts[WHITE])
            event["t"] = t
            events.append(event)
            events += self._bowl_alerts(t)
        if not counts[BLACK] and not counts[WHITE]:
            if not self.empty_since:
                self.empty_since = t  # the put-away check waits for the bowls (see _bowl)
        else:
            self.empty_since = 0
        return events

    def _put_away(self, t):
        # Ing 1991 Art. 9, 1996 Rule 2: 180 each once the stones are back in the bowls - when
        # the board has been empty a while and both bowls have settled since.
        if self.put_away or not self.empty_since or t - self.empty_since < PUT_AWAY_MS:
            return []
        if not self.bowls.settled() and t - self.empty_since < 2 * PUT_AWAY_MS:
            return []  # a scale that never settles gives an uncertain count (null), not none
        self.put_away = True
        return [self._bowls_event(t, "put-away")] + self._bowl_alerts(t)

    # -- alerts --------------------------------------------------------------------------------

    def _alerts(self, t, new, missing, color, mine, theirs):
        events = []
        wanted = {}
        since = self.since
        alert_ms = self.alert_ms
        board = self.game.board
        cells = board.cells
        paused = self.game.phase == PAUSED
        for p in theirs:
            if t - since[p] < alert_ms:
                continue
            if cells[p] != EMPTY:
                wanted[("stone-extra", p)] = [p]
            elif not self._moved_stone(p, missing):
                wanted[("wrong-colour", p)] = [p]
        if len(mine) > 1:
            settled = [p for p in mine if t - since[p] >= alert_ms]
            if len(settled) > 1:
                wanted[("two-stones", settled[0])] = settled
        for p in missing:
            if paused or t - since[p] < alert_ms:
                continue
            moved_to = None
            hidden = False
            for q in board.neighbours(p):
                if q in new and self.seen[q] == cells[p]:
                    moved_to = q
                elif self.seen[q] == UNKNOWN:
                    hidden = True
            if moved_to is None and hidden:
                # A hand is next to it (putting it back, perhaps): no new alert, none withdrawn.
                for key in (("stone-moved", p), ("stone-missing", p)):
                    if key in self.active:
                        wanted[key] = None
                continue
            if moved_to is not None:
                wanted[("stone-moved", p)] = [p, moved_to]
                self.moved[moved_to] = p
            else:
                wanted[("stone-missing", p)] = [p]
        for key, points in wanted.items():
            if key not in self.active:
                self.active[key] = True
                events.append(self._alert_event(t, key[0], points))
        for key in list(self.active):
            if not isinstance(key, tuple) or key in wanted:
                continue
            if key[0] in _BOARD_ALERTS or (key[0] in _RULE_ALERTS and key[1] not in new):
                del self.active[key]  # the board was put right / the stone taken back
        return events

    def _alert(self, t, code, points, force=False):
        key = (code, points[0] if points else -1)
        if key in self.active and not force:
            return []
        self.active[key] = True
        return [self._alert_event(t, code, points)]

    def _alert_event(self, t, code, points, text=None):
        board = self.game.board
        return {
            "t": t,
            "type": "alert",
            "code": code,
            "points": [board.name(p) for p in points],
            "text": text or alert_text(code),
        }

    def _bowl_alerts(self, t):
        events = []
        counting = self.game.phase == ENDED and not self.filled
        for alert in self.bowls.poll():
            if counting and alert.get("code") == "bowl-mismatch":
                continue  # stones are on their way to the board; the after-count check rules
            alert["t"] = t
            events.append(alert)
        return events

    def _bowls_event(self, t, phase):
        event = self.bowls.check(phase, t)
        event["t"] = t
        return event

    # -- clock ---------------------------------------------------------------------------------

    def _arrive(self, t, color):
        # A player arrives (lateness, Ing 1991 Art. 8): twice the lateness comes off their
        # basic time; Ing 1996 Rule 10: more than 1/6 of it forfeits.
        if self.arrived[color]:
            return []
        self.arrived[color] = True
        events = []
        for ev in self.clock.apply_lateness(color, self.round_start, t):
            if ev[1] == "forfeit":
                self.game.forfeit(color)
                return events + self._ended(t)
            events.append(dict(self.clock.state(t), t=t, type="clock"))
        if self.arrived[BLACK] and self.arrived[WHITE] and self.game.phase != ENDED:
            self.clock.start(t, self.game.to_play)
        return events

    def _clock_moved(self, t, color):
        if not self.clock.started:
            return []  # the clock starts when both players are there (lateness)
        self.clock.advance(t)
        # Kept with the number of plies at the switch, so a retraction knows whether the move
        # it takes back had switched the clock (a stone not yet pressed has not).
        self.push_clock_snapshot([len(self.game.plies), self.clock.snapshot()])
        events = self._clock_events(t, self.clock.moved(t, color))
        plies = self.game.plies
        if plies and plies[-1].kind == MANDATORY_PASS and color == BLACK:
            # Ing 1991 Art. 6: White's mandatory pass play follows at once; so does its clock.
            events += self._clock_events(t, self.clock.moved(t, WHITE))
        # BL/WL of the presser's last ply (SGF: time left after the move).
        plies = self.game.plies
        for i in range(len(plies) - 1, -1, -1):
            if plies[i].color == color and plies[i].kind != MANDATORY_PASS:
                while len(self.ply_props) < len(plies):
                    self.ply_props.append(None)
                # Kept as the SGF text itself: one small str per ply, not lists of tuples.
                text = ""
                for name, value in clock_sgf.move_props(self.clock, color):
                    text += "%s[%s]" % (name, value)
                self.ply_props[i] = text or None
                break
        return events

    def undo_clock(self, t):
        """After a retraction: the clock as it was before the retracted moves switched it (a
        move retracted before its press leaves the clock as it is: it still runs for the
        player who is to move again)."""
        plies = len(self.game.plies)
        restore = None
        while self.clock_before and self.clock_before[-1][0] > plies:
            restore = self.clock_before.pop()[1]
        if restore is not None:
            self.clock.restore(restore, t)

    def push_clock_snapshot(self, snap):
        """Keep [plies, clock snapshot] from before a switch, for a retraction (the last few)."""
        if len(self.clock_before) >= _UNDO_DEPTH:
            self.clock_before.pop(0)
        self.clock_before.append(snap)
        self.clock_pushes += 1

    def state(self):
        """The tracker's own bookkeeping as a short JSON-ready list of ints (the journal's
        contract with the tracker, undone by restore_state()):

            [awaiting_press, owed_B, owed_W, checked_before, started,
             leaving (flat: point, colour, point, colour...),
             end (1: after-count check made, 2: put-away check made; or-ed),
             empty_since, count_t (board time of the count, -1 if none)]

        Not in it: what the game, clock and bowls hold (each has its own snapshot; the journal
        keeps `ply_props` and the undo stack of push_clock_snapshot()), the fill-in plan
        (recomputed from the position: count_game is exact), and what the sensors see (read
        again after a restart)."""
        leaving = []
        for p in sorted(self.leaving):
            leaving.append(p)
            leaving.append(self.leaving[p])
        owed = self.press_owed
        counted = self.counted
        return [
            self.awaiting_press,
            1 if owed[1] else 0,
            1 if owed[2] else 0,
            1 if self.checked_before else 0,
            1 if self.started else 0,
            leaving,
            (1 if self.filled else 0) | (2 if self.put_away else 0),
            self.empty_since,
            -1 if counted is None else counted["t"],
        ]

    def restore_state(self, state, t):
        """Continue at board time t from a list of state() (the first six items suffice) once
        the game, clock, bowls, ply_props and undo stack are what they were: the journal's
        recovery after a power cut. The sensors are taken to show the game, with the captured
        stones not yet lifted still there, as of t (the next scan puts that right); the count
        and the fill-in plan of a counted game are computed again from its position; the
        bowls learn the stones on the board and the prisoners again (not after the after-count
        check: from then on they are not reconciled with the board)."""
        self.awaiting_press = state[0]
        self.press_owed = [False, bool(state[1]), bool(state[2])]
        self.checked_before = bool(state[3])
        self.started = bool(state[4])
        flat = state[5]
        self.leaving = {}
        for k in range(0, len(flat), 2):
            self.leaving[flat[k]] = flat[k + 1]
        end = state[6] if len(state) > 6 else 0
        self.filled = bool(end & 1)
        self.put_away = bool(end & 2)
        self.empty_since = state[7] if len(state) > 7 else 0
        count_t = state[8] if len(state) > 8 and state[8] >= 0 else t
        self.press_pending = 0
        self.moved = {}
        self.active = {}
        self.last_t = t
        self.due = 0
        game = self.game
        cells = game.board.cells
        for p in self.order:
            self.seen[p] = cells[p]
            self.since[p] = t
        for p in self.leaving:
            if cells[p] == EMPTY:
                self.seen[p] = self.leaving[p]
        self.counted = None
        self.plan = None
        self.fill_target = None
        if game.phase == ENDED and game.end_reason == "count":
            self._ended(count_t)  # the count as it was made (the clock is stopped): exact
        if self.filled:
            return
        # Stones that left the board are prisoners (in a lid), the rest are on the board.
        placed = [0, 0, 0]
        for _p, color in game.setup:
            placed[color] += 1
        for ply in game.plies:
            if ply.point >= 0:
                placed[ply.color] += 1
        total = self.bowls.total
        self.bowls.on_board(min(total, placed[BLACK]), min(total, placed[WHITE]), t)
        board = game.board
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)

    def sgf(self):
        """The game as SGF: rules, clock (TM/OT, BL/WL), players, result."""
        from ingboard.core.sgf import game_sgf

        root = clock_sgf.root_props(self.clock)
        players = self.config.get("players") or {}
        if players.get("B"):
            root.append(("PB", players["B"]))
        if players.get("W"):
            root.append(("PW", players["W"]))
        if self.game.result:
            root.append(("RE", self.game.result))
        root += clock_sgf.penalty_props(self.clock)
        return game_sgf(self.game, root, self.ply_props)

    def _clock_events(self, t, clock_events):
        events = []
        for ev in clock_events:
            events += self._clock_event(ev)
        return events

    def _clock_event(self, ev):
        at, kind, color, value = ev
        if kind == "cue":
            # For the beeper / voice module (cues.py): five minutes left, countdown, ...
            return [
                {
                    "t": at,
                    "type": "cue",
                    "color": color_name(color),
                    "cue": value[0],
                    "n": value[1],
                }
            ]
        if at == self.clock_logged_t and kind != "forfeit":
            events = []  # one `clock` event per instant (a period and its penalty coincide)
        else:
            events = [dict(self.clock.state(at), t=at, type="clock")]
            self.clock_logged_t = at
        if kind == "forfeit" and self.game.phase != ENDED:
            self.game.lose_on_time(color)
            events += self._ended(at)
        return events

    def _ev(self, t, kind):
        return {"t": t, "type": kind}


# Alerts about the physical board, withdrawn when the board is put right.
_BOARD_ALERTS = ("wrong-colour", "two-stones", "stone-moved", "stone-missing", "stone-extra")
# Alerts about an illegal stone, withdrawn when the stone is taken back.
_RULE_ALERTS = ("occupied", "suicide", "ko", "superko", "recycle", "not-your-turn")


def track(records, on_event, settle_ms=SETTLE_MS):
    """Replay session-log records (session.records) through a Tracker; on_event(event) for
    every event. Time between records is stepped exactly to the tracker's deadlines.

    A record the tracker cannot take (settings the clock, the game or the bowls refuse, a
    reading out of range) raises SessionLogError naming its line."""
    from ingboard.core.session import SessionLogError

    tracker = None
    last = 0
    for record in records:
        kind = record.kind
        try:
            if kind == "config":
                tracker = Tracker(record.payload, settle_ms=settle_ms)
                continue
            t = last = record.t_ms
            while True:
                due = tracker.next_deadline()
                if due is None or due >= t:
                    break
                for event in tracker.tick(due):
                    on_event(event)
            events = tracker.take(record)
        except (ValueError, TypeError, OverflowError) as exc:
            raise SessionLogError(record.line, "%s: %s" % (kind, exc))
        for event in events:
            on_event(event)
    if tracker is not None:
        # Let the last scan settle - but invent no time: only what was due within a press's
        # wait of the last record (the clock does not run on after the log ends).
        for _ in range(8):
            due = tracker.next_deadline()
            if due is None or due > last + PRESS_WAIT_MS:
                break
            for event in tracker.tick(due):
                on_event(event)
    return tracker
