// Copying a host directory tree into the MicroPython WebAssembly file system (shared by
// exec.mjs and the benchmarks' mp_steps.mjs).
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
