#!/usr/bin/env node
// The npm registry reachable here does not serve some optional, platform-specific binaries
// (e.g. @msgpackr-extract/*-darwin-arm64, @unrs/resolver-binding-*-win32-*). `npm install` then
// writes a lock without entries for them, and `npm ci` refuses the lock as out of sync. This adds
// an entry for each optional dependency the lock lacks, marked optional with the os/cpu its name
// states, so `npm ci` skips it on this platform as it would any foreign binary.
// Run after `npm install` changes the lock: node .ci/lock-platform-stubs.js
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const CPU = new Set(['x64', 'arm64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x']);
let added = 0;
for (const [where, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${where}/node_modules/${name}`;
    if (lock.packages[`node_modules/${name}`] || lock.packages[nested]) continue;
    const m = /-(android|darwin|freebsd|linux|openharmony|win32|sunos|aix)-([a-z0-9]+)/.exec(name);
    if (!m || !CPU.has(m[2])) continue;
    lock.packages[`node_modules/${name}`] = { version, optional: true, os: [m[1]], cpu: [m[2]] };
    added++;
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`added ${added} platform stub(s) to package-lock.json\n`);
