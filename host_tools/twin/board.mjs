// What a hardware model sees of the twin (the interface twin-hw's models plug into).
//
// A model is an ES module exporting `attach(board, options)`; the twin loads it with
// `Twin.load_model(path, **options)` (Python) or `ingboard twin --model path.mjs`. `attach` may
// return an object; its `close()` is called when the twin stops. Everything runs in emulated
// time, on the emulator's thread, between two instructions: keep callbacks short.
//
//   board.nowUs                          emulated time in µs (float; 125 MHz cycles / 125)
//   board.pin(n)                         GPIO n (0..29):
//     .output        -> true/false/null   level the guest drives (null: not an output)
//     .pullUp, .pullDown                  the pad's pulls as the guest set them
//     .input = bool                       the level outside the chip drives onto the pin
//     .onChange(fn(output, pin)) -> off() called when the guest changes the pin's output
//   board.adc.set(channel, value)        ADC channel 0..4 reads `value` (0..4095) from now on
//   board.adc.onRead(fn(channel) -> value)  or compute each conversion (fn returns 0..4095)
//   board.i2c(bus).attach(address, device)  a device on I2C0/I2C1 at a 7-bit address:
//     device.start?(read: bool)          addressed (after START or repeated START)
//     device.write(byte) -> bool          a byte from the controller; return false to NAK
//     device.read() -> byte               a byte for the controller
//     device.stop?()                       STOP
//   board.every(periodUs, fn(nowUs)) -> cancel()   periodic hook in emulated time
//   board.at(us, fn(nowUs)) -> cancel()            once, at emulated time `us`
//   board.handle(name, fn(args) -> result)  a command Python sends with Twin.model(name, **args);
//                                           the result (JSON) is returned to Python
//   board.log(text)                      one line on the twin's stderr
//   board.mcu                            the rp2040js RP2040, for what is not covered above

export class Board {
  constructor(mcu, handlers) {
    this.mcu = mcu;
    this._handlers = handlers;
    this._buses = [null, null];
    this._pins = new Map();
    this.adc = {
      set: (channel, value) => {
        mcu.adc.channelValues[channel] = value & 0xfff;
      },
      onRead: (fn) => {
        // One conversion takes sampleTime µs (2 µs: 96 ADC clocks at 48 MHz), as in rp2040js.
        let value = 0;
        const done = mcu.clock.createAlarm(() => mcu.adc.completeADCRead(value, false));
        mcu.adc.onADCRead = (channel) => {
          value = fn(channel) & 0xfff;
          done.schedule(mcu.adc.sampleTime * 1000);
        };
      },
    };
  }

  get nowUs() {
    return this.mcu.clock.nanos / 1000;
  }

  pin(n) {
    if (!Number.isInteger(n) || n < 0 || n > 29) throw new Error(`no GPIO ${n} on the RP2040`);
    let pin = this._pins.get(n);
    if (!pin) {
      pin = new Pin(this.mcu.gpio[n]);
      this._pins.set(n, pin);
    }
    return pin;
  }

  i2c(bus) {
    if (bus !== 0 && bus !== 1) throw new Error(`no I2C${bus} on the RP2040`);
    if (!this._buses[bus]) this._buses[bus] = new I2CBus(this.mcu.i2c[bus]);
    return this._buses[bus];
  }

  at(us, fn) {
    const alarm = this.mcu.clock.createAlarm(() => fn(this.nowUs));
    alarm.schedule(Math.max(0, us * 1000 - this.mcu.clock.nanos));
    return () => alarm.cancel();
  }

  every(periodUs, fn) {
    if (!(periodUs > 0)) throw new Error('every(): the period must be > 0 µs');
    let cancelled = false;
    const alarm = this.mcu.clock.createAlarm(() => {
      if (cancelled) return;
      alarm.schedule(periodUs * 1000);
      fn(this.nowUs);
    });
    alarm.schedule(periodUs * 1000);
    return () => {
      cancelled = true;
      alarm.cancel();
    };
  }

  handle(name, fn) {
    this._handlers.set(name, fn);
  }

  log(text) {
    process.stderr.write(`twin: ${text}\n`);
  }
}

class Pin {
  constructor(gpio) {
    this.gpio = gpio;
  }
  get output() {
    return this.gpio.outputEnable ? !!this.gpio.outputValue : null;
  }
  get pullUp() {
    return this.gpio.pullupEnabled;
  }
  get pullDown() {
    return this.gpio.pulldownEnabled;
  }
  get input() {
    return this.gpio.rawInputValue;
  }
  set input(level) {
    if (this.gpio.rawInputValue !== !!level) this.gpio.setInputValue(!!level);
  }
  onChange(fn) {
    return this.gpio.addListener(() => fn(this.output, this));
  }
}

class I2CBus {
  constructor(i2c) {
    this.i2c = i2c;
    this.devices = new Map();
    this.current = null;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address, mode) => {
      const device = this.devices.get(address & 0x7f);
      this.current = device || null;
      if (device && device.start) device.start(mode === 1);
      i2c.completeConnect(!!device);
    };
    i2c.onWriteByte = (value) => {
      const ok = this.current ? this.current.write(value) !== false : false;
      i2c.completeWrite(ok);
    };
    i2c.onReadByte = () => {
      i2c.completeRead(this.current ? this.current.read() & 0xff : 0xff);
    };
    i2c.onStop = () => {
      if (this.current && this.current.stop) this.current.stop();
      this.current = null;
      i2c.completeStop();
    };
  }

  attach(address, device) {
    if (this.devices.has(address)) {
      throw new Error(`I2C address 0x${address.toString(16)} is taken`);
    }
    this.devices.set(address, device);
    return () => this.devices.delete(address);
  }
}
