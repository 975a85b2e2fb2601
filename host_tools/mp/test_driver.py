# Runs inside MicroPython (WebAssembly): imports every firmware module, then runs every test_*
# function of the given test modules. Results go to the global RESULT as a JSON string, one
# record per check: [kind, name, ok, detail].
# The host fills in FIRMWARE_MODULES and TEST_MODULES before this text.
import io
import json
import sys

_records = []


def _trace(exc):
    buf = io.StringIO()
    sys.print_exception(exc, buf)
    return buf.getvalue()


for _path, _module in FIRMWARE_MODULES:  # noqa: F821 (set by the host)
    try:
        __import__(_module)
        _records.append(["import", _path, True, ""])
    except BaseException as exc:  # noqa: B036 (report everything, SyntaxError included)
        _records.append(["import", _path, False, _trace(exc)])

for _module in TEST_MODULES:  # noqa: F821 (set by the host)
    try:
        _mod = __import__(_module)
    except BaseException as exc:  # noqa: B036
        _records.append(["test", _module, False, "import failed:\n" + _trace(exc)])
        continue
    for _name in sorted(dir(_mod)):
        if not _name.startswith("test_"):
            continue
        _fn = getattr(_mod, _name)
        if not callable(_fn):
            continue
        try:
            _fn()
            _records.append(["test", _module + "." + _name, True, ""])
        except BaseException as exc:  # noqa: B036
            _records.append(["test", _module + "." + _name, False, _trace(exc)])

RESULT = json.dumps(_records)
