"""`ingboard sim [--port N]`: the virtual board in the browser, backed by the firmware code."""

from host_tools.errors import InputError
from host_tools.sim_server import make_server

HELP = "interactive virtual board in the browser (the firmware's tracker behind it)"


def add_arguments(parser):
    parser.add_argument("--port", type=int, default=8000, help="local port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")


def run(args):
    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0..65535, not %d" % args.port)
    server = make_server(args.port, args.host)
    host, port = server.server_address[:2]
    print("ingboard sim: http://%s:%d/  (Ctrl-C to stop)" % (host, port), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
