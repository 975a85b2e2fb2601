// Run a Python script under the official MicroPython WebAssembly build (our 32-bit reference
// interpreter) through its JS API, because that build's own CLI exits 0 even when the script
// raises.
//
// Usage: node exec.mjs JOB.json
// JOB: {"mounts": [[host_dir, mp_dir], ...], "sys_path": [...], "script": "...",
//       "heapsize": bytes, "result_path": "file the global RESULT (a str) is written to"}
// Exit status: 0 when the script ran to its end, 1 when it raised (the traceback is printed on
// stderr), 2 for a bad job.
import { writeFileSync } from "fs";
import { readJob, startMicroPython } from "./runtime.mjs";

const job = readJob("exec.mjs");
const mp = await startMicroPython(job, 4 * 1024 * 1024);

const pathSetup = "import sys\n" +
  (job.sys_path || []).map((p) => "sys.path.insert(0, " + JSON.stringify(p) + ")\n").join("");
let status = 0;
try {
  mp.runPython(pathSetup);
  mp.runPython(job.script);
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
