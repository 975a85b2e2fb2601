"""Make a binary STL byte-stable: OpenSCAD writes the same triangles in a different order from
run to run, so sort them (each triangle's bytes kept as written: its orientation stays) and
write a fixed header. Usage: python stl_normalise.py FILE.stl [...] (rewritten in place)."""

import struct
import sys

HEADER = b"ingboard hardware/mech (triangles sorted)".ljust(80, b" ")


def normalise(data):
    if len(data) < 84:
        raise ValueError("not a binary STL: %d bytes" % len(data))
    (count,) = struct.unpack("<I", data[80:84])
    if len(data) != 84 + 50 * count:
        raise ValueError("not a binary STL: %d triangles in %d bytes" % (count, len(data)))
    records = sorted(data[84 + 50 * i : 134 + 50 * i] for i in range(count))
    return HEADER + data[80:84] + b"".join(records)


def main(paths):
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        out = normalise(data)
        if out != data:
            with open(path + ".tmp", "wb") as f:
                f.write(out)
            import os

            os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
