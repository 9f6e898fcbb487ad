// Builds the web UI (ui/) into dist/web with Vite, unless nothing it is built from changed since
// the last build: dist/web.build-stamp holds a hash of every input, so a rebuild with no change
// costs a hash of a few files. `--force` builds anyway. Builds started together (tests run in
// parallel, two `npm start`s) take turns through a lock folder.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outDir = path.join(dist, 'web');
const stampFile = path.join(dist, 'web.build-stamp');
const lockDir = path.join(dist, 'web.build-lock');

function files(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

function inputsHash() {
  const hash = createHash('sha256');
  const inputs = [...files(path.join(root, 'ui')), path.join(root, 'package-lock.json')].sort();
  for (const file of inputs)
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

async function lock() {
  mkdirSync(dist, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock left by a build that died: no build takes two minutes.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 120_000)
        rmSync(lockDir, { recursive: true, force: true });
      await sleep(200);
    }
  }
}

/** Brotli and gzip copies beside each asset, which varsetd sends to browsers that accept them. */
function compressAssets() {
  for (const file of files(path.join(outDir, 'assets')).filter((f) => /\.(js|css)$/.test(f))) {
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}

const hash = inputsHash();
const isBuilt = () =>
  existsSync(path.join(outDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash;
const force = process.argv.includes('--force');
if (force || !isBuilt()) {
  await lock();
  try {
    if (force || !isBuilt()) {
      const started = Date.now();
      const { build } = await import('vite');
      await build({ configFile: path.join(root, 'ui', 'vite.config.ts') });
      compressAssets();
      writeFileSync(stampFile, hash);
      console.error(`web UI built into dist/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
