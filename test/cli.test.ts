import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS } from '../src/config.js';
import { ROOT, runVarsetd, varsetdEnv } from './server-process.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

describe('the varsetd command', () => {
  const noStore = { dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined };

  it('lists every setting in --help, as the README table does', async () => {
    const { code, stdout } = await runVarsetd(['--help'], varsetdEnv(noStore));
    assert.equal(code, 0);
    const readmeRows = [...README.matchAll(/^\| `([A-Z_]+)` \| `(--[a-z-]+)` \|/gm)].map(([, env, flag]) => `${env} ${flag}`);
    assert.deepEqual(readmeRows, SETTINGS.map((s) => `${s.env} ${s.flag}`));
    for (const s of SETTINGS) assert.match(stdout, new RegExp(`^  ${s.flag} ${s.value} +\\[${s.env}\\] `, 'm'), s.flag);
    for (const command of ['serve', 'migrate', 'rotate-key', '--version']) assert.ok(stdout.includes(command), command);
  });

  it('prints its version', async () => {
    assert.deepEqual(await runVarsetd(['--version'], varsetdEnv(noStore)), { code: 0, stdout: `varsetd ${VERSION}\n`, stderr: '' });
  });

  it('refuses a wrong setting before it touches anything', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-cli-'));
    const dataDir = path.join(parent, 'data');
    try {
      const wrongs: [string[], NodeJS.ProcessEnv, RegExp][] = [
        [['--log-level', 'verbose'], {}, /LOG_LEVEL must be one of/],
        [[], { VARSETD_ADMIN_TOKEN: 'x' }, /VARSETD_ADMIN_TOKEN must be at least 32/],
        [['migrate', '--port', 'eighty'], {}, /PORT must be/],
        [['serve', '--no-such-option', '1'], {}, /unknown option --no-such-option/],
      ];
      for (const [args, settings, message] of wrongs) {
        const { code, stdout, stderr } = await runVarsetd(args, varsetdEnv({ dataDir, databaseUrl: undefined }, settings));
        assert.equal(code, 2, args.join(' '));
        assert.match(stderr, message);
        assert.equal(stdout, '');
        assert.ok(!fs.existsSync(dataDir), 'the data folder was created');
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
