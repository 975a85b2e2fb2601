"""`ingboard setup-network` (issue 16): the network settings written to the board's flash."""

import pytest
from ingboard.link import network_settings as ns

from host_tools import cli, device


@pytest.fixture
def fake(tmp_path, monkeypatch):
    board = device.FakeDevice(tmp_path / "board")
    monkeypatch.setattr(device, "opener", lambda port: board)
    return board


def run(capsys, *argv):
    status = cli.main(["setup-network", "--port", "fake", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_settings_are_written_and_read_back(fake, capsys, tmp_path):
    (tmp_path / "wifi.txt").write_text("wifi secret\n")
    (tmp_path / "pw.txt").write_text("pw-t12\n")
    args = ["--ssid", "club", "--wifi-password-file", str(tmp_path / "wifi.txt")]
    args += ["--broker", "10.0.0.2:1884", "--event", "spring-open", "--board", "t12"]
    args += ["--password-file", str(tmp_path / "pw.txt")]
    status, out, err = run(capsys, *args)
    assert status == 0, err
    data = ns.parse(fake.fs_get("/network.json").decode())
    assert data["broker"] == "10.0.0.2" and data["port"] == 1884
    assert data["wifi_password"] == "wifi secret" and data["password"] == "pw-t12"
    assert "wifi secret" not in out and "pw-t12" not in out
    # Clearing removes it (the board plays offline).
    status, out, err = run(capsys, "--clear")
    assert status == 0 and "offline" in out
    assert "/network.json" not in fake.files()


def test_bad_input_is_one_line_exit_2_and_nothing_written(fake, capsys, tmp_path):
    (tmp_path / "pw.txt").write_text("x")
    base = ["--wifi-password-file", str(tmp_path / "pw.txt")]
    base += ["--password-file", str(tmp_path / "pw.txt"), "--event", "e"]
    for extra, words in (
        (["--ssid", "club", "--broker", "h", "--board", "a/b"], "board"),
        (["--ssid", "club", "--broker", "h:x", "--board", "b"], "port"),
        (["--broker", "h", "--board", "b"], "--ssid"),
        (["--ssid", "club", "--broker", "h", "--board", "b", "--password-file", "/nope"], "/nope"),
    ):
        status, out, err = run(capsys, *(base + extra))
        assert status == 2 and words in err and len(err.strip().splitlines()) == 1, (extra, err)
    assert "/network.json" not in fake.files()
