"""Which functions of a compiled module MicroPython calls with their frame on the heap.

MicroPython (without its optional Python stack, as on the rp2 images) keeps a bytecode
function's frame - its locals, its value stack and 3 words a nested exception handler - on the
C stack only up to 11 words (py/objfun.c, VM_MAX_STATE_ON_STACK); a larger frame is allocated
on the heap at every call and freed after it. On the RP2040 twin such a call costs ~150 us more
than a small one (a search of the app's fragmented heap), and each allocation counts towards
the heap's collection threshold (ingboard/gc_policy.py), so a function called every scan, key
poll or bowl reading with a large frame costs the idle board its CPU twice over. The board's
hot functions are kept small; tests/host/test_hot_frames.py names them and checks them here.

`frames(path)` reads a .mpy file (format version 6, MicroPython's py/persistentcode.c) and
gives each bytecode function's qualified name, its words of state and of handlers, and its
frame's size in bytes. `python -m host_tools.mpy_frames FILE.py|FILE.mpy...` lists the
functions whose frame goes on the heap, largest first (a .py is compiled with the project's
mpy-cross first, and the names the firmware has built in are resolved from its source).
"""

import sys

MPY_VERSION = 6
C_STACK_BYTES = 11 * 4  # VM_MAX_STATE_ON_STACK on a 32-bit port
_WORD = 4
_HANDLER_BYTES = 3 * _WORD  # mp_exc_stack_t: handler, value stack pointer, saved exception
_KIND_BYTECODE = 0
_KIND_NATIVE_PY = 1
_KIND_VIPER = 2
_KIND_ASM = 3
_SCOPE_GENERATOR = 0x01
_SCOPE_VIPER_RODATA = 0x20
_SCOPE_VIPER_BSS = 0x40
# Constant objects (MP_PERSISTENT_OBJ_*): the four without data, then a tuple's.
_OBJ_NO_DATA = (0, 1, 2, 3, 4)
_OBJ_STR, _OBJ_BYTES, _OBJ_TUPLE = 5, 6, 10


class MpyError(ValueError):
    pass


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        if self.at >= len(self.data):
            raise MpyError("the .mpy file ends early")
        b = self.data[self.at]
        self.at += 1
        return b

    def bytes(self, n):
        if self.at + n > len(self.data):
            raise MpyError("the .mpy file ends early")
        out = self.data[self.at : self.at + n]
        self.at += n
        return out

    def uint(self):
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n


def _signature(code):
    # MP_BC_PRELUDE_SIG_DECODE_INTO (py/bc.h): (n_state, n_exc_stack, scope flags), and where
    # the prelude's size part starts.
    z = code[0]
    state = (z >> 3) & 0xF
    handlers = (z >> 2) & 1
    flags = 0
    i = 1
    n = 0
    while z & 0x80:
        z = code[i]
        i += 1
        state |= (z & 0x30) << (2 * n)
        handlers |= (z & 0x02) << n
        flags |= ((z & 0x40) >> 6) << n
        n += 1
    return state + 1, handlers, flags, i


def _name_index(code, i):
    # After the signature: the size part (MP_BC_PRELUDE_SIZE_DECODE_INTO), then the info
    # part, which starts with the function's simple name (a qstr index, a varint).
    while code[i] & 0x80:
        i += 1
    i += 1
    n = 0
    while True:
        b = code[i]
        i += 1
        n = (n << 7) | (b & 0x7F)
        if not b & 0x80:
            return n


def _skip_obj(r):
    kind = r.byte()
    if kind in _OBJ_NO_DATA:
        return
    n = r.uint()
    if kind == _OBJ_TUPLE:
        for _ in range(n):
            _skip_obj(r)
        return
    r.bytes(n)
    if kind in (_OBJ_STR, _OBJ_BYTES):
        r.byte()  # the terminating NUL


def _raw_code(r, qstrs, parent, out):
    # One raw code and its children (py/persistentcode.c load_raw_code): each bytecode
    # function as (parent's name, name's table entry, state words, handlers, flags).
    kind_len = r.uint()
    kind = kind_len & 3
    children = kind_len & 4
    code = r.bytes(kind_len >> 3)
    me = parent
    if kind == _KIND_BYTECODE:
        state, handlers, flags, i = _signature(code)
        me = (parent, qstrs[_name_index(code, i)])
        out.append((me, state, handlers, flags))
    elif kind == _KIND_NATIVE_PY:
        r.uint()  # where the prelude is in the machine code
    else:
        flags = r.uint()
        if kind == _KIND_ASM:
            r.uint()  # positional arguments
            r.uint()  # type signature
        if kind == _KIND_VIPER:
            if flags & _SCOPE_VIPER_RODATA:
                r.uint()
            if flags & _SCOPE_VIPER_BSS:
                r.uint()
        raise MpyError("native code: its relocations are not read here")
    if children:
        for _ in range(r.uint()):
            _raw_code(r, qstrs, me, out)


def _names(r):
    # The .mpy's header and its table of names (qstrs): each a name's text, or ("static",
    # index) for a name the firmware has built in (MicroPython's own qstrs: a .mpy gives only
    # their index). Returns (names, the number of constant objects that follow).
    header = r.bytes(4)
    if header[0:1] != b"M" or header[1] != MPY_VERSION:
        raise MpyError("not a version %d .mpy file" % MPY_VERSION)
    if header[2] & 0x40:
        r.uint()  # architecture flags
    n_qstr = r.uint()
    n_obj = r.uint()
    qstrs = []
    for _ in range(n_qstr):
        n = r.uint()
        if n & 1:
            qstrs.append(("static", n >> 1))
        else:
            qstrs.append(r.bytes(n >> 1).decode())
            r.byte()
    return qstrs, n_obj


def interned_names(path):
    """The names (qstrs) a .mpy file's import interns unless the firmware has them already: its
    table's names that are not MicroPython's static ones, as a set of texts."""
    with open(path, "rb") as f:
        qstrs, _n_obj = _names(_Reader(f.read()))
    return {q for q in qstrs if isinstance(q, str)}


def _read(path):
    # [((parent, entry), state, handlers, flags)] of the file's bytecode functions in order of
    # definition; an entry is a name's text, or ("static", index) (_names).
    with open(path, "rb") as f:
        r = _Reader(f.read())
    qstrs, n_obj = _names(r)
    for _ in range(n_obj):
        _skip_obj(r)
    out = []
    _raw_code(r, qstrs, None, out)
    return out


def static_names(names, binary):
    """{static qstr index: name} for those of `names` (identifiers) the firmware has built in:
    a .mpy names them by index, not by text. Found by compiling a function of each name with
    mpy-cross (`binary`) and reading which entry each got."""
    import os
    import subprocess
    import tempfile

    names = sorted(set(names))
    with tempfile.TemporaryDirectory(prefix="ingboard-frames-") as work:
        src = os.path.join(work, "probe.py")
        with open(src, "w") as f:
            f.write("".join("def %s():\n    pass\n" % n for n in names))
        out = os.path.join(work, "probe.mpy")
        subprocess.run([binary, "-o", out, src], check=True, capture_output=True)
        functions = _read(out)[1:]  # after the module's own code, one per name in order
    return {
        entry[1]: name
        for ((_, entry), _, _, _), name in zip(functions, names)
        if entry[0] == "static"
    }


def frames(path, static=None):
    """[(qualified name, words of state, handlers, frame bytes, generator)] of every bytecode
    function in the .mpy file at `path`, the module's own code first ("<module>"). `static`:
    {static qstr index: name} (static_names()) for the names the firmware has built in."""
    static = static or {}
    names = {}  # (parent, entry) -> qualified name
    rows = []
    for me, state, handlers, flags in _read(path):
        parent, entry = me
        if isinstance(entry, tuple):
            entry = static.get(entry[1], "<static qstr %d>" % entry[1])
        name = "<module>" if parent is None else names[parent] + "." + entry
        names[me] = name
        size = state * _WORD + handlers * _HANDLER_BYTES
        rows.append((name, state, handlers, size, bool(flags & _SCOPE_GENERATOR)))
    return rows


def goes_on_heap(row):
    """True for a frames() row whose function gets its frame on the heap at every call (a
    generator's frame is made once, with the generator)."""
    return row[3] > C_STACK_BYTES and not row[4]


def on_heap(path, static=None):
    """frames(path) of the functions whose frame goes on the heap at every call."""
    return [f for f in frames(path, static) if goes_on_heap(f)]


def source_names(text):
    """Every function's and class's qualified name (Class.method, outer.inner) in Python
    source `text`: a class body is compiled as a function too."""
    import ast

    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                found.append(name)
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(text), "")
    return found


def compiled_frames(src, binary, work):
    """frames() of Python source file `src`, compiled by mpy-cross (`binary`) into directory
    `work`, the firmware's built-in names resolved from the source."""
    import os
    import subprocess

    with open(src) as f:
        names = source_names(f.read())
    out = os.path.join(work, os.path.basename(src)[:-3] + ".mpy")
    proc = subprocess.run([binary, "-o", out, src], capture_output=True, text=True)
    if proc.returncode:
        raise MpyError("mpy-cross rejected %s: %s" % (src, (proc.stderr or proc.stdout).strip()))
    return frames(out, static_names([n.split(".")[-1] for n in names], binary))


def main(argv=None):
    import tempfile

    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m host_tools.mpy_frames FILE.py|FILE.mpy...", file=sys.stderr)
        return 2
    rows = []
    for path in paths:
        try:
            if path.endswith(".py"):
                from host_tools import firmware_build

                with tempfile.TemporaryDirectory(prefix="ingboard-frames-") as work:
                    found = compiled_frames(path, firmware_build.mpy_cross_binary(), work)
            else:
                found = frames(path)
        except (OSError, MpyError) as exc:
            print("%s: %s" % (path, exc), file=sys.stderr)
            return 1
        for name, state, handlers, size, _gen in filter(goes_on_heap, found):
            rows.append((size, name, state, handlers, path))
    for size, name, state, handlers, path in sorted(rows, reverse=True):
        print("%4d B  %2d words %d handlers  %s  %s" % (size, state, handlers, path, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
