"""A long game played through the whole device app on the twin (issue 20, issue 17 item 3).

The real rp2 firmware runs `main.py` from littlefs with the package from a ROMFS image, or
frozen into the firmware (`Board(image="frozen")`, `make firmware`): the two ways the app fits
the Pico; around the chip the hardware models (host_tools/twin/hardware.py): the
players' stones reach the app through the Hall grid, their presses through the keys, the stones
they take and give back through the two HX711 load cells, and the app keeps its journal, session
log and SGF on the emulated flash. Nobody calls gc.collect() from outside: only the app's own
policy (gc_policy.py) collects.

    actions, config = brisk(moves)          # what brisk players do, at emulated times
    with Board(work_dir) as board:          # booted, hardware attached, app started
        board.new_game(config)
        board.play(actions)                 # lock-step, few round trips
        board.command({"cmd": "mem"})       # the app's own heap figures

Brisk players (`brisk`): no thinking time; a move is the stone taken from the bowl and put on
its point, and the clock pressed at once (the tracker judges the press once the board has been
still for its 100 ms); the captured stones are lifted together once the move is in, and go back
into their owner's bowl (Ing); a pass is a press alone. `PLY_MS` apart, the least the tracker
needs at a 25 Hz scan, so a 600-ply game is a few emulated minutes.
"""

import json
import os
import tempfile

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.twin import deploy, hardware, scenario
from host_tools.twin.process import Twin

STONE_G = 7.0  # a stone of the ideal set (Ing 1991 Art. 12: 6.5-7 g)
STEP_MS = 20  # emulated ms between two looks at the app's output
HOLD_MS = 100  # a player's press
PRESS_MS = HOLD_MS + 20  # the key released (and its press read) before the next stone
PASS_MS = 1500  # emulated: a pass the app has not seen by then is pressed again
PASS_TRIES = 3
LIFT_SCANS = 2  # scans that see the prisoners lifted before the next stone is put down
APP_START_MS = 60000  # emulated: main.py imports the app and starts (or resumes) its game
SETTLE_MS = 2000  # emulated: the load cells settle on the full bowls before the first move
PLY_MS = 20000  # emulated: the longest a ply may take the app (its move or pass event)


def _row_text(board, size):
    rows = []
    for row in range(size - 1, -1, -1):
        rows.append("".join(".BW"[board.get(board.index(col, row))] for col in range(size)))
    return "/".join(rows)


class Ply:
    """What brisk players do for one ply: `colour` "B"/"W"; for a move the bowl's grams once
    the stone is taken and the position once it is down (`stone`), then, if it captured, the
    position without the captured stones and their owner's bowl once they are back (`lift`);
    `name` the point ("D4") or None for a pass."""

    def __init__(self, n, colour, name, stone=None, take=None, lift=None, give=None):
        self.n = n
        self.colour = colour
        self.name = name
        self.stone = stone
        self.take = take
        self.lift = lift
        self.give = give


def brisk(moves, size=19, rules="ing1991", komi=8, end_passes=2):
    """([Ply], config) for `moves` [(colour "b"/"w", (row, col) or None)] (sgfmill convention)
    played by brisk players, then `end_passes` more passes (Ing 1991 Art. 1: after the pause
    two more passes end play). The config enrols the ideal sets (STONE_G a stone)."""
    from ingrules.board import BLACK, SUICIDE_ALLOWED, WHITE, Board

    board = Board(size)
    w180 = round(STONE_G * 180, 1)
    config = {
        "size": size,
        "rules": rules,
        "komi": komi,
        "time": {"system": "ing-pp", "basic_s": 3600},
        "bowls": {"B": {"w180_g": w180}, "W": {"w180_g": w180}},
    }
    in_bowl = {"B": 180, "W": 180}
    played = list(moves)
    last = played[-1][0] if played else "w"
    for k in range(end_passes):
        played.append(("b" if (last == "w") == (k % 2 == 0) else "w", None))
    plies = []
    for colour, point in played:
        c = colour.upper()
        n = len(plies) + 1
        if point is None:
            plies.append(Ply(n, c, None))
            continue
        row, col = point
        p = board.index(col, row)
        in_bowl[c] -= 1
        take = (c, round(in_bowl[c] * STONE_G, 1))
        board.place(p, BLACK if c == "B" else WHITE, SUICIDE_ALLOWED)
        if board.self_removed:
            raise ValueError("brisk players make no self-removal (%s %s)" % (colour, point))
        captured = list(board.captured)
        other = WHITE if c == "B" else BLACK
        for q in captured:  # still on the board until lifted
            board.set(q, other)
        ply = Ply(n, c, board.name(p), _row_text(board, size), take)
        for q in captured:
            board.set(q, 0)
        if captured:
            owner = "W" if c == "B" else "B"  # Ing: prisoners go back to their owner's bowl
            in_bowl[owner] += len(captured)
            ply.lift = _row_text(board, size)
            ply.give = (owner, round(in_bowl[owner] * STONE_G, 1))
        plies.append(ply)
    return plies, config


class Board:
    """The twin with the board's hardware and the app running (see the module docstring)."""

    def __init__(
        self,
        work_dir=None,
        flash_image=None,
        romfs_image=None,
        position=None,
        grams=None,
        files=None,
        image="romfs",
    ):
        self.work_dir = work_dir or tempfile.mkdtemp(prefix="ingboard-long-")
        # The firmware: "romfs" (the package in a ROMFS image) or "frozen" (the package frozen
        # into the firmware, `make firmware`; only main.py goes onto the file system).
        self.image = image
        self.flash_image = flash_image  # a board that was cut: boots from it, the app resumes
        self.romfs_image = romfs_image
        self.position = position  # the stones on the board at boot
        self.grams = grams  # {colour: grams} in the bowls at boot
        self.files = files or {}  # {board path: bytes} put on the flash before the app starts
        self.twin = None
        self.buffer = b""
        self.messages = []
        self.noise = []
        self.looked = 0  # messages run_until has looked at
        self.taken = None  # the ply whose stone is already out of the bowl
        self.taken_next = None
        self.trace = []  # (ply number, emulated us when the app had it)
        self.seen_us = {}  # ply number -> emulated us by which its event had come out
        self.found_us = None
        self.record_actions = False  # keep `applied`: (us, kind, value) of every action
        self.applied = []
        self.presses_again = 0  # passes pressed again (the app missed the first press)
        self.t0_us = None

    def __enter__(self):
        fresh = self.flash_image is None
        romfs = self.image == "romfs"
        if fresh and romfs and self.romfs_image is None:
            self.romfs_image = firmware_romfs(self.work_dir)
        # A board that was cut boots straight into main.py (the app resumes): its hardware is
        # attached before the chip runs.
        self.twin = Twin(
            self.image,
            romfs_image=self.romfs_image if fresh and romfs else None,
            flash_image=self.flash_image,
            boot=fresh,
        ).start()
        empty = "/".join(["." * 19] * 19)
        hardware.attach(self.twin, variant="pico", position=self.position or empty)
        for c, g in (self.grams or {}).items():
            self.apply("bowl", (c, g))
        if fresh:
            from host_tools import FIRMWARE

            with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
                main = f.read()
            files = {"/main.py": main, "/bowls.json": hardware.bowl_calibration().encode()}
            files.update(self.files)
            deploy.put_files(self.twin, files)
            deploy.start_app(self.twin)
        self.t0_us = self.twin.status()["us"]
        return self

    def __exit__(self, *exc):
        if self.twin is not None:
            self.twin.close()
            self.twin = None

    # -- the app's output --------------------------------------------------------------------

    def _lines(self):
        self.buffer = scenario.read_lines(self.twin, self.buffer, self.messages, self.noise)

    def wait_for(self, predicate, max_ms=APP_START_MS, step_ms=20):
        """Run until a new message satisfies predicate; return it."""
        seen = len(self.messages)
        waited = 0
        while True:
            self._lines()
            for msg in self.messages[seen:]:
                if predicate(msg):
                    self.found_us = self.twin.status()["us"]
                    return msg
            seen = len(self.messages)
            if waited >= max_ms:
                raise TimeoutError(
                    "the app did not answer in %d emulated ms (noise: %s)"
                    % (max_ms, " | ".join(self.noise[-5:]))
                )
            self.twin.run_ms(step_ms)
            waited += step_ms

    def command(self, cmd, max_ms=APP_START_MS):
        """A host command through the USB link; its reply (or the error reply)."""
        name = cmd["cmd"]
        self.twin.write(json.dumps(cmd) + "\n")
        return self.wait_for(
            lambda m: (
                m.get("type") == "error"
                or m.get("cmd") == name
                or m.get("type") == _REPLY_TYPES.get(name)
            ),
            max_ms,
        )

    def new_game(self, config, settle_ms=SETTLE_MS):
        """The game `config` on a board whose bowls hold their full sets (their readings
        settled for `settle_ms` before the first stone: the check before the game)."""
        for c in ("B", "W"):
            self.apply("bowl", (c, config["bowls"][c]["w180_g"]))
        reply = self.command({"cmd": "new-game", "config": config})
        if reply.get("type") == "error":
            raise ValueError("the app refused the game: %s" % reply)
        self.twin.run_ms(settle_ms)
        # White presses: "I am here" (Ing 1991 Art. 8, lateness), and Black's clock runs.
        self.apply("key", "W")
        self.twin.run_ms(2 * PRESS_MS)
        self._lines()
        self.t0_us = self.twin.status()["us"]
        return reply

    # -- playing -----------------------------------------------------------------------------

    def now_ms(self):
        return (self.twin.status()["us"] - self.t0_us) / 1000.0

    def apply(self, kind, value):
        if self.record_actions:
            self.applied.append((self.twin.status()["us"], kind, value))
        if kind == "grid":
            self.twin.model("grid", position=value)
        elif kind == "key":
            self.twin.model("key", key=value, hold_ms=HOLD_MS)
        elif kind == "bowl":
            self.twin.model("bowl", colour=value[0], grams=value[1])
        else:
            raise ValueError("no model for %r" % kind)

    def run_until(self, predicate, max_ms=PLY_MS):
        """Run in STEP_MS steps until a message (new or not yet looked at) satisfies predicate;
        returns it. The messages before it are looked at (and not looked at again)."""
        waited = 0
        while True:
            self._lines()
            while self.looked < len(self.messages):
                msg = self.messages[self.looked]
                self.looked += 1
                if predicate(msg):
                    self.found_us = self.twin.status()["us"]
                    return msg
            if waited >= max_ms:
                raise TimeoutError(
                    "the app did not answer in %d emulated ms (last: %s; noise: %s)"
                    % (max_ms, self.messages[-3:], " | ".join(self.noise[-5:]))
                )
            self.twin.run_ms(STEP_MS)
            waited += STEP_MS

    def play_ply(self, ply, nxt=None):
        """One ply as brisk players make it; returns the app's move or pass event. The player
        of the next ply (`nxt`) takes their stone from the bowl as this one is played."""
        if nxt is not None and nxt.take is not None and self.taken != nxt.n:
            self.taken_next = nxt
        else:
            self.taken_next = None
        if ply.stone is None:
            self._take_next()
            # A player whose press did not stop their clock presses again (a press the app
            # missed; a second one is no harm: presses.py) - unless the board holds the pass
            # already and its event is still on its way: the last pass ends the game and the
            # count comes first; a press then would say "the fill-in is done" (game_end.py).
            for _ in range(PASS_TRIES - 1):
                self.apply("key", ply.colour)
                try:
                    return self.run_until(
                        lambda m: m.get("type") == "pass" and m.get("n") == ply.n, PASS_MS
                    )
                except TimeoutError:
                    if self.command({"cmd": "state"}).get("plies", 0) >= ply.n:
                        break
                    self.presses_again += 1
            else:
                self.apply("key", ply.colour)
            return self.run_until(lambda m: m.get("type") == "pass" and m.get("n") == ply.n)
        if self.taken != ply.n:
            self.apply("bowl", ply.take)
        self.apply("grid", ply.stone)
        self._take_next()
        move = self.run_until(lambda m: m.get("type") == "move" and m.get("n") == ply.n)
        self.apply("key", ply.colour)
        self.twin.run_ms(PRESS_MS)  # the press is judged at once: the board is still
        if ply.lift is not None:
            self.lift(ply)
        return move

    def lift(self, ply):
        """The prisoners of `ply` lifted and given back to their bowl, then seen lifted by the
        board before the next stone comes down (a stone put down with the lift is a prisoner
        slipping from the fingers, plays._slipped): LIFT_SCANS scans counted from a `cpu`
        reply made after the lift. (Counted from one made before it, as until 2026-11-27, the
        scans could have read the board before the lift: the soak on ddd5bc2 had the lift and
        the next stone in one scan line at ply 310, and the move was `stone-extra`.)"""
        self.apply("grid", ply.lift)
        self.apply("bowl", ply.give)
        scans = self.command({"cmd": "cpu"})["scans"]
        self.wait_scans(scans + LIFT_SCANS)

    def wait_scans(self, n, max_ms=PLY_MS):
        """Run until the app has made its n-th scan (its `cpu` counter): a stone put down
        after the prisoners' lift was seen is no prisoner slipping back (plays.py SLIP_MS)."""
        waited = 0
        while self.command({"cmd": "cpu"})["scans"] < n:
            if waited >= max_ms:
                raise TimeoutError("the app made no scan in %d emulated ms" % max_ms)
            self.twin.run_ms(STEP_MS)
            waited += STEP_MS

    def _take_next(self):
        nxt = self.taken_next
        if nxt is not None:
            self.apply("bowl", nxt.take)
            self.taken = nxt.n
            self.taken_next = None

    def play(self, plies, on_ply=None, think_ms=0):
        """Every ply in turn; `on_ply(ply, event)` after each. Each player takes their stone
        from the bowl while the opponent plays (so the load cell has long settled on it when
        it is on the board: 8 readings at 10 SPS, bowls.py). `think_ms`: emulated ms each
        player thinks before their ply (0: brisk players, a ply as fast as the app takes it)."""
        for i, ply in enumerate(plies):
            if think_ms and i:
                self.twin.run_ms(think_ms)
            self.seen_us[ply.n] = None
            if i == 0 and ply.take is not None:
                self.apply("bowl", ply.take)
                self.taken = ply.n
                self.twin.run_ms(PRESS_MS)
            nxt = plies[i + 1] if i + 1 < len(plies) else None
            event = self.play_ply(ply, nxt)
            self.seen_us[ply.n] = self.found_us
            if on_ply is not None:
                on_ply(ply, event)
        self._lines()

    def read_file(self, name, chunk=2048):
        """A finished game file of the board's (`list`/`read`, as `ingboard pull` reads it)."""
        data = []
        offset = 0
        while True:
            reply = self.command({"cmd": "read", "name": name, "offset": offset, "count": chunk})
            if reply.get("type") == "error":
                raise ValueError("read %s: %s" % (name, reply["text"]))
            data.append(reply["data"])
            offset += len(reply["data"].encode())
            if not reply["data"] or offset >= reply["size"]:
                return "".join(data)

    def plies(self):
        """The game the board holds now ([colour, point name or None, kind] a ply)."""
        out = []
        while True:
            reply = self.command({"cmd": "plies", "from": len(out)})
            if reply.get("type") == "error":
                raise ValueError("plies: %s" % reply["text"])
            out += reply["plies"]
            if len(out) >= reply["total"] or not reply["plies"]:
                return out

    def events(self, kind):
        return [m for m in self.messages if m.get("type") == kind]


_REPLY_TYPES = {
    "ping": "pong",
    "state": "state",
    "list": "games",
    "read": "file",
    "cpu": "cpu",
    "mem": "mem",
    "plies": "plies",
}


def play_through(
    plies, config, work_dir, log=None, record_writes=False, think_ms=0, image="romfs"
):
    """The whole game on a fresh board: new game, every ply (`think_ms`: Board.play), the end
    (the count), the heap figures, the game the board holds, then the records (a new game
    closes the session log) read back, and the flash saved (`flash`) and its file system
    checked on the host (`fs`: flash_fs.check's report, or `fs_problem`: what is wrong). A
    dict of what happened (see the keys below); `board` stays open (closed by the caller,
    `result["board"].__exit__()`) when record_writes (its writes are then logged). `image`:
    Board's."""
    import time

    log = log or (lambda text: None)
    wall = time.time()
    board = Board(work_dir, image=image).__enter__()
    try:
        board.command({"cmd": "ping"}, APP_START_MS)
        if record_writes:
            board.twin.record_writes(True)
            board.record_actions = True
        number = board.new_game(config)["game"]
        board.looked = len(board.messages)
        start = board.twin.status()
        start_us = start["us"]
        start_wall = time.time()

        def progress(ply, event):
            board.trace.append((ply.n, board.twin.status()["us"]))
            if ply.n % 50 == 0:
                emulated = (board.twin.status()["us"] - start_us) / 1e6
                log(
                    "# twin long game: ply %d, %.0f s emulated, %.0f s wall"
                    % (ply.n, emulated, time.time() - start_wall)
                )

        board.play(plies, progress, think_ms)
        end = board.run_until(lambda m: m.get("type") == "end")
        end_us = board.found_us
        after = board.twin.status()
        emulated_s = (after["us"] - start_us) / 1e6
        # The flash writes of the game (the journal, the session log, the SGF at the end):
        # their count, not their duration - the twin's flash completes them at once.
        erases = after["flash_erases"] - start["flash_erases"]
        flash_ops = {
            "erases": erases,
            "programs": after["flash_writes"] - start["flash_writes"] - erases,
        }
        play_wall = time.time() - start_wall
        during = list(board.messages)  # the game's own messages (not the next game's)
        cpu = board.command({"cmd": "cpu"})
        mem = board.command({"cmd": "mem"})
        log(
            "# twin long game: after the count: %s bytes free, largest block %s (alloc %s)"
            % (mem.get("free"), mem.get("largest"), mem.get("alloc"))
        )
        held = board.plies()
        # The stones are put away before the next game (a new game on a full board would
        # flood the link with stone-extra alerts, and the app drops what its output queue
        # cannot hold - replies included).
        board.apply("grid", "/".join(["." * config["size"]] * config["size"]))
        for c in ("B", "W"):
            board.apply("bowl", (c, config["bowls"][c]["w180_g"]))
        board.twin.run_ms(SETTLE_MS)
        new_game_us = board.twin.status()["us"]  # the writes from here on are the next game's
        board.command({"cmd": "new-game", "config": config})
        writes = board.twin.status() if record_writes else None
        sgf = board.read_file("%04d.sgf" % number)
        session = board.read_file("%04d.log" % number)
        # The file system as the board leaves it, checked on the host: every file readable,
        # the journal's records whole (flash_fs.check).
        flash = os.path.join(work_dir, "flash-after.img")
        board.twin.save_flash(flash)
        fs, fs_problem = check_flash(flash)
    except BaseException as exc:
        # How far the game got: the plies the app had taken (for a figure of the bench).
        exc.plies_ok = sum(1 for at in board.seen_us.values() if at is not None)
        board.__exit__()
        raise
    if not record_writes:
        board.__exit__()
    counts = [m for m in during if m.get("type") == "count"]
    result = {
        "number": number,
        "events": [m for m in during if m.get("type") in ("move", "pass")],
        "warnings": [m["text"] for m in during if m.get("type") == "warning"],
        "alerts": [m for m in during if m.get("type") == "alert"],
        "noise": [n for n in board.noise if n != "MPY: soft reboot"],
        "count": counts[-1] if counts else None,
        "end": end,
        "cpu": cpu,
        "mem": mem,
        "held": held,
        "sgf": sgf,
        "log": session,
        "emulated_s": emulated_s,
        "flash_ops": flash_ops,
        "play_wall_s": play_wall,
        "wall_s": time.time() - wall,
        "presses_again": board.presses_again,
        "board": board,
        "writes": writes,
        "end_us": end_us,
        "new_game_us": new_game_us,
        "flash": flash,
        "fs": fs,
        "fs_problem": fs_problem,
    }
    log(
        "# twin long game: %d plies in %.0f s emulated, %.0f s wall (%.0f s in all); heap after "
        "the count: %s B free, largest block %s B; cpu %s %%"
        % (
            len(plies),
            emulated_s,
            play_wall,
            result["wall_s"],
            mem.get("free"),
            mem.get("largest"),
            cpu.get("load_pct"),
        )  # fmt: skip
    )
    return result


def check_flash(image, cut=False):
    """(report, None) of flash_fs.check(image, cut), or (None, what is wrong with its file
    system)."""
    from host_tools.twin import flash_fs

    try:
        return flash_fs.check(image, cut), None
    except flash_fs.FlashFsError as exc:
        return None, str(exc)


def state_at(applied, us):
    """(position, {colour: grams}) the players had made by emulated time `us`."""
    position = None
    grams = {}
    for t, kind, value in applied:
        if t >= us:
            break
        if kind == "grid":
            position = value
        elif kind == "bowl":
            grams[value[0]] = value[1]
    return position, grams


def resume_after_cut(image, plies, config, position, grams, work_dir, go_on=True):
    """Boot the board from a cut flash `image` with the stones and bowls as the players left
    them; the app resumes from its journal. Returns {"held": the plies the board holds, "went_on":
    the event of the next ply played on it (None without one), "warnings", "noise",
    "phase", "fs_problem": what is wrong with its file system at the end (check_flash), or
    None}."""
    board = Board(work_dir, flash_image=image, position=position, grams=grams)
    with board:
        reply = board.command({"cmd": "state"}, APP_START_MS)
        held = board.plies()
        k = len(held)
        went_on = None
        # With no ply committed there is no game to go on with: the board started one of its
        # own (a stone already down is then `stone-extra`, as for any new game).
        if go_on and reply.get("phase") == "play" and 0 < k < len(plies):
            went_on = go_on_after_resume(board, plies, k)
        board._lines()
        os.makedirs(board.work_dir, exist_ok=True)
        flash = os.path.join(board.work_dir, "flash-after.img")
        board.twin.save_flash(flash)
        _fs, fs_problem = check_flash(flash)
        if fs_problem is None:
            os.remove(flash)  # kept where something is wrong with it
        return {
            "held": held,
            "went_on": went_on,
            "phase": reply.get("phase"),
            "warnings": [m["text"] for m in board.messages if m.get("type") == "warning"],
            "noise": [n for n in board.noise if n != "MPY: soft reboot"],
            "fs_problem": fs_problem,
        }


def go_on_after_resume(board, plies, k):
    """The players go on where the cut left them, the board holding k plies: the last ply's
    prisoners lifted (if it captured) and seen lifted by the board before the next stone
    comes down, as in play (LIFT_SCANS: a stone put down with the lift is a prisoner slipping
    from the fingers, plays._slipped - the soak once put both down at one instant), then the
    next ply. Returns its move or pass event."""
    last = plies[k - 1]
    if last.lift is not None:
        board.lift(last)  # the lifting goes on
    return board.play_ply(plies[k])


def firmware_romfs(work_dir):
    """The package as `ingboard flash --romfs` builds it for the RP2040 (a ROMFS image path)."""
    from host_tools import FIRMWARE
    from host_tools.commands import flash

    files = flash.build(FIRMWARE, os.path.join(work_dir, "mpy"), "armv6m")
    path = os.path.join(work_dir, "ingboard.romfs")
    with open(path, "wb") as f:
        f.write(flash.romfs_image(files, work_dir))
    return path
