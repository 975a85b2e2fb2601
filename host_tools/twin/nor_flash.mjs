// The SPI NOR flash chip of a Pico (W25Q16JV, 2 MiB), as the RP2040's SSI talks to it in
// standard (single-bit) SPI mode: the commands the boot ROM's flash_range_erase/program,
// pico-sdk's flash_do_cmd and the stage-2 boot loader send.
//
// The bytes are the RP2040's own flash array (rp2040js serves XIP reads from it directly), so an
// erase or a page program is visible to the guest at once. Erase and program take effect when
// chip select goes high, as on the real chip; each is one "flash write", counted and offered to
// `onWrite(kind, address, length, index)` first: a hook that returns false keeps the write from
// happening (the twin's power cut).
//
// Not modelled: erase/program duration (status WIP is never set), quad/dual transfers (the XIP
// reads go straight to the array), security registers, SFDP contents.

const SIZE = 2 * 1024 * 1024;
const PAGE = 256;
const JEDEC_ID = [0xef, 0x40, 0x15]; // Winbond W25Q16JV, the Pico's flash

const CMD_WRITE_STATUS = 0x01;
const CMD_PAGE_PROGRAM = 0x02;
const CMD_READ = 0x03;
const CMD_WRITE_DISABLE = 0x04;
const CMD_READ_STATUS = 0x05;
const CMD_WRITE_ENABLE = 0x06;
const CMD_FAST_READ = 0x0b;
const CMD_READ_STATUS3 = 0x15;
const CMD_SECTOR_ERASE = 0x20; // 4 KiB
const CMD_WRITE_STATUS2 = 0x31;
const CMD_READ_STATUS2 = 0x35;
const CMD_UNIQUE_ID = 0x4b;
const CMD_BLOCK_ERASE_32K = 0x52;
const CMD_CHIP_ERASE = 0xc7;
const CMD_CHIP_ERASE_ALT = 0x60;
const CMD_JEDEC_ID = 0x9f;
const CMD_BLOCK_ERASE_64K = 0xd8;

const ERASE_SIZE = {
  [CMD_SECTOR_ERASE]: 4096,
  [CMD_BLOCK_ERASE_32K]: 32768,
  [CMD_BLOCK_ERASE_64K]: 65536,
};

export class NorFlash {
  /** `bytes`: the flash array (at least 2 MiB; rp2040js's rp2040.flash). */
  constructor(bytes, { uniqueId = [0xe6, 0x60, 0x58, 0x38, 0x83, 0x4b, 0x2a, 0x2f] } = {}) {
    this.bytes = bytes;
    this.size = Math.min(SIZE, bytes.length);
    this.uniqueId = uniqueId;
    this.writeEnabled = false;
    this.quadEnabled = true; // status register 2 QE: the stage-2 loader then skips setting it
    this.selected = false;
    this.writes = 0; // erases + page programs done
    this.erases = 0; // sector and block erases done (of them)
    this.onWrite = null; // (kind, address, length, index) => false to refuse the write
    this.cmd = -1;
    this.pos = 0;
    this.address = 0;
    this.page = null;
  }

  select() {
    this.selected = true;
    this.cmd = -1;
    this.pos = 0;
    this.address = 0;
    this.page = null;
  }

  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const { cmd } = this;
    if (cmd === CMD_PAGE_PROGRAM && this.pos >= 4 && this.writeEnabled) {
      this._program();
    } else if (ERASE_SIZE[cmd] && this.pos >= 4 && this.writeEnabled) {
      const size = ERASE_SIZE[cmd];
      this._write('erase', this.address & ~(size - 1), size);
    } else if ((cmd === CMD_CHIP_ERASE || cmd === CMD_CHIP_ERASE_ALT) && this.writeEnabled) {
      this._write('erase', 0, this.size);
    } else if ((cmd === CMD_WRITE_STATUS || cmd === CMD_WRITE_STATUS2) && this.writeEnabled) {
      this.writeEnabled = false;
    }
    this.cmd = -1;
  }

  /** One byte out on MOSI; returns the byte on MISO. */
  transfer(value) {
    if (!this.selected) return 0xff;
    const pos = this.pos++;
    if (pos === 0) {
      this.cmd = value;
      if (value === CMD_WRITE_ENABLE) this.writeEnabled = true;
      else if (value === CMD_WRITE_DISABLE) this.writeEnabled = false;
      return 0xff;
    }
    switch (this.cmd) {
      case CMD_READ_STATUS:
        return this.writeEnabled ? 0x02 : 0x00; // WIP never set: writes complete at once
      case CMD_READ_STATUS2:
        return this.quadEnabled ? 0x02 : 0x00;
      case CMD_READ_STATUS3:
        return 0x00;
      case CMD_WRITE_STATUS2:
        if (pos === 1) this.quadEnabled = !!(value & 0x02);
        return 0xff;
      case CMD_WRITE_STATUS:
        if (pos === 2) this.quadEnabled = !!(value & 0x02);
        return 0xff;
      case CMD_JEDEC_ID:
        return pos <= 3 ? JEDEC_ID[pos - 1] : 0xff;
      case CMD_UNIQUE_ID:
        return pos >= 5 && pos < 13 ? this.uniqueId[pos - 5] : 0xff;
      case CMD_READ:
      case CMD_FAST_READ: {
        if (pos <= 3) {
          this.address = ((this.address << 8) | value) & 0xffffff;
          return 0xff;
        }
        if (this.cmd === CMD_FAST_READ && pos === 4) return 0xff; // dummy byte
        const out = this.bytes[this.address % this.size];
        this.address = (this.address + 1) % this.size;
        return out;
      }
      case CMD_PAGE_PROGRAM:
        if (pos <= 3) {
          this.address = ((this.address << 8) | value) & 0xffffff;
          if (pos === 3) this.page = new Map();
          return 0xff;
        }
        // Bytes past the page's end wrap to its start, as on the chip.
        {
          const base = this.address & ~(PAGE - 1);
          const offset = ((this.address & (PAGE - 1)) + pos - 4) % PAGE;
          this.page.set(base + offset, value);
        }
        return 0xff;
      default:
        if (ERASE_SIZE[this.cmd] && pos <= 3) {
          this.address = ((this.address << 8) | value) & 0xffffff;
        }
        return 0xff;
    }
  }

  _program() {
    const entries = [...this.page.entries()];
    if (!entries.length) {
      this.writeEnabled = false;
      return;
    }
    const base = this.address & ~(PAGE - 1);
    this._write('program', base, PAGE, () => {
      for (const [addr, value] of entries) {
        const a = addr % this.size;
        this.bytes[a] &= value; // NOR: a program only clears bits
      }
    });
  }

  _write(kind, address, length, apply) {
    this.writeEnabled = false;
    const index = this.writes;
    if (this.onWrite && this.onWrite(kind, address, length, index) === false) return;
    this.writes++;
    if (kind === 'erase') this.erases++;
    if (apply) apply();
    else this.bytes.fill(0xff, address, Math.min(address + length, this.size));
  }
}
