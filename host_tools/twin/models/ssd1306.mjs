// An SSD1306 128x64 OLED controller on I2C (Solomon Systech datasheet rev 1.1), as
// micropython-lib's `ssd1306` drives it: each write transaction starts with a control byte -
// Co (bit 7) = 1: one byte follows, then another control byte; Co = 0: the rest of the
// transaction is of one kind; D/C# (bit 6) = 0 commands, 1 display data (GDDRAM).
//
// GDDRAM: 8 pages of 128 columns, one byte = 8 vertical pixels (LSB on top). Addressing modes
// (0x20): 0 horizontal, 1 vertical, 2 page (the reset default; page 0xB0-0xB7 and column
// 0x00-0x0F / 0x10-0x1F commands). The column (0x21) and page (0x22) windows bound the
// horizontal and vertical modes. What the panel shows: display on/off (0xAE/0xAF), inverse
// (0xA6/0xA7), entire display on (0xA4/0xA5), start line (0x40-0x7F), display offset (0xD3),
// segment remap (0xA0/0xA1) and COM scan direction (0xC0/0xC8); the module's glass is mounted
// so that 0xA1 + 0xC8 (what the driver sends) shows GDDRAM upright. Other commands and their
// arguments are accepted and ignored (timing, charge pump, contrast, scrolling off).
//
// Every transaction that changed what the panel shows makes a frame: `onFrame({t_us, name,
// bits})`, `bits` the 128x64 picture as seen, 1 bit per pixel, row-major, MSB first (1024 B).

const WIDTH = 128;
const PAGES = 8;
const HEIGHT = 64;
// Commands followed by argument bytes, and how many.
const ARGS = {
  0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0x81: 1, 0x8d: 1, 0xa3: 2,
  0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd8: 1, 0xd9: 1, 0xda: 1, 0xdb: 1,
};

export class SSD1306 {
  constructor(name, options = {}) {
    this.name = name;
    this.statusId = 0x06;
    this.onFrame = options.onFrame || null;
    this.board = options.board || null;
    this.ram = new Uint8Array(WIDTH * PAGES);
    this.on = false;
    this.inverse = false;
    this.entireOn = false;
    this.startLine = 0;
    this.offset = 0;
    this.segRemap = false;
    this.comRemap = false;
    this.mode = 2; // page addressing after reset
    this.col = 0;
    this.page = 0;
    this.colStart = 0;
    this.colEnd = WIDTH - 1;
    this.pageStart = 0;
    this.pageEnd = PAGES - 1;
    this.frames = 0;
    this.commands = 0;
    this.dataBytes = 0;
    this.unknown = 0;
    this.lastFrame = null;
    // The command decoder keeps its place across transactions: micropython-lib sends a
    // command's arguments as commands of their own (one [0x80, byte] write each).
    this.cmd = [];
    this.need = 0;
    this._reset();
  }

  _reset() {
    this.state = "control";
    this.changed = false;
  }

  // -- the I2C target -------------------------------------------------------------------
  start(read) {
    this._reset();
  }

  write(byte) {
    switch (this.state) {
      case "control":
        this.continuation = (byte & 0x80) !== 0; // Co
        this.state = byte & 0x40 ? "data" : "command";
        this.single = this.continuation;
        return true;
      case "command":
        this._commandByte(byte);
        break;
      case "data":
        this._data(byte);
        break;
    }
    if (this.single && this.need === 0) this.state = "control";
    return true;
  }

  read() {
    // The status byte (an I2C read): bit 6 = display off; the low bits identify the
    // controller (0x06 an SSD1306 128x64, 0x08 an SH1106: what display libraries test).
    return (this.on ? 0x00 : 0x40) | this.statusId;
  }

  stop() {
    if (this.changed) this._frame();
    this._reset();
  }

  // -- commands ------------------------------------------------------------------------
  _commandByte(byte) {
    if (this.need > 0) {
      this.cmd.push(byte);
      this.need--;
      if (this.need === 0) this._execute(this.cmd);
      return;
    }
    this.cmd = [byte];
    this.need = ARGS[byte] || 0;
    if (this.need === 0) this._execute(this.cmd);
  }

  _execute(c) {
    this.commands++;
    const op = c[0];
    const before = this._look();
    if (op === 0xae || op === 0xaf) this.on = op === 0xaf;
    else if (op === 0xa6 || op === 0xa7) this.inverse = op === 0xa7;
    else if (op === 0xa4 || op === 0xa5) this.entireOn = op === 0xa5;
    else if (op === 0xa0 || op === 0xa1) this.segRemap = op === 0xa1;
    else if (op === 0xc0 || op === 0xc8) this.comRemap = op === 0xc8;
    else if (op >= 0x40 && op <= 0x7f) this.startLine = op & 0x3f;
    else if (op === 0xd3) this.offset = c[1] & 0x3f;
    else if (op === 0x20) this.mode = c[1] & 3;
    else if (op === 0x21) {
      this.colStart = c[1] & 0x7f;
      this.colEnd = c[2] & 0x7f;
      this.col = this.colStart;
    } else if (op === 0x22) {
      this.pageStart = c[1] & 7;
      this.pageEnd = c[2] & 7;
      this.page = this.pageStart;
    } else if (op >= 0xb0 && op <= 0xb7) this.page = op & 7;
    else if (op <= 0x0f) this.col = (this.col & 0xf0) | op;
    else if (op >= 0x10 && op <= 0x1f) this.col = (this.col & 0x0f) | ((op & 0x0f) << 4);
    else if (!(op in ARGS) && op !== 0x2e && op !== 0x2f && op !== 0xe3) this.unknown++;
    if (this._look() !== before) this.changed = true;
  }

  _look() {
    return [this.on, this.inverse, this.entireOn, this.segRemap, this.comRemap, this.startLine, this.offset].join();
  }

  // -- display data ------------------------------------------------------------------------
  _data(byte) {
    this.dataBytes++;
    const i = this.page * WIDTH + this.col;
    if (this.ram[i] !== byte) {
      this.ram[i] = byte;
      this.changed = true;
    }
    if (this.mode === 0) {
      if (this.col >= this.colEnd) {
        this.col = this.colStart;
        this.page = this.page >= this.pageEnd ? this.pageStart : this.page + 1;
      } else this.col++;
    } else if (this.mode === 1) {
      if (this.page >= this.pageEnd) {
        this.page = this.pageStart;
        this.col = this.col >= this.colEnd ? this.colStart : this.col + 1;
      } else this.page++;
    } else if (this.col < WIDTH - 1) this.col++; // page mode: stays on the page at the end
  }

  /** Pixel (x, y) as the viewer sees it (1 lit). */
  pixel(x, y) {
    if (!this.on) return 0;
    if (this.entireOn) return 1;
    // Row y of the glass is driven by COM y (0xC8: scanned from COM63, glass mounted for it).
    const com = this.comRemap ? y : HEIGHT - 1 - y;
    const row = (com + this.startLine + this.offset) % HEIGHT;
    const column = this.segRemap ? x : WIDTH - 1 - x;
    const bit = (this.ram[(row >> 3) * WIDTH + column] >> (row & 7)) & 1;
    return this.inverse ? bit ^ 1 : bit;
  }

  /** The picture as seen: 128x64, row-major, MSB first. */
  picture() {
    const out = new Uint8Array((WIDTH * HEIGHT) / 8);
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        if (this.pixel(x, y)) out[(y * WIDTH + x) >> 3] |= 0x80 >> (x & 7);
      }
    }
    return out;
  }

  _frame() {
    const bits = this.picture();
    this.frames++;
    this.lastFrame = bits;
    if (this.onFrame) {
      const t = this.board ? Math.round(this.board.nowUs) : 0;
      this.onFrame({ t_us: t, name: this.name, bits });
    }
  }
}

// An SH1106 (the 1.3" modules that look like the 0.96" SSD1306 ones): page addressing only.
// It has no horizontal/vertical addressing (0x20) nor column/page windows (0x21, 0x22): those
// bytes do nothing, and their arguments are taken as commands of their own (0x00 a column,
// 0x7F a start line...), so an SSD1306 driver's frame lands on one page, shifted: garbage.
export class SH1106 extends SSD1306 {
  constructor(name, options = {}) {
    super(name, options);
    this.statusId = 0x08;
  }

  _commandByte(byte) {
    if (this.need === 0 && (byte === 0x20 || byte === 0x21 || byte === 0x22)) {
      this.commands++;
      return;
    }
    super._commandByte(byte);
  }
}

/** Twin model entry: options {i2c (board_config "i2c"), displays (board_config "displays"),
 * faults {name: {addr, chip: "sh1106", absent}} (a module strapped to another address, the
 * other controller, or none; also the "display" command's `faults`)}.
 * handler "frames": the frames since the last call, [{t_us, name, bits (base64)}], at most
 * `keep` per display (the latest ones); "display": each display's state. */
export function attach(board, options) {
  const keep = options.keep ?? 64;
  const pending = [];
  const displays = {};
  const detach = [];
  const fit = (faults) => {
    while (detach.length) detach.pop()();
    for (const name of Object.keys(displays)) delete displays[name];
    for (const [name, where] of Object.entries(options.displays)) {
      const fault = (faults || {})[name] || {};
      if (fault.absent) continue; // not connected: nothing answers
      const bus = options.i2c[where.bus];
      const Chip = fault.chip === "sh1106" ? SH1106 : SSD1306;
      const display = new Chip(name, {
        board,
        onFrame: (frame) => {
          pending.push(frame);
          if (pending.length > keep * 2) pending.splice(0, pending.length - keep * 2);
        },
      });
      detach.push(board.i2c(bus.id).attach(fault.addr ?? where.addr, display));
      displays[name] = display;
    }
  };
  fit(options.faults);
  board.handle("frames", () => {
    const out = pending.map((f) => ({ t_us: f.t_us, name: f.name, bits: Buffer.from(f.bits).toString("base64") }));
    pending.length = 0;
    return out;
  });
  board.handle("display", (args) => {
    if (args && args.faults !== undefined) fit(args.faults);
    const out = {};
    for (const [name, d] of Object.entries(displays)) {
      out[name] = { on: d.on, frames: d.frames, commands: d.commands, data_bytes: d.dataBytes, unknown: d.unknown };
    }
    return out;
  });
  return displays;
}
