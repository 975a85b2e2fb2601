// The twin's machine: an rp2040js RP2040 with the RP2040 boot ROM, a firmware image (UF2) in a
// modelled SPI NOR flash, the USB serial link, and a run loop in emulated time.
//
//   const m = new Machine({ bootrom, uf2, flashImage, romfs });   // Uint8Arrays
//   m.runFor(ms)            // advance emulated time (returns when done or the power is cut)
//   m.nowUs, m.cycles       // emulated time, CPU cycles (125 MHz)
//   m.serial.write(bytes); m.serial.onData = (bytes) => ...
//   m.flashImage()          // the 2 MiB flash as it is now
//   m.cutAtWrite(n) / m.cutAtCycle(n)   // power cut: stop before flash write n / at cycle n
//   m.cutAtWriteAfter(us)  // power cut at the first flash write after emulated time us
//   m.recordWrites(true); ...; m.flashBeforeWrite(n)  // the flash a cut at write n leaves
//
// The boot ROM is there for the routines the firmware calls in it (flash erase/program, float
// and memory helpers); execution starts at the image's stage-2 loader at the start of the flash,
// as rp2040js's own demo does (the ROM's flash boot is skipped). rp2040js advances time by
// instruction cycles at 125 MHz and is deterministic; while the core sleeps (WFI/WFE) time jumps
// to the next event.

import { LogLevel, RP2040 } from 'rp2040js';
import { NorFlash } from './nor_flash.mjs';
import { FlashSSI, IoQspi } from './ssi.mjs';
import { loadUf2 } from './uf2.mjs';
import { UsbSerial } from './usb_serial.mjs';

export const FLASH_BYTES = 2 * 1024 * 1024;
const NANOS_PER_CYCLE = 8; // 125 MHz
const FLASH_BASE = 0x10000000;
// The ROMFS partition of the RPI_PICO_ROMFS image (MICROPY_HW_ROMFS_BYTES = 256 KiB).
export const ROMFS_OFFSET = 0x60000;
const ROMFS_BYTES = 256 * 1024;

class StderrLogger {
  constructor(level) {
    this.level = level;
  }
  _log(level, name, message) {
    if (level >= this.level) process.stderr.write(`twin [${name}] ${message}\n`);
  }
  debug(name, message) {
    this._log(LogLevel.Debug, name, message);
  }
  info(name, message) {
    this._log(LogLevel.Info, name, message);
  }
  warn(name, message) {
    this._log(LogLevel.Warn, name, message);
  }
  error(name, message) {
    this._log(LogLevel.Error, name, message);
  }
}

export class Machine {
  constructor({ bootrom, uf2 = null, flashImage = null, romfs = null, logLevel = LogLevel.Error }) {
    const mcu = new RP2040();
    this.mcu = mcu;
    mcu.logger = new StderrLogger(logLevel);
    mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.byteLength >> 2));
    if (flashImage) {
      if (flashImage.length > FLASH_BYTES) throw new Error('flash image larger than 2 MiB');
      mcu.flash.set(flashImage);
    }
    if (uf2) loadUf2(uf2, mcu.flash);
    if (romfs) {
      // Written straight into the partition, as a programmer (picotool load) would.
      if (romfs.length > ROMFS_BYTES) throw new Error('ROMFS image larger than its 256 KiB partition');
      mcu.flash.fill(0xff, ROMFS_OFFSET, ROMFS_OFFSET + ROMFS_BYTES);
      mcu.flash.set(romfs, ROMFS_OFFSET);
    }
    this.flash = new NorFlash(mcu.flash);
    const ssi = new FlashSSI(mcu, this.flash);
    mcu.peripherals[0x18000] = ssi;
    mcu.peripherals[0x40018] = new IoQspi(mcu, ssi);
    this.serial = new UsbSerial(mcu.usbCtrl);
    this.stopped = null; // why the machine stopped for good ('power cut at write N', ...)
    this.cutWrite = -1;
    this.cutCycle = -1;
    this.cutAfterNanos = -1;
    this.undo = null; // [address, bytes before] of each recorded write
    this.firstLogged = 0;
    this.flash.onWrite = (kind, address, length, index) => this._onFlashWrite(kind, address, length, index);
    this.writeLog = null; // [kind, address, length, µs] of every write, when recording
    this.activeCycles = 0; // cycles the CPU ran (not asleep in WFI/WFE)
    mcu.core.reset();
    mcu.core.PC = FLASH_BASE; // the stage-2 loader; it enters the image's vector table
  }

  get nowUs() {
    return this.mcu.clock.nanos / 1000;
  }

  get cycles() {
    return Math.floor(this.mcu.clock.nanos / NANOS_PER_CYCLE);
  }

  get flashWrites() {
    return this.flash.writes;
  }

  get flashErases() {
    return this.flash.erases;
  }

  flashImage() {
    return this.mcu.flash.slice(0, FLASH_BYTES);
  }

  cutAtWrite(n) {
    this.cutWrite = n;
  }

  cutAtCycle(n) {
    this.cutCycle = n;
  }

  /** Record every flash write from now on ([kind, address, length, µs]) with the bytes it
   *  replaced, so the flash a power cut before any of them would have left can be rebuilt
   *  after an uncut run (flashBeforeWrite). */
  recordWrites(on) {
    this.writeLog = on ? [] : null;
    this.undo = on ? [] : null;
    this.firstLogged = this.flash.writes;
  }

  /** The flash as a power cut just before write `index` (counted from boot) leaves it. */
  flashBeforeWrite(index) {
    const { undo, firstLogged } = this;
    if (!undo || index < firstLogged || index > firstLogged + undo.length) {
      throw new Error(`flash write ${index} was not recorded`);
    }
    const image = this.flashImage();
    for (let i = undo.length - 1; i >= index - firstLogged; i--) {
      const [address, before] = undo[i];
      image.set(before, address);
    }
    return image;
  }

  /** Cut the power at the first flash write once emulated time has passed `us`. */
  cutAtWriteAfter(us) {
    this.cutAfterNanos = us * 1000;
  }

  _onFlashWrite(kind, address, length, index) {
    if (this.stopped) return false;
    const late = this.cutAfterNanos >= 0 && this.mcu.clock.nanos >= this.cutAfterNanos;
    if ((this.cutWrite >= 0 && index >= this.cutWrite) || late) {
      this.stopped = `power cut before flash write ${index} (${kind} 0x${address.toString(16)})`;
      return false;
    }
    if (this.writeLog) {
      this.writeLog.push([kind, address, length, Math.round(this.nowUs)]);
      this.undo.push([address, this.mcu.flash.slice(address, address + length)]);
    }
    return true;
  }

  /** Run `ms` of emulated time (or until the power is cut); returns false once stopped. */
  runFor(ms) {
    return this.runUntilNanos(this.mcu.clock.nanos + ms * 1e6);
  }

  runUntilNanos(target) {
    const { mcu } = this;
    const { core, clock } = mcu;
    const cycleLimitNanos = this.cutCycle >= 0 ? this.cutCycle * NANOS_PER_CYCLE : Infinity;
    const end = Math.min(target, cycleLimitNanos);
    while (!this.stopped && clock.nanos < end) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        const room = end - clock.nanos;
        clock.tick(next > 0 && next < room ? next : room);
      } else {
        const cycles = core.executeInstruction();
        this.activeCycles += cycles;
        clock.tick(cycles * NANOS_PER_CYCLE);
      }
    }
    if (!this.stopped && clock.nanos >= cycleLimitNanos) {
      this.stopped = `power cut at cycle ${this.cutCycle}`;
    }
    return !this.stopped;
  }
}
