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
// - a DRV5055A2 at 3.3 V: quiescent output VCC/2, 30 mV/mT; a stone's 6x1 mm N35 magnet over
//   5 mm of wood gives 14.8 mT (0.44 V, ~8800 counts of read_u16), Black's south pole down
//   reads above VCC/2, White's below; a stone on a neighbouring point adds its return flux,
//   of the OPPOSITE sign (-1.14 % of a stone along a line, -0.99 % from the next line, -0.45 %
//   diagonally); the output saturates 0.2 V from the rails;
// - the ADC: 12 bits of 3.3 V (MicroPython's read_u16 scales the code to 16 bits).
// Every figure comes from firmware/ingboard/physical.py (hardware.py passes them as `physics`;
// the defaults below are the same numbers, for a model loaded on its own).
//
// The select and enable lines have no pull resistors in the BOM: a line the MCU does not drive
// (before the firmware sets its pins up, or a wire that is open) floats, and the model reads
// a floating line as a random level at each use - unless `pulls` names a resistor
// ({line: "up"|"down"}, line "S0".."S3", "A0".."A3", "EN0", "EN1").
//
// Wiring faults (`faults`, or the "grid" command's `faults`; host_tools/twin/faults.py writes
// them from the text a test or `ingboard bringup --twin --fault` gives):
//   wires:   {line: GPIO | "low" | "high" | "open"}  what drives each mux/decoder input (a
//            swap is two lines wired to each other's GPIO; "low"/"high" a line shorted to GND
//            or VCC; "open" a broken wire: floating)
//   slots:   {sensor index: slot}  a sensor wired to another mux input (slot = group*16 +
//            channel; two sensors swapped are two entries)
//   mosfet:  {group: "open" | "short"}  that group's P-MOSFET never / always conducts
//   sensors: {sensor index: "reversed" | "axis" | "dead"}  mounted marked face down, on the
//            wrong axis (sensing along the board, not across it), or dead (output at 0 V)
//   gains:   {sensor index: share}  the field it sees of a stone (more wood over it: 0.7)
//   adc:     [bank 0's ADC channel, bank 1's]  the banks' analog lines swapped or moved

const CHANNELS = 16;
const GROUPS_PER_BANK = 16;
const ADC_BITS = 12;
// physical.py's figures (hardware.py passes the module's values; these are the same).
export const PHYSICS = {
  SUPPLY_MV: 3300,
  SENSOR_UV_PER_MT: 30000,
  STONE_FIELD_NOMINAL_UT: 14800,
  CROSSTALK_ALONG_LINE_BP: -114,
  CROSSTALK_NEXT_LINE_BP: -99,
  CROSSTALK_DIAGONAL_BP: -45,
  SENSOR_T_ON_MAX_US: 330,
  SENSOR_RAIL_MARGIN_MV: 200,
  SENSOR_GAIN_TOL_PCT: 5,
  SENSOR_OFFSET_TOL_MV: 30,
};
const LINES = ["S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3", "EN0", "EN1"];

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
    const ph = { ...PHYSICS, ...(options.physics || {}) };
    this.vcc = ph.SUPPLY_MV / 1000;
    this.stoneMt = ph.STONE_FIELD_NOMINAL_UT / 1000;
    this.hiddenMt = 3 * this.stoneMt; // '?': a field beyond the classifier's over-range rule
    // Crosstalk as a share of the stone's own field, with its sign (negative: return flux).
    this.alongLine = ph.CROSSTALK_ALONG_LINE_BP / 10000;
    this.nextLine = ph.CROSSTALK_NEXT_LINE_BP / 10000;
    this.diagonal = ph.CROSSTALK_DIAGONAL_BP / 10000;
    this.powerOnUs = ph.SENSOR_T_ON_MAX_US;
    this.railMarginV = ph.SENSOR_RAIL_MARGIN_MV / 1000;
    const sensitivity = ph.SENSOR_UV_PER_MT / 1e6; // V/mT
    this.board = board;
    this.size = grid.size;
    this.points = this.size * this.size;
    this.groups = Math.ceil(this.points / CHANNELS);
    this.banks = Math.ceil(this.groups / GROUPS_PER_BANK);
    this.gpio = {};
    grid.channel_select.forEach((p, k) => (this.gpio["S" + k] = p));
    grid.group_select.forEach((p, k) => (this.gpio["A" + k] = p));
    grid.bank_enable.forEach((p, k) => (this.gpio["EN" + k] = p));
    this.adcOfBank = grid.adc.map((p) => {
      if (p < 26 || p > 29) throw new Error("GPIO" + p + " has no ADC input on the RP2040");
      return p - 26;
    });
    this.pulls = options.pulls || {};
    const rnd = prng(options.seed ?? 1);
    const offsetV = (options.offsetMv ?? ph.SENSOR_OFFSET_TOL_MV) / 1000;
    this.noiseLsb = options.noiseLsb ?? 2;
    this.quiescent = new Float64Array(this.points);
    this.gain = new Float64Array(this.points);
    for (let i = 0; i < this.points; i++) {
      this.quiescent[i] = this.vcc / 2 + (rnd() * 2 - 1) * offsetV;
      this.gain[i] = sensitivity * (1 + ((rnd() * 2 - 1) * ph.SENSOR_GAIN_TOL_PCT) / 100);
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
    this.setFaults(options.faults || {});
    board.adc.onRead((channel) => this.read(channel));
  }

  /** Wire the board as `faults` says (see the header); {} is the board as designed. */
  setFaults(faults) {
    for (const off of this._listeners || []) off();
    this.faults = faults;
    const wires = faults.wires || {};
    this.lineSource = {};
    for (const name of LINES) {
      if (!(name in this.gpio)) continue;
      const w = wires[name] ?? this.gpio[name];
      if (typeof w === "number") this.lineSource[name] = this.board.pin(w);
      else if (w === "low" || w === "high" || w === "open") this.lineSource[name] = w;
      else throw new Error(`grid fault: line ${name} cannot be wired to ${JSON.stringify(w)}`);
    }
    this.slotSensor = new Int32Array(this.groups * CHANNELS).fill(-2); // -2: nothing wired
    for (let i = 0; i < this.points; i++) this.slotSensor[i] = i;
    const slots = faults.slots || {};
    for (const key of Object.keys(slots)) {
      const i = Number(key);
      if (this.slotSensor[i] === i) this.slotSensor[i] = -1; // vacated unless refilled
    }
    for (const [key, slot] of Object.entries(slots)) {
      const i = Number(key);
      if (!(i >= 0 && i < this.points) || !(slot >= 0 && slot < this.slotSensor.length)) {
        throw new Error(`grid fault: bad sensor slot ${key} -> ${slot}`);
      }
      this.slotSensor[slot] = i;
    }
    this.mosfet = faults.mosfet || {};
    this.sensorFault = faults.sensors || {};
    this.fieldShare = faults.gains || {};
    this.adcChannel = faults.adc || this.adcOfBank;
    this._listeners = [];
    for (const name of ["A0", "A1", "A2", "A3", "EN0", "EN1"]) {
      const src = this.lineSource[name];
      if (src && typeof src === "object") this._listeners.push(src.onChange(() => this._power()));
    }
    this.poweredGroup.fill(-1);
    this._power();
    this._fields();
  }

  /** A line's level at the mux/decoder input: 0, 1, or null (floating). */
  _line(name) {
    const src = this.lineSource[name];
    if (src === "low") return 0;
    if (src === "high") return 1;
    if (src !== "open") {
      const out = src.output;
      if (out !== null) return out ? 1 : 0;
    }
    const pull = this.pulls[name];
    return pull === "up" ? 1 : pull === "down" ? 0 : null;
  }

  _level(name) {
    const v = this._line(name);
    return v === null ? (this.noise() < 0.5 ? 0 : 1) : v; // a floating CMOS input: either
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
    const share = (dr, dc) => (dr && dc ? this.diagonal : dr ? this.nextLine : this.alongLine);
    for (let i = 0; i < this.points; i++) {
      const s = this.state[i];
      if (s === 3) {
        this.field[i] = this.hiddenMt;
        continue;
      }
      const r = Math.floor(i / n);
      const c = i % n;
      const fault = this.sensorFault[i];
      if (fault === "axis") {
        // Sensing along the line: a centred stone's field has no such component; the stones
        // beside it along the line give a little (their field leans outwards, opposite ways).
        let f = 0;
        if (c > 0) f += sign[this.state[i - 1]] * this.stoneMt * 0.012;
        if (c < n - 1) f -= sign[this.state[i + 1]] * this.stoneMt * 0.012;
        this.field[i] = f;
        continue;
      }
      let f = sign[s] * this.stoneMt;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if ((dr || dc) && rr >= 0 && rr < n && cc >= 0 && cc < n) {
            f += sign[this.state[rr * n + cc]] * this.stoneMt * share(dr, dc);
          }
        }
      }
      f *= this.fieldShare[i] ?? 1;
      this.field[i] = fault === "reversed" ? -f : f;
    }
  }

  _code(prefix) {
    let v = 0;
    for (let b = 0; b < 4; b++) if (this._level(prefix + b)) v |= 1 << b;
    return v;
  }

  /** 1 enabled, 0 disabled, null floating (the bank's enable line is active low). */
  _enabled(bank) {
    const v = this._line("EN" + bank);
    return v === null ? null : v === 0 ? 1 : 0;
  }

  _power(count = true) {
    const now = this.board.nowUs;
    const address = this._code("A");
    let enabled = 0;
    for (let bank = 0; bank < this.banks; bank++) {
      const group = this._enabled(bank) === 1 ? bank * GROUPS_PER_BANK + address : -1;
      if (group >= 0) enabled++;
      if (group !== this.poweredGroup[bank]) {
        this.poweredGroup[bank] = group;
        this.poweredSince[bank] = group >= 0 ? now : null;
      }
    }
    if (count && enabled > 1) this.doublePowered++;
  }

  /** Volts at bank `bank`'s ADC input now. */
  volts(bank) {
    this.reads++;
    if (this._enabled(bank) === null) {
      this.floatingReads++;
      return this.noise() * this.vcc; // the mux's enable floats: so does its output
    }
    this._power(false); // a floating address line may read differently now
    const group = this.poweredGroup[bank];
    if (group < 0) {
      this.floatingReads++;
      return this.noise() * this.vcc; // mux disabled: the ADC input floats
    }
    if (group >= this.groups) return 0; // an unused input of the bank's mux (tied to GND)
    const slot = group * CHANNELS + this._code("S");
    const index = this.slotSensor[slot];
    if (index === -2) return 0; // an unused input of the last mux (tied to GND)
    if (index === -1) return this.noise() * this.vcc; // its sensor was moved: open input
    // The sensors of `index`'s own group must be powered: its MOSFET, or the decoder's.
    const own = Math.floor(index / CHANNELS);
    const mosfet = this.mosfet[own];
    if (mosfet === "open" || this.sensorFault[index] === "dead") return 0;
    if (mosfet !== "short") {
      if (own !== group) return 0; // a sensor of another group: not powered now
      if (this.board.nowUs - this.poweredSince[bank] < this.powerOnUs) {
        this.earlyReads++;
        return 0; // the sensor is still powering up
      }
    }
    const v = this.quiescent[index] + this.gain[index] * this.field[index];
    const lo = this.railMarginV;
    const hi = this.vcc - this.railMarginV;
    return v < lo ? lo : v > hi ? hi : v;
  }

  adcCode(volts) {
    const full = 1 << ADC_BITS;
    const noise = Math.round((this.noise() * 2 - 1) * this.noiseLsb);
    const code = Math.round((volts / this.vcc) * full) + noise;
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
    if (args.faults !== undefined) grid.setFaults(args.faults || {});
    return {
      position: grid.position(),
      reads: grid.reads,
      early_reads: grid.earlyReads,
      floating_reads: grid.floatingReads,
      double_powered: grid.doublePowered,
      faults: grid.faults,
    };
  });
  return grid;
}
