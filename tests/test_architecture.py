"""The firmware's rooms and which may import which (README "Architecture"), checked on every
import statement, those inside functions included (a lazy import is an arrow too):

- no import cycle between modules, anywhere in firmware/, host_tools/ or bench/;
- no import against the table of rooms below;
- the rules core (ingrules) imports nothing but itself and `micropython`, `collections`;
- nothing under firmware/ imports host_tools, bench or tests;
- each of the Tracker's state attributes is assigned in one file only: the concept (mixin)
  that owns it creates it in its own `_init_<concept>()` and changes it; others only read it;
- no class in firmware/ or host_tools/ is over MAX_CLASS_LINES lines (a class that grows past
  it is split by concept, e.g. into mixins that each own their state), but the few named in
  OVERSIZED, each with its reason.

The checks are functions of a file list, so the last tests run them on made-up trees to show
that each of them fails when it should.
"""

import ast
import os
import re

from host_tools import FIRMWARE, ROOT

# Rooms: ingrules (the rules core, a package of its own); the vocabulary leaves at the top of
# ingboard (tables and names every room shares, importing only the rules core); the rooms of
# ingboard; board_config (the wiring: pins and drivers) and main.py (the composition root).
VOCABULARY = (
    "alerts",
    "cues",
    "game_config",
    "config_check",
    "storage_paths",
    "gc_policy",
    "physical",
)
ROOMS = (
    "sensing",
    "clock",
    "bowls",
    "tracking",
    "records",
    "menus",
    "faces",
    "link",
    "app",
    "drivers",
)

# room -> the rooms it may import (itself always). Read "records may import tracking": a
# session log is replayed through the tracker, never the other way round.
MAY_IMPORT = {
    "ingrules": (),
    "vocabulary": ("ingrules",),
    "sensing": ("ingrules", "vocabulary"),
    "clock": ("ingrules", "vocabulary"),
    "bowls": ("ingrules", "vocabulary"),
    "tracking": ("ingrules", "vocabulary", "sensing", "clock", "bowls"),
    "records": ("ingrules", "vocabulary", "clock", "tracking"),
    "menus": ("ingrules", "vocabulary"),
    "faces": ("ingrules", "vocabulary", "clock", "menus"),
    # relay_feed builds the relay's MQTT transport (drivers/mqtt_transport.py) from settings
    "link": ("ingrules", "vocabulary", "tracking", "records", "drivers"),
    "app": (
        "ingrules",
        "vocabulary",
        "sensing",
        "clock",
        "bowls",
        "tracking",
        "records",
        "menus",
        "faces",
        "link",
        "drivers",
    ),
    "drivers": (),
    "board_config": ("vocabulary", "drivers"),
    # the composition root: everything
    "main": ("ingrules", "vocabulary") + ROOMS + ("board_config",),
}
# What ingrules may import from outside itself (MicroPython and CPython both have these).
RULES_EXTERNAL = ("micropython", "collections", "array", "sys")
HOST = ("host_tools", "bench", "tests")


def room_of(module):
    """The room of a dotted module name, None for one outside the firmware."""
    parts = module.split(".")
    if parts[0] == "ingrules":
        return "ingrules"
    if module == "main":
        return "main"
    if parts[0] != "ingboard":
        return None
    if len(parts) == 1 or parts[1] in VOCABULARY:
        return "vocabulary"
    if parts[1] == "board_config":
        return "board_config"
    if parts[1] in ROOMS:
        return parts[1]
    raise AssertionError("%s belongs to no room: add it to a room or to VOCABULARY" % module)


# -- the import graph ------------------------------------------------------------------------


def _module_name(root, path):
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def sources(roots):
    """{module name: path} of the .py files under each (folder, package prefix)."""
    found = {}
    for folder, keep in roots:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "tests"))
            for name in sorted(filenames):
                if name.endswith(".py"):
                    module = _module_name(folder, os.path.join(dirpath, name))
                    if keep(module):
                        found[module] = os.path.join(dirpath, name)
    return found


def imports(module, path, known):
    """[(imported module, line)] of every import in the file, at any depth; a name imported
    from a package is the submodule when there is one."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = base + "." + node.module if node.module else base
            else:
                base = node.module
            for alias in node.names:
                sub = base + "." + alias.name
                found.append((sub if sub in known else base, node.lineno))
    return found


def graph(modules):
    """{module: [(imported project module, line)]}, for the modules given ({name: path})."""
    edges = {}
    for module, path in modules.items():
        edges[module] = [(m, line) for m, line in imports(module, path, modules) if m in modules]
    return edges


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index = {}
    low = {}
    stack = []
    on_stack = set()
    found = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w, _line in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def forbidden(edges, paths):
    """Arrows against MAY_IMPORT, as readable lines."""
    bad = []
    for module, targets in sorted(edges.items()):
        src = room_of(module)
        if src is None:
            continue
        for target, line in targets:
            dst = room_of(target)
            if dst is None:
                bad.append(
                    "%s:%d imports %s (outside the firmware)" % (paths[module], line, target)
                )
            elif dst != src and dst not in MAY_IMPORT[src]:
                bad.append(
                    "%s:%d: %s (%s) imports %s (%s)"
                    % (paths[module], line, module, src, target, dst)
                )
    return bad


def firmware_sources(firmware=FIRMWARE):
    found = sources([(firmware, lambda m: m == "main" or m.startswith("ingboard"))])
    found.update(sources([(os.path.join(firmware, "rules"), lambda m: m.startswith("ingrules"))]))
    return found


def project_sources():
    found = firmware_sources()
    found.update(sources([(ROOT, lambda m: m.split(".")[0] in ("host_tools", "bench"))]))
    return found


# -- the checks on this tree -----------------------------------------------------------------


def test_every_firmware_module_is_in_a_room():
    modules = firmware_sources()
    assert "ingrules.game" in modules and "ingboard.tracking.tracker" in modules
    rooms = {room_of(m) for m in modules}
    assert rooms == set(MAY_IMPORT), sorted(set(MAY_IMPORT) ^ rooms)


def test_the_room_table_has_no_cycle():
    edges = {room: [(dst, 0) for dst in dsts] for room, dsts in MAY_IMPORT.items()}
    assert cycles(edges) == []


def test_no_import_cycle_in_firmware_host_tools_or_bench():
    modules = project_sources()
    found = cycles(graph(modules))
    assert found == [], "import cycles (function-level imports count):\n%s" % "\n".join(
        " <-> ".join(c) for c in found
    )


def test_no_import_against_the_room_table():
    modules = firmware_sources()
    bad = forbidden(graph(modules), modules)
    assert bad == [], "imports against the table in tests/test_architecture.py:\n" + "\n".join(bad)


def test_the_rules_core_imports_nothing_outside_itself():
    modules = firmware_sources()
    rules = {m: p for m, p in modules.items() if m.startswith("ingrules")}
    assert len(rules) >= 10
    for module, path in rules.items():
        for target, line in imports(module, path, modules):
            top = target.split(".")[0]
            assert top == "ingrules" or top in RULES_EXTERNAL, "%s:%d imports %s" % (
                path,
                line,
                target,
            )


def test_firmware_never_imports_the_host_side():
    modules = firmware_sources()
    for module, path in modules.items():
        for target, line in imports(module, path, modules):
            assert target.split(".")[0] not in HOST, "%s:%d imports %s" % (path, line, target)


# -- the Tracker's state: each attribute owned by one concept -------------------------------

TRACKING = os.path.join(FIRMWARE, "ingboard", "tracking")
# tracker_state.py is the journal's contract: restore_state() puts back every concept's state
# after a power cut (state() reads it), so it may assign any of them; its code is
# tracker_restore.py, loaded only for a recovery.
RESTORERS = ("tracker_state.py", "tracker_restore.py")
# The handshake of a committed play and its clock press: plays.py commits a move and waits
# for its press (or takes a pending press as made), presses.py judges the press against the
# play; both change these, owned (created) by presses.py.
SHARED = {
    name: ("presses.py", "plays.py")
    for name in ("awaiting_press", "press_pending", "press_owed", "resign_offer", "dead_ask")
}


def stored_attributes(fn):
    """The `name.attr` targets (ast.Attribute of an ast.Name) that fn assigns (`=` or `+=`)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for t in ast.walk(target):
                if (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.ctx, ast.Store)
                    and isinstance(t.value, ast.Name)
                ):
                    yield t


def module_trees(folder):
    """(file name, ast module) of the .py files in folder, by name."""
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                yield name, ast.parse(f.read())


# A concept's code that no game needs before its end, in a module of its own loaded then
# (module functions taking the Tracker as `tracker`): its stores count as the concept's file.
PARTS = {"pause_and_count.py": "game_end.py"}


def attribute_stores(folder, parts=PARTS):
    """{attribute: {file: [method, ...]}} of every `self.x = ...` (or `+=`) in the classes of
    the .py files in folder, and of every `tracker.x = ...` in their module functions whose
    first argument is `tracker` (under the concept's file for a module in `parts`)."""
    stores = {}
    for name, tree in module_trees(folder):
        scopes = [("self", n) for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body]
        scopes += [("tracker", n) for n in tree.body]
        for owner, fn in scopes:
            if not isinstance(fn, ast.FunctionDef):
                continue
            if owner == "tracker" and not (fn.args.args and fn.args.args[0].arg == "tracker"):
                continue
            for t in stored_attributes(fn):
                if t.value.id == owner:
                    stores.setdefault(t.attr, {}).setdefault(parts.get(name, name), []).append(
                        fn.name
                    )
    return stores


def part_stores(folder, item_class, item):
    """{"self.x" or "<item>.x": {file: [function, ...]}} of every attribute store in the .py
    files in folder, module-level functions included: `self.x` of the class the parts make up,
    and `<item>.x` (or `self.x` inside item_class) of the per-item objects the parts share."""
    stores = {}
    for name, tree in module_trees(folder):
        scopes = [(None, n) for n in tree.body if isinstance(n, ast.FunctionDef)]
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            scopes += [(cls.name, n) for n in cls.body if isinstance(n, ast.FunctionDef)]
        for cls_name, fn in scopes:
            for t in stored_attributes(fn):
                owner = t.value.id
                if owner == "self" and cls_name == item_class:
                    owner = item
                elif owner not in ("self", item):
                    continue
                key = "%s.%s" % (owner, t.attr)
                stores.setdefault(key, {}).setdefault(name, []).append(fn.name)
    return stores


def ownership_faults(stores, restorers=RESTORERS, shared=SHARED):
    """Attributes not created by exactly one concept's initialiser, or assigned elsewhere."""
    faults = []
    for attr, files in sorted(stores.items()):
        creators = [
            f
            for f, methods in files.items()
            if any(m.startswith("_init_") or m == "__init__" for m in methods)
        ]
        if len(creators) != 1:
            faults.append(
                "%s: created in %s (one concept's _init_ must)" % (attr, creators or "none")
            )
            continue
        allowed = {creators[0], *restorers} | set(shared.get(attr, ()))
        for f in sorted(files):
            if f not in allowed:
                faults.append(
                    "%s: owned by %s, assigned in %s (%s)"
                    % (attr, creators[0], f, ", ".join(files[f]))
                )
    return faults


def test_each_tracker_attribute_is_assigned_only_by_its_concept():
    stores = attribute_stores(TRACKING)
    assert len(stores) >= 60 and "seen" in stores and "press_pending" in stores
    assert ownership_faults(stores) == []
    for attr, owners in SHARED.items():
        assert owners[0] in stores[attr], (attr, "is created by", owners[0])


# -- the Bowls' state: each attribute owned by one part --------------------------------------

BOWLS = os.path.join(FIRMWARE, "ingboard", "bowls")


def test_each_bowls_attribute_is_assigned_only_by_its_part():
    # The Bowls are weighing, the 180 checks and the reconciliation with the board, each a
    # mixin creating its own state (the Bowls' and each colour's Bowl's) in its _init_;
    # bowls.py composes them; bowls_restore.py (its restore(), loaded for a recovery only)
    # puts any part's state back from the journal.
    stores = part_stores(BOWLS, "Bowl", "bowl")
    for key, part in (
        ("bowl.w180", "weighing.py"),
        ("bowl.plateau", "weighing.py"),
        ("self.ended", "set_checks.py"),
        ("bowl.lid_n", "reconciliation.py"),
        ("bowl.pass_out", "reconciliation.py"),
        ("self.playing", "reconciliation.py"),
    ):
        assert part in stores[key], (key, "is not created by", part)
    assert (
        "bowls_restore.py" in stores["bowl.lid_n"] and "bowls_restore.py" in stores["self.ended"]
    )
    assert ownership_faults(stores, restorers=("bowls.py", "bowls_restore.py"), shared={}) == []


def test_every_concept_initialiser_is_called_by_the_tracker():
    with open(os.path.join(TRACKING, "tracker.py"), encoding="utf-8") as f:
        tracker = f.read()
    found = 0
    for name in sorted(os.listdir(TRACKING)):
        if name.endswith(".py"):
            with open(os.path.join(TRACKING, name), encoding="utf-8") as f:
                for init in re.findall(r"^    def (_init_\w+)\(", f.read(), re.M):
                    assert "self.%s(" % init in tracker, "%s.%s is never called" % (name, init)
                    found += 1
    assert found >= 8  # (the regex found them: tracker_state.py has no state of its own)


# -- no god classes --------------------------------------------------------------------------

MAX_CLASS_LINES = 400
# "path:Class" -> why it may be longer for now. Every entry must still be oversized: one that
# is not fails the test, so the list cannot go stale.
OVERSIZED = {}


def class_sizes(root, folders):
    """[(relative path, class name, lines)] of every class (nested ones too) in the .py files
    under the folders of root; lines from `class` to the class's last line."""
    found = []
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            # (build/: a wheel's staging copy of the rules package, not the source)
            skip = ("__pycache__", "node_modules", "build")
            dirnames[:] = sorted(d for d in dirnames if d not in skip)
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                for node in ast.walk(tree):
                    if isinstance(node, ast.ClassDef):
                        found.append((rel, node.name, node.end_lineno - node.lineno + 1))
    return found


def oversized_classes(sizes, allowed):
    """(classes over MAX_CLASS_LINES not in `allowed`, entries of `allowed` no longer over it)."""
    over = {"%s:%s" % (rel, name): n for rel, name, n in sizes if n > MAX_CLASS_LINES}
    bad = ["%s: %d lines" % (key, n) for key, n in sorted(over.items()) if key not in allowed]
    stale = sorted(key for key in allowed if key not in over)
    return bad, stale


def test_no_class_over_400_lines_in_firmware_or_host_tools():
    sizes = class_sizes(ROOT, ("firmware", "host_tools"))
    assert len(sizes) > 100 and any(name == "Tracker" for _rel, name, _n in sizes)
    bad, stale = oversized_classes(sizes, OVERSIZED)
    assert bad == [], (
        "classes over %d lines (split them by concept; tests/test_architecture.py):\n%s"
        % (MAX_CLASS_LINES, "\n".join(bad))
    )
    assert stale == [], "OVERSIZED names classes that are no longer over %d lines: %s" % (
        MAX_CLASS_LINES,
        ", ".join(stale),
    )


# -- the checks can fail ---------------------------------------------------------------------


def _tree(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return firmware_sources(str(tmp_path))


def test_a_lazy_import_cycle_is_found(tmp_path):
    modules = _tree(
        tmp_path,
        {
            "ingboard/__init__.py": "",
            "ingboard/link/__init__.py": "",
            "ingboard/link/protocol.py": "def rare():\n    from ingboard.link import hc\n",
            "ingboard/link/hc.py": "from ingboard.link.protocol import rare\n",
        },
    )
    assert cycles(graph(modules)) == [["ingboard.link.hc", "ingboard.link.protocol"]]


def test_an_import_against_the_table_is_found(tmp_path):
    modules = _tree(
        tmp_path,
        {
            "ingboard/__init__.py": "",
            "ingboard/tracking/__init__.py": "",
            "ingboard/tracking/tracker.py": "def sgf():\n    from ingboard.records import rec\n",
            "ingboard/records/__init__.py": "",
            "ingboard/records/rec.py": "from ingboard.tracking.tracker import sgf\n",
            "rules/ingrules/__init__.py": "",
            "rules/ingrules/board.py": "from ingboard import VERSION\n",
        },
    )
    bad = forbidden(graph(modules), modules)
    assert len(bad) == 2, bad
    said = "\n".join(bad)
    assert "ingboard.tracking.tracker (tracking) imports ingboard.records.rec (records)" in said
    assert "ingrules.board (ingrules) imports ingboard (vocabulary)" in said


def test_an_attribute_assigned_by_another_concept_is_found(tmp_path):
    (tmp_path / "plays.py").write_text(
        "class Plays:\n    def _init_plays(self):\n        self.leaving = {}\n"
        "    def _commit(self):\n        self.moved = {}\n"
    )
    (tmp_path / "displacement.py").write_text(
        "class Displacement:\n    def _init_displacement(self):\n        self.moved = {}\n"
        "    def _shift(self):\n        self.leaving = None\n        self.shifted += 1\n"
    )
    faults = ownership_faults(attribute_stores(str(tmp_path)))
    assert faults == [
        "leaving: owned by plays.py, assigned in displacement.py (_shift)",
        "moved: owned by displacement.py, assigned in plays.py (_commit)",
        "shifted: created in none (one concept's _init_ must)",
    ]


def test_a_tracker_attribute_assigned_by_a_module_function_is_found(tmp_path):
    # A concept's module functions taking the Tracker (pause_and_count.py's) are checked as
    # its methods are: under the concept's own file (PARTS), elsewhere a fault.
    (tmp_path / "game_end.py").write_text(
        "class GameEnd:\n    def _init_game_end(self):\n        self.filled = False\n"
    )
    (tmp_path / "pause_and_count.py").write_text(
        "def after_end(tracker, t):\n    tracker.filled = True\n"
    )
    (tmp_path / "presses.py").write_text(
        "def judge(tracker, t):\n    tracker.filled = None\n"
        "def other(board, tracker):\n    tracker.filled = 1\n"
    )
    stores = attribute_stores(str(tmp_path))
    assert stores == {
        "filled": {"game_end.py": ["_init_game_end", "after_end"], "presses.py": ["judge"]}
    }
    assert ownership_faults(stores) == [
        "filled: owned by game_end.py, assigned in presses.py (judge)"
    ]


def test_a_per_item_attribute_assigned_by_another_part_is_found(tmp_path):
    (tmp_path / "weighing.py").write_text(
        "def unsteady(bowl):\n    bowl.steady = 0\n"
        "class Bowl:\n    def __init__(self):\n        self.steady = 0\n"
        "class Weighing:\n    def _init_weighing(self):\n        self.bias = 0\n"
    )
    (tmp_path / "reconciliation.py").write_text(
        "class Reconciliation:\n    def _init_reconciliation(self):\n"
        "        for bowl in self.bowls:\n            bowl.mis = 0\n"
        "    def on_board(self, bowl):\n        bowl.steady = 1\n        self.bias += 1\n"
    )
    stores = part_stores(str(tmp_path), "Bowl", "bowl")
    assert sorted(stores) == ["bowl.mis", "bowl.steady", "self.bias"]
    assert ownership_faults(stores, restorers=("bowls.py",), shared={}) == [
        "bowl.steady: owned by weighing.py, assigned in reconciliation.py (on_board)",
        "self.bias: owned by weighing.py, assigned in reconciliation.py (on_board)",
    ]


def test_an_oversized_class_is_found_and_a_stale_allowance_too(tmp_path):
    body = "    def f(self):\n        return 1\n\n"
    (tmp_path / "firmware" / "big").mkdir(parents=True)
    (tmp_path / "host_tools").mkdir()
    (tmp_path / "firmware" / "big" / "god.py").write_text(
        "class God:\n" + body * 134 + "\n\nclass Small:\n" + body
    )
    (tmp_path / "host_tools" / "tool.py").write_text(
        "def f():\n    class Inner:\n" + ("        x = 1\n" * 400)
    )
    sizes = class_sizes(str(tmp_path), ("firmware", "host_tools"))
    assert sorted(sizes) == [
        ("firmware/big/god.py", "God", 402),
        ("firmware/big/god.py", "Small", 3),
        ("host_tools/tool.py", "Inner", 401),
    ]
    bad, stale = oversized_classes(sizes, {})
    assert bad == ["firmware/big/god.py:God: 402 lines", "host_tools/tool.py:Inner: 401 lines"]
    bad, stale = oversized_classes(sizes, {"firmware/big/god.py:God": "", "x.py:Gone": ""})
    assert bad == ["host_tools/tool.py:Inner: 401 lines"] and stale == ["x.py:Gone"]
