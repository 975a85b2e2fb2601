"""What the device-twin tests share (tests/host/test_twin_*.py)."""

import pytest

from host_tools.twin import images


def require_images(image="stock"):
    """Skip the calling test module, with one line saying how to get the images, without them."""
    try:
        return images.find(image)
    except images.ImagesMissing as exc:
        pytest.skip(str(exc), allow_module_level=True)
