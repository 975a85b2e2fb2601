"""app/idle_wait.py: asyncio's wait between two task wake-ups, given to the running loop's
IOQueue so that its frame stays off the heap. Its behaviour: while no stream is registered it
sleeps the time to the next task (or returns at once when one is due); while one is, it is the
loop's own wait. CPython and MicroPython (the loop here is a stand-in with the IOQueue's two
attributes the wait uses: MicroPython's extmod/asyncio/core.py)."""

from ingboard.app import idle_wait


class _IOQueue:
    def __init__(self, calls):
        self.map = {}
        self.calls = calls

    def wait_io_event(self, dt):
        self.calls.append(("poll", dt))


class _Core:
    def __init__(self, queue):
        self._io_queue = queue


class _Asyncio:
    def __init__(self, queue):
        self.core = _Core(queue)


def _loop():
    calls = []
    queue = _IOQueue(calls)
    asyncio = _Asyncio(queue)
    assert idle_wait.install(asyncio, lambda ms: calls.append(("sleep", ms)))
    return asyncio, queue, calls


def test_without_streams_it_sleeps_to_the_next_task():
    loop = _loop()
    _, queue, calls = loop
    queue.wait_io_event(7)
    assert calls == [("sleep", 7)]


def test_a_task_already_due_is_run_at_once():
    loop = _loop()
    _, queue, calls = loop
    queue.wait_io_event(0)
    assert calls == []


def test_with_a_stream_registered_it_is_the_loops_own_wait():
    loop = _loop()
    _, queue, calls = loop
    queue.map[id(calls)] = [None, None, calls]
    queue.wait_io_event(5)
    queue.wait_io_event(0)
    assert calls == [("poll", 5), ("poll", 0)]
    del queue.map[id(calls)]  # the stream's task has run: sleeping again
    queue.wait_io_event(3)
    assert calls[-1] == ("sleep", 3)


def test_installed_twice_it_keeps_the_loops_own_wait():
    loop = _loop()
    asyncio, queue, calls = loop
    assert idle_wait.install(asyncio, lambda ms: None)
    queue.map[1] = [None, None, None]
    queue.wait_io_event(2)
    assert calls == [("poll", 2)]  # not itself: no endless recursion


def test_a_loop_without_an_io_queue_is_left_alone():
    class Bare:
        pass

    assert not idle_wait.install(Bare(), lambda ms: None)
    import asyncio  # CPython's (or the port's own) asyncio

    if not hasattr(getattr(asyncio, "core", None), "_io_queue"):
        assert not idle_wait.install(asyncio)


def test_a_second_queue_gets_its_own_wait_and_the_first_keeps_working():
    # A new event loop has a new IOQueue: each queue's wait is its own (its streams, its poll).
    first_calls = []
    first = _IOQueue(first_calls)
    assert idle_wait.install(_Asyncio(first), lambda ms: first_calls.append(("sleep", ms)))
    second_calls = []
    second = _IOQueue(second_calls)
    assert idle_wait.install(_Asyncio(second), lambda ms: second_calls.append(("sleep", ms)))
    second.map[1] = [None, None, None]
    second.wait_io_event(4)
    assert second_calls == [("poll", 4)] and first_calls == []
    # The first queue is given the wait again: its own map and poll, not the second's.
    assert idle_wait.install(_Asyncio(first), lambda ms: first_calls.append(("sleep", ms)))
    first.wait_io_event(6)
    assert first_calls == [("sleep", 6)]
    first.map[2] = [None, None, None]
    first.wait_io_event(1)
    assert first_calls[-1] == ("poll", 1) and second_calls == [("poll", 4)]
