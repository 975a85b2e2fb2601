// The keys (clock keys, pause, menu: whatever board_config.py "keys" names): push buttons from a GPIO to GND (board_config.py "keys"),
// read through the RP2040's internal pull-ups. Pressed: the pin reads 0. Released: the
// pull-up brings it to 1 - only if the firmware enabled the pull-up; an input without a pull
// floats, and the model then reads it as 0 (a configuration error shows as a stuck key
// instead of being hidden).

export class Keys {
  /** pins: {name: GPIO number} */
  constructor(board, pins) {
    this.board = board;
    this.keys = {};
    for (const name of Object.keys(pins)) {
      const pin = board.pin(pins[name]);
      const key = { name, pin, down: false, presses: 0, level: null, release: null };
      pin.onChange(() => this._drive(key));
      this.keys[name] = key;
      this._drive(key);
    }
  }

  _drive(key) {
    const level = !key.down && key.pin.pullUp;
    if (level !== key.level) {
      key.level = level;
      key.pin.input = level;
    }
  }

  _set(key, down) {
    key.down = down;
    if (down) key.presses++;
    this._drive(key);
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

/** Twin model entry: options {keys (board_config "keys")}. */
export function attach(board, options) {
  const keys = new Keys(board, options.keys);
  board.handle("key", (args) => {
    if (args.key !== undefined) keys.press(args.key, args.hold_ms ?? 100);
    const out = {};
    for (const name of Object.keys(keys.keys)) out[name] = { down: keys.keys[name].down, presses: keys.keys[name].presses };
    return out;
  });
  return keys;
}
