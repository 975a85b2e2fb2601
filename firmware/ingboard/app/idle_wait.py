"""The scheduler's wait between two task wake-ups, without a frame on the heap.

MicroPython's asyncio (extmod/asyncio/core.py) waits for the next task through
`IOQueue.wait_io_event(dt)` before every task it resumes - with dt 0 when the task is already
due. That method's frame is over MicroPython's limit for the C stack (gc_policy.py,
tests/host/test_hot_frames.py), so each of the board's ~190 wake-ups a second allocated it on
the heap: freed at once, but counted towards gc.threshold - most of what set off an idle
board's collections on the twin (~19 of ~24 KB a second counted).

`install(asyncio)` gives the running loop's IOQueue a wait of its own: while no stream is
registered with the loop (the board's tasks poll theirs: the USB link's readline, the relay's
MQTT socket) it sleeps the time to the next task (time.sleep_ms, which services the USB and
scheduled callbacks as the poll did) or returns at once; while one is, it is the asyncio's own
wait, unchanged. Only where the loop is that one (the rp2 and unix ports); CPython's asyncio
and the WebAssembly port's have no IOQueue, and nothing is changed there.
"""

_poll = None  # the IOQueue's own wait_io_event (a bound method)
_streams = None  # the IOQueue's map: the streams tasks wait on
_sleep = None  # time.sleep_ms


def wait_io_event(dt):
    """IOQueue.wait_io_event(dt) as the loop calls it (see the module docstring)."""
    if _streams:
        _poll(dt)
    elif dt > 0:
        _sleep(dt)


def install(asyncio, sleep_ms=None):
    """Give asyncio's running loop the wait above; True if it was given (see the module
    docstring). `sleep_ms`: the wait while no stream is registered (default time.sleep_ms)."""
    global _poll, _streams, _sleep
    core = getattr(asyncio, "core", None)
    queue = getattr(core, "_io_queue", None)
    if queue is None or not hasattr(queue, "map") or not hasattr(queue, "wait_io_event"):
        return False
    if sleep_ms is None:
        import time

        sleep_ms = getattr(time, "sleep_ms", None)
        if sleep_ms is None:
            return False
    if queue.wait_io_event is wait_io_event:
        if _streams is queue.map:
            return True  # already given to this queue (a second app in the same loop)
        del queue.wait_io_event  # given while another queue was the installed one
    _poll = queue.wait_io_event
    _streams = queue.map
    _sleep = sleep_ms
    queue.wait_io_event = wait_io_event  # an instance attribute: called as wait_io_event(dt)
    return True
