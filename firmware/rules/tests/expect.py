"""Small assertion helpers for the shared firmware tests (no pytest: these run on MicroPython)."""


def raises(exc_type, func, *args, **kwargs):
    """Call func and return the exception it raised; fail if it raised nothing or another type."""
    try:
        func(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(func, "__name__", func), exc_type))
