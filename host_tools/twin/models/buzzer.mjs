// The buzzer: a passive piezo on a PWM pin (board_config.py "buzzer"). What it plays is what
// the RP2040's PWM slice driving that pin makes of its registers: frequency
// clk_sys / (DIV * (TOP + 1)) (DIV in 8.4 fixed point, phase-correct mode halves it) and duty
// CC / (TOP + 1) of the pin's channel; silent when the slice is disabled, the duty is 0 or the
// pin is not switched to the PWM function. Every change is recorded as a tone
// {t_us, hz, duty} (hz 0 = silence), so a test can check the beeps the firmware asked for.

const FUNCTION_PWM = 4;
const CSR_EN = 1;
const CSR_PH_CORRECT = 2;

export class Buzzer {
  constructor(board, gpio, options = {}) {
    this.board = board;
    this.mcu = board.mcu;
    this.pin = this.mcu.gpio[gpio];
    this.slice = (gpio >> 1) & 7;
    this.channelB = gpio & 1;
    this.tones = [];
    this.onTone = options.onTone || null;
    this.current = { hz: 0, duty: 0 };
    const pwm = this.mcu.pwm;
    const write = pwm.writeUint32.bind(pwm);
    pwm.writeUint32 = (offset, value) => {
      write(offset, value);
      this._update();
    };
    board.pin(gpio).onChange(() => this._update());
  }

  sound() {
    const ch = this.mcu.pwm.channels[this.slice];
    if (this.pin.functionSelect !== FUNCTION_PWM || !(ch.csr & CSR_EN)) return { hz: 0, duty: 0 };
    const top = ch.top & 0xffff;
    const cc = this.channelB ? (ch.cc >>> 16) & 0xffff : ch.cc & 0xffff;
    const duty = Math.min(cc / (top + 1), 1);
    if (duty === 0) return { hz: 0, duty: 0 };
    let div = ((ch.div >> 4) & 0xff) + (ch.div & 0xf) / 16;
    if (div === 0) div = 256;
    let hz = this.mcu.clkSys / (div * (top + 1));
    if (ch.csr & CSR_PH_CORRECT) hz /= 2;
    return { hz: Math.round(hz), duty: Math.round(duty * 1000) / 1000 };
  }

  _update() {
    const now = this.sound();
    if (now.hz === this.current.hz && now.duty === this.current.duty) return;
    this.current = now;
    const tone = { t_us: Math.round(this.board.nowUs), hz: now.hz, duty: now.duty };
    this.tones.push(tone);
    if (this.onTone) this.onTone(tone);
  }
}

/** Twin model entry: options {buzzer (board_config "buzzer" GPIO)}. handler "tones": the tones
 * since the last call ({t_us, hz, duty}; hz 0 = silence). */
export function attach(board, options) {
  const buzzer = new Buzzer(board, options.buzzer);
  let taken = 0;
  board.handle("tones", () => {
    const out = buzzer.tones.slice(taken);
    taken = buzzer.tones.length;
    return out;
  });
  return buzzer;
}
