// UF2 images (https://github.com/microsoft/uf2): 512-byte blocks, each carrying up to 476
// bytes for a target address. Only blocks for the RP2040's flash are taken.

const MAGIC0 = 0x0a324655;
const MAGIC1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
const FLAG_NOT_MAIN_FLASH = 0x1;
const FLASH_BASE = 0x10000000;

export class Uf2Error extends Error {}

/** Write the UF2 image `data` (Uint8Array) into `flash` (the array behind 0x10000000). */
export function loadUf2(data, flash) {
  if (data.length === 0 || data.length % 512) {
    throw new Uf2Error(`not a UF2 image (${data.length} bytes is not a multiple of 512)`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let blocks = 0;
  for (let off = 0; off < data.length; off += 512) {
    const m0 = view.getUint32(off, true);
    const m1 = view.getUint32(off + 4, true);
    const mEnd = view.getUint32(off + 508, true);
    if (m0 !== MAGIC0 || m1 !== MAGIC1 || mEnd !== MAGIC_END) {
      throw new Uf2Error(`not a UF2 image (bad magic in block at byte ${off})`);
    }
    const flags = view.getUint32(off + 8, true);
    const target = view.getUint32(off + 12, true);
    const size = view.getUint32(off + 16, true);
    if (flags & FLAG_NOT_MAIN_FLASH || size > 476) continue;
    const at = target - FLASH_BASE;
    if (at < 0 || at + size > flash.length) {
      throw new Uf2Error(`UF2 block for 0x${target.toString(16)} is outside the flash`);
    }
    flash.set(data.subarray(off + 32, off + 32 + size), at);
    blocks++;
  }
  return blocks;
}
