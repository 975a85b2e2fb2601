// Debian's Chromium driven by playwright-core, started the one way that works on this
// workplace's closed network (the browser tests share it): a fresh profile under `out`, headless,
// no sandbox (root), and no background connections.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

export async function launchChromium(out, options) {
  const profile = fs.mkdtempSync(path.join(out, "profile-"));
  return chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...options,
  });
}
