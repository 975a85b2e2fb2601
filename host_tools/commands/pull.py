"""`ingboard pull [--port P] [--dest DIR] [--delete] [--force]`: games and logs off the board.

Copies every finished game `/games/*.sgf` to DIR/games/ and every finished session log
`/sessions/*.log` to DIR/sessions/ (paths: ingboard/storage_paths.py); files still being
written (`.part`) and the journal of the game in progress stay where they are. A file already
in DIR with the same bytes is skipped; one with different bytes is kept and reported (exit 1)
unless `--force`. With `--delete`, each file is removed from the board once its copy is on
disk and reads back byte for byte. Reading files stops the board's program (mpremote's raw
REPL); pull restarts it at the end, and the journal carries a game in progress across that.
"""

import os
import sys

from host_tools.device import DeviceError, connect
from host_tools.errors import InputError

HELP = "copy finished games (SGF) and session logs off the board"


def add_arguments(parser):
    parser.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    parser.add_argument("--dest", default=".", help="where games/ and sessions/ go (default: .)")
    parser.add_argument(
        "--delete", action="store_true", help="remove each copied file from the board"
    )
    parser.add_argument("--force", action="store_true", help="overwrite local files that differ")


def kinds():
    from ingboard import storage_paths as sp

    return (
        ("games", sp.GAMES_DIR, sp.GAME_SUFFIX),
        ("sessions", sp.SESSIONS_DIR, sp.SESSION_SUFFIX),
    )


def pull(dev, dest, delete=False, force=False, log=print):
    """Copy the board's finished files into dest; returns (copied, same, conflicts)."""
    copied = same = 0
    conflicts = []
    for local_dir, board_dir, suffix in kinds():
        try:
            entries = dev.listdir(board_dir)
        except FileNotFoundError:
            continue
        for name, is_dir, _size in entries:
            if is_dir or not name.endswith(suffix):
                continue
            board_path = board_dir + "/" + name
            data = dev.fs_get(board_path)
            target_dir = os.path.join(dest, local_dir)
            os.makedirs(target_dir, exist_ok=True)
            target = os.path.join(target_dir, name)
            if os.path.exists(target):
                with open(target, "rb") as f:
                    old = f.read()
                if old == data:
                    same += 1
                    log("%s: already here" % os.path.join(local_dir, name))
                    if delete:
                        dev.remove(board_path)
                    continue
                if not force:
                    conflicts.append(target)
                    log("%s: differs from the board's copy; kept yours (--force)" % target)
                    continue
            with open(target, "wb") as f:
                f.write(data)
            with open(target, "rb") as f:
                if f.read() != data:
                    raise DeviceError("%s did not read back as written" % target)
            copied += 1
            log("%s -> %s (%d bytes)" % (board_path, target, len(data)))
            if delete:
                dev.remove(board_path)
    return copied, same, conflicts


def run(args):
    dest = args.dest
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise InputError("--dest %s is not a directory" % dest)
    dev = connect(args.port)
    try:
        copied, same, conflicts = pull(dev, dest, args.delete, args.force)
        dev.start_app()
    except DeviceError as exc:
        print("ingboard pull: %s" % exc, file=sys.stderr)
        return 1
    finally:
        dev.close()
    print("%d files copied, %d already here, %d conflicts" % (copied, same, len(conflicts)))
    return 1 if conflicts else 0
