"""Run firmware code and its tests under real MicroPython (the official WebAssembly build).

`run_script` is the general entry (also used by the benchmarks); `run_firmware_tests` imports
every firmware module and runs the shared tests in tests/firmware/; `main` is the command line
(`python -m host_tools.micropython`), exiting 1 and naming every failing file or test.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from host_tools import FIRMWARE, ROOT

EXEC_MJS = os.path.join(ROOT, "host_tools", "mp", "exec.mjs")
TEST_DRIVER = os.path.join(ROOT, "host_tools", "mp", "test_driver.py")
FIRMWARE_TESTS = os.path.join(ROOT, "tests", "firmware")
WASM_PACKAGE = os.path.join(
    ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs"
)
# Modules that start the device program when imported: checked by mpy-cross only.
ENTRY_POINTS = ("main.py",)


class MicroPythonUnavailable(RuntimeError):
    pass


def _check_available():
    if shutil.which("node") is None:
        raise MicroPythonUnavailable("node is not installed; run `make setup`")
    if not os.path.exists(WASM_PACKAGE):
        raise MicroPythonUnavailable(
            "MicroPython WebAssembly package missing (node_modules); run `make setup`"
        )


def run_script(script, mounts=(), sys_path=(), heapsize=8 * 1024 * 1024, timeout=600):
    """Run `script` under MicroPython; return (exit_status, stdout, stderr, RESULT or None)."""
    _check_available()
    with tempfile.TemporaryDirectory(prefix="ingboard-mp-") as tmp:
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.txt")
        job = {
            "mounts": [list(m) for m in mounts],
            "sys_path": list(sys_path),
            "script": script,
            "heapsize": heapsize,
            "result_path": result_path,
        }
        with open(job_path, "w") as f:
            json.dump(job, f)
        proc = subprocess.run(
            ["node", EXEC_MJS, job_path],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
        result = None
        if os.path.exists(result_path):
            with open(result_path) as f:
                result = f.read() or None
    return proc.returncode, proc.stdout, proc.stderr, result


def has_native_code(path):
    from host_tools.firmware_build import has_native_code as native

    return native(path)


# The packages' folders in firmware/ (each on sys.path): the app's and the rules core's.
PACKAGE_FOLDERS = (("ingboard", ""), ("ingrules", "rules"))


def firmware_modules(firmware_dir=FIRMWARE):
    """(path relative to firmware/, dotted module name) of every firmware module to
    import-check: main.py's siblings and the two packages (not the rules core's own tests)."""
    found = []
    for package, folder in PACKAGE_FOLDERS:
        base = os.path.join(firmware_dir, folder) if folder else firmware_dir
        for rel, module in _modules_in(base, package):
            found.append(((folder + "/" if folder else "") + rel, module))
    return found


def _modules_in(firmware_dir, package):
    found = []
    for dirpath, dirnames, filenames in os.walk(firmware_dir):
        if dirpath == firmware_dir:
            dirnames[:] = [package]  # the package only (and the files beside it: main.py)
            if package != "ingboard":
                filenames = []
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), firmware_dir)
            if rel in ENTRY_POINTS:
                continue
            if has_native_code(os.path.join(dirpath, name)):
                # Native code: the WebAssembly port has no native emitter and refuses it (its
                # user falls back to pure code); it is checked on the device twin instead.
                continue
            module = rel[:-3].replace(os.sep, ".")
            if module.endswith(".__init__"):
                module = module[: -len(".__init__")]
            found.append((rel.replace(os.sep, "/"), module))
    return found


def test_modules(tests_dir=FIRMWARE_TESTS):
    return sorted(
        n[:-3] for n in os.listdir(tests_dir) if n.startswith("test_") and n.endswith(".py")
    )


MODULES_PER_RUN = 6  # a run of the shared tests stays well inside run_script's timeout


def run_firmware_tests(firmware_dir=FIRMWARE, tests_dir=FIRMWARE_TESTS, modules=None):
    """Import-check every firmware module and run the shared tests under MicroPython.

    Returns a list of records (kind, name, ok, detail); kind is "import" (name = firmware file
    relative to firmware/) or "test" (name = module.function). The test modules run a few at a
    time, each batch in a fresh interpreter (so one batch's time limit is never the whole
    suite's); a crash or timeout of the interpreter itself becomes one failed record named
    "micropython".
    """
    fw = [list(m) for m in firmware_modules(firmware_dir)]
    tests = test_modules(tests_dir) if modules is None else list(modules)
    with open(TEST_DRIVER) as f:
        driver = f.read()
    records = []
    batches = [tests[i : i + MODULES_PER_RUN] for i in range(0, len(tests), MODULES_PER_RUN)]
    for i, batch in enumerate(batches or [[]]):
        imports = fw if i == 0 else []
        script = "FIRMWARE_MODULES = %r\nTEST_MODULES = %r\n" % (imports, batch) + driver
        try:
            status, out, err, result = run_script(
                script,
                mounts=[(firmware_dir, "/fw"), (tests_dir, "/tests")],
                sys_path=["/fw", "/fw/rules", "/fw/rules", "/tests"],
            )
        except subprocess.TimeoutExpired as exc:
            detail = "MicroPython did not finish %s in %d s" % (", ".join(batch), exc.timeout)
            return [("run", "micropython", False, detail)]
        if status != 0 or result is None:
            detail = "MicroPython exited with status %d running %s\n%s\n%s" % (
                status,
                ", ".join(batch),
                out[-4000:],
                err[-4000:],
            )
            return [("run", "micropython", False, detail)]
        records.extend(tuple(r) for r in json.loads(result))
    return records


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m host_tools.micropython",
        description="Run the firmware's shared tests under MicroPython (WebAssembly).",
    )
    parser.add_argument("--firmware", default=FIRMWARE, help="firmware tree (default: firmware/)")
    parser.add_argument("--tests", default=FIRMWARE_TESTS, help="shared tests directory")
    parser.add_argument("modules", nargs="*", help="test modules (default: all test_*.py)")
    args = parser.parse_args(argv)
    try:
        records = run_firmware_tests(args.firmware, args.tests, args.modules or None)
    except MicroPythonUnavailable as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    failed = [r for r in records if not r[2]]
    for kind, name, _ok, detail in failed:
        where = "firmware/" + name if kind == "import" else name
        print("FAILED under MicroPython: %s\n%s" % (where, detail.rstrip()), file=sys.stderr)
    imports = sum(1 for r in records if r[0] == "import")
    tests = sum(1 for r in records if r[0] == "test")
    print(
        "MicroPython: %d modules imported, %d tests run; %d passed, %d failed"
        % (imports, tests, len(records) - len(failed), len(failed))
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
