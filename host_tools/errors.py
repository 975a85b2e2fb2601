"""Errors the command line reports as one line with exit status 2."""


class InputError(Exception):
    """Bad input: a file that breaks its format, a point off the board, a bad option value."""
