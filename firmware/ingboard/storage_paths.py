"""Where the board keeps its files: one table shared by the firmware and the host tools.

The device app writes here; `ingboard pull` copies from here, `ingboard calibrate` writes the
calibration files and `ingboard flash` installs the firmware. Paths are absolute on the
board's file system (MicroPython's `/` is the flash file system).

- `GAMES_DIR/*.sgf`: finished games, one SGF per game (ingrules/sgf.py).
- `SESSIONS_DIR/*.log`: finished session logs (format 1, the spec's session-log.md).
- A file still being written ends in `PART_SUFFIX` (e.g. `/sessions/0007.log.part`) and is
  renamed when complete, so `ingboard pull` never copies half a game.
- `JOURNAL_DIR`: the crash-safe journal of the game in progress (records/journal.py); the host
  tools never touch it.
- `CALIBRATION`: the grid calibration (format in sensing/calibration.py, `parse_calibration`).
- `BOWL_CALIBRATION`: the bowls' HX711 zero and scale, one line of JSON:
  `{"format": 1, "B": {"offset": -81234, "scale": 412.7}, "W": {...}}` (offset: raw code of
  the empty bowl; scale: raw counts per gram), read by `parse_bowl_calibration`.
- `SETTINGS`: the game settings last set up with the board's menus (menus/settings.py, one
  line of JSON), the next game's unless a host sends its own.
- `NETWORK`: Wi-Fi, broker and board name (network_settings.py), written once by
  `ingboard setup-network`; without it the board plays offline.
- `RELAY_JOURNAL`: the club relay link's journal of moves not yet acknowledged (relay_link.py).
- `FIRMWARE_DIR`: the installed firmware package (`/ingboard/*.mpy`, written by flash).
"""

GAMES_DIR = "/games"
GAME_SUFFIX = ".sgf"
SESSIONS_DIR = "/sessions"
SESSION_SUFFIX = ".log"
PART_SUFFIX = ".part"
JOURNAL_DIR = "/journal"
CALIBRATION = "/calib.bin"
BOWL_CALIBRATION = "/bowls.json"
SET_WEIGHTS = "/set.json"  # {"B": g, "W": g}: the set enrolled after a count with the frame
SETTINGS = "/settings.json"
NETWORK = "/network.json"
RELAY_JOURNAL = "/relay.jsonl"
FIRMWARE_DIR = "/ingboard"
BOWL_CALIBRATION_FORMAT = 1


def bowl_calibration_text(offsets, scales):
    """The bowl calibration file's text from {colour: raw offset} and {colour: counts/gram}."""
    parts = []
    for colour in ("B", "W"):
        offset = int(offsets[colour])
        scale = float(scales[colour])
        if not scale:
            raise ValueError("%s bowl: scale must not be 0" % colour)
        parts.append('"%s": {"offset": %d, "scale": %r}' % (colour, offset, scale))
    return '{"format": %d, %s}\n' % (BOWL_CALIBRATION_FORMAT, ", ".join(parts))


def parse_bowl_calibration(text):
    """{colour: (offset, scale)} from the bowl calibration file; ValueError if it is damaged."""
    import json

    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("bowl calibration is not JSON")
    if not isinstance(data, dict) or data.get("format") != BOWL_CALIBRATION_FORMAT:
        raise ValueError("bowl calibration: unknown format")
    out = {}
    for colour in ("B", "W"):
        entry = data.get(colour)
        if not isinstance(entry, dict):
            raise ValueError("bowl calibration: no entry for %s" % colour)
        offset = entry.get("offset")
        scale = entry.get("scale")
        # Bounded (issue 19): a 24-bit HX711 offset, a finite non-zero scale (NaN, inf and
        # 0 would turn every reading into nonsense).
        if (
            not isinstance(offset, int)
            or not -(1 << 24) <= offset < (1 << 24)
            or isinstance(scale, bool)
            or not isinstance(scale, (int, float))
            or not 1e-6 <= abs(scale) <= 1e9
        ):
            raise ValueError("bowl calibration: bad offset or scale for %s" % colour)
        out[colour] = (offset, float(scale))
    return out
