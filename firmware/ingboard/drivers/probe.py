"""Bring-up probes: the raw reads `ingboard bringup` makes to name a wiring fault, run through
the REPL with the game app stopped (a badly wired board can keep the app too busy to answer,
and a bring-up must not be a game full of alerts). Not installed on the board: the host sends
this module's code with each probe, then `main(board_config, what, **options)`
(host_tools/bringup/bench.py), which builds the drivers (board_config.build), reads, and prints
one JSON line.

- "scan" (n): every mux input read on its own, scan order: its select lines set, every bank
  enabled, the sensors' power-on time waited, then n reads averaged. Not the game's
  fast scan (one wait per group address, channels in Gray order): whatever is swapped
  between the select lines, each input is read powered, so the wiring shows as it is;
- "grid-power": per sensor group, its channel 0 read four times: with every bank disabled
  (nothing may drive the ADC input: a bank whose enable is stuck low still shows a sensor),
  at once after the group's bank is enabled (its sensors are still powering up: 0 V, unless
  the group's MOSFET is always on), after the power-on time (a sensor's level), and with the
  other banks enabled instead (nothing again, unless the enable lines are crossed);
- "bowls" (n): per bowl the median of n raw HX711 codes, or the reason there is none;
- "i2c": per bus, the addresses that answer a one-byte read and each one's status byte (the
  low bits tell an SSD1306, 0x06, from an SH1106, 0x08);
- "keys" (ms): which keys read pressed at the start and which within ms (raw levels);
- "supply": the module's VSYS/3 divider (board_config `battery_adc`) in mV of VSYS, or null.
"""

import json


def scan(grid, n):
    """[reading per scan index]: each input read on its own (see the module docstring)."""
    sel = grid._sel
    grp = grid._grp
    en = grid._en
    adcs = grid._adcs
    delay = grid._delay_us
    wait = grid._power_on_us
    out = []
    for j in range(grid.points):
        g, c = j // 16, j % 16
        bank = g // 16
        grid.off()
        for b in range(4):
            sel[b]((c >> b) & 1)
            grp[b](((g % 16) >> b) & 1)
        for e in en:
            e(0)
        delay(wait)
        adc = adcs[bank]
        total = 0
        for _ in range(n):
            total += adc.read_u16()
        out.append((total + n // 2) // n)
    grid.off()
    return out


def grid_power(grid, off_us=2000):
    """[[off, early, settled, crossed] per group]: read_u16 codes of its channel 0."""
    out = []
    sel = grid._sel
    grp = grid._grp
    en = grid._en
    adcs = grid._adcs
    delay = grid._delay_us
    wait = grid._power_on_us
    for g in range(grid.groups):
        bank = g // 16
        address = g % 16
        grid.off()
        for b in range(4):
            sel[b](0)
            grp[b]((address >> b) & 1)
        delay(off_us)
        adc = adcs[bank]
        off = adc.read_u16()
        en[bank](0)
        early = adc.read_u16()
        delay(wait)
        settled = adc.read_u16()
        en[bank](1)
        for b in range(len(en)):
            if b != bank:
                en[b](0)
        delay(wait)
        crossed = adc.read_u16()
        grid.off()
        out.append([off, early, settled, crossed])
    grid.off()
    return out


def bowls(hx711, n, ticks_ms, ticks_diff):
    """{"codes": {colour: median code}, "errors": {colour: text}}; an HX711 gives 10
    conversions a second, 4 periods after a power-up: up to 1 s a sample."""
    codes = {}
    errors = {}
    for colour, hx in hx711.items():
        got = []
        start = ticks_ms()
        while len(got) < n:
            if hx.ready():
                got.append(hx.read_code())
                start = ticks_ms()
            elif ticks_diff(ticks_ms(), start) > 1000:
                errors[colour] = "its HX711 gives no conversion (DOUT stays high)"
                break
        if len(got) == n:
            got.sort()
            codes[colour] = got[n // 2]
    return {"codes": codes, "errors": errors}


def i2c(buses):
    """[{"found": [addresses], "status": {address: status byte}}] per bus: every 7-bit address
    asked for one byte (a read, not I2C.scan()'s empty write: the rp2 port bit-bangs that,
    and the read is the status byte wanted anyway)."""
    out = []
    for bus in buses:
        found = []
        status = {}
        for addr in range(0x08, 0x78):
            try:
                status[str(addr)] = bus.readfrom(addr, 1)[0]
            except OSError:
                continue
            found.append(addr)
        out.append({"found": found, "status": status})
    return out


def keys(keys, names, ms, ticks_ms, ticks_diff):
    """{"idle": [keys pressed at the start], "down": [keys that read pressed within ms]}."""
    pins = keys._pins
    active = keys._active
    idle = [names[i] for i in range(len(pins)) if pins[i]() == active]
    down = []
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < ms:
        for i in range(len(pins)):
            if pins[i]() == active and names[i] not in down:
                down.append(names[i])
    return {"idle": idle, "down": down}


def supply(gpio):
    """VSYS in mV through the module's 200k/100k divider on `gpio` (an ADC input)."""
    import machine

    code = machine.ADC(machine.Pin(gpio)).read_u16()
    return code * 3 * 3300 // 65535


def main(board_config, what, n=1, ms=3000, variant=None):
    """Build the drivers with `board_config` (the module, passed in by the REPL line: a driver
    imports no other ingboard room), run one probe, print its result as one JSON line."""
    import time

    hw = board_config.build(variant)
    cfg = hw["config"]
    if what == "scan":
        out = {"size": cfg["grid"]["size"], "values": scan(hw["grid"], n)}
    elif what == "grid-power":
        out = {"groups": grid_power(hw["grid"])}
    elif what == "bowls":
        out = bowls(hw["hx711"], n, time.ticks_ms, time.ticks_diff)
    elif what == "i2c":
        out = {"buses": i2c(hw["i2c"])}
    elif what == "keys":
        out = keys(hw["keys"], board_config.KEYS, ms, time.ticks_ms, time.ticks_diff)
    elif what == "supply":
        gpio = cfg.get("battery_adc")
        out = {"mv": None if gpio is None else supply(gpio)}
    else:
        raise ValueError("unknown probe %r" % (what,))
    print(json.dumps(out))
