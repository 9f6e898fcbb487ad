import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { allowedSource, parseImportSources } from '../src/imports/model.js';
import { ConfigError, loadConfig } from '../src/config.js';

describe('the sources an import may read (VARSETD_IMPORT_SOURCES)', () => {
  it('reads hosts, hosts with ports and origins, HTTPS unless a scheme is given', () => {
    assert.deepEqual(parseImportSources('app.terraform.io, tfe.example.com:8443,http://127.0.0.1:8080,,'), [
      'https://app.terraform.io',
      'https://tfe.example.com:8443',
      'http://127.0.0.1:8080',
    ]);
    assert.deepEqual(parseImportSources('none'), []);
    for (const bad of ['ftp://x.example', 'https://x.example/api', 'https://u:p@x.example', 'a b'])
      assert.throws(() => parseImportSources(bad), Error, bad);
  });

  it('is app.terraform.io unless set, and a wrong entry stops the start', () => {
    assert.deepEqual(loadConfig({}, []).importSources, ['https://app.terraform.io']);
    assert.deepEqual(loadConfig({ VARSETD_IMPORT_SOURCES: 'none' }, []).importSources, []);
    assert.throws(() => loadConfig({ VARSETD_IMPORT_SOURCES: 'https://x.example/path' }, []), ConfigError);
  });

  it('allows only a listed origin: scheme, host and port', () => {
    const allowed = ['https://app.terraform.io'];
    assert.ok(allowedSource('https://app.terraform.io/api/v2', allowed) instanceof URL);
    for (const refused of [
      'http://app.terraform.io',
      'https://app.terraform.io:8443',
      'https://app.terraform.io.evil.example',
      'https://169.254.169.254/latest/meta-data',
      'https://token@app.terraform.io',
      'file:///etc/passwd',
      'nonsense',
    ])
      assert.equal(typeof allowedSource(refused, allowed), 'string', refused);
    assert.match(String(allowedSource('https://app.terraform.io', [])), /imports from no named source/);
  });
});
