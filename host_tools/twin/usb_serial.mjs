// The USB host side of the twin's serial link: rp2040js's USBCDC enumerates the device (CDC
// ACM, DTR/RTS set), and this class replaces its OUT handling. rp2040js completes every OUT
// read the device offers at once, with zero bytes when the host has nothing, so the guest takes
// a USB interrupt every ~10 µs and loses about 2/3 of its CPU. A real host NAKs instead: here an
// OUT read with nothing to send is held until host data exists, then completed with it.

import { USBCDC } from 'rp2040js';

const MAX_PACKET = 64;

export class UsbSerial {
  constructor(usbController) {
    this.usb = usbController;
    this.cdc = new USBCDC(usbController);
    this.pending = []; // bytes from the host not yet taken by the device
    this.heldRead = null; // [endpoint, size] the device offered while nothing was pending
    this.connected = false;
    this.onData = null; // (Uint8Array) bytes the device sent
    this.cdc.onDeviceConnected = () => {
      this.connected = true;
      this._flush();
    };
    this.cdc.onSerialData = (buffer) => {
      if (this.onData) this.onData(buffer);
    };
    this.usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.heldRead = [endpoint, size];
      this._flush();
    };
  }

  /** Bytes from the host (a Uint8Array or array of numbers). */
  write(bytes) {
    for (const b of bytes) this.pending.push(b & 0xff);
    this._flush();
  }

  _flush() {
    if (!this.heldRead || !this.pending.length) return;
    const [endpoint, size] = this.heldRead;
    this.heldRead = null;
    const n = Math.min(size, MAX_PACKET, this.pending.length);
    const chunk = Uint8Array.from(this.pending.splice(0, n));
    this.usb.endpointReadDone(endpoint, chunk);
  }
}
