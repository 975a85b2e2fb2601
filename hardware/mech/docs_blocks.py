"""Generated blocks inside hand-written docs: the text between `<!-- generated: NAME -->`
and `<!-- end generated: NAME -->` is replaced by the block NAME computed here from
physical.py, so the figures a builder reads are the ones the drawings use."""

import os
import re

import board
import stones

BLOCKS = {
    "hardware/mech/README.md": ("depth-tolerance",),
    "hardware_docs/stones.md": ("casting-weights",),
    "hardware_docs/build-guide.md": ("clip-check", "routing-check"),
}


def block(name):
    if name == "depth-tolerance":
        return board.tolerance_markdown()
    if name == "casting-weights":
        return stones.casting_markdown()
    if name == "clip-check":
        return board.clip_check_markdown()
    if name == "routing-check":
        return board.routing_check_markdown()
    raise KeyError(name)


def updated(root):
    """{path: new text} for every doc that holds generated blocks (missing docs: skipped)."""
    out = {}
    for path, names in BLOCKS.items():
        full = os.path.join(root, path)
        if not os.path.exists(full):
            continue
        with open(full, encoding="utf-8") as f:
            text = f.read()
        for name in names:
            pattern = re.compile(
                r"(<!-- generated: %s -->\n).*?(<!-- end generated: %s -->)"
                % (re.escape(name), re.escape(name)),
                re.S,
            )
            if not pattern.search(text):
                raise ValueError("%s has no generated block %r" % (path, name))
            text = pattern.sub(lambda m, n=name: m.group(1) + block(n) + m.group(2), text)
        out[path] = text
    return out
