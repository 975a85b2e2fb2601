"""The littlefs file system in a twin's flash image, read on the host (littlefs-python).

The rp2 port keeps its file system at flash 0xA0000 to the end of the Pico's 2 MiB: littlefs2,
352 blocks of 4096 B (the W25Q's sector), reads of 32 B, programs of 256 B (a page), lookahead
32 B (MicroPython's `_boot.py`, `vfs.VfsLfs2(bdev, progsize=256)`). A saved image
(`Twin.save_flash`, `save_flash_before`) is mounted from a copy, so nothing here changes it.

    report = check(image)                    # FlashFsError if anything is unreadable or torn
    fs = mount(image); ...; put(image, fs)   # prepare a file system on the host, boot it

`check` reads every file whole and every journal (`*.jnl`, core/journal.py's framing)
record by record: a journal must end on a whole record (no torn tail after a run that was not
cut) and hold no corrupt record. It is what the long runs call after they end.
"""

OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
READ_SIZE = 32
PROG_SIZE = 256
LOOKAHEAD = 32
FLASH_SIZE = OFFSET + BLOCK_SIZE * BLOCK_COUNT
JOURNAL_SUFFIX = ".jnl"


class FlashFsError(Exception):
    """The file system in a flash image is not whole (the message lists what is wrong)."""


def _read_image(image):
    if isinstance(image, (bytes, bytearray)):
        data = bytes(image)
    else:
        with open(image, "rb") as f:
            data = f.read()
    if len(data) < FLASH_SIZE:
        raise FlashFsError(
            "flash image of %d bytes: the file system needs %d" % (len(data), FLASH_SIZE)
        )
    return data


def mount(image):
    """A littlefs-python LittleFS on a copy of the image's file system (`image`: a path or
    the bytes of a 2 MiB flash image). LittleFSError if it does not mount."""
    import littlefs
    from littlefs.context import UserContext

    data = _read_image(image)
    part = bytearray(data[OFFSET:FLASH_SIZE])
    return littlefs.LittleFS(
        context=UserContext(buffer=part),
        block_size=BLOCK_SIZE,
        block_count=BLOCK_COUNT,
        read_size=READ_SIZE,
        prog_size=PROG_SIZE,
        lookahead_size=LOOKAHEAD,
        mount=True,
    )


def put(image, fs):
    """Write the file system `fs` (from mount(image)) back into the image file `image`."""
    data = bytearray(_read_image(image))
    data[OFFSET:FLASH_SIZE] = fs.context.buffer
    with open(image, "wb") as f:
        f.write(data)


def files(fs):
    """Every regular file's path, depth first, in name order."""
    out = []
    for root, _dirs, names in fs.walk("/"):
        for name in sorted(names):
            out.append(root.rstrip("/") + "/" + name)
    return sorted(out)


def check(image, cut=False):
    """Mount the image's file system, read every file and every journal's records; returns
    {"files": {path: bytes}, "journals": {path: {"bytes", "records", "plies"}},
    "blocks_used"}. FlashFsError naming each problem: a file littlefs cannot read whole, a
    journal with a corrupt record or (unless `cut`: the image of a power cut) a torn one."""
    from littlefs import LittleFSError

    try:
        fs = mount(image)
    except LittleFSError as exc:
        raise FlashFsError("the file system does not mount: %s" % exc) from exc
    problems = []
    sizes = {}
    journals = {}
    for path in files(fs):
        try:
            with fs.open(path, "rb") as f:
                data = f.read()
        except LittleFSError as exc:
            problems.append("%s: unreadable (%s)" % (path, exc))
            continue
        size = fs.stat(path).size
        if len(data) != size:
            problems.append("%s: %d bytes read of %d" % (path, len(data), size))
        sizes[path] = len(data)
        if path.endswith(JOURNAL_SUFFIX):
            journals[path], problem = _journal(data, cut)
            if problem:
                problems.append("%s: %s" % (path, problem))
    if problems:
        raise FlashFsError("; ".join(problems))
    return {"files": sizes, "journals": journals, "blocks_used": fs.used_block_count}


def _journal(data, cut):
    # core/journal.py's framing, read as the board reads it at boot (journal_replay.recover):
    # every record whole, and the game they hold rebuilt (its plies). A torn last record is
    # what a power cut while it was written leaves (`cut`); a bad record with whole ones after
    # it never is.
    import io

    from ingboard.records.journal_replay import recover

    try:
        tracker, info = recover(io.BytesIO(data))
    except ValueError as exc:
        return {"bytes": len(data)}, "its records do not replay: %s" % exc
    out = {
        "bytes": len(data),
        "records": info["records"],
        "plies": len(tracker.game.plies) if tracker is not None else 0,
    }
    if info["corrupt"] is not None:
        return out, "a corrupt record at byte %d, %d whole records after it" % (
            info["corrupt"],
            info["lost"],
        )
    if info["dropped"] and not cut:
        return out, "%d records whole, then %d bytes that are not a record" % (
            info["records"],
            info["dropped"],
        )
    return out, None
