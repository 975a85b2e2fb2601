"""The `ingboard` command line (see docs/command-line.md).

Each subcommand lives in host_tools/commands/<name>.py and provides `add_arguments(parser)`,
`run(args) -> int` and a one-line `HELP`. Exit status: 0 done, 1 the checked thing failed,
2 bad input or usage (one clear line on stderr).
"""

import argparse
import importlib
import sys

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.errors import InputError

# Commands that exist. A command is listed here only once it does real work.
COMMANDS = (
    "replay",
    "score",
    "simulate",
    "track",
    "flash",
    "pull",
    "monitor",
    "calibrate",
    "bringup",
    "setup-network",
    "relay",
    "demo",
    "gtp",
    "sim",
    "twin",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # One clear line, exit 2 (argparse would print the whole usage first).
        print("%s: error: %s" % (self.prog, message), file=sys.stderr)
        raise SystemExit(2)


def build_parser():
    parser = _Parser(prog="ingboard", description="ingboard: the instrumented go set.")
    parser.add_argument("--version", action="store_true", help="print the firmware version")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module("host_tools.commands." + name.replace("-", "_"))
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from ingboard import VERSION

        print("ingboard %s" % VERSION)
        return 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args._run(args)
    except InputError as exc:
        print("ingboard %s: error: %s" % (args.command, exc), file=sys.stderr)
        return 2
    except (ValueError, ArithmeticError, LookupError, RecursionError) as exc:
        # Input the command's own checks missed (issue 19: no input gives a traceback): one
        # line naming it, exit 2 like any bad input.
        print(
            "ingboard %s: error: cannot process the input: %s: %s"
            % (args.command, exc.__class__.__name__, str(exc)[:200]),
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
