"""The rules core as its users get it: ingrules installed with pip into a fresh virtual
environment, its own tests (firmware/rules/tests/) run there on CPython, and the installed
files run again under MicroPython (the WebAssembly build), away from the source tree.

`python -m host_tools.rules_package` does both and prints each run's closing line; the tests
call `install`, `run_cpython` and `run_micropython`.
"""

import glob
import os
import subprocess
import sys
import venv

from host_tools import RULES

TESTS = os.path.join(RULES, "tests")


class PackageError(RuntimeError):
    pass


def install(work_dir):
    """Build ingrules' wheel from firmware/rules (offline: no index, this environment's own
    setuptools) and pip-install it into a fresh venv in work_dir; returns (venv python,
    installed package folder)."""
    wheels = os.path.join(work_dir, "wheels")
    _pip(sys.executable, "wheel", "--no-deps", "--no-build-isolation", "-w", wheels, RULES)
    [wheel] = glob.glob(os.path.join(wheels, "ingrules-*.whl"))
    env_dir = os.path.join(work_dir, "venv")
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = os.path.join(env_dir, "bin", "python")
    _pip(python, "install", wheel)
    found = glob.glob(os.path.join(env_dir, "lib", "python*", "site-packages", "ingrules"))
    if len(found) != 1:
        raise PackageError("pip installed no ingrules package in %s" % env_dir)
    return python, found[0]


def _pip(python, *args):
    proc = subprocess.run(
        [python, "-m", "pip", args[0], "--quiet", "--disable-pip-version-check", "--no-index"]
        + list(args[1:]),
        capture_output=True,
        text=True,
    )
    if proc.returncode:
        raise PackageError("pip %s failed:\n%s%s" % (" ".join(args), proc.stdout, proc.stderr))


def run_cpython(python, work_dir, tests=TESTS):
    """Run the tests with the venv's python from work_dir (not the source tree, with no
    PYTHONPATH): (exit status, output)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run(
        [python, "-I", os.path.join(tests, "run.py")],
        capture_output=True,
        text=True,
        cwd=work_dir,
        env=env,
    )
    return proc.returncode, proc.stdout + proc.stderr


_MP_SCRIPT = """
import json
import run
import ingrules
results = run.run_all("/tests")
RESULT = json.dumps({"from": ingrules.__file__, "results": results})
"""


def run_micropython(package_dir):
    """Run the tests under MicroPython with only `package_dir` (an installed ingrules) and the
    tests mounted: {"from": ingrules.__file__, "results": [[name, None or traceback]]}."""
    from host_tools import micropython as mp

    status, out, err, result = mp.run_script(
        _MP_SCRIPT,
        mounts=[(package_dir, "/lib/ingrules"), (TESTS, "/tests")],
        sys_path=["/lib", "/tests"],
    )
    if status != 0 or result is None:
        raise PackageError("MicroPython exited with status %d\n%s\n%s" % (status, out, err))
    import json

    return json.loads(result)


def main(argv=None):
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ingrules-") as work:
        python, package_dir = install(work)
        status, output = run_cpython(python, work)
        print("CPython, ingrules installed with pip:")
        print(output.rstrip())
        run = run_micropython(package_dir)
        failed = [(name, trace) for name, trace in run["results"] if trace is not None]
        for name, trace in failed:
            print("FAILED under MicroPython %s\n%s" % (name, trace))
        print("MicroPython, the installed files (ingrules from %s):" % run["from"])
        print("%d passed, %d failed" % (len(run["results"]) - len(failed), len(failed)))
    return 1 if status or failed or not run["results"] else 0


if __name__ == "__main__":
    sys.exit(main())
