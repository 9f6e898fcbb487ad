import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually, freePort, ROOT, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind } from './support/store.js';

const hasNpx = spawnSync('npx', ['--version']).status === 0;

/**
 * `npx varsetd serve`, as the packed package is started (scripts/pack-check.sh does it on the
 * real tarball): npm runs the bin through `sh -c`, and that shell passes no signal on. SIGTERM
 * sent to npx alone, or npx killed, must still stop the whole tree and free the port
 * (src/cli/launcher-watch.ts).
 */
describe(`varsetd started by npx (${storeKind})`, { skip: !hasNpx && 'npx is not installed' }, () => {
  for (const [signal, workers] of [
    ['SIGTERM', '2'],
    ['SIGTERM', '1'],
    ['SIGKILL', '1'],
  ] as const) {
    it(`stops, every process of it, when npx gets ${signal} (${workers} worker(s))`, async () => {
      const store = await createTestStore();
      const app = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-npx-'));
      // An installed package as npm lays it out: its bin linked in node_modules/.bin (here, a shim running the sources).
      fs.writeFileSync(path.join(app, 'package.json'), '{"private": true}\n');
      fs.mkdirSync(path.join(app, 'node_modules', '.bin'), { recursive: true });
      const shim = path.join(app, 'node_modules', '.bin', 'varsetd');
      const tsx = import.meta.resolve('tsx');
      fs.writeFileSync(
        shim,
        `#!/bin/sh\nexec '${process.execPath}' --import '${tsx}' '${path.join(ROOT, 'src', 'main.ts')}' "$@"\n`,
        { mode: 0o755 },
      );
      const port = await freePort();
      // A process group of its own, so that whatever is left is found, and killed, afterwards.
      const npx = spawn('npx', ['--no-install', 'varsetd', 'serve'], {
        cwd: app,
        env: varsetdEnv(store, { HOST: '127.0.0.1', PORT: String(port), VARSETD_WORKERS: workers }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      npx.stdout.on('data', (chunk) => (output += String(chunk)));
      npx.stderr.on('data', (chunk) => (output += String(chunk)));
      const npxExited = new Promise((resolve) => npx.once('exit', resolve));
      const group = npx.pid!;
      try {
        const summary = await eventually(
          'varsetd logged no start-up summary',
          async () => output.split('\n').find((line) => line.includes('"msg":"varsetd ') && line.includes(' started"')),
          () => output,
        );
        const varsetd = Number(/"pid":(\d+)/.exec(summary)![1]);
        assert.notEqual(varsetd, npx.pid, 'npx runs varsetd in a process of its own');

        process.kill(npx.pid!, signal);
        await npxExited;
        await eventually(
          'varsetd outlived npx',
          async () => (isAlive(varsetd) ? undefined : true),
          () => output,
        );
        await eventually(
          'a process of varsetd outlived npx',
          async () => (groupIsAlive(group) ? undefined : true),
          () => output,
        );
        assert.equal(await canListen(port), true, `port ${port} is still taken`);
      } finally {
        if (groupIsAlive(group)) process.kill(-group, 'SIGKILL');
        fs.rmSync(app, { recursive: true, force: true });
        await store.dispose();
      }
    });
  }
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function groupIsAlive(group: number): boolean {
  return isAlive(-group);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
