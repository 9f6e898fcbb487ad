import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { createKeyring, keyringKey } from '../src/secrets/keyring.js';
import { generateKey } from '../src/secrets/sealer.js';
import { startSummary } from '../src/cli/summary.js';
import { unsupportedNode, VERSION } from '../src/version.js';
import { TestApp } from './support/app.js';
import { ROOT, runVarsetd, varsetdEnv } from './support/processes.js';

const PACKAGE_VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const CHANGELOG = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
/** The released versions of CHANGELOG.md, newest first (`## [0.2.0] - 2026-11-25`). */
const RELEASES = [...CHANGELOG.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(([, version, date]) => ({ version: version!, date: date! }));

describe("varsetd's version", () => {
  it('is the same in package.json, CHANGELOG.md, --version, the start-up summary, the OpenAPI document and /metrics', async () => {
    assert.equal(RELEASES[0]?.version, PACKAGE_VERSION, "CHANGELOG.md's newest release");
    assert.equal(VERSION, PACKAGE_VERSION);
    const printed = await runVarsetd(['--version'], varsetdEnv({ dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined }));
    assert.equal(printed.stdout, `varsetd ${PACKAGE_VERSION}\n`);
    const key = generateKey();
    const summary = startSummary(
      loadConfig({ VARSETD_DATA_DIR: '/srv/varsetd' }, []),
      {
        appliedMigrations: [],
        adminToken: { source: 'existing', file: undefined },
        key: { keyring: createKeyring([keyringKey(key)]), source: 'file', file: '/srv/varsetd/encryption-key', generated: false },
      },
      { address: '127.0.0.1', family: 'IPv4', port: 8080 },
    );
    assert.equal(summary.version, PACKAGE_VERSION);
    const t = await TestApp.start();
    try {
      const document = await t.request('GET', '/api/v2/openapi.json', { token: null });
      assert.equal(document.body.info.version, PACKAGE_VERSION);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, new RegExp(`^varsetd_build_info\\{[^}]*version="${PACKAGE_VERSION.replace(/\./g, '\\.')}"[^}]*\\} 1$`, 'm'));
    } finally {
      await t.close();
    }
  });

  it("CHANGELOG.md's releases go from newest to oldest, each with a section of its own", () => {
    assert.ok(RELEASES.length >= 2, 'releases found');
    const numbers = RELEASES.map(({ version }) => version.split('.').map(Number));
    for (let i = 1; i < numbers.length; i++) {
      const [newer, older] = [numbers[i - 1]!, numbers[i]!];
      const order = newer.findIndex((part, at) => part !== older[at]);
      assert.ok(order >= 0 && newer[order]! > older[order]!, `${RELEASES[i - 1]!.version} comes before ${RELEASES[i]!.version}`);
      assert.ok(RELEASES[i - 1]!.date >= RELEASES[i]!.date, `${RELEASES[i - 1]!.version} is not dated before ${RELEASES[i]!.version}`);
    }
  });
});

describe('the Node.js varsetd runs on', () => {
  it('is 22.14 or later: older ones are refused with the versions it needs', () => {
    for (const old of ['20.20.2', '22.13.1', '18.20.0'])
      assert.match(unsupportedNode(old) ?? '', new RegExp(`^Node\\.js ${old} is not supported: varsetd needs Node\\.js 22\\.14 or later, 24 or 26$`));
    for (const supported of ['22.14.0', '22.23.3', '24.21.0', '26.10.0', process.versions.node]) assert.equal(unsupportedNode(supported), undefined, supported);
  });
});
