"""The app's games into the club relay link: every move, pass, result and the clocks.

app.py calls `new_game(config)` for each game, `event(event)` for each tracker event,
`after(clock, t, events)` after each input it applied (board time t) and `poll()` from its relay
task (every 100 ms). RelayLink (relay_link.py) only journals and hands
messages to a transport that never waits, so nothing here slows play: offline, every move
stays in the link's journal until the relay acknowledges it, also across a restart.

The link's own time is monotonic since boot (board time restarts with every game).
"""

from micropython import const

# Events after which the clock is sent at once (with the move it follows, a press switches the
# running side too): the live page counts the running side down from each clock message.
CLOCK_EVENTS = ("move", "pass", "clock", "pause", "resume", "end", "undo", "restored")
_NOT_SENT = "?"  # the running side before any clock was sent

# What of a game's config the relay needs to check and export it (host_tools/relay/checker.py)
INFO_KEYS = ("size", "rules", "komi", "handicap", "handicap_style", "players", "time")


class RelayFeed:
    def __init__(self, link, ticks_ms, ticks_diff):
        self.link = link
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self._t0 = ticks_ms()
        self.failures = 0  # link calls that raised (reported by the app, play goes on)
        self._clock = None  # the tracker's clock (clock/clock.py) as of the last input
        self._board_t = 0  # board time of that input
        self._at = 0  # and the link's time then
        self._run = _NOT_SENT

    def now(self):
        return self.ticks_diff(self.ticks_ms(), self._t0)

    def new_game(self, config):
        info = {}
        for key in INFO_KEYS:
            if key in config:
                info[key] = config[key]
        p = self.link.pairing
        if p and "players" not in info:  # the director's pairing names the players
            info["players"] = {"B": p["B"], "W": p["W"]}
            info["round"] = p["round"]
        self._clock = None  # the old game's clock is not this game's
        self._run = _NOT_SENT
        return self.link.new_game(info, self.now())

    def event(self, event):
        kind = event["type"]
        link = self.link
        if kind == "move" or kind == "pass":
            point = event.get("point", "pass") if kind == "move" else "pass"
            link.move(event["n"], event["color"], point, self.now(), t_ms=event["t"])
        elif kind == "end":
            if event.get("result"):
                link.result(event["result"], event.get("reason"), self.now())
        elif kind == "alert" or kind == "dispute":
            # The director's list (bowl mismatch, stone missing, illegal move, sensor fault).
            link.alert(event.get("code", kind), self.now())

    def names(self):
        """(Black, White) as the director paired this board's table, or None: for the
        clock faces before the start and the next game's settings."""
        p = self.link.pairing
        if not p:
            return None
        return p["B"]["name"], p["W"]["name"]

    def face_names(self):
        """names() as the clock faces' font writes them (face_text), with the table: e.g.
        ("T12 MULLER JURGEN 1D", ...), or None."""
        p = self.link.pairing
        if not p:
            return None
        table = "T%s " % p["table"] if isinstance(p.get("table"), int) else ""
        out = []
        for c in ("B", "W"):
            side = p[c]
            rank = side.get("rank") if isinstance(side.get("rank"), str) else ""
            out.append(face_text(table + side["name"] + (" " + rank if rank else "")))
        return out[0], out[1]

    def after(self, clock, t, events):
        """After an input the app applied at board time t: the clock to the relay at once when
        a press changed the running side or `events` hold a move or a clock change; else
        poll() sends it at most once a second (relay_link.clock). Cheap when nothing is due:
        the app calls this after every scan."""
        self._clock = clock
        self._board_t = t
        self._at = self.now()
        due = self._running(clock) != self._run
        if not due:
            for event in events:
                if event["type"] in CLOCK_EVENTS:
                    due = True
                    break
        if due:
            self.send_clock(True)

    def _running(self, clock):
        # The side whose time runs, or None (not started, paused, lost on time, game over).
        if not clock.running():
            return None
        return "B" if clock.turn == 1 else "W"

    def send_clock(self, force=False):
        """Both players' clocks as of now, and the side that runs, to the relay (QoS 0: the
        next one replaces a lost one). Returns whether it went out."""
        clock = self._clock
        if clock is None:
            return False
        now = self.now()
        t = self._board_t + now - self._at  # board time now (the same ticks)
        state = {}
        for color in (1, 2):
            main, period, period_ms, stones, penalty, forfeit = clock.player(color, t)
            state["B" if color == 1 else "W"] = {
                "main_ms": main,
                "period": period,
                "period_ms": period_ms,
                "stones": stones,
                "penalty": penalty,
                "forfeit": bool(forfeit),
            }
        run = self._running(clock)
        self._run = run
        return self.link.clock(state, now, running=run, force=force)

    def poll(self):
        self.send_clock()
        return self.link.poll(self.now())


def from_settings(settings_path, journal_path, ticks_ms, ticks_diff, mqtt_as=None, log=print):
    """(RelayFeed, MqttTransport) from the network settings file (network_settings.py) over
    Peter Hinch's mqtt_as, or (None, None) when there are no settings, they are damaged, or
    mqtt_as is not installed: the board then plays offline (one line says why). `mqtt_as`:
    the module (imported here by default; tests pass a stand-in)."""
    try:
        with open(settings_path) as f:
            text = f.read()
    except OSError:
        return None, None
    # Imported only when there are settings: a board without them never holds the link's code
    # (~8 KB of heap where the .mpy load into it, the stock Pico image: issue 17).
    from ingboard.link import network_settings

    try:
        net = network_settings.parse(text)
    except ValueError as exc:
        log("network settings not used: %s" % exc)
        return None, None
    if mqtt_as is None:
        try:
            import mqtt_as
        except ImportError:
            log("network settings found, but mqtt_as is not installed: playing offline")
            return None, None
    from ingboard.drivers.mqtt_transport import MqttTransport
    from ingboard.link.relay_link import FileJournal, RelayLink

    link = RelayLink(net["event"], net["board"], FileJournal(journal_path))
    transport = MqttTransport(None, link, asynchronous=True)
    config = network_settings.mqtt_as_config(net, dict(mqtt_as.config))
    transport.client = mqtt_as.MQTTClient(transport.mqtt_as_config(config))
    return RelayFeed(link, ticks_ms, ticks_diff), transport


# Letters with marks as the faces' font (A-Z only) writes them: pairs of (letter, plain).
_FOLD = (
    "ÀAÁAÂAÃAÄAÅAĀAĄAàAáAâAãAäAåAāAąAÇCĆCČCçCćCčCĎDĐDďDđDÈEÉEÊEËEĒEĘEĚEèEéEêEëEēEęEěE"
    "ÌIÍIÎIÏIìIíIîIïIŁLłLÑNŃNŇNñNńNňNÒOÓOÔOÕOÖOØOŐOòOóOôOõOöOøOőOŘRřRŚSŠSśSšSßSŤTťT"
    "ÙUÚUÛUÜUŮUŰUùUúUûUüUůUűUÝYýYÿYŹZŻZŽZźZżZžZ"
)
_FACE_CHARS = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ:/+-.?!<>()=,"
_FACE_LEN = const(31)  # characters across a 128-pixel face (4 px each)


def face_text(text):
    """A name in the faces' 3x5 font: upper case, marks dropped (Müller -> MULLER), other
    letters '?', apostrophes left out, at most _FACE_LEN characters."""
    out = []
    for ch in text:
        i = _FOLD.find(ch)
        if i >= 0 and i % 2 == 0:
            ch = _FOLD[i + 1]
        ch = ch.upper()
        if ch == "'":
            continue
        out.append(ch if ch in _FACE_CHARS else "?")
    return "".join(out)[:_FACE_LEN]
