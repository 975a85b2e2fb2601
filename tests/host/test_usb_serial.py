"""The USB serial link's readline over a real pipe (select.poll on its file descriptor): whole
lines only, none while a line is partial, a line longer than MAX cut at MAX, the end of input
None."""

import os

import pytest
from ingboard.drivers.usb_serial import FIRST, MAX, UsbSerial


@pytest.fixture
def link():
    r, w = os.pipe()
    inp = os.fdopen(r, "rb", buffering=0)
    out = os.fdopen(w, "wb", buffering=0)
    sink_r, sink_w = os.pipe()
    usb = UsbSerial(inp, os.fdopen(sink_w, "wb", buffering=0))
    yield usb, out
    for f in (inp, out):
        f.close()
    os.close(sink_r)


def test_lines_come_whole_and_only_when_complete(link):
    usb, out = link
    assert usb.readline() is None  # nothing there: no wait
    out.write(b'{"cmd": "ping"}\n{"cmd": "st')
    assert usb.readline() == b'{"cmd": "ping"}'
    assert usb.readline() is None  # a partial line is kept
    out.write(b'ate"}\n\n')
    assert usb.readline() == b'{"cmd": "state"}'
    assert usb.readline() == b""  # an empty line is a line
    assert usb.readline() is None


def test_a_line_longer_than_max_is_cut_at_max(link):
    usb, out = link
    out.write(b"x" * (MAX + 50) + b"\nok\n")
    assert usb.readline() == b"x" * MAX
    assert usb.readline() == b"ok"


def test_lines_past_the_first_buffer_come_whole(link):
    # The buffer grows (FIRST, doubled to MAX) only when a line needs it: each line whole,
    # whatever its length, before and after a long one.
    usb, out = link
    lengths = (FIRST - 1, FIRST, FIRST + 1, 2 * FIRST, 3 * FIRST + 7, 5, MAX)
    for i, n in enumerate(lengths):
        line = bytes(48 + (i + k) % 10 for k in range(n))
        out.write(line + b"\n")
        assert usb.readline() == line
    assert usb.readline() is None


def test_the_end_of_input_is_none(link):
    usb, out = link
    out.write(b"half")
    out.close()
    assert usb.readline() is None
