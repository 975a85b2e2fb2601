"""The grid's calibration file: its bytes from three planes of readings (`ingboard calibrate`)
and the planes from its bytes (Classifier.load_calibration). A module of its own: the board
reads the file once, at the start (main.py drops the module after), and keeps none of this
code for the game.

Calibration file (written by `ingboard calibrate`, read by `parse_calibration`): little-endian,
    4 bytes  b"IGCL"
    1 byte   format version (1)
    1 byte   board size n
    2 bytes  n*n (u16), a redundancy check
    3 planes of n*n u16: empty, black, white readings (read_u16 scale), scan order
    2 bytes  checksum: sum of every preceding byte, modulo 65536
2176 bytes for 19x19.
"""

from array import array

from micropython import const

CAL_MAGIC = b"IGCL"
CAL_VERSION = const(1)
_CAL_HEADER = const(8)


def _checksum(data, end):
    s = 0
    for i in range(end):
        s += data[i]
    return s & 0xFFFF


def calibration_bytes(size, empty, black, white):
    """The calibration file's bytes for three sequences of size*size readings."""
    n = size * size
    if len(empty) != n or len(black) != n or len(white) != n:
        raise ValueError("calibration needs %d readings per level" % n)
    data = bytearray(_CAL_HEADER + 6 * n + 2)
    data[0:4] = CAL_MAGIC
    data[4] = CAL_VERSION
    data[5] = size
    data[6] = n & 0xFF
    data[7] = n >> 8
    j = _CAL_HEADER
    for plane in (empty, black, white):
        for v in plane:
            if v < 0 or v > 0xFFFF:
                raise ValueError("reading out of range: %r" % (v,))
            data[j] = v & 0xFF
            data[j + 1] = v >> 8
            j += 2
    s = _checksum(data, j)
    data[j] = s & 0xFF
    data[j + 1] = s >> 8
    return bytes(data)


def parse_calibration(data):
    """(size, empty, black, white) from a calibration file; ValueError if it is damaged."""
    if len(data) < _CAL_HEADER or bytes(data[0:4]) != CAL_MAGIC:
        raise ValueError("not an ingboard calibration file")
    if data[4] != CAL_VERSION:
        raise ValueError("calibration format %d is not supported" % data[4])
    size = data[5]
    n = size * size
    if data[6] | (data[7] << 8) != n or len(data) != _CAL_HEADER + 6 * n + 2:
        raise ValueError("calibration file has the wrong length")
    end = _CAL_HEADER + 6 * n
    if _checksum(data, end) != data[end] | (data[end + 1] << 8):
        raise ValueError("calibration file checksum mismatch")
    planes = []
    j = _CAL_HEADER
    for _ in range(3):
        plane = array("H", [0] * n)
        for i in range(n):
            plane[i] = data[j] | (data[j + 1] << 8)
            j += 2
        planes.append(plane)
    return size, planes[0], planes[1], planes[2]
