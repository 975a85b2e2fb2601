"""The README and the pages under docs/ say only what exists: every relative link (and the
heading it points at), every `make <target>`, every `ingboard <command>` and each of its
`--options`, every `python -m <module>`, every repository path and every INGBOARD_* variable
they name in code is checked against the tree, the Makefile and the command line's own parser.
The architecture diagram's arrows must be imports the room table of tests/test_architecture.py
allows.

The checks are functions of a text, so the last tests run them on made-up pages to show that
each of them fails when it should.
"""

import glob
import importlib.util
import os
import re

from host_tools import ROOT, cli

DOCS = ["README.md", "firmware/rules/README.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))
)
# Where a path written without its leading folders may live (a module named inside its room).
PATH_BASES = (
    "",
    "firmware",
    "firmware/ingboard",
    "firmware/rules",
    "host_tools",
    "tests",
    "hardware",
)
# Paths that are made by running something, or are outside the repository.
MADE = ("out/", ".cache/", ".venv/", ".katago/", "node_modules/", "build/", "../shared/")

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")
MAKE = re.compile(r"(?<![\w-])make ([a-z][a-z0-9-]*)")
COMMAND = re.compile(r"(?<![\w/.-])ingboard ([a-z][a-z-]*)((?:[ \t]+(?:\\\n[ \t]*)?[^\s`]+)*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
MODULE = re.compile(r"python -m ([A-Za-z_][\w.]*)")
PATH = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.*\-/]*/[A-Za-z0-9_.*\-/]*$")
VARIABLE = re.compile(r"\bINGBOARD_[A-Z0-9_]*[A-Z0-9]\b")


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def code_parts(text):
    """The text of every fenced block and every inline code span, in order."""
    parts = [m.group(1) for m in FENCE.finditer(text)]
    rest = FENCE.sub("", text)
    parts += [m.group(1) for m in SPAN.finditer(rest)]
    # indented blocks (four spaces after a blank line) are code too
    parts += [m.group(1) for m in re.finditer(r"(?:^|\n)\n((?:    [^\n]*\n?)+)", rest)]
    return parts


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", FENCE.sub("", text), re.M)}


def bad_links(rel, text):
    """Relative links whose file, or heading, does not exist."""
    bad = []
    here = os.path.dirname(os.path.join(ROOT, rel))
    for m in LINK.finditer(FENCE.sub("", text)):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, fragment = target.partition("#")
        full = os.path.normpath(os.path.join(here, path)) if path else os.path.join(ROOT, rel)
        if not os.path.exists(full):
            bad.append(target)
        elif fragment and full.endswith(".md"):
            with open(full, encoding="utf-8") as f:
                if fragment not in anchors(f.read()):
                    bad.append(target)
    return bad


def make_targets():
    return set(re.findall(r"^([A-Za-z0-9_-]+):(?!=)", _read("Makefile"), re.M))


def command_options():
    """{command: its option strings}, from the command line's own parser."""
    parser = cli.build_parser()
    options = {}
    for action in parser._subparsers._group_actions:
        for name, sub in action.choices.items():
            options[name] = {o for a in sub._actions for o in a.option_strings}
    return options


def bad_code(text, targets, options):
    """`make` targets, `ingboard` commands and options, `python -m` modules and INGBOARD_*
    variables named in code that do not exist."""
    bad = []
    for part in code_parts(text):
        bad += ["make %s" % t for t in MAKE.findall(part) if t not in targets]
        for m in COMMAND.finditer(part):
            name, rest = m.group(1), m.group(2)
            if name not in options:
                bad.append("ingboard %s" % name)
                continue
            bad += [
                "ingboard %s %s" % (name, o)
                for o in OPTION.findall(rest)
                if o not in options[name]
            ]
        for module in MODULE.findall(part):
            path = os.path.join(ROOT, *module.split("."))
            if os.path.isdir(os.path.join(ROOT, module.split(".")[0])):
                found = os.path.exists(path + ".py") or os.path.exists(path + "/__main__.py")
            else:  # an installed tool: pytest, mpremote
                found = importlib.util.find_spec(module) is not None
            if not found:
                bad.append("python -m " + module)
    return bad


def _path_exists(token, here):
    if "*" in token:
        return any(glob.glob(os.path.join(base, token)) for base in here)
    return any(os.path.exists(os.path.join(base, token)) for base in here)


def bad_paths(rel, text):
    """Repository paths named in code (`host_tools/twin/`, `records/journal.py`) that do not
    exist; a path is looked up from the page's folder and from the folders modules live in."""
    here = [os.path.dirname(os.path.join(ROOT, rel))] + [os.path.join(ROOT, b) for b in PATH_BASES]
    bad = []
    for part in code_parts(text):
        for token in part.split():
            token = token.lstrip("('\"").rstrip(".,;:)'\"").split("::")[0]
            if not PATH.match(token) or token.startswith(MADE) or "//" in token or ".." in token:
                continue
            last = token.rstrip("/").rsplit("/", 1)[-1]
            if not (token.endswith("/") or "." in last):
                continue  # a fraction, a ratio, a topic: not a path
            if not _path_exists(token, here):
                bad.append(token)
    return bad


def known_variables():
    """Every INGBOARD_* name the code, the tests or the Makefile reads."""
    found = set(VARIABLE.findall(_read("Makefile")))
    for folder in ("host_tools", "tests", "bench", "firmware", "hardware"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "node_modules")]
            for name in filenames:
                if name.endswith((".py", ".mjs", ".js", ".sh")) and name != "test_docs.py":
                    with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                        found |= set(VARIABLE.findall(f.read()))
    return found


# -- the pages --------------------------------------------------------------------------------


def test_every_relative_link_and_heading_exists():
    bad = {rel: bad_links(rel, _read(rel)) for rel in DOCS}
    assert not {k: v for k, v in bad.items() if v}


def test_every_make_target_command_option_and_module_exists():
    targets, options = make_targets(), command_options()
    bad = {rel: bad_code(_read(rel), targets, options) for rel in DOCS}
    assert not {k: v for k, v in bad.items() if v}


def test_every_path_named_in_code_exists():
    bad = {rel: bad_paths(rel, _read(rel)) for rel in DOCS}
    assert not {k: v for k, v in bad.items() if v}


def test_every_environment_variable_named_is_read_somewhere():
    known = known_variables()
    bad = {rel: sorted(set(VARIABLE.findall(_read(rel))) - known) for rel in DOCS}
    assert not {k: v for k, v in bad.items() if v}


def test_the_readme_is_a_map():
    text = _read("README.md")
    assert len(text.splitlines()) <= 260
    for needed in ("make demo", "make test", "make test-device", "```mermaid"):
        assert needed in text, needed
    assert not re.search(r"\bissue \d", text, re.I)
    assert any(re.search(r"!\[[^\]]*\]\([^)]+\.png\)", _read(rel)) for rel in ["README.md"])


def diagram_arrows(text):
    """[(from room, to room)] of the README's mermaid diagram: `a --> b` means a may import b."""
    block = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert block, "no mermaid diagram"
    arrows = []
    for line in block.group(1).splitlines():
        m = re.match(r"\s*(\w+)(?:\[[^\]]*\])?\s*-->\s*(\w+)", line)
        if m:
            arrows.append((m.group(1), m.group(2)))
    return arrows


def test_the_architecture_diagram_draws_only_allowed_imports():
    from test_architecture import MAY_IMPORT

    arrows = diagram_arrows(_read("README.md"))
    assert len(arrows) >= 10
    bad = [(a, b) for a, b in arrows if b not in MAY_IMPORT.get(a, ())]
    assert not bad


def import_table(text):
    """{room: (rooms it may import)} of docs/architecture.md's table."""
    table = {}
    rows = text.split("| room | may import |", 1)[1].split("\n\n", 1)[0]
    for line in rows.splitlines()[2:]:
        room, allowed = [c.strip() for c in line.strip("|").split("|")]
        names = re.findall(r"`(\w+)`", allowed)
        table[room.strip("`")] = () if allowed.startswith("nothing") else tuple(names)
    return table


def test_the_architecture_page_has_the_tested_import_table():
    from test_architecture import MAY_IMPORT

    table = import_table(_read("docs/architecture.md"))
    assert table == {room: tuple(rooms) for room, rooms in MAY_IMPORT.items()}


# -- the checks fail when they should ---------------------------------------------------------


def test_the_checks_find_what_does_not_exist():
    page = (
        "See [the rules](docs/nowhere.md), [twin](docs/device-twin.md#no-such-heading) and "
        "[ok](README.md).\n\n"
        "Run `make no-such-target`, `make test`, `ingboard no-such-command`,\n"
        "`ingboard sim --no-such-option --port 8000`, `python -m host_tools.nowhere`;\n"
        "the code in `firmware/ingboard/nowhere.py` and `host_tools/twin/`,"
        " with `INGBOARD_NO_SUCH_THING`.\n\n"
        "    ingboard relay --broker H:1883 \\\n        --no-such-flag x\n"
    )
    assert bad_links("README.md", page) == [
        "docs/nowhere.md",
        "docs/device-twin.md#no-such-heading",
    ]
    assert bad_code(page, make_targets(), command_options()) == [
        "make no-such-target",
        "ingboard no-such-command",
        "ingboard sim --no-such-option",
        "python -m host_tools.nowhere",
        "ingboard relay --no-such-flag",
    ]
    assert bad_paths("README.md", page) == ["firmware/ingboard/nowhere.py"]
    assert set(VARIABLE.findall(page)) - known_variables() == {"INGBOARD_NO_SUCH_THING"}
    assert diagram_arrows("```mermaid\nflowchart TD\n  clock --> tracking\n```") == [
        ("clock", "tracking")
    ]
