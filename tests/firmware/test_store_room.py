"""The records store's size bound as the app saves a game: the oldest games go first, and every
file-system step of the save is a piece of its own between the app's scan checkpoints."""

from app_fakes import clear_records
from ingboard.records.store import RecordsStore


def _finished_game(store, n, size):
    log = store.open_session(n)
    log.write("x" * size)
    log.close()
    store.close_session(n)
    return store.save_sgf(n, "(;GM[1]" + "C[y]" * (size // 4) + ")")


def _play(root, checkpoint):
    clear_records(root)
    store = RecordsStore(root, limit=3000)
    warnings = []
    for n in range(1, 6):
        warnings += _finished_game(store, n, 400)
    log = store.open_session(6)
    log.write("z" * 300)
    log.close()
    warnings += store.save_sgf(6, "(;GM[1]C[last])", checkpoint)
    return warnings, [(e["name"], e["bytes"]) for e in store.finished()]


def test_the_save_deletes_the_oldest_games_the_same_with_checkpoints():
    plain = _play("/tmp/ingboard-test-store-room", None)
    calls = []
    sliced = _play("/tmp/ingboard-test-store-room", lambda: calls.append(1))
    assert sliced == plain
    warnings, files = plain
    assert warnings and warnings[0] == "storage full: game 0001 deleted (oldest first)"
    names = [name for name, _size in files]
    assert "0001.sgf" not in names and "0001.log" not in names and "0006.sgf" in names
    assert sum(size for _name, size in files) + 300 <= 3000
    # A checkpoint between the steps: each file listed, each size looked up, each game
    # deleted and the rename - at least one per finished file here.
    assert len(calls) >= len(files) + 4
