"""`make firmware` (host_tools/firmware_image.py): what it refuses before building anything,
and how the twin's tests tell an image built from this tree from a stale one. (The build
itself needs a MicroPython checkout and minutes: `tests/host/test_twin_rp2040_app.py` runs its
image when one is built.)"""

import json
import os

import pytest

from host_tools import firmware_image
from host_tools.errors import InputError
from host_tools.twin import images


def _checkout(tmp_path, version=(1, 28, 0), prerelease=0, submodules=True):
    mp = tmp_path / "micropython"
    (mp / "py").mkdir(parents=True)
    (mp / "ports" / "rp2").mkdir(parents=True)
    (mp / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR %d\n#define MICROPY_VERSION_MINOR %d\n"
        "#define MICROPY_VERSION_MICRO %d\n#define MICROPY_VERSION_PRERELEASE %d\n"
        % (version + (prerelease,))
    )
    if submodules:
        for sub, probe in firmware_image.SUBMODULES:
            path = mp / sub / probe
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")
    return str(mp)


def test_a_checkout_of_the_twins_micropython_with_its_submodules_passes(tmp_path):
    firmware_image.check_checkout(_checkout(tmp_path))
    assert firmware_image.checkout_version(_checkout(tmp_path / "b")) == (1, 28, 0, 0)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"version": (1, 29, 0)}, ["MicroPython 1.29.0", "v1.28.0"]),
        ({"version": (1, 27, 0)}, ["MicroPython 1.27.0", "v1.28.0"]),
        ({"prerelease": 1}, ["1.28.0-preview", "v1.28.0"]),
        ({"submodules": False}, ["lib/pico-sdk", "lib/tinyusb", "lib/mbedtls", "submodules"]),
    ],
)
def test_another_version_or_missing_submodules_are_refused_by_name(tmp_path, kwargs, words):
    with pytest.raises(InputError) as err:
        firmware_image.check_checkout(_checkout(tmp_path, **kwargs))
    for word in words:
        assert word in str(err.value)


def test_one_missing_submodule_is_named_alone(tmp_path):
    mp = _checkout(tmp_path)
    os.remove(os.path.join(mp, "lib", "tinyusb", "src", "tusb.h"))
    with pytest.raises(InputError, match=r"submodule lib/tinyusb missing"):
        firmware_image.check_checkout(mp)


def test_no_checkout_is_one_line_and_exit_2(tmp_path, capsys):
    assert firmware_image.main(["--micropython", ""]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MICROPYTHON" in err and "v1.28.0" in err
    assert firmware_image.main(["--micropython", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a MicroPython checkout" in err


def test_the_check_alone_looks_at_the_checkout_only(tmp_path, capsys):
    assert firmware_image.main(["--check", "--micropython", _checkout(tmp_path)]) == 0
    assert firmware_image.main(["--check", "--micropython", str(tmp_path / "none")]) == 2
    assert "not a MicroPython checkout" in capsys.readouterr().err


def test_a_picotool_is_found_by_its_prefix_or_cmake_folder(tmp_path):
    cfg = tmp_path / "lib" / "cmake" / "picotool"
    cfg.mkdir(parents=True)
    (cfg / "picotoolConfig.cmake").write_text("")
    assert firmware_image.picotool_config_dir(str(tmp_path)) == str(cfg)
    assert firmware_image.picotool_config_dir(str(cfg)) == str(cfg)
    with pytest.raises(InputError, match="picotoolConfig.cmake"):
        firmware_image.picotool_config_dir(str(tmp_path / "lib"))


def test_the_frozen_sources_are_both_packages_their_manifests_and_the_board():
    rels = [rel for rel, _data in firmware_image.frozen_sources()]
    assert "firmware/ingboard/__init__.py" in rels
    assert "firmware/rules/ingrules/__init__.py" in rels
    assert "manifest.py" in rels and "firmware/rules/manifest.py" in rels
    assert "boards/INGBOARD_PICO/mpconfigboard.cmake" in rels
    assert "boards/INGBOARD_PICO/manifest.py" in rels
    assert "firmware/main.py" not in rels  # on the file system, not frozen


def test_the_twin_runs_a_frozen_image_only_when_built_from_this_tree(tmp_path, monkeypatch):
    uf2 = tmp_path / "ingboard-RPI_PICO.uf2"
    uf2.write_bytes(b"")
    monkeypatch.setenv(images.FROZEN_ENV, str(uf2))
    assert images.frozen_uf2() == str(uf2)
    assert "no build stamp" in images.frozen_stale()
    stamp = firmware_image.stamp((1, 28, 0, 0))
    (tmp_path / "ingboard-RPI_PICO.json").write_text(json.dumps(stamp))
    assert images.frozen_stale() is None
    stamp["sources"] = "0" * 64  # built before a change to the packages
    (tmp_path / "ingboard-RPI_PICO.json").write_text(json.dumps(stamp))
    assert "other firmware sources" in images.frozen_stale()


def test_without_a_built_image_the_twin_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setenv(images.FROZEN_ENV, str(tmp_path / "absent.uf2"))
    monkeypatch.setenv(images.ENV, str(tmp_path))
    with pytest.raises(images.ImagesMissing, match="make firmware MICROPYTHON="):
        images.find("frozen")
