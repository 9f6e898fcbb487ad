import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.js';
import { createKeyring, keyringKey } from '../src/secrets/keyring.js';
import { generateKey } from '../src/secrets/sealer.js';
import type { PreparedStore } from '../src/cli/startup.js';
import { formatSummary, startSummary } from '../src/cli/summary.js';

const loopback: AddressInfo = { address: '127.0.0.1', family: 'IPv4', port: 8080 };

function prepared(adminToken: PreparedStore['adminToken'], keyGenerated: boolean): PreparedStore {
  return {
    appliedMigrations: ['0001_core'],
    adminToken,
    key: {
      keyring: createKeyring([keyringKey(generateKey())]),
      source: 'file',
      file: '/srv/varsetd/encryption-key',
      generated: keyGenerated,
    },
  };
}

describe('the start-up summary', () => {
  it('names the SQLite file and what was generated', () => {
    const config = loadConfig({ VARSETD_DATA_DIR: '/srv/varsetd', VARSETD_WORKERS: '3' }, []);
    const summary = startSummary(
      config,
      prepared({ source: 'generated', file: '/srv/varsetd/admin-token' }, true),
      loopback,
    );
    const text = formatSummary(summary);
    assert.match(text, /^varsetd \S+ is listening on http:\/\/127\.0\.0\.1:8080\n/);
    assert.match(text, /^ {2}store {11}SQLite, \/srv\/varsetd\/varsetd\.sqlite$/m);
    assert.match(text, /^ {2}schema {10}applied 1 migration$/m);
    assert.match(text, /^ {2}encryption key {2}generated, in \/srv\/varsetd\/encryption-key/m);
    assert.match(text, /^ {2}admin token {5}generated, in \/srv\/varsetd\/admin-token \(not printed/m);
    assert.match(text, /^ {2}workers {9}3 processes$/m);
  });

  it('names the PostgreSQL host and database, never the user or password, and says https with a certificate', () => {
    const config = loadConfig(
      {
        DATABASE_URL: 'postgres://varsetd:pa55word@db.internal:6543/varsets?sslmode=require&password=other',
        VARSETD_TLS_CERT: 'cert.pem',
        VARSETD_TLS_KEY: 'key.pem',
      },
      [],
    );
    const summary = startSummary(
      config,
      prepared({ source: 'configured', revokedGenerated: true, removedFile: undefined }, false),
      { address: '::', family: 'IPv6', port: 9000 },
    );
    assert.deepEqual(summary.store, { type: 'postgres', host: 'db.internal:6543', database: 'varsets' });
    const text = formatSummary(summary);
    for (const hidden of ['pa55word', 'other', 'varsetd:'])
      assert.ok(!text.includes(hidden) && !JSON.stringify(summary).includes(hidden), hidden);
    assert.match(text, /listening on https:\/\/localhost:9000 \(and every address of this machine\)/);
    assert.match(text, /PostgreSQL, database varsets on db\.internal:6543/);
    assert.match(text, /admin token {5}from VARSETD_ADMIN_TOKEN; the generated one is revoked$/m);
  });
});
