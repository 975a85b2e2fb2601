// Starting the official MicroPython WebAssembly build for a job file (shared by exec.mjs and
// the benchmarks' mp_steps.mjs): read the job, load the interpreter, copy the mounted host
// trees into its file system.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readdirSync, statSync } from "fs";
import { join } from "path";

// The files firmware, tests and benchmarks need on the board's file system.
const WANTED = /\.(py|mpy|json|sgf|log|txt)$/;

export function copyTree(mp, hostDir, mpDir) {
  mp.FS.mkdirTree(mpDir);
  for (const name of readdirSync(hostDir)) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const hostPath = join(hostDir, name);
    const mpPath = mpDir + "/" + name;
    if (statSync(hostPath).isDirectory()) copyTree(mp, hostPath, mpPath);
    else if (WANTED.test(name)) mp.FS.writeFile(mpPath, readFileSync(hostPath));
  }
}

// The job named on the command line; a bad one exits 2 with one line naming `script`.
export function readJob(script) {
  try {
    return JSON.parse(readFileSync(process.argv[2], "utf8"));
  } catch (e) {
    process.stderr.write(script + ": cannot read job: " + e + "\n");
    process.exit(2);
  }
}

// The interpreter with the job's heap (or `heapsize`) and mounts, printing to this process.
export async function startMicroPython(job, heapsize) {
  const mp = await loadMicroPython({
    heapsize: job.heapsize || heapsize,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  for (const [hostDir, mpDir] of job.mounts || []) copyTree(mp, hostDir, mpDir);
  return mp;
}
