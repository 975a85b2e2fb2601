"""Bring-up probes: what `ingboard bringup` reads, beyond raw scans and raw bowl codes, to name
a wiring fault (host_commands.cmd_probe). Plain pin work, slow and rare: never during a scan.

- `grid_power(grid)`: per sensor group, its channel 0 read three times: with every bank
  disabled (nothing may drive the ADC input: a bank whose enable is stuck low still shows a
  sensor), at once after the group's bank is enabled (its sensors are still powering up: 0 V,
  unless the group's MOSFET is always on), and after the power-on time (a sensor's level).
- `i2c(buses)`: per bus, the addresses that answer and each one's status byte (the low bits
  tell an SSD1306, 0x06, from an SH1106, 0x08).
- `keys(keys, ms, ticks)`: which keys read pressed at the start and which went down within
  `ms` (raw levels, no debouncing: a builder presses the key asked for).
- `supply(gpio)`: the module's VSYS/3 divider (board_config `battery_adc`), in millivolts of
  VSYS.
"""


def _delay(grid, us):
    grid._delay_us(us)


def grid_power(grid, off_us=2000):
    """[[off, early, settled] per group]: read_u16 codes of each group's channel 0."""
    out = []
    sel = grid._sel
    grp = grid._grp
    en = grid._en
    adcs = grid._adcs
    wait = grid._power_on_us
    for g in range(grid.groups):
        bank = g // 16
        address = g % 16
        grid.off()
        for b in range(4):
            sel[b](0)
            grp[b]((address >> b) & 1)
        _delay(grid, off_us)
        adc = adcs[bank]
        off = adc.read_u16()
        en[bank](0)
        early = adc.read_u16()
        _delay(grid, wait)
        settled = adc.read_u16()
        en[bank](1)
        out.append([off, early, settled])
    grid.off()
    return out


def i2c(buses):
    """[{"found": [addresses], "status": {address: status byte}}] per bus: every 7-bit address
    asked for one byte (a read, not I2C.scan()'s empty write: the rp2 port bit-bangs that, and
    the read is the status byte wanted anyway)."""
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
    """{"idle": [keys pressed at the start], "down": [keys that read pressed within ms]}
    (polled by the clock; at most ms * 100 polls where the clock is virtual)."""
    pins = keys._pins
    active = keys._active
    idle = [names[i] for i in range(len(pins)) if pins[i]() == active]
    down = []
    start = ticks_ms()
    polls = 0
    while ticks_diff(ticks_ms(), start) < ms and polls < ms * 100:
        polls += 1
        for i in range(len(pins)):
            if pins[i]() == active and names[i] not in down:
                down.append(names[i])
    return {"idle": idle, "down": down}


def supply(gpio):
    """VSYS in mV through the module's 200k/100k divider on `gpio` (an ADC input)."""
    import machine

    code = machine.ADC(machine.Pin(gpio)).read_u16()
    return code * 3 * 3300 // 65535
