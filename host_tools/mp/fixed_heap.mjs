// Run code in steps under the official MicroPython WebAssembly build with a FIXED heap, the
// way the Pico has one (issue 20): long-lived data that fragments the heap fails here as it
// fails on the board, instead of the port quietly growing its heap.
//
// Two things in this port differ from the rp2 port, and this driver puts them right:
// - its heap grows on demand (a new heap area is malloc'd when an allocation fails): here the
//   wasm memory may no longer grow and the C allocator is filled up before Python runs, so an
//   allocation that finds no free block raises MemoryError as on the board;
// - it cannot collect garbage inside a Python call (it cannot see that call's stack; a
//   collection waits until the call returns to JS). On the board a collection runs when an
//   allocation fails (or at gc.threshold). This driver stands in for the first: between two
//   steps it collects only when less than `margin` bytes are free, i.e. when the next step
//   could fail for want of a collection — never otherwise, so garbage piles up and long-lived
//   objects are scattered through the heap exactly as on the board. A collection the firmware
//   asks for itself (gc.collect(), gc.threshold) runs when the step returns, as the port does.
//
// Usage: node fixed_heap.mjs JOB.json
// JOB: {"mounts", "sys_path", "heapsize": bytes of the heap area (more than the Pico's, for
//       the imports), "free_at_boot": bytes free on the Pico after boot (the imports' code is
//       taken off it; a ballast takes the rest of the heap), "imports": ["...", ...] (each run
//       on its own, a collection after each), "romfs": a ROMFS image file or null, "setup": "...",
//       "margin": bytes, "final": "...", "result_path": file}
// The step function is the global `step()`: it returns false when done. RESULT (a JSON
// object, set by `final`) is merged with the driver's figures into result_path:
//   {"python": RESULT, "code": bytes the imports took, "collections", "steps",
//    "max_step": most bytes one step allocated, "largest_free": bytes of the largest free
//    block after the last collection, "free": bytes free then, "total": heap bytes,
//    "error": the MemoryError text or null}
// Exit status: 0 when everything ran, 1 when Python raised, 2 for a bad job.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, writeFileSync } from "fs";
import { copyTree, readJob } from "./runtime.mjs";

const job = readJob("fixed_heap.mjs");
// The port's C runtime reports every refused growth of the wasm memory; here that is the point.
const report = console.error;
console.error = (...args) => {
  const text = args.join(" ");
  if (!/grow|not enough memory/.test(text)) report(...args);
};
let capture = null; // lines of stdout while parsing micropython.mem_info()
const mp = await loadMicroPython({
  heapsize: job.heapsize,
  // A ROMFS image (mounted at /rom): the code runs from it in place, as from the Pico's flash.
  romfs: job.romfs ? new Uint8Array(readFileSync(job.romfs)) : undefined,
  stdout: (line) => (capture ? capture.push(line) : process.stdout.write(line + "\n")),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const [hostDir, mpDir] of job.mounts || []) copyTree(mp, hostDir, mpDir);

// No new heap areas: the wasm memory stays as it is and the C allocator has nothing left.
WebAssembly.Memory.prototype.grow = function () {
  throw new RangeError("fixed heap: the wasm memory does not grow");
};
// The C library keeps a little room (the file system's calls need some); a new heap area is
// at least as large as the heap itself (py/gc.c gc_try_add_heap), which is far more.
const slack = mp._module._malloc(256 * 1024);
for (let size = 1 << 24; size >= 4096; ) {
  if (!mp._module._malloc(size)) size >>= 1;
}
mp._module._free(slack);

function memInfo() {
  capture = [];
  mp.runPython("import micropython\nmicropython.mem_info()");
  const text = capture.join("\n");
  capture = null;
  const total = /total: (\d+)/.exec(text);
  const free = /free: (\d+)/.exec(text);
  const block = /max free sz: (\d+)/.exec(text);
  return {
    total: total ? +total[1] : 0,
    free: free ? +free[1] : 0,
    largest: block ? +block[1] * 16 : 0,
  };
}

// A collection at the top level (the only place this port can make one).
function collect() {
  mp.runPython("import gc\ngc.collect()");
}

// A MemoryError must not reach JS: this port then needs memory to report it and never
// returns. Python code runs through _run(), which catches it: 1 (true), 0 (false) or -1.
const RUNNER = `
_FAILED = []

def _run(fn):
    try:
        return 1 if fn() else 0
    except MemoryError as e:
        _FAILED.append(e)
        return -1

def _failure():
    import io, sys
    buf = io.StringIO()
    sys.print_exception(_FAILED[0], buf)
    return buf.getvalue()

def _exec(code):
    return _run(lambda: exec(code, globals()) or True)
`;
let runner = null;
function guarded(code) {
  if (runner(code) < 0) throw new Error("MemoryError in: " + code.trim().split("\n")[0]);
}

const out = { collections: 0, steps: 0, max_step: 0, error: null };
let status = 0;
try {
  mp.runPython(
    "import sys\n" +
      (job.sys_path || []).map((p) => "sys.path.insert(0, " + JSON.stringify(p) + ")\n").join(""),
  );
  mp.runPython(RUNNER);
  runner = mp.globals.get("_exec");
  collect();
  const before = memInfo();
  // One module at a time, with a collection after each. Importing allocates far more garbage
  // than the Pico's heap (board.py's Zobrist table is made with big ints) and this port cannot
  // collect inside a call, so the heap is larger than the Pico's here...
  for (const script of job.imports) {
    guarded(script);
    collect();
  }
  const after = memInfo();
  out.code = before.free - after.free;
  out.total = after.total;
  // ...and what the Pico would not have is taken by a ballast allocated now, right above the
  // code: as much stays free as on the Pico after boot and these imports.
  const room = job.free_at_boot - out.code;
  if (after.free < room) throw new Error("heapsize too small: " + after.free + " bytes free");
  mp.runPython("_BALLAST = []");
  for (let info = after; info.free - room > 64; info = memInfo()) {
    const piece = Math.min(info.free - room, info.largest) - 32;
    mp.runPython("_BALLAST.append(bytearray(" + piece + "))");
    collect();
  }
  // The rp2 port starts with no collection threshold (this port sets one): as on the Pico,
  // the firmware's own policy (if any) decides.
  mp.runPython(
    "import gc\ngc.threshold(-1)\n_EXTRA = gc.mem_free() + gc.mem_alloc() - " + after.total + "\n" +
      "def heap_free():\n    return gc.mem_free() - _EXTRA\n",
  );
  collect();
  out.free_at_start = memInfo().free;
  guarded(job.setup || "");
  const run = mp.globals.get("_run");
  const step = mp.globals.get("step");
  const heapFree = mp.globals.get("heap_free");
  let free = heapFree();
  for (;;) {
    if (free < job.margin) {
      collect();
      out.collections += 1;
      free = heapFree();
    }
    const more = run(step);
    if (more < 0) {
      out.error = "MemoryError at step " + (out.steps + 1) + " with " + free + " bytes free";
      collect();
      out.traceback = mp.globals.get("_failure")();
      break;
    }
    out.steps += 1;
    if (job.progress && out.steps % job.progress === 0)
      process.stderr.write(
        "step " + out.steps + " free " + free + " largest " + memInfo().largest +
          " collections " + out.collections + "\n",
      );
    const now = heapFree();
    if (free - now > out.max_step) out.max_step = free - now;
    free = now;
    if (!more) break;
  }
  collect();
  if (job.final) guarded(job.final);
  collect();
  const end = memInfo();
  out.free = end.free;
  out.largest_free = end.largest;
  try {
    const r = mp.globals.get("RESULT");
    out.python = r === undefined || r === null ? null : JSON.parse(String(r));
  } catch (e) {
    out.python = null;
  }
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  status = 1;
}
if (job.result_path) writeFileSync(job.result_path, JSON.stringify(out));
process.exit(status);
