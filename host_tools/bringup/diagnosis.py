"""All the bring-up readings -> the findings (pure: no board needed; `ingboard bringup
--readings FILE` runs it on saved readings).

A finding is {"code", "part", "text"}: what is wrong, the chip, pin, cable or part to check
(board_config's names: U1-U23, Q1-Q23, S0-S3, A0-A3, EN0/EN1, GPx), and what to do. A healthy
board gives none.
"""

from ingboard import board_config

from host_tools.bringup import grid_wiring, parts

READINGS_VERSION = 1


def diagnose(readings):
    cfg = board_config.variant(readings.get("variant", "pico"))
    findings = []
    if readings.get("empty") is not None:
        findings += grid_wiring.Grid(readings, cfg).findings
    findings += parts.bowls(readings, cfg)
    findings += parts.displays(readings, cfg)
    findings += parts.keys(readings, cfg)
    findings += parts.supply(readings, cfg)
    return findings


def report(findings):
    """The findings as text lines for the builder."""
    if not findings:
        return ["bring-up: no fault found"]
    lines = ["bring-up: %d fault%s found" % (len(findings), "" if len(findings) == 1 else "s")]
    for f in findings:
        lines.append("- [%s] %s: %s" % (f["code"], f["part"], f["text"]))
    return lines
