"""Run ingrules' tests: every test_* function of every test_*.py beside this file.

The same file runs on CPython and MicroPython, with no test framework: `python run.py` (or
`micropython run.py`) prints each failure and a closing line "N passed, N failed", and exits
1 when a test failed. The tests import `ingrules` from wherever it is installed; run them from
any directory but the source tree's `firmware/rules/` to test the installed package.
"""

import io
import os
import sys


def _here():
    path = __file__ if "__file__" in globals() else "run.py"
    i = path.rfind("/")
    return path[:i] if i >= 0 else "."


def _trace(exc):
    if hasattr(sys, "print_exception"):  # MicroPython
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()
    import traceback

    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def modules(directory):
    return sorted(
        n[:-3] for n in os.listdir(directory) if n.startswith("test_") and n.endswith(".py")
    )


def run_all(directory=None, names=None):
    """[(module.function, None or the failure's traceback)] for the tests in `directory`."""
    directory = directory or _here()
    if directory not in sys.path:
        sys.path.insert(0, directory)
    results = []
    for name in names or modules(directory):
        try:
            module = __import__(name)
        except Exception as exc:  # noqa: BLE001 (a test module that does not import fails)
            results.append((name, "import failed:\n" + _trace(exc)))
            continue
        for attr in sorted(dir(module)):
            test = getattr(module, attr)
            if not attr.startswith("test_") or not callable(test):
                continue
            try:
                test()
                results.append((name + "." + attr, None))
            except Exception as exc:  # noqa: BLE001
                results.append((name + "." + attr, _trace(exc)))
    return results


def main():
    results = run_all()
    failed = [(name, trace) for name, trace in results if trace is not None]
    for name, trace in failed:
        print("FAILED %s\n%s" % (name, trace))
    import ingrules

    print("ingrules %s from %s" % (ingrules.VERSION, ingrules.__file__))
    print("%d passed, %d failed" % (len(results) - len(failed), len(failed)))
    sys.exit(1 if failed or not results else 0)


if __name__ == "__main__":
    main()
