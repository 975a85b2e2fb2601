// The sensor grid: size*size DRV5055 Hall sensors behind CD74HC4067 multiplexers, 74HC154
// power decoders and the RP2040's ADC, wired exactly as firmware/ingboard/board_config.py says
// (its docstring, and hardware_docs/design.md "Multiplexing"):
//
// - sensor i (scan order, A19 first) sits on first-level mux ("group") i >> 4, channel i & 15;
//   the four channel-select lines S0-S3 address every first-level mux at once;
// - groups 0-15 are bank 0, groups 16-22 bank 1; per bank a second-level mux (address A0-A3)
//   routes the selected group's output to that bank's ADC input, and a 4-to-16 decoder (same
//   address) powers that group's 16 sensors through a P-MOSFET; the bank's active-low enable
//   gates both (enable high: mux output floating, no group powered);
// - a DRV5055 needs its power-on time before its output is valid (datasheet t_ON: 175 us
//   typical, 330 us here as the worst case); read earlier it is still at 0 V;
// - a DRV5055A2 at 3.3 V: quiescent output VCC/2, 30 mV/mT; a stone's 6x1 mm N35 magnet 6 mm
//   above it gives about 15 mT (design.md "Stones": 0.49 V, ~9700 counts of read_u16), Black's
//   south pole down reads above VCC/2, White's below; the output saturates 0.2 V from the rails;
// - the ADC: 12 bits of 3.3 V (MicroPython's read_u16 scales the code to 16 bits).
//
// A point's state comes from a position: '.' empty, 'B', 'W', or '?'. The session log writes
// '?' where the classifier could not tell (a hand over the point holding a stone close to it):
// the model gives such a point a field beyond the sensor's range (3x a stone), which is what
// the classifier reads as '?' (its over-range rule). Each sensor has its own quiescent offset
// and sensitivity (seeded, deterministic), and every reading its own small noise, so a live
// sensor never repeats bit for bit for long (the classifier's frozen-sensor rule).

const CHANNELS = 16;
const GROUPS_PER_BANK = 16;
const VCC = 3.3;
const SENSITIVITY_V_PER_MT = 0.03; // DRV5055A2 at 3.3 V
const STONE_MT = 16.3; // 0.49 V at 30 mV/mT (design.md)
const HIDDEN_MT = 3 * STONE_MT; // '?': a field beyond the classifier's over-range threshold
const NEIGHBOUR_MT = 0.12; // a stone on a neighbouring point (design.md: 8 together <= ~6 %)
const POWER_ON_US = 330; // DRV5055 t_ON, worst case
const RAIL_MARGIN_V = 0.2; // output swing limit from either rail
const ADC_BITS = 12;

// A small deterministic PRNG (mulberry32), so two runs give identical readings.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const POINT_CODES = { ".": 0, B: 1, W: 2, "?": 3 };

export class HallGrid {
  /**
   * board: the twin's Board (host_tools/twin/board.mjs); grid: board_config's "grid" entry
   * ({size, channel_select, group_select, bank_enable, adc}); options: {seed, noiseLsb,
   * offsetMv}.
   */
  constructor(board, grid, options = {}) {
    this.board = board;
    this.size = grid.size;
    this.points = this.size * this.size;
    this.groups = Math.ceil(this.points / CHANNELS);
    this.banks = Math.ceil(this.groups / GROUPS_PER_BANK);
    this.sel = grid.channel_select.map((p) => board.pin(p));
    this.grp = grid.group_select.map((p) => board.pin(p));
    this.en = grid.bank_enable.map((p) => board.pin(p));
    // ADC input channel of each bank: GPIO26..29 are ADC0..3.
    this.adcChannel = grid.adc.map((p) => {
      if (p < 26 || p > 29) throw new Error("GPIO" + p + " has no ADC input on the RP2040");
      return p - 26;
    });
    const rnd = prng(options.seed ?? 1);
    const offsetV = (options.offsetMv ?? 30) / 1000;
    this.noiseLsb = options.noiseLsb ?? 2;
    this.quiescent = new Float64Array(this.points);
    this.gain = new Float64Array(this.points);
    for (let i = 0; i < this.points; i++) {
      this.quiescent[i] = VCC / 2 + (rnd() * 2 - 1) * offsetV;
      this.gain[i] = SENSITIVITY_V_PER_MT * (1 + (rnd() * 2 - 1) * 0.05);
    }
    this.noise = prng((options.seed ?? 1) ^ 0x5eed);
    this.state = new Uint8Array(this.points); // POINT_CODES
    this.field = new Float64Array(this.points); // mT, recomputed when the position changes
    this.poweredSince = new Array(this.banks).fill(null); // emulated us, per bank
    this.poweredGroup = new Array(this.banks).fill(-1);
    this.reads = 0;
    this.earlyReads = 0; // reads of a group not yet past its sensors' power-on time
    this.floatingReads = 0; // reads of a bank whose enable is high
    this.doublePowered = 0; // moments with more than one bank enabled (two groups powered)
    this.otherChannels = options.otherChannels || {}; // ADC channel -> 12-bit code
    for (const pin of [...this.grp, ...this.en]) pin.onChange(() => this._power());
    this._power();
    board.adc.onRead((channel) => this.read(channel));
  }

  /** A position as the session log's scan payload ("..B/.W./..." rows, or one string). */
  setPosition(text) {
    const cells = text.replace(/\//g, "");
    if (cells.length !== this.points) {
      throw new Error(`a position for ${this.size}x${this.size} needs ${this.points} points`);
    }
    for (let i = 0; i < this.points; i++) {
      const code = POINT_CODES[cells[i]];
      if (code === undefined) throw new Error(`bad point ${JSON.stringify(cells[i])} at ${i}`);
      this.state[i] = code;
    }
    this._fields();
  }

  position() {
    const chars = ".BW?";
    const rows = [];
    for (let r = 0; r < this.size; r++) {
      let row = "";
      for (let c = 0; c < this.size; c++) row += chars[this.state[r * this.size + c]];
      rows.push(row);
    }
    return rows.join("/");
  }

  _fields() {
    const n = this.size;
    const sign = [0, 1, -1, 0];
    for (let i = 0; i < this.points; i++) {
      const s = this.state[i];
      if (s === 3) {
        this.field[i] = HIDDEN_MT;
        continue;
      }
      let f = sign[s] * STONE_MT;
      const r = Math.floor(i / n);
      const c = i % n;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if ((dr || dc) && rr >= 0 && rr < n && cc >= 0 && cc < n) {
            const k = sign[this.state[rr * n + cc]];
            f += k * NEIGHBOUR_MT * (dr && dc ? 0.7 : 1);
          }
        }
      }
      this.field[i] = f;
    }
  }

  _code(pins) {
    let v = 0;
    for (let b = 0; b < pins.length; b++) if (pins[b].output) v |= 1 << b; // undriven: pulled low
    return v;
  }

  _enabled(bank) {
    return this.en[bank].output === false; // active low; an undriven line is pulled high
  }

  _power() {
    const now = this.board.nowUs;
    const address = this._code(this.grp);
    let enabled = 0;
    for (let bank = 0; bank < this.banks; bank++) {
      const group = this._enabled(bank) ? bank * GROUPS_PER_BANK + address : -1;
      if (group >= 0) enabled++;
      if (group !== this.poweredGroup[bank]) {
        this.poweredGroup[bank] = group;
        this.poweredSince[bank] = group >= 0 ? now : null;
      }
    }
    if (enabled > 1) this.doublePowered++;
  }

  /** Volts at bank `bank`'s ADC input now. */
  volts(bank) {
    this.reads++;
    const group = this.poweredGroup[bank];
    if (group < 0) {
      this.floatingReads++;
      return this.noise() * VCC; // mux disabled: the ADC input floats
    }
    const index = group * CHANNELS + this._code(this.sel);
    if (index >= this.points) return 0; // an unused input of the last mux (tied to GND)
    if (this.board.nowUs - this.poweredSince[bank] < POWER_ON_US) {
      this.earlyReads++;
      return 0; // the sensor is still powering up
    }
    let v = this.quiescent[index] + this.gain[index] * this.field[index];
    const lo = RAIL_MARGIN_V;
    const hi = VCC - RAIL_MARGIN_V;
    return v < lo ? lo : v > hi ? hi : v;
  }

  adcCode(volts) {
    const full = 1 << ADC_BITS;
    const noise = Math.round((this.noise() * 2 - 1) * this.noiseLsb);
    const code = Math.round((volts / VCC) * full) + noise;
    return code < 0 ? 0 : code >= full ? full - 1 : code;
  }

  /** One ADC conversion of `channel` (12-bit code). */
  read(channel) {
    const bank = this.adcChannel.indexOf(channel);
    if (bank < 0) return this.otherChannels[channel] ?? 0;
    return this.adcCode(this.volts(bank));
  }
}

/** Twin model entry: options {grid (board_config "grid"), seed, position}. */
export function attach(board, options) {
  const grid = new HallGrid(board, options.grid, options);
  if (options.position) grid.setPosition(options.position);
  board.handle("grid", (args) => {
    if (args.position !== undefined) grid.setPosition(args.position);
    if (args.noise_lsb !== undefined) grid.noiseLsb = Number(args.noise_lsb);
    return {
      position: grid.position(),
      reads: grid.reads,
      early_reads: grid.earlyReads,
      floating_reads: grid.floatingReads,
      double_powered: grid.doublePowered,
    };
  });
  return grid;
}
