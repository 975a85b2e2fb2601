"""Cast stones (hardware_docs/stones.md): the volume of the stone the moulds make, and the
mixes that bring it to 6.5-7 g with its magnet (seed 003 Rule 12 "Weight")."""

import math

import ingboard.physical as P


def mm(um):
    return um / 1000.0


def stone_volume_mm3():
    """Single-convex cast stone: a straight edge STONE_EDGE_UM high, then a spherical cap up
    to STONE_THICK_UM at the centre (the casting master's shape)."""
    r = mm(P.STONE_D_UM) / 2
    edge = mm(P.STONE_EDGE_UM)
    h = mm(P.STONE_THICK_UM) - edge
    cap = math.pi * h * (3 * r * r + h * h) / 6
    return math.pi * r * r * edge + cap


def fill_first_mm3():
    """The first pour: the cavity (dome down, base open) up to the magnet's underside."""
    r = mm(P.STONE_D_UM) / 2
    top = mm(P.MAGNET_THICK_UM + P.STONE_SEAL_UM)
    return stone_volume_mm3() - math.pi * r * r * top


def magnet_volume_mm3():
    return math.pi * (mm(P.MAGNET_D_UM) / 2) ** 2 * mm(P.MAGNET_THICK_UM)


def mixes():
    """[(target mg, plain-resin mass mg, barite:resin by mass, barite volume share,
    brass disc thickness for a 14 mm disc in plain resin)] for 6.5 g, the middle, 7 g."""
    v = stone_volume_mm3() - magnet_volume_mm3()
    out = []
    for target in (P.STONE_MG, (P.STONE_MG + P.STONE_MG_MAX) // 2, P.STONE_MG_MAX):
        need = target - P.MAGNET_MG  # mg of resin (+ filler) around the magnet
        rho = need / v * 1000.0  # mg per cm3
        phi = (rho - P.EPOXY_DENSITY) / (P.BARITE_DENSITY - P.EPOXY_DENSITY)
        ratio = P.BARITE_DENSITY * phi / (P.EPOXY_DENSITY * (1 - phi))
        plain = P.EPOXY_DENSITY * v / 1000.0
        vb = (need - plain) / (P.BRASS_DENSITY - P.EPOXY_DENSITY) * 1000.0  # mm3 of brass
        disc_t = vb / (math.pi * 7.0 * 7.0)
        out.append((target, plain + P.MAGNET_MG, ratio, phi, disc_t))
    return out


def casting_markdown():
    v = stone_volume_mm3()
    rows = mixes()
    lines = [
        "Stone volume (the casting master's shape: %.1f mm across, %.1f mm thick, %.1f mm"
        % (mm(P.STONE_D_UM), mm(P.STONE_THICK_UM), mm(P.STONE_EDGE_UM)),
        "straight edge under a spherical dome): **%.2f cm³**; the magnet takes %.3f cm³ and"
        % (v / 1000, magnet_volume_mm3() / 1000),
        "weighs %.2f g. Plain epoxy (%.2f g/cm³) makes a stone of only **%.1f g**, so the"
        % (P.MAGNET_MG / 1000, P.EPOXY_DENSITY / 1000, rows[0][1] / 1000),
        "resin needs weight:",
        "",
        "| stone with magnet | barite : resin by mass | barite share by volume"
        " | or: brass disc Ø14 mm in plain resin |",
        "|---:|---:|---:|---:|",
    ]
    for target, _plain, ratio, phi, disc_t in rows:
        lines.append(
            "| %.2f g | %.2f : 1 | %d %% | %.1f mm thick |"
            % (target / 1000, ratio, round(phi * 100), disc_t)
        )
    first = fill_first_mm3()
    lines += [
        "",
        "First pour per cavity: **%.2f ml** (leaves the top %.1f mm of the cavity for the magnet"
        % (first / 1000, mm(P.MAGNET_THICK_UM + P.STONE_SEAL_UM)),
        "and its %.1f mm seal); the second pour fills the rest, %.2f ml."
        % (mm(P.STONE_SEAL_UM), (stone_volume_mm3() - first - magnet_volume_mm3()) / 1000),
        "",
        "(densities: epoxy %.2f, barite %.2f, brass %.2f g/cm³, typical datasheet values;"
        % (P.EPOXY_DENSITY / 1000, P.BARITE_DENSITY / 1000, P.BRASS_DENSITY / 1000),
        "weigh the first ten stones and adjust the ratio.)",
        "",
    ]
    return "\n".join(lines)
