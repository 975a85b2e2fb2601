"""The per-game storage that does not fragment the Pico's heap (issue 20, item 1): the plies
as small ints and bytes (ply_store.PlyStore) and the SGF clock texts as bytes
(chunked.ChunkedText) behave as the lists they replace, through a 600-ply game with captures
and retractions, and keep no object per item (their chunks are the only blocks, of a fixed
size, allocated once)."""

from expect import raises
from ingrules.chunked import TEXT_CHUNK, ChunkedText
from ingrules.game import MANDATORY_PASS, MOVE, PASS_PLAY, Ply
from ingrules.ko import PASS
from ingrules.ply_store import CHUNK_BYTES, PER_CHUNK, PlyStore


class _Rng:
    """A seeded xorshift32 (MicroPython's random has no Random class)."""

    def __init__(self, seed):
        self.x = seed or 1

    def _next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def randrange(self, a, b=None):
        if b is None:
            a, b = 0, a
        return a + self._next() % (b - a)

    def random(self):
        return self._next() / 4294967296

    def choice(self, items):
        return items[self.randrange(len(items))]


def _random_ply(rng):
    color = rng.choice((1, 2))
    if rng.random() < 0.1:
        return Ply(color, PASS, (), (), rng.choice((PASS_PLAY, MANDATORY_PASS)))
    point = rng.randrange(22, 22 + 21 * 20)  # padded indexes of a 19x19 board
    captured = tuple(rng.randrange(22, 440) for _ in range(rng.choice((0, 0, 0, 1, 2, 40))))
    removed = tuple(rng.randrange(22, 440) for _ in range(rng.choice((0, 0, 0, 0, 3))))
    return Ply(color, point, captured, removed, MOVE)


def _blocks(store):
    return [len(c) for c in store.records], [len(c) for c in store.stones]


def test_the_ply_store_is_the_list_of_plies_through_a_long_game_with_retractions():
    rng = _Rng(20)
    store = PlyStore(Ply, PASS)
    want = []
    assert not store and len(store) == 0 and list(store) == []
    for _step in range(900):
        if want and rng.random() < 0.1:  # a retraction: the last few plies taken back
            keep = max(0, len(want) - rng.choice((1, 1, 2, 5)))
            del want[keep:]
            del store[keep:]
        else:
            ply = _random_ply(rng)
            want.append(ply)
            if _step % 2:
                store.append(ply)
            else:
                assert store.add(*ply, 0) == ply  # the game's way: the fields, the Ply made
        assert len(store) == len(want)
        if want:
            assert store[-1] == want[-1] and store[len(want) - 1] == want[-1]
    assert len(want) >= 600
    assert store == want and list(store) == want and list(reversed(store)) == want[::-1]
    for i in (0, 1, 63, 64, 65, len(want) - 2, -1, -len(want)):
        assert store[i] == want[i]
        assert store[i].captured == want[i].captured and store[i].kind == want[i].kind
    assert store[5:70] == want[5:70] and store[-3:] == want[-3:] and store[:0] == []
    raises(IndexError, lambda: store[len(want)])
    raises(IndexError, lambda: store[-len(want) - 1])
    # Its only blocks: chunks of one size, as many as the game needs (none per ply).
    records, stones = _blocks(store)
    assert set(records) == {PER_CHUNK} and set(stones) == {CHUNK_BYTES}
    assert len(store.records) == (len(want) + 63) // 64
    stones = sum(len(p.captured) + len(p.self_removed) for p in want)
    assert len(store.stones) * 256 >= stones


def test_a_cut_back_store_keeps_its_chunks_and_writes_them_again():
    rng = _Rng(7)
    store = PlyStore(Ply, PASS)
    plies = [_random_ply(rng) for _ in range(200)]
    for ply in plies:
        store.append(ply)
    chunks = list(store.records) + list(store.stones)
    del store[0:]
    assert len(store) == 0 and list(store) == []
    for ply in plies:
        store.append(ply)
    assert store == plies
    assert all(a is b for a, b in zip(chunks, list(store.records) + list(store.stones)))
    raises(TypeError, store.__delitem__, 3)  # only truncation


def test_chunked_text_is_the_list_of_texts_it_holds():
    rng = _Rng(3)
    texts = ChunkedText()
    want = []
    for _step in range(1500):
        r = rng.random()
        if want and r < 0.05:
            keep = max(0, len(want) - rng.choice((1, 3)))
            del want[keep:]
            del texts[keep:]
        elif want and r < 0.2:
            i = rng.randrange(len(want))
            text = rng.choice((None, "BL[%d.%d]OB[%d]" % (rng.randrange(4000), 5, 3)))
            want[i] = text
            texts[i] = text
        else:
            text = rng.choice((None, "WL[%d]" % rng.randrange(100000), "\u00e9" * 5, ""))
            want.append(text)
            texts.append(text)
        assert len(texts) == len(want)
    assert list(texts) == want and texts == want
    for i in (0, -1, len(want) // 2):
        assert texts[i] == want[i]
    assert all(len(c) == TEXT_CHUNK for c in texts.chunks)
    raises(ValueError, texts.append, "x" * (TEXT_CHUNK + 1))
    del texts[0:]
    assert len(texts) == 0 and len(texts.chunks) <= 1


def test_the_ply_store_appends_each_added_plys_key_to_the_games_key_log():
    from ingrules.chunked import KeyLog

    store = PlyStore(Ply, PASS)
    store.keys = KeyLog((7,))
    rng = _Rng(5)
    want = [7]
    for i in range(150):
        ply = _random_ply(rng)
        key = rng.randrange(1 << 30) if i % 3 else want[rng.randrange(len(want))]
        seen = (key & 2047) in [k & 2047 for k in want]
        if i % 10 == 9:
            store.append(ply)  # a ply alone: its key is the caller's
        else:
            assert store.add(*ply, key) == ply
            want.append(key)
            assert bool(store.keys.seen_before) == seen
        assert list(store.keys) == want and store[-1] == ply
    for k in want:
        assert store.keys.may_contain(k) and k in store.keys


def test_key_log_filter_never_says_no_for_a_key_it_holds():
    # The game's hashes and situation keys (KeyLog): `may_contain` is false only for keys it
    # cannot hold - through appends, colliding low bits, assignment and truncation - and
    # `seen_before` is set exactly when a key appended or assigned before (kept or since cut
    # off: bits are never cleared) shared the new key's bit.
    from ingrules.chunked import KeyLog

    rng = _Rng(7)
    log = KeyLog((5,))
    held = [5]
    ever = [5]
    for step in range(700):
        key = rng.randrange(1 << 30) if step % 5 else held[rng.randrange(len(held))] ^ 2048
        bits_before = [k & 2047 for k in ever]
        log.append(key)
        held.append(key)
        ever.append(key)
        assert bool(log.seen_before) == ((key & 2047) in bits_before)
        if step % 97 == 96:
            cut = rng.randrange(1, len(held))
            del log[cut:]
            held = held[:cut]
        if step % 131 == 130:
            log[0] = key + 1
            held[0] = key + 1
            ever.append(key + 1)
        assert list(log) == held
        for k in held:
            assert log.may_contain(k)
            assert k in log
    absent = [k for k in range(1 << 12) if not log.may_contain(k)]
    assert absent  # the filter does rule keys out
    for k in absent:
        assert k not in log
