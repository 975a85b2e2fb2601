"""All the bring-up readings -> the findings (pure: no board needed; `ingboard bringup
--readings FILE` runs it on saved readings).

A finding is {"code", "part", "text"}: what is wrong, the chip, pin, cable or part to check
(board_config's names: U1-U23, Q1-Q23, S0-S3, A0-A3, EN0/EN1, GPx), and what to do. A healthy
board gives none.
"""

from ingboard import board_config

from host_tools.bringup import grid_wiring, parts

READINGS_VERSION = 1


def diagnose(readings, notes=None):
    """The findings; `notes` (a list), if given, gets what could not be checked and why."""
    cfg = board_config.variant(readings.get("variant", "pico"))
    findings = []
    if readings.get("empty") is not None:
        grid = grid_wiring.Grid(readings, cfg)
        findings += grid.findings
        if notes is not None:
            notes += grid.notes
    findings += parts.bowls(readings, cfg)
    findings += parts.displays(readings, cfg)
    findings += parts.keys(readings, cfg)
    findings += parts.supply(readings, cfg)
    return findings


def report(findings, notes=()):
    """The findings (and notes) as text lines for the builder."""
    if not findings:
        lines = ["bring-up: no fault found"]
    else:
        n = len(findings)
        lines = ["bring-up: %d fault%s found" % (n, "" if n == 1 else "s")]
    for f in findings:
        lines.append("- [%s] %s: %s" % (f["code"], f["part"], f["text"]))
    for note in notes:
        lines.append("note: %s" % note)
    return lines
