"""What the device-twin tests share (tests/host/test_twin_*.py)."""

import pytest

from host_tools.twin import images


def require_images(image="stock"):
    """Skip the calling test module, with one line saying how to get the images, without them."""
    try:
        return images.find(image)
    except images.ImagesMissing as exc:
        pytest.skip(str(exc), allow_module_level=True)


def ingboard(*argv, timeout=900):
    """Run the `ingboard` command line as a user would (a separate process)."""
    import os
    import subprocess
    import sys

    exe = os.path.join(os.path.dirname(sys.executable), "ingboard")
    return subprocess.run([exe, *argv], capture_output=True, text=True, timeout=timeout)


class Serving:
    """The twin running freely with its USB serial on a pseudo-terminal (`with Serving(twin) as
    port:`), as `ingboard twin` serves it; paused again at the end."""

    def __init__(self, twin):
        self.twin = twin
        self.bridge = None

    def __enter__(self):
        from host_tools.twin.pty_bridge import PtyBridge

        self.bridge = PtyBridge(self.twin).start()
        self.twin.go(realtime=True)
        return self.bridge.path

    def __exit__(self, *exc):
        self.twin.pause()
        self.bridge.close()
