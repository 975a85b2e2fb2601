// The RP2040's SSI (the QSPI flash interface, datasheet 4.10) in its direct mode, and the
// IO_QSPI block whose chip-select override the boot ROM uses: both in front of a NorFlash.
//
// rp2040js 1.4.1's own SSI answers only a status read, so erase/program never reach a chip.
// Here every frame written to DR0 in standard SPI mode is shifted through the flash and the
// byte it returns lands in a 16-deep receive FIFO, as on the chip. Chip select is low while
// IO_QSPI's SS output override forces it low (boot ROM, pico-sdk flash_do_cmd); with no
// override the SSI drives it itself, and a transfer ends when the guest waits for the SSI
// (reads SR) or disables it. Dual/quad frames (the stage-2 loader entering XIP) go nowhere:
// rp2040js reads XIP straight from the flash array.

import { BasePeripheral } from 'rp2040js';

const CTRLR0 = 0x00;
const CTRLR1 = 0x04;
const SSIENR = 0x08;
const SER = 0x10;
const BAUDR = 0x14;
const TXFLR = 0x20;
const RXFLR = 0x24;
const SR = 0x28;
const IMR = 0x2c;
const DR0 = 0x60;
const RX_SAMPLE_DLY = 0xf0;
const SPI_CTRLR0 = 0xf4;
const IDR = 0x58;
const SSI_VERSION_ID = 0x5c;

const SR_TFNF = 1 << 1;
const SR_TFE = 1 << 2;
const SR_RFNE = 1 << 3;
const RX_DEPTH = 16;

export class FlashSSI extends BasePeripheral {
  constructor(rp2040, flash) {
    super(rp2040, 'SSI');
    this.flash = flash;
    this.regs = new Map();
    this.ctrlr0 = 0;
    this.enabled = 0;
    this.rx = [];
    this.forced = false; // chip select held by IO_QSPI's override
  }

  get standardFrames() {
    return ((this.ctrlr0 >> 21) & 3) === 0; // SPI_FRF: 0 standard, 1 dual, 2 quad
  }

  get frameBytes() {
    return (((this.ctrlr0 >> 16) & 0x1f) + 1) >> 3 || 1; // DFS_32 + 1 bits
  }

  endAutoTransfer() {
    if (!this.forced && this.flash.selected) this.flash.deselect();
  }

  readUint32(offset) {
    switch (offset) {
      case CTRLR0:
        return this.ctrlr0;
      case SSIENR:
        return this.enabled;
      case TXFLR:
        return 0; // every frame is sent the moment it is written
      case RXFLR:
        return this.rx.length;
      case SR:
        this.endAutoTransfer();
        return SR_TFE | SR_TFNF | (this.rx.length ? SR_RFNE : 0);
      case DR0:
        return this.rx.length ? this.rx.shift() : 0;
      case IDR:
        return 0x51535049;
      case SSI_VERSION_ID:
        return 0x3430312a;
      default:
        return this.regs.get(offset) || 0;
    }
  }

  writeUint32(offset, value) {
    switch (offset) {
      case CTRLR0:
        this.ctrlr0 = value;
        return;
      case SSIENR:
        this.endAutoTransfer();
        this.enabled = value & 1;
        if (!this.enabled) this.rx.length = 0;
        return;
      case DR0:
        this.send(value);
        return;
      case CTRLR1:
      case SER:
      case BAUDR:
      case IMR:
      case RX_SAMPLE_DLY:
      case SPI_CTRLR0:
      default:
        this.regs.set(offset, value >>> 0);
    }
  }

  send(value) {
    if (!this.standardFrames) {
      if (this.rx.length < RX_DEPTH) this.rx.push(0);
      return;
    }
    if (!this.flash.selected) this.flash.select();
    const n = this.frameBytes;
    let frame = 0;
    for (let i = n - 1; i >= 0; i--) {
      frame = (frame << 8) | this.flash.transfer((value >>> (8 * i)) & 0xff);
    }
    if (this.rx.length < RX_DEPTH) this.rx.push(frame >>> 0);
  }

  /** IO_QSPI's SS pad override changed: 2 = force low, 3 = force high, 0/1 = the SSI's. */
  chipSelectOverride(outover) {
    if (outover === 2) {
      if (!this.forced || !this.flash.selected) this.flash.select();
      this.forced = true;
    } else {
      if (this.flash.selected) this.flash.deselect();
      this.forced = false;
    }
  }
}

// IO_QSPI: six pads (SCLK, SS, SD0..SD3), each a STATUS and a CTRL register. Only SS's CTRL
// output override has an effect (chip select); the rest read back what was written, so the
// boot ROM's flash_was_aborted() (SD1 input override) sees 0 instead of rp2040js's 0xffffffff.
const SS_CTRL = 0x0c;

export class IoQspi extends BasePeripheral {
  constructor(rp2040, ssi) {
    super(rp2040, 'IO_QSPI');
    this.ssi = ssi;
    this.regs = new Map();
  }

  readUint32(offset) {
    return this.regs.get(offset) || 0;
  }

  writeUint32(offset, value) {
    this.regs.set(offset, value >>> 0);
    if (offset === SS_CTRL) this.ssi.chipSelectOverride((value >>> 8) & 3);
  }
}
