// The twin's process: `node server.mjs --bootrom F --uf2 F [--flash-image F] [--romfs-image F]`,
// driven by host_tools/twin/process.py over stdin/stdout, one JSON object a line each way.
//
// Requests carry an "id"; each gets one reply {"id", "ok": true, ...state} or {"id", "error"}.
// Events have no id: {"event": "serial", "data": base64} (bytes the device sent on USB CDC, always
// written before the reply of the request during which they came) and {"event": "stopped",
// "reason"} (the power was cut while running freely).
//
//   run {ms}                 advance emulated time by ms (lock-step: nothing else runs meanwhile)
//   write {data}             bytes (base64) to the device's USB serial input
//   go {realtime}            run freely until pause (realtime: never ahead of the wall clock)
//   pause                    stop running freely
//   status                   {us, cycles, flash_writes, flash_erases, stopped}
//   save_flash {path}        the 2 MiB flash to a file (written whole, then renamed)
//   cut {write | cycle | write_after_us}   power cut before flash write N / at CPU cycle N /
//                            at the first flash write after emulated time T µs (-1: none)
//   write_log {on}           record every flash write ([kind, address, length, µs]) and what it
//                            replaced; status then has "write_log"
//   save_flash_before {write, path}   the flash as a power cut before that (recorded) write
//                            would have left it
//   load_model {path, options}   import a hardware model (see board.mjs) and attach it
//   model {name, args}       call a model's handler; its result is in the reply's "result"
//   quit

import fs from 'fs';
import path from 'path';
import readline from 'readline';
import { pathToFileURL } from 'url';
import { LogLevel } from 'rp2040js';
import { Board } from './board.mjs';
import { Machine } from './machine.mjs';

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  for (const need of ['bootrom', 'uf2']) if (!args[need]) throw new Error(`--${need} is required`);
  return args;
}

let args;
let machine;
try {
  args = parseArgs(process.argv.slice(2));
  machine = new Machine({
    bootrom: fs.readFileSync(args.bootrom),
    uf2: fs.readFileSync(args.uf2),
    flashImage: args['flash-image'] ? fs.readFileSync(args['flash-image']) : null,
    romfs: args['romfs-image'] ? fs.readFileSync(args['romfs-image']) : null,
    logLevel: process.env.INGBOARD_TWIN_DEBUG ? LogLevel.Warn : LogLevel.Error + 1,
  });
} catch (err) {
  process.stderr.write(`twin: ${err.message}\n`);
  process.exit(2);
}
const handlers = new Map();
const board = new Board(machine.mcu, handlers);
const models = [];

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

let outChunks = [];
machine.serial.onData = (bytes) => outChunks.push(Buffer.from(bytes));
function flushSerial() {
  if (!outChunks.length) return;
  send({ event: 'serial', data: Buffer.concat(outChunks).toString('base64') });
  outChunks = [];
}

function state() {
  const s = {
    us: machine.nowUs,
    cycles: machine.cycles,
    flash_writes: machine.flashWrites,
    flash_erases: machine.flashErases,
    stopped: machine.stopped,
    active_cycles: machine.activeCycles,
    busy_ms: Math.round(busyMs),
    cpu_ms: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
  };
  if (machine.writeLog) {
    s.write_log = machine.writeLog;
    s.first_logged = machine.firstLogged;
  }
  return s;
}

// Free running: short slices of emulated time, handing back to node's event loop between them
// so host data gets in at once, and ending a slice as soon as the device has sent something so
// it goes out at once (mpremote's raw-paste flow control waits on every window's ack).
const SLICE_WALL_MS = 10;
const STEP_MS = 0.2;
let going = null;
let busyMs = 0; // wall time spent emulating (the rest is waiting for the host); cpu_ms: node's CPU
function slice() {
  if (!going) return;
  const wallStart = Date.now();
  while (going && Date.now() - wallStart < SLICE_WALL_MS) {
    if (going.realtime) {
      const ahead = machine.nowUs / 1000 - going.startUs / 1000 - (Date.now() - going.startWall);
      if (ahead > 0) {
        flushSerial();
        going.timer = setTimeout(slice, Math.min(ahead, 20));
        return;
      }
    }
    const t0 = performance.now();
    machine.runFor(STEP_MS);
    busyMs += performance.now() - t0;
    if (machine.stopped) {
      going = null;
      flushSerial();
      send({ event: 'stopped', reason: machine.stopped });
      return;
    }
    if (outChunks.length) break;
  }
  flushSerial();
  going.timer = setImmediate(slice);
}

async function handle(req) {
  switch (req.cmd) {
    case 'run': {
      const ms = Number(req.ms);
      if (!(ms >= 0)) throw new Error('run: ms must be >= 0');
      // In steps, so the device's output comes out in pieces during long runs.
      const end = machine.mcu.clock.nanos + ms * 1e6;
      while (!machine.stopped && machine.mcu.clock.nanos < end) {
        const t0 = performance.now();
        machine.runUntilNanos(Math.min(end, machine.mcu.clock.nanos + 50e6));
        busyMs += performance.now() - t0;
        flushSerial();
      }
      return state();
    }
    case 'write':
      machine.serial.write(Buffer.from(req.data, 'base64'));
      return state();
    case 'go':
      if (!going && !machine.stopped) {
        going = { realtime: !!req.realtime, startUs: machine.nowUs, startWall: Date.now() };
        going.timer = setImmediate(slice);
      }
      return state();
    case 'pause':
      if (going) {
        clearImmediate(going.timer);
        clearTimeout(going.timer);
        going = null;
      }
      flushSerial();
      return state();
    case 'status':
      return state();
    case 'save_flash': {
      const tmp = req.path + '.part';
      fs.writeFileSync(tmp, machine.flashImage());
      fs.renameSync(tmp, req.path);
      return state();
    }
    case 'cut':
      if (req.write !== undefined) machine.cutAtWrite(Number(req.write));
      if (req.cycle !== undefined) machine.cutAtCycle(Number(req.cycle));
      if (req.write_after_us !== undefined) machine.cutAtWriteAfter(Number(req.write_after_us));
      return state();
    case 'write_log':
      machine.recordWrites(!!req.on);
      return state();
    case 'save_flash_before': {
      const tmp = req.path + '.part';
      fs.writeFileSync(tmp, machine.flashBeforeWrite(Number(req.write)));
      fs.renameSync(tmp, req.path);
      return state();
    }
    case 'load_model': {
      const mod = await import(pathToFileURL(path.resolve(req.path)).href);
      if (typeof mod.attach !== 'function') throw new Error(`${req.path} exports no attach()`);
      models.push((await mod.attach(board, req.options || {})) || {});
      return state();
    }
    case 'model': {
      const fn = handlers.get(req.name);
      if (!fn) throw new Error(`no model handles "${req.name}"`);
      return { ...state(), result: (await fn(req.args || {})) ?? null };
    }
    case 'quit':
      return state(); // the reply goes out, then the process ends
    default:
      throw new Error(`unknown command ${JSON.stringify(req.cmd)}`);
  }
}

function quit() {
  for (const m of models) if (m.close) m.close();
  flushSerial();
  process.stdout.write('', () => process.exit(0));
}

// Requests are handled one at a time, in order.
let queue = Promise.resolve();
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  queue = queue.then(async () => {
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      send({ id: null, error: `not JSON: ${line.slice(0, 80)}` });
      return;
    }
    try {
      send({ id: req.id, ok: true, ...(await handle(req)) });
    } catch (err) {
      send({ id: req.id, error: String(err && err.message ? err.message : err) });
    }
    if (req.cmd === 'quit') quit();
  });
});
rl.on('close', () => queue.then(quit));
send({ event: 'ready', ...state() });
