// Run a measurement under the official MicroPython WebAssembly build in steps driven from JS.
//
// Why not host_tools/mp/exec.mjs: in this port gc.collect() frees nothing while the runPython
// call that made the garbage is still running (the collector sees that call's stack), but it
// does free when it is called later from JS. Heap figures therefore need the collection to
// happen between Python calls: each script below is its own runPython call, and the optional
// loop calls the global `collect()` then `step()` from JS until step() returns a false value.
//
// Usage: node mp_steps.mjs JOB.json
// JOB: {"mounts": [[host_dir, mp_dir], ...], "sys_path": [...], "heapsize": bytes,
//       "scripts": ["...", ...], "loop": true|false, "final": "...",
//       "result_path": "file the global RESULT (a str) is written to"}
// Exit status: 0 when everything ran, 1 when Python raised (traceback on stderr), 2 bad job.
import { writeFileSync } from "fs";
import { readJob, startMicroPython } from "../host_tools/mp/runtime.mjs";

const job = readJob("mp_steps.mjs");
const mp = await startMicroPython(job, 8 * 1024 * 1024);

let status = 0;
try {
  mp.runPython(
    "import sys\n" +
      (job.sys_path || []).map((p) => "sys.path.insert(0, " + JSON.stringify(p) + ")\n").join(""),
  );
  for (const script of job.scripts || []) mp.runPython(script);
  if (job.loop) {
    const collect = mp.globals.get("collect");
    const step = mp.globals.get("step");
    for (;;) {
      collect();
      if (!step()) break;
    }
  }
  if (job.final) mp.runPython(job.final);
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  status = 1;
}
if (job.result_path) {
  let result = null;
  try {
    result = mp.globals.get("RESULT");
  } catch (e) {
    result = null;
  }
  writeFileSync(job.result_path, result === undefined || result === null ? "" : String(result));
}
process.exit(status);
