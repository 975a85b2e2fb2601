"""`ingboard twin [--romfs | --image F.uf2] [--flash-image F] [--hardware [--displays DIR]]
[--model M.mjs] [--fault TEXT]... [--link PATH] [--fast]`, or `ingboard twin --sim [--port N]
[--chores]`.

`--sim`: the virtual board's page plays on the twin (host_tools/twin/live_board.py): the
firmware is built into a ROMFS image and its app started; the page's stones, presses and
buttons drive the hardware models, the twin's displays are the page's clock faces.

Boots the MicroPython rp2 firmware on the emulated RP2040 (host_tools/twin/) and serves its USB
serial on a pseudo-terminal: `ingboard flash/pull/monitor --port <pty>` and `mpremote connect
<pty>` work against it as against a board; `--hardware` puts the board's hardware models around
it (host_tools/twin/hardware.py: an empty board, a full set of stones in each bowl) and
writes what the two displays show as `display-B.png` and `display-W.png` in `--displays DIR`
(default out/twin; rewritten in place, a live view), `--fault TEXT` wired wrong
(host_tools/twin/faults.py). Runs until Ctrl-C.
`--flash-image F` boots from F's flash contents when F exists and saves the flash to F at the
end (a board's memory between sessions). Emulated time follows the wall clock (never ahead of
it; `--fast` lets idle time run ahead).
"""

import os
import signal
import sys
import time

from host_tools.errors import InputError

HELP = "run the firmware on the emulated RP2040 (device twin), serial on a pseudo-terminal"


def add_arguments(parser):
    image = parser.add_mutually_exclusive_group()
    image.add_argument(
        "--romfs", action="store_true", help="boot the firmware image with a ROMFS partition"
    )
    image.add_argument("--image", help="a MicroPython RPI_PICO .uf2 to boot instead")
    parser.add_argument(
        "--flash-image", help="load the flash from this file if it exists, save it there at exit"
    )
    parser.add_argument(
        "--hardware",
        action="store_true",
        help="attach the board's hardware models (grid, load cells, keys, buzzer, displays)",
    )
    parser.add_argument(
        "--displays",
        metavar="DIR",
        default=os.path.join("out", "twin"),
        help="with --hardware: write the displays' pictures here (display-B.png, display-W.png)",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="TEXT",
        help="with --hardware: a wiring fault of the models (host_tools/twin/faults.py)",
    )
    parser.add_argument(
        "--model", action="append", default=[], help="a hardware model (.mjs) to attach"
    )
    parser.add_argument("--link", help="also make PATH a symlink to the pseudo-terminal")
    parser.add_argument(
        "--sim",
        action="store_true",
        help="play on the twin from the virtual board's page: the firmware is built into a "
        "ROMFS image and started, the page drives the hardware models (implies --hardware)",
    )
    parser.add_argument("--port", type=int, default=8000, help="the page's port with --sim")
    parser.add_argument(
        "--chores",
        action="store_true",
        help="with --sim: the physical chores mode (no assist) from the start",
    )
    parser.add_argument(
        "--fast", action="store_true", help="let emulated time run ahead of the wall clock"
    )


DISPLAY_POLL_S = 0.25  # how often the display pictures are brought up to date (wall clock)


def _interrupt(*_):
    raise KeyboardInterrupt


def run(args):
    if args.sim:
        return run_sim(args)
    return run_plain(args)


def run_sim(args):
    """The virtual board's page on a twin running the app (host_tools/twin/live_board.py)."""
    import tempfile

    from host_tools import sim_counsel
    from host_tools.sim_server import make_server
    from host_tools.twin import live_board
    from host_tools.twin.process import TwinError
    from host_tools.twin.pty_bridge import PtyBridge

    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0..65535, not %d" % args.port)
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    twin = bridge = link = session = server = None
    with tempfile.TemporaryDirectory(prefix="ingboard-twin-sim-") as work:
        try:
            print("ingboard twin: building the firmware and starting the app...", flush=True)
            twin = live_board.start(work)
            bridge = PtyBridge(twin).start()
            link = live_board.TwinLink(twin, displays_dir=args.displays)
            session = live_board.TwinSession(
                link,
                config={"size": 19, "rules": "ing1991", "komi": 8},
                assist=not args.chores,
                counsel=sim_counsel.start(),
            )
            server = make_server(args.port, "127.0.0.1", session)
            host, port = server.server_address[:2]
            print(
                "ingboard twin: the page at http://%s:%d/ plays on the twin (serial %s, "
                "displays in %s); Ctrl-C stops" % (host, port, bridge.path, args.displays),
                flush=True,
            )
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        except (TwinError, TimeoutError) as exc:
            print("ingboard twin: %s" % exc, file=sys.stderr)
            return 1
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, signal.SIG_IGN)
            if server is not None:
                server.server_close()
            if session is not None:
                session.close()
            if link is not None:
                link.close()
            if bridge is not None:
                bridge.close()
            if twin is not None:
                twin.close()
    return 0


def run_plain(args):
    from host_tools.twin import frames
    from host_tools.twin.process import Twin, TwinError
    from host_tools.twin.pty_bridge import PtyBridge

    image = args.image or ("romfs" if args.romfs else "stock")
    if args.image and not os.path.isfile(args.image):
        raise InputError("--image %s: no such file" % args.image)
    for model in args.model:
        if not os.path.isfile(model):
            raise InputError("--model %s: no such file" % model)
    if args.fault and not args.hardware:
        raise InputError("--fault wires the hardware models: give --hardware too")
    if args.fault:
        from host_tools.twin import faults

        faults.parse(args.fault)  # bad input before anything boots
    flash = args.flash_image
    if flash and os.path.isdir(flash):
        raise InputError("--flash-image %s is a directory" % flash)
    twin = Twin(image, flash_image=flash if flash and os.path.exists(flash) else None)
    bridge = None
    writer = None
    # Ctrl-C and SIGTERM end it, the flash still saved (also when started with SIGINT ignored,
    # as a shell does for a background job).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        twin.start()
        if args.hardware:
            from host_tools.twin import faults, hardware

            hardware.attach(twin, faults=faults.parse(args.fault))
            hardware.fill_bowls(twin)
            writer = frames.FrameWriter(args.displays)
        for model in args.model:
            twin.load_model(model)
        bridge = PtyBridge(twin).start()
        if args.link:
            if os.path.lexists(args.link):
                os.remove(args.link)
            os.symlink(bridge.path, args.link)
        twin.go(realtime=not args.fast)
        print(
            "ingboard twin: MicroPython %s on %s (e.g. ingboard flash --port %s); Ctrl-C stops"
            % (os.path.basename(twin.uf2), args.link or bridge.path, args.link or bridge.path),
            flush=True,
        )
        if writer is not None:
            print("ingboard twin: the displays in %s" % args.displays, flush=True)
        while not twin.stopped and twin.proc.poll() is None:
            time.sleep(DISPLAY_POLL_S)
            if writer is not None:
                writer.poll(twin)
    except KeyboardInterrupt:
        pass
    except TwinError as exc:
        print("ingboard twin: %s" % exc, file=sys.stderr)
        return 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)  # a second Ctrl-C must not lose the flash image
        try:
            if twin.proc is not None:
                twin.pause()
                if flash:
                    twin.save_flash(flash)
                    print("ingboard twin: flash saved to %s" % flash)
        except TwinError as exc:
            print("ingboard twin: %s" % exc, file=sys.stderr)
        if bridge:
            bridge.close()
        if args.link and os.path.islink(args.link):
            os.remove(args.link)
        twin.close()
    return 0
