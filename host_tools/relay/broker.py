"""Start Debian's mosquitto on loopback with the committed config (host_tools/relay/mosquitto/).

Used by the tests, the bench and `python -m host_tools.relay.broker` for a trial venue. The
broker runs as our own child process in a private directory (config, password file,
persistence, log), on a port we pick; it is never the system service.

    broker = Broker(tmpdir, users={"relay": "pw", "b001": "pw1"})
    broker.start(); ...; broker.kill(); broker.start()   # same port, same persistence
    broker.stop()
"""

import base64
import hashlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mosquitto")
ACL = os.path.join(HERE, "acl")
_ITERATIONS = 101  # mosquitto_passwd's default for PBKDF2-SHA512 ($7$)


class BrokerError(RuntimeError):
    pass


def find_mosquitto():
    for path in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if path and os.path.exists(path):
            return path
    raise BrokerError("mosquitto is not installed: run `make setup` (Debian package mosquitto)")


def free_port(host="127.0.0.1"):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def password_line(user, password, salt=None):
    """One line of a mosquitto 2 password file (what `mosquitto_passwd -b` writes)."""
    salt = salt if salt is not None else os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, _ITERATIONS)
    return "%s:$7$%d$%s$%s\n" % (
        user,
        _ITERATIONS,
        base64.b64encode(salt).decode(),
        base64.b64encode(digest).decode(),
    )


def wait_port(host, port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class Broker:
    def __init__(
        self, directory, users, port=None, bind="127.0.0.1", template="venue.conf", **fill
    ):
        self.dir = directory
        self.bind = bind
        self.port = port or free_port(bind)
        self.proc = None
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "passwd"), "w") as f:
            for user, password in users.items():
                f.write(password_line(user, password))
        with open(os.path.join(HERE, template)) as f:
            text = f.read()
        values = {
            "port": self.port,
            "bind": bind,
            "dir": directory,
            "acl": ACL,
            "name": "x",
            "user": pwd.getpwuid(os.geteuid()).pw_name,
        }
        values.update(fill)
        self.config = os.path.join(directory, "mosquitto.conf")
        with open(self.config, "w") as f:
            f.write(text.format(**values))

    def start(self, timeout=10.0):
        self.proc = subprocess.Popen(
            [find_mosquitto(), "-c", self.config],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        if not wait_port(self.bind, self.port, timeout):
            err = self.log()
            self.kill()
            raise BrokerError("mosquitto did not start on port %d: %s" % (self.port, err[-500:]))
        return self

    def log(self):
        try:
            with open(os.path.join(self.dir, "mosquitto.log")) as f:
                return f.read()
        except OSError:
            return ""

    def kill(self):
        """SIGKILL: no clean shutdown, like a power cut of the venue's broker box."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        self.proc = None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
