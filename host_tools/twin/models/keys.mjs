// The keys (clock keys, pause, menu: whatever board_config.py "keys" names): push buttons from
// a GPIO to GND, read through the RP2040's internal pull-ups. Pressed: the pin reads 0.
// Released: the pull-up brings it to 1 - only if the firmware enabled the pull-up; an input
// without a pull floats, and the model then reads it as 0 (a configuration error shows as a
// stuck key instead of being hidden).
//
// Wiring faults (`faults`, or the "key" command's): {wires: {key: GPIO | "open" | "short"}}:
// a button wired to another key's GPIO (two keys swapped are two entries), not connected at
// all ("open": pressing it does nothing) or its GPIO shorted to GND ("short": always pressed).

export class Keys {
  /** pins: {name: GPIO number} */
  constructor(board, pins, faults = {}) {
    this.board = board;
    this.pins = pins;
    this.keys = {};
    this.lines = new Map(); // GPIO -> {pin, level, off}
    for (const name of Object.keys(pins)) {
      this.keys[name] = { name, down: false, presses: 0, release: null, wire: pins[name] };
    }
    this.setFaults(faults);
  }

  setFaults(faults) {
    this.faults = faults || {};
    const wires = this.faults.wires || {};
    for (const line of this.lines.values()) line.off();
    this.lines.clear();
    const gpios = new Set(Object.values(this.pins));
    for (const key of Object.values(this.keys)) {
      const w = wires[key.name] ?? this.pins[key.name];
      if (typeof w !== "number" && w !== "open" && w !== "short") {
        throw new Error(`key fault: ${key.name} cannot be wired to ${JSON.stringify(w)}`);
      }
      key.wire = w;
      if (typeof w === "number") gpios.add(w);
    }
    for (const gpio of gpios) {
      const pin = this.board.pin(gpio);
      const line = { gpio, pin, level: null, off: null };
      line.off = pin.onChange(() => this._drive(line));
      this.lines.set(gpio, line);
      this._drive(line);
    }
  }

  _drive(line) {
    let low = false;
    for (const key of Object.values(this.keys)) {
      if (key.wire === line.gpio && key.down) low = true;
      if (key.wire === "short" && this.pins[key.name] === line.gpio) low = true;
    }
    const level = !low && line.pin.pullUp;
    if (level !== line.level) {
      line.level = level;
      line.pin.input = level;
    }
  }

  _set(key, down) {
    key.down = down;
    if (down) key.presses++;
    for (const line of this.lines.values()) this._drive(line);
  }

  /** Let key `name` go now (a press held "until told"). */
  release(name) {
    const key = this.keys[name];
    if (!key) throw new Error(`no key ${JSON.stringify(name)}`);
    if (key.release) key.release();
    key.release = null;
    this._set(key, false);
  }

  /** Press key `name` for `holdMs` of emulated time (a player's press lasts about 100 ms). */
  press(name, holdMs = 100) {
    const key = this.keys[name];
    if (!key) throw new Error(`no key ${JSON.stringify(name)} (keys: ${Object.keys(this.keys).join(", ")})`);
    if (key.release) key.release();
    this._set(key, true);
    key.release = this.board.at(this.board.nowUs + holdMs * 1000, () => {
      key.release = null;
      this._set(key, false);
    });
  }
}

/** Twin model entry: options {keys (board_config "keys"), faults}. */
export function attach(board, options) {
  const keys = new Keys(board, options.keys, options.faults);
  board.handle("key", (args) => {
    if (args.faults !== undefined) keys.setFaults(args.faults);
    if (args.key !== undefined) keys.press(args.key, args.hold_ms ?? 100);
    if (args.release !== undefined) keys.release(args.release);
    const out = {};
    for (const name of Object.keys(keys.keys)) out[name] = { down: keys.keys[name].down, presses: keys.keys[name].presses };
    return out;
  });
  return keys;
}
