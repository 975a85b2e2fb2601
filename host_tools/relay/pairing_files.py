"""A round's pairings file read whatever its kind: OpenGotha's tournament XML
(`opengotha.py`) or a plain CSV (`pairings.read_csv`), told apart by its first bytes."""

from host_tools.relay import opengotha
from host_tools.relay.pairings import PairingError, read_csv


def read(data, filename="", round_no=None):
    """The Tournament in a pairings file (bytes or text); OpenGotha's XML or a CSV.

    `round_no`: the round a CSV without a round column pairs (default 1)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip():
        raise PairingError("the file is empty")
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") or filename.lower().endswith(".xml"):
        return opengotha.read(data)
    return read_csv(data, round_no)
