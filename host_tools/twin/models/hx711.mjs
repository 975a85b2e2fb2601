// One HX711 24-bit load-cell ADC (Avia Semiconductor datasheet) on two GPIOs:
//
// - DOUT (MCU input) is high while no conversion is ready and goes low when one is;
// - on each rising edge of PD_SCK (MCU output) the next bit is shifted out on DOUT, MSB first,
//   24 bits of two's complement; the 25th-27th pulses select the NEXT conversion's input and
//   gain (25: channel A x128, 26: channel B x32, 27: channel A x64), and the 25th pulls DOUT
//   back high;
// - PD_SCK held high for more than 60 us powers the chip down; when it returns low the chip
//   resets (channel A x128) and its first conversion is ready after the settling time
//   (4 conversion periods at 10 SPS: 400 ms);
// - RATE low: 10 samples per second (a conversion every 100 ms); codes saturate at 0x7FFFFF /
//   0x800000.
//
// The load on the cell comes from the scenario as grams; the code is
// offset + grams * scale (counts per gram at x128; half at x64), plus a little seeded noise.
// `unplug()` models a missing chip (DOUT pulled high, never ready).
//
// The platform stands on two load cells whose bridges are wired in parallel into the HX711
// (hardware_docs/design.md "Bowls"): the signal is the average of the two. A load at
// `position` along the platform (0: over the first cell, 1: over the second, 0.5: centred)
// loads them (1 - position) and position. Wiring faults (`faults`, or the "bowl" command's):
// {reversed: true} the signal pair S+/S- swapped at the HX711 (the code falls with the load),
// {unplugged: true} the chip not connected, {cells: [k1, k2]} each cell's sensitivity (1 as designed; a mismatched cell 0.8, one wired
// backwards -1, one unconnected 0): a centred load then reads (k1 + k2) / 2 of the grams.
import { prng } from "./hall_grid.mjs";

const PERIOD_US = 100000; // 10 SPS
const SETTLE_PERIODS = 4;
const POWER_DOWN_US = 60;
const MAX = 0x7fffff;
const MIN = -0x800000;

export class HX711 {
  /** pins {dout, sck}; options {offset, scale (counts/g), noise (counts), seed} */
  constructor(board, pins, options = {}) {
    this.board = board;
    this.dout = board.pin(pins.dout);
    this.sck = board.pin(pins.sck);
    this.offset = options.offset ?? 84213;
    this.scale = options.scale ?? 420.5;
    this.noiseCounts = options.noise ?? 3;
    this.noise = prng(options.seed ?? 7);
    this.grams = 0;
    this.position = 0.5;
    this.faults = {};
    this.channelB = 0; // channel B is not connected: it reads about zero
    this.gainPulses = 1; // the next conversion: 1 A x128, 2 B x32, 3 A x64
    this.present = true;
    this.poweredDown = false;
    this.ready = false;
    this.word = 0; // the conversion being shifted out (24-bit two's complement)
    this.pulses = 0; // rising edges since DOUT went low
    this.conversions = 0;
    this.reads = 0; // complete reads (>= 24 bits)
    this.badReads = 0; // reads ended with fewer than 25 pulses (the chip kept the data)
    this.lastLevel = false; // PD_SCK as last seen
    this.conversion = null; // cancel() of the next conversion
    this.powerDown = null; // cancel() of the pending power-down
    this.sck.onChange(() => this._edge());
    this._setDout(true);
    this._schedule(SETTLE_PERIODS * PERIOD_US);
  }

  _schedule(us) {
    if (this.conversion) this.conversion();
    this.conversion = this.board.at(this.board.nowUs + us, () => this._convert());
  }

  setGrams(grams, position) {
    this.grams = grams;
    if (position !== undefined) this.position = position;
  }

  /** The bridge's output as a share of a centred load on a healthy platform. */
  share() {
    const cells = this.faults.cells || [1, 1];
    const p = this.position;
    const s = (1 - p) * cells[0] * 2 * 0.5 + p * cells[1] * 2 * 0.5; // average of the bridges
    return this.faults.reversed ? -s : s;
  }

  unplug() {
    this.present = false;
    this.ready = false;
    this._setDout(true);
  }

  plug() {
    this.present = true;
  }

  _setDout(level) {
    this.dout.input = level;
  }

  codeFor(gainPulses) {
    const noise = Math.round((this.noise() * 2 - 1) * this.noiseCounts);
    let code;
    if (gainPulses === 2) code = this.channelB + noise;
    else {
      const load = this.grams * this.share() * this.scale * (gainPulses === 3 ? 0.5 : 1);
      code = Math.round(this.offset + load) + noise;
    }
    return code > MAX ? MAX : code < MIN ? MIN : code;
  }

  _convert() {
    this._schedule(PERIOD_US);
    if (!this.present || this.poweredDown) return;
    if (this.ready && this.pulses > 0 && this.pulses < 25) return; // being shifted out
    this.word = this.codeFor(this.gainPulses) & 0xffffff;
    this.conversions++;
    this.ready = true;
    this.pulses = 0;
    this._setDout(false);
  }

  _level() {
    return this.sck.output === true;
  }

  _edge() {
    const level = this._level();
    if (level === this.lastLevel) return;
    this.lastLevel = level;
    if (!level) {
      if (this.powerDown) this.powerDown();
      this.powerDown = null;
      if (this.poweredDown) {
        // Power up: reset to channel A x128; the first conversion after settling.
        this.poweredDown = false;
        this.gainPulses = 1;
        this.ready = false;
        this.pulses = 0;
        this._setDout(true);
        this._schedule(SETTLE_PERIODS * PERIOD_US);
      }
      return;
    }
    this.powerDown = this.board.at(this.board.nowUs + POWER_DOWN_US, () => this._powerDown());
    if (!this.present || this.poweredDown || !this.ready) return; // nothing to shift out
    this.pulses++;
    if (this.pulses <= 24) {
      this._setDout(((this.word >> (24 - this.pulses)) & 1) === 1);
    } else if (this.pulses <= 27) {
      this.gainPulses = this.pulses - 24; // 25: A x128, 26: B x32, 27: A x64
      if (this.pulses === 25) {
        this.reads++;
        this._setDout(true);
      }
    }
  }

  _powerDown() {
    this.powerDown = null;
    if (this._level()) {
      if (this.ready && this.pulses > 0 && this.pulses < 25) this.badReads++;
      this.poweredDown = true;
      this.ready = false;
      this.pulses = 0;
      this._setDout(true);
    }
  }
}

/** Twin model entry: options {bowls (board_config "bowls"), cells {B: {offset, scale}, ...}}. */
export function attach(board, options) {
  const cells = {};
  let seed = 7;
  for (const [colour, pins] of Object.entries(options.bowls)) {
    const cell = (options.cells || {})[colour] || {};
    cells[colour] = new HX711(board, pins, { seed: seed++, ...cell });
    cells[colour].faults = ((options.faults || {})[colour]) || {};
    if (cells[colour].faults.unplugged) cells[colour].unplug();
  }
  board.handle("bowl", (args) => {
    const cell = cells[args.colour];
    if (!cell) throw new Error(`no bowl ${JSON.stringify(args.colour)}`);
    if (args.grams !== undefined) {
      cell.setGrams(Number(args.grams), args.position === undefined ? 0.5 : Number(args.position));
    }
    if (args.faults !== undefined) {
      cell.faults = args.faults || {};
      if (cell.faults.unplugged) cell.unplug();
      else cell.plug();
    }
    if (args.plugged === false) cell.unplug();
    if (args.plugged === true) cell.plug();
    return {
      grams: cell.grams,
      conversions: cell.conversions,
      reads: cell.reads,
      bad_reads: cell.badReads,
      powered_down: cell.poweredDown,
      faults: cell.faults,
    };
  });
  return cells;
}
