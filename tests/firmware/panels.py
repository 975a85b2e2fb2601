"""The two OLED controllers as the glass sees them: fake I2C targets that decode every command
and data byte into the controller's display RAM, and `visible()` = the 128x64 picture on the
module's glass (MONO_VLSB, as framebuf lays it out), so a test compares what a player would see
with what the firmware drew. Shared by CPython and MicroPython.

From the datasheets: Solomon Systech SSD1306 rev 1.1 ("Command Table", 10.1.3 addressing modes:
page mode at power-on, horizontal mode after 0x20 0x00, the 0x21/0x22 window), Sino Wealth
SH1106 V2.3 ("Commands" 1-21: page addressing only, 132 RAM columns; a 128-column glass on
SEG2..SEG129). Bytes a controller does not know are ignored (the next byte is then read as a
command of its own, as the chip does). The RAM starts as noise: a driver must clear it.
"""

_SSD1306_ARGS = {
    0x20: 1,
    0x21: 2,
    0x22: 2,
    0x81: 1,
    0x8D: 1,
    0xA3: 2,
    0xA8: 1,
    0xD3: 1,
    0xD5: 1,
    0xD9: 1,
    0xDA: 1,
    0xDB: 1,
    0x26: 6,
    0x27: 6,
    0x29: 5,
    0x2A: 5,
}
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Panel:
    """Common part: I2C framing, RAM, glass. Subclasses decode commands and place data."""

    COLUMNS = 128
    GLASS_FIRST = 0  # RAM column of the glass's first column (with segment remap 0xA1)
    ARGS = {}

    def __init__(self, addr=0x3C, present=True):
        self.addr = addr
        self.present = present
        self.ram = bytearray(self.COLUMNS * 8)
        seed = 12345
        for i in range(len(self.ram)):  # power-on RAM: noise
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            self.ram[i] = (seed >> 16) & 0xFF
        self.on = False
        self.all_on = False
        self.inverted = False
        self.remap = False  # 0xA1: column 0 on the far segment (the modules' upright mount)
        self.com_reversed = False
        self.start_line = 0
        self.offset = 0
        self.page = 0
        self.column = 0
        self.unknown = []
        self.data_bytes = 0
        self._pending = None  # (command, args still expected, args so far)

    # -- I2C target (the calls machine.I2C offers) ---------------------------------------
    def _ack(self, addr):
        if addr != self.addr or not self.present:
            raise OSError(19)  # ENODEV: no ACK

    def writeto(self, addr, buf):
        self._ack(addr)
        self._transaction(bytes(buf))

    def writevto(self, addr, bufs):
        self._ack(addr)
        self._transaction(b"".join(bytes(b) for b in bufs))

    def _transaction(self, data):
        i = 0
        while i < len(data):
            control = data[i]
            i += 1
            if control & 0x80:  # Co = 1: one byte follows, then another control byte
                if i < len(data):
                    self._byte(control & 0x40, data[i])
                    i += 1
                continue
            while i < len(data):  # Co = 0: the rest of the transaction is one kind
                self._byte(control & 0x40, data[i])
                i += 1

    def _byte(self, is_data, b):
        if is_data:
            self.data_bytes += 1
            self.write_data(b)
            return
        if self._pending is not None:
            cmd, left, args = self._pending
            args.append(b)
            if left == 1:
                self._pending = None
                self.command(cmd, args)
            else:
                self._pending = (cmd, left - 1, args)
            return
        n = self.ARGS.get(b, 0)
        if n:
            self._pending = (b, n, [])
        else:
            self.command(b, [])

    def _common(self, b, args):
        """Commands both controllers share; True if b was one."""
        if b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif b in (0xA4, 0xA5):
            self.all_on = b == 0xA5
        elif b in (0xA6, 0xA7):
            self.inverted = b == 0xA7
        elif b in (0xA0, 0xA1):
            self.remap = b == 0xA1
        elif b in (0xC0, 0xC8):
            self.com_reversed = b == 0xC8
        elif 0x40 <= b <= 0x7F:
            self.start_line = b - 0x40
        elif b == 0xD3:
            self.offset = args[0] & 0x3F
        elif 0xB0 <= b <= 0xB7:
            self.page = b - 0xB0
        elif b <= 0x0F:
            self.column = (self.column & 0xF0) | b
        elif b <= 0x1F:
            self.column = (self.column & 0x0F) | ((b & 0x0F) << 4)
        elif b in (0x81, 0xA8, 0xD5, 0xD9, 0xDA, 0xDB):
            pass  # contrast, multiplex, clock, precharge, COM pins, VCOM: no effect on content
        else:
            return False
        return True

    def lit(self):
        return self.on

    def visible(self):
        """The glass: 128x64, MONO_VLSB; all dark while off."""
        out = bytearray(128 * 8)
        if not self.lit():
            return out
        for y in range(64):
            row = (y + self.start_line + self.offset) % 64
            if not self.com_reversed:
                row = 63 - row  # the module is mounted for COM63..0 (0xC8)
            for x in range(128):
                col = self.GLASS_FIRST + x
                if not self.remap:
                    col = self.COLUMNS - 1 - col  # mounted for the far segment first (0xA1)
                on = self.ram[(row >> 3) * self.COLUMNS + col] >> (row & 7) & 1
                if self.all_on:
                    on = 1
                elif self.inverted:
                    on ^= 1
                if on:
                    out[(y >> 3) * 128 + x] |= 1 << (y & 7)
        return out


class Ssd1306Panel(Panel):
    COLUMNS = 128
    GLASS_FIRST = 0
    ARGS = _SSD1306_ARGS

    def __init__(self, addr=0x3C, present=True):
        super().__init__(addr, present)
        self.mode = 2  # page addressing at power-on
        self.window = (0, 127, 0, 7)
        self.pump = False

    def command(self, b, args):
        if b == 0x20:
            self.mode = args[0] & 3
        elif b == 0x21:
            self.window = (args[0] & 0x7F, args[1] & 0x7F, self.window[2], self.window[3])
            self.column = self.window[0]
        elif b == 0x22:
            self.window = (self.window[0], self.window[1], args[0] & 7, args[1] & 7)
            self.page = self.window[2]
        elif b == 0x8D:
            self.pump = bool(args[0] & 0x04)
        elif not self._common(b, args):
            self.unknown.append(b)

    def write_data(self, b):
        self.ram[self.page * 128 + self.column] = b
        c0, c1, p0, p1 = self.window
        if self.mode == 2:  # page mode: wraps within the page
            self.column = 0 if self.column >= 127 else self.column + 1
            return
        if self.column < c1:
            self.column += 1
            return
        self.column = c0
        self.page = p0 if self.page >= p1 else self.page + 1

    def lit(self):
        return self.on and self.pump  # no panel voltage without the charge pump


class Sh1106Panel(Panel):
    COLUMNS = 132
    GLASS_FIRST = 2  # SEG2..SEG129
    ARGS = _SH1106_ARGS

    def __init__(self, addr=0x3C, present=True):
        super().__init__(addr, present)
        self.dc_dc = True  # 0xAD 0x8B at power-on

    def command(self, b, args):
        if b == 0xAD:
            self.dc_dc = bool(args[0] & 1)
        elif 0x30 <= b <= 0x33:
            pass  # pump voltage
        elif not self._common(b, args):
            self.unknown.append(b)

    def write_data(self, b):
        if self.column < self.COLUMNS:
            self.ram[self.page * self.COLUMNS + self.column] = b
        self.column += 1  # within the page only; past column 131 nothing is written

    def lit(self):
        return self.on and self.dc_dc
