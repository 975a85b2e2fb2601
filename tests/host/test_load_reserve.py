"""main.py loads the app's code beside a reserve, the largest of gc_policy.LOAD_RESERVES that
the heap can hold beside the code, else without one (gc_policy.py, "Loading the code"): the
game's heap is then one piece as large as the reserve (issue 20: a long game leaves 32 KB in
one piece). A heap that cannot hold the code beside the larger reserve steps down; the device
never fails to start for want of a reserve. main.py's own source (up to main(), as the bench
builds it) with a heap whose room is counted here."""

import pytest
from ingboard import gc_policy

from bench import mcu


class Heap:
    """Room for `room` bytes of reserve beside the code: load_code() raises MemoryError while a
    larger reserve is held; what was tried is kept."""

    def __init__(self, room):
        self.room = room
        self.held = 0
        self.tried = []
        self.loads = 0

    def bytearray(self, size):
        self.held = size
        self.tried.append(size)
        return b""

    def load_code(self):
        self.loads += 1
        held, self.held = self.held, 0
        if held > self.room:
            raise MemoryError("memory allocation failed")
        return ("relay_feed", "App", "RecordsStore")


def _main(heap, monkeypatch):
    space = {"__name__": "main_build"}
    exec(mcu._main_build_module(), space)
    space["bytearray"] = heap.bytearray  # (a name of the module's globals comes before builtins)
    space["load_code"] = heap.load_code
    dropped = []
    monkeypatch.setattr(gc_policy, "drop", dropped.append)
    return space, dropped


def test_the_reserves_are_largest_first_and_the_largest_leaves_room_for_a_long_games_end():
    sizes = gc_policy.LOAD_RESERVES
    assert list(sizes) == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert sizes[0] >= 32 * 1024  # issue 20: the largest free block after a long game's count


@pytest.mark.parametrize("k", range(len(gc_policy.LOAD_RESERVES)))
def test_the_code_is_loaded_beside_the_largest_reserve_the_heap_holds(k, monkeypatch):
    sizes = gc_policy.LOAD_RESERVES
    heap = Heap(room=sizes[k])
    space, _dropped = _main(heap, monkeypatch)
    assert space["load_app"]() == ("relay_feed", "App", "RecordsStore")
    assert heap.tried == list(sizes[: k + 1]) and heap.loads == k + 1


def test_a_heap_without_room_for_any_reserve_loads_the_code_without_one(monkeypatch):
    heap = Heap(room=1024)
    space, _dropped = _main(heap, monkeypatch)
    assert space["load_app"]() == ("relay_feed", "App", "RecordsStore")
    sizes = list(gc_policy.LOAD_RESERVES)
    assert heap.tried == sizes and heap.loads == len(sizes) + 1


def test_what_a_failed_load_brought_in_is_forgotten_before_the_next_try(monkeypatch):
    import sys

    heap = Heap(room=gc_policy.LOAD_RESERVES[-1])
    space, dropped = _main(heap, monkeypatch)
    fail = heap.load_code

    def load_code():
        sys.modules["ingboard._half_loaded"] = object()  # a module the failed load imported
        return fail()

    space["load_code"] = load_code
    try:
        space["load_app"]()
    finally:
        sys.modules.pop("ingboard._half_loaded", None)
    assert "ingboard._half_loaded" in dropped
