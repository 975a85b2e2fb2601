"""Writing the files a command was asked to write, as users expect.

`write_all({path: text})` writes every output or none: each regular file goes to a temporary
file beside it that replaces it at the end, so a failure leaves no half-written file. A path
that is not a regular file - `/dev/stdout`, a named pipe (FIFO), a terminal or another device -
is written into as it is (replacing it would create a regular file where the pipe was, and
nothing would reach the reader), appending; those are written last, after every regular file
is in place.
"""

import os
import stat
import tempfile

from host_tools.errors import InputError


def is_special(path):
    """True for /dev/... and /proc/... (even when /dev/stdout leads to a file the shell
    opened) and for an existing path that is not a regular file or directory (a FIFO)."""
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _fail(path, exc):
    return InputError("cannot write %s: %s" % (path, exc.strerror or exc))


def write_all(outputs):
    """Write {path: text} (see the module docstring)."""
    temps = []
    special = []
    try:
        for path, text in outputs.items():
            if os.path.isdir(path):
                raise InputError("%s is a directory, not a file to write" % path)
            if is_special(path):
                special.append((path, text))
                continue
            directory = os.path.dirname(os.path.abspath(path))
            try:
                fd, tmp = tempfile.mkstemp(dir=directory, prefix=".ingboard-")
                temps.append((tmp, path))
                with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
            except OSError as exc:
                raise _fail(path, exc) from None
        try:
            for tmp, path in temps:
                os.replace(tmp, path)
        except OSError as exc:
            raise _fail(path, exc) from None
        temps = []
    finally:
        for tmp, _path in temps:
            try:
                os.remove(tmp)
            except OSError:
                pass
    for path, text in special:
        try:
            # Append: /dev/stdout may be a file the shell opened with >> (nothing to truncate
            # in a pipe or device).
            with open(path, "a", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except BrokenPipeError:
            pass  # the reader went away (| head): what it wanted, it got
        except OSError as exc:
            raise _fail(path, exc) from None
