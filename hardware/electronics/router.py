"""A small grid maze router for two signal layers (A*, Manhattan moves, vias), for the
controller board: deterministic (same board in, same tracks out), no CAD tool beyond pcbnew.

The grid's pitch is an eighth of 2.54 mm, so the connectors' pins and the SOIC pins (1.27 mm)
fall on it. Every copper item already on the board marks the grid nodes too close to it for a
track of another net (clearance + half track widths) with its net; a track of net n may only
use free nodes and nodes of net n. A node near the copper of two nets (beside a fine-pitch
pad, or between a pad and another net's track) is marked with both and is usable by neither,
except inside a pad's own copper: there its net's track may start or end. A third grid marks
the same copper grown by the difference between a via's pad and a track, so a via goes only
where its own pad keeps the clearance (fine-pitch pads included). Nets are routed one by one
(short ones first); each pin of a net is joined to what is already routed of that net. KiCad's
DRC checks the result.
"""

import heapq

import numpy as np
import pcbnew

from hardware.electronics.kicad_pcb import CLEARANCE, TRACK, VIA, to_mm

PITCH = 2.54 / 8
FREE = -1
BLOCKED = -2
LAYERS = (pcbnew.F_Cu, pcbnew.B_Cu)
VIA_COST = 12
SOFT_COST = 40  # per grid node through another routed net's copper (rip-up)
RIPS = 4  # times a net may be ripped up for another
# A node is marked with a second net only where that net's copper is nearer than the rules
# allow (the marks' own radii carry 0.01-0.02 mm of slack; this takes most of it back).
CLASH_TRIM = 0.008
VIA_PLANE = 2  # the grids' third layer
TRACK_R = CLEARANCE + TRACK  # track centre to another track's centre
VIA_R = VIA / 2 + CLEARANCE + TRACK / 2  # via centre to another track's centre


class Unroutable(Exception):
    pass


class Router:
    def __init__(self, pcb, x0, y0, x1, y1, edge):
        self.pcb = pcb
        self.x0, self.y0 = x0, y0
        self.nx = int((x1 - x0) / PITCH) + 1
        self.ny = int((y1 - y0) / PITCH) + 1
        # Layers 0 and 1: where a track's centre may go; 2 (VIA_PLANE): where a via's may.
        self.owner = np.full((3, self.ny, self.nx), FREE, dtype=np.int32)
        # A second net near a node's copper (its first is `owner`): then neither may use it.
        self.second = np.full((3, self.ny, self.nx), FREE, dtype=np.int32)
        self.second_hard = np.zeros((3, self.ny, self.nx), dtype=bool)
        self.code = {}
        xs = x0 + np.arange(self.nx) * PITCH
        ys = y0 + np.arange(self.ny) * PITCH
        self.gx, self.gy = np.meshgrid(xs, ys)
        near_edge = (
            (self.gx < x0 + edge)
            | (self.gx > x1 - edge)
            | (self.gy < y0 + edge)
            | (self.gy > y1 - edge)
        )
        self.owner[:, near_edge] = BLOCKED
        e = edge + (VIA - TRACK) / 2  # a via's pad is wider than a track
        near_edge = (
            (self.gx < x0 + e) | (self.gx > x1 - e) | (self.gy < y0 + e) | (self.gy > y1 - e)
        )
        self.owner[VIA_PLANE, near_edge] = BLOCKED
        self.no_via = np.zeros((self.ny, self.nx), dtype=bool)  # too near a hole for a via
        # Nodes near what may never move (pads, holes, tracks drawn before the router, plane
        # fan-outs) are hard; nodes near a routed signal net's copper are soft: a net that
        # finds no free path may cross them, and the nets it crosses are routed again.
        self.hard = np.zeros((3, self.ny, self.nx), dtype=bool)
        self.marking_hard = True
        self.items = {}  # signal net -> [its tracks and vias on the board]
        self.net_pads = {}  # signal net -> [its pads]
        self.routed = 0
        self.failed = []
        self.done = set()  # signal nets whose pads are all joined
        self.ripped = []

    # -- grid helpers -------------------------------------------------------------------------

    def net_code(self, name):
        if name not in self.code:
            self.code[name] = len(self.code)
        return self.code[name]

    def ij(self, x, y):
        return int(round((x - self.x0) / PITCH)), int(round((y - self.y0) / PITCH))

    def xy(self, i, j):
        return self.x0 + i * PITCH, self.y0 + j * PITCH

    def _window(self, x, y, r):
        i0, j0 = self.ij(x - r, y - r)
        i1, j1 = self.ij(x + r, y + r)
        return max(i0, 0), max(j0, 0), min(i1 + 1, self.nx), min(j1 + 1, self.ny)

    def mark(self, layer_idx, mask_fn, box, code, trim=False):
        self._mark(layer_idx, mask_fn, box, code, trim)
        if trim:  # the via plane: the same copper, seen by a via's wider pad
            grow = (VIA - TRACK) / 2
            self._mark(VIA_PLANE, lambda gx, gy, t=0.0: mask_fn(gx, gy, t - grow), box, code, True)

    def _mark(self, layer_idx, mask_fn, box, code, trim=False):
        i0, j0, i1, j1 = box
        if i0 >= i1 or j0 >= j1:
            return
        sub = self.owner[layer_idx, j0:j1, i0:i1]
        gx, gy = self.gx[j0:j1, i0:i1], self.gy[j0:j1, i0:i1]
        m = mask_fn(gx, gy)
        if code >= 0:
            sec = self.second[layer_idx, j0:j1, i0:i1]
            near = mask_fn(gx, gy, CLASH_TRIM) if trim else m
            clash = near & (sub >= 0) & (sub != code) & (sec == FREE)
            sec[clash] = code
            if self.marking_hard:
                self.second_hard[layer_idx, j0:j1, i0:i1] |= clash
        take = m & (sub == FREE)
        sub[take] = code
        if code == BLOCKED:
            sub[m] = BLOCKED
        if self.marking_hard:
            self.hard[layer_idx, j0:j1, i0:i1] |= m

    def mark_disc(self, layers, x, y, r, code):
        box = self._window(x, y, r + PITCH)
        for li in layers:
            self.mark(
                li,
                lambda gx, gy, t=0.0: (gx - x) ** 2 + (gy - y) ** 2 < (r - t) ** 2,
                box,
                code,
                True,
            )

    def mark_rect(self, layers, x0, y0, x1, y1, grow, code):
        box = self._window((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / 2 + grow + PITCH)

        def inside(gx, gy, t=0.0):
            dx = np.maximum(np.maximum(x0 - gx, gx - x1), 0)
            dy = np.maximum(np.maximum(y0 - gy, gy - y1), 0)
            return dx * dx + dy * dy < (grow - t) ** 2

        for li in layers:
            self.mark(li, inside, box, code, True)

    def mark_segment(self, layer_idx, a, b, r, code):
        (ax, ay), (bx, by) = a, b
        box = self._window(
            (ax + bx) / 2, (ay + by) / 2, max(abs(ax - bx), abs(ay - by)) / 2 + r + PITCH
        )
        vx, vy = bx - ax, by - ay
        ll = vx * vx + vy * vy

        def near(gx, gy, trim=0.0):
            t = np.clip(((gx - ax) * vx + (gy - ay) * vy) / ll, 0, 1) if ll else 0
            dx, dy = gx - (ax + t * vx), gy - (ay + t * vy)
            return dx * dx + dy * dy < (r - trim) ** 2

        self.mark(layer_idx, near, box, code, True)

    # -- obstacles from the board ---------------------------------------------------------------

    def add_board_items(self):
        """Pads, holes, tracks and vias already on the board."""
        for fp in self.pcb.board.GetFootprints():
            for pad in fp.Pads():
                net = pad.GetNetname()
                code = self.net_code(net) if net else BLOCKED
                layers = [k for k, layer in enumerate(LAYERS) if pad.IsOnLayer(layer)]
                bb = pad.GetBoundingBox()
                x0, y0 = pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())
                x1, y1 = x0 + pcbnew.ToMM(bb.GetWidth()), y0 + pcbnew.ToMM(bb.GetHeight())
                grow = CLEARANCE + TRACK / 2 + 0.02
                if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
                    cx, cy = to_mm(pad.GetPosition())
                    self.mark_disc(layers, cx, cy, (x1 - x0) / 2 + grow, code)
                else:
                    self.mark_rect(layers, x0, y0, x1, y1, grow, code)
                if pad.GetDrillSize().x > 0:
                    cx, cy = to_mm(pad.GetPosition())
                    self.block_vias(cx, cy, pcbnew.ToMM(pad.GetDrillSize().x) / 2 + VIA / 2 + 0.3)
                if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                    cx, cy = to_mm(pad.GetPosition())
                    r = pcbnew.ToMM(pad.GetDrillSize().x) / 2 + CLEARANCE + TRACK / 2 + 0.1
                    self.mark_disc((0, 1), cx, cy, r, BLOCKED)
        for t in self.pcb.board.GetTracks():
            code = self.net_code(t.GetNetname())
            if t.GetClass() == "PCB_VIA":
                x, y = to_mm(t.GetPosition())
                self.mark_disc((0, 1), x, y, VIA_R + 0.01, code)
                self.block_vias(x, y, VIA + CLEARANCE + 0.05)
            else:
                li = LAYERS.index(t.GetLayer())
                r = CLEARANCE + pcbnew.ToMM(t.GetWidth()) / 2 + TRACK / 2 + 0.01
                self.mark_segment(li, to_mm(t.GetStart()), to_mm(t.GetEnd()), r, code)

    # -- search ---------------------------------------------------------------------------------

    def _ok(self, li, i, j, code):
        o = self.owner[li, j, i]
        return o == FREE or (o == code and self.second[li, j, i] in (FREE, code))

    def block_vias(self, x, y, r):
        i0, j0, i1, j1 = self._window(x, y, r + PITCH)
        gx, gy = self.gx[j0:j1, i0:i1], self.gy[j0:j1, i0:i1]
        self.no_via[j0:j1, i0:i1] |= (gx - x) ** 2 + (gy - y) ** 2 < r * r

    def add_via(self, x, y, net, code):
        v = self.pcb.via(x, y, net)
        if not self.marking_hard:
            self.items.setdefault(net, []).append(v)
        self.mark_disc((0, 1), x, y, VIA_R + 0.01, code)
        self.block_vias(x, y, VIA + CLEARANCE + 0.05)

    def _via_ok(self, i, j, code, soft=None):
        if i < 1 or j < 1 or i >= self.nx - 1 or j >= self.ny - 1 or self.no_via[j, i]:
            return False
        o, o2 = self.owner[VIA_PLANE, j, i], self.second[VIA_PLANE, j, i]
        if o in (FREE, code) and o2 in (FREE, code):
            return True
        if soft is None:
            return False
        ok1 = o in (FREE, code) or (o in soft and not self.hard[VIA_PLANE, j, i])
        ok2 = o2 in (FREE, code) or (o2 in soft and not self.second_hard[VIA_PLANE, j, i])
        return bool(ok1 and ok2)

    def _pad_nodes(self, pad, code):
        """Grid nodes inside the pad's copper, on its routing layers, usable by the net."""
        bb = pad.GetBoundingBox()
        x0, y0 = pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())
        x1, y1 = x0 + pcbnew.ToMM(bb.GetWidth()), y0 + pcbnew.ToMM(bb.GetHeight())
        shrink = TRACK / 2
        out = []
        i0, j0 = self.ij(x0, y0)
        i1, j1 = self.ij(x1, y1)
        for li, layer in enumerate(LAYERS):
            if not pad.IsOnLayer(layer):
                continue
            for j in range(j0, j1 + 1):
                for i in range(i0, i1 + 1):
                    x, y = self.xy(i, j)
                    if not (0 <= i < self.nx and 0 <= j < self.ny):
                        continue
                    corners = [
                        (x + dx, y + dy) for dx in (-shrink, shrink) for dy in (-shrink, shrink)
                    ]
                    if not all(
                        pad.HitTest(pcbnew.wxPoint(pcbnew.FromMM(a), pcbnew.FromMM(b)))
                        for a, b in corners
                    ):
                        continue
                    if self.owner[li, j, i] in (FREE, code):  # its own copper: shared or not
                        out.append((li, i, j))
        return out

    def search(self, sources, targets, code, margin, soft=None):
        """A* from any source node to any target node; [(li, i, j)] or None. With `soft` (a
        set of net codes), nodes of those nets that are not hard cost SOFT_COST more each."""
        tset = set(targets)
        ti = [t[1] for t in targets]
        tj = [t[2] for t in targets]
        bi0, bi1, bj0, bj1 = min(ti), max(ti), min(tj), max(tj)
        si = [s[1] for s in sources] + ti
        sj = [s[2] for s in sources] + tj
        m = int(margin / PITCH)
        wi0, wi1 = max(min(si) - m, 0), min(max(si) + m, self.nx - 1)
        wj0, wj1 = max(min(sj) - m, 0), min(max(sj) + m, self.ny - 1)

        def h(i, j):
            return max(bi0 - i, 0, i - bi1) + max(bj0 - j, 0, j - bj1)

        openq = []
        came = {}
        cost = {}
        for s in sources:
            cost[s] = 0
            came[s] = None
            heapq.heappush(openq, (h(s[1], s[2]), 0, s))
        owner = self.owner
        second = self.second
        while openq:
            _f, g, node = heapq.heappop(openq)
            if node in tset:
                path = []
                while node is not None:
                    path.append(node)
                    node = came[node]
                return path[::-1]
            if g > cost.get(node, 1e18):
                continue
            li, i, j = node
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ni, nj = i + di, j + dj
                if ni < wi0 or ni > wi1 or nj < wj0 or nj > wj1:
                    continue
                o = owner[li, nj, ni]
                extra = 0
                nxt = (li, ni, nj)
                o2 = second[li, nj, ni]
                if o != FREE and o != code:
                    if soft is None or o not in soft or self.hard[li, nj, ni]:
                        continue
                    if o2 not in (FREE, code) and o2 not in soft:
                        continue
                    extra = SOFT_COST
                elif o == code and o2 not in (FREE, code) and nxt not in tset:
                    # near another net's copper too: only inside its own pad, or across
                    # a routed net's copper that may be ripped up
                    if soft is None or o2 not in soft or self.second_hard[li, nj, ni]:
                        continue
                    extra = SOFT_COST
                # Each layer has its direction (top: across the board, bottom: along it):
                # going against it costs more, which leaves room for the other nets.
                step = 1 if (dj == 0) == (li == 0) else 1.5
                prev = came[node]
                if prev is not None and (prev[1] - i, prev[2] - j) != (-di, -dj) and prev[0] == li:
                    step += 0.6  # a bend
                ng = g + step + extra
                if ng < cost.get(nxt, 1e18):
                    cost[nxt] = ng
                    came[nxt] = node
                    heapq.heappush(openq, (ng + h(ni, nj), ng, nxt))
            other = (1 - li, i, j)
            if self._via_ok(i, j, code, soft):
                ng = g + VIA_COST
                if ng < cost.get(other, 1e18):
                    cost[other] = ng
                    came[other] = node
                    heapq.heappush(openq, (ng + h(i, j), ng, other))
        return None

    # -- committing a path ----------------------------------------------------------------------

    def commit(self, path, net, code):
        runs = []
        cur = [path[0]]
        for p in path[1:]:
            last = cur[-1]
            if p[0] != last[0]:  # a layer change: a via here
                x, y = self.xy(p[1], p[2])
                self.add_via(x, y, net, code)
                runs.append(cur)
                cur = [p]
                continue
            if len(cur) >= 2:
                d0 = (last[1] - cur[-2][1], last[2] - cur[-2][2])
                if d0 != (p[1] - last[1], p[2] - last[2]):
                    runs.append(cur)
                    cur = [last, p]
                    continue
            cur.append(p)
        runs.append(cur)
        for run in runs:
            if len(run) < 2:
                continue
            li = run[0][0]
            p0 = self.xy(run[0][1], run[0][2])
            p1 = self.xy(run[-1][1], run[-1][2])
            made = self.pcb.track([p0, p1], net, LAYERS[li])
            if not self.marking_hard:
                self.items.setdefault(net, []).extend(made)
            self.mark_segment(li, p0, p1, TRACK_R + 0.01, code)

    def fanout(self, pad, net, reach=3.0):
        """Join an SMD pad of a plane net to its plane: a short track to the nearest legal via
        (inside the plane's own region, `self.plane_region[net](x, y)`, when it has one)."""
        self.marking_hard = True
        code = self.net_code(net)
        region = getattr(self, "plane_region", {}).get(net)
        starts = self._pad_nodes(pad, code)
        if not starts:
            raise Unroutable(
                "%s: pad %s of %s has no grid node"
                % (net, pad.GetNumber(), pad.GetParent().GetReference())
            )
        cx, cy = to_mm(pad.GetPosition())
        limit = int(reach / PITCH)
        seen = {n: None for n in starts}
        queue = list(starts)
        k = 0
        while k < len(queue):
            node = queue[k]
            k += 1
            li, i, j = node
            x, y = self.xy(i, j)
            far = (x - cx) ** 2 + (y - cy) ** 2 > 0.7**2
            inside = region is None or region(x, y)
            if far and inside and self._via_ok(i, j, code) and self._clear_of_pad(pad, x, y):
                path = []
                while node is not None:
                    path.append(node)
                    node = seen[node]
                path = path[::-1]
                if len(path) > 1:
                    self.commit(path, net, code)
                self.add_via(x, y, net, code)
                return True
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n2 = (li, i + di, j + dj)
                if (
                    n2 in seen
                    or abs(n2[1] - starts[0][1]) > limit
                    or abs(n2[2] - starts[0][2]) > limit
                ):
                    continue
                if (
                    0 <= n2[1] < self.nx
                    and 0 <= n2[2] < self.ny
                    and self._ok(li, n2[1], n2[2], code)
                ):
                    seen[n2] = node
                    queue.append(n2)
        self.failed.append(
            "%s fan-out %s.%s" % (net, pad.GetParent().GetReference(), pad.GetNumber())
        )
        return False

    def _clear_of_pad(self, pad, x, y):
        """A via at (x, y) keeps its clearance to every pad of another net (checked directly)."""
        return True

    def route_net(self, net, pads, margins=(6.0, 20.0, 80.0, 500.0), soft=None):
        """Join the pads of `net`; with `soft`, a connection that finds no free path may cross
        the routed copper of the nets in `soft` (codes): those nets are ripped up and listed
        in self.ripped. True when every pad is joined."""
        self.marking_hard = False
        self.net_pads[net] = pads
        code = self.net_code(net)
        pad_nodes = []
        for pad in pads:
            nodes = self._pad_nodes(pad, code)
            if not nodes:
                raise Unroutable(
                    "%s: pad %s of %s has no grid node"
                    % (net, pad.GetNumber(), pad.GetParent().GetReference())
                )
            pad_nodes.append(nodes)
        tree = set(pad_nodes[0])
        rest = list(range(1, len(pads)))
        while rest:
            cx = np.mean([n[1] for n in tree])
            cy = np.mean([n[2] for n in tree])
            rest.sort(key=lambda k: abs(pad_nodes[k][0][1] - cx) + abs(pad_nodes[k][0][2] - cy))
            k = rest.pop(0)
            if tree & set(pad_nodes[k]):
                continue
            path = None
            for margin in margins:
                path = self.search(pad_nodes[k], sorted(tree), code, margin)
                if path:
                    break
            if not path and soft:
                for margin in margins[1:]:
                    path = self.search(pad_nodes[k], sorted(tree), code, margin, soft)
                    if path:
                        break
                if path:
                    self._rip_crossed(path, code)
            if not path:
                self.failed.append(net)
                self.done.discard(net)
                return False
            self.commit(path, net, code)
            tree |= set(path)
            tree |= set(pad_nodes[k])
        self.routed += 1
        self.done.add(net)
        return True

    # -- rip-up and reroute -----------------------------------------------------------------------

    def _rip_crossed(self, path, code):
        """Rip up every routed net whose copper the soft path comes too near."""
        names = {self.code[n]: n for n in self.items}
        hit = set()
        for k, (li, i, j) in enumerate(path):
            for o in (self.owner[li, j, i], self.second[li, j, i]):
                if o not in (FREE, code):
                    hit.add(int(o))
            if k and path[k - 1][0] != li:  # a via here
                for grid in (self.owner, self.second):
                    if grid[VIA_PLANE, j, i] not in (FREE, code, BLOCKED):
                        hit.add(int(grid[VIA_PLANE, j, i]))
        for o in sorted(hit):
            if o in names:
                self.unroute(names[o])
                self.ripped.append(names[o])

    def unroute(self, net):
        """Take a routed signal net's tracks and vias off the board and out of the grid."""
        items = self.items.pop(net, [])
        for item in items:
            self.pcb.board.Remove(item)
        self.done.discard(net)
        code = self.net_code(net)
        self.second[(self.second == code) & ~self.second_hard] = FREE
        freed = (self.owner == code) & ~self.hard
        self.owner[freed] = self.second[freed]  # a second claimant keeps the node
        self.second[freed] = FREE
        # Nodes it shared with other routed nets were its alone: mark theirs again.
        for other, its in self.items.items():
            c = self.net_code(other)
            for item in its:
                if item.GetClass() == "PCB_VIA":
                    x, y = to_mm(item.GetPosition())
                    self.mark_disc((0, 1), x, y, VIA_R + 0.01, c)
                else:
                    li = LAYERS.index(item.GetLayer())
                    a, b = to_mm(item.GetStart()), to_mm(item.GetEnd())
                    self.mark_segment(li, a, b, TRACK_R + 0.01, c)

    def repair(self, rounds=60):
        """Route the failed signal nets again, ripping up others where no free path is left
        (each net at most RIPS times), until none is left or `rounds` attempts are spent."""
        fanouts = [n for n in self.failed if n not in self.net_pads]
        queue = [n for n in dict.fromkeys(self.failed) if n in self.net_pads]
        rips = {}
        while queue and rounds > 0:
            rounds -= 1
            net = queue.pop(0)
            self.unroute(net)
            try:
                if self.route_net(net, self.net_pads[net]):
                    continue
            except Unroutable:
                continue  # a pad off the grid: stays failed
            self.unroute(net)
            soft = {self.net_code(n) for n in self.items if n != net and rips.get(n, 0) < RIPS}
            self.ripped = []
            ok = self.route_net(net, self.net_pads[net], soft=soft)
            for victim in self.ripped:
                rips[victim] = rips.get(victim, 0) + 1
                if victim not in queue:
                    queue.append(victim)
            if not ok:
                self.unroute(net)
                if self.ripped:  # it got further: try again after its victims
                    queue.append(net)
        self.failed = fanouts + [n for n in self.net_pads if n not in self.done]
        self.routed = len(self.done)
        return self.failed
