"""KataGo, where `make katago` installed it (host_tools/setup/katago.sh): the GTP command line
for `ingboard sim --engine`, `ingboard gtp --engine` and the board's engine mode. GNU Go stays
the default opponent; KataGo is optional (its first start tunes OpenCL for many minutes).
"""

import glob
import os

from host_tools import ROOT

HOME = os.path.join(ROOT, ".katago")
BINARY = os.path.join(HOME, "squashfs-root", "usr", "bin", "katago")
MODEL = os.path.join(HOME, "model.bin.gz")
CONFIG = os.path.join(HOME, "gtp.cfg")
INSTALL = "make katago installs it (KaTrain's KataGo from PyPI, Debian's pocl for OpenCL)"


def command():
    """The GTP command line of the installed KataGo, or None."""
    if not (os.access(BINARY, os.X_OK) and os.path.isfile(MODEL) and os.path.isfile(CONFIG)):
        return None
    return "%s gtp -model %s -config %s" % (BINARY, MODEL, CONFIG)


def tuned():
    """True once KataGo has tuned OpenCL on this machine (its cache in ~/.katago)."""
    return bool(glob.glob(os.path.expanduser("~/.katago/opencltuning/tune*")))
