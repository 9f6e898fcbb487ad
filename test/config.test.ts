import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('reads the response cache size in MiB: 64 unless set, 0 turns the cache off', () => {
    assert.equal(loadConfig({}, []).responseCacheMb, 64);
    assert.equal(loadConfig({ VARSETD_RESPONSE_CACHE_MB: '0' }, []).responseCacheMb, 0);
    assert.equal(loadConfig({ VARSETD_RESPONSE_CACHE_MB: '8' }, ['--response-cache-mb', '16']).responseCacheMb, 16);
    for (const wrong of ['-1', '1.5', 'lots']) assert.throws(() => loadConfig({ VARSETD_RESPONSE_CACHE_MB: wrong }, []), ConfigError, wrong);
  });
  it('reads the timeouts in seconds (60, 10 and 5 unless set) and refuses anything but a positive number', () => {
    assert.deepEqual(loadConfig({}, []).timeouts, { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 5_000 });
    const set = loadConfig({ VARSETD_REQUEST_TIMEOUT: '120', VARSETD_KEEP_ALIVE_TIMEOUT: '0.5' }, ['--headers-timeout', '3']);
    assert.deepEqual(set.timeouts, { requestMs: 120_000, headersMs: 3_000, keepAliveMs: 500 });
    for (const bad of ['0', '-1', 'ten', '1e3', '3601']) {
      assert.throws(() => loadConfig({ VARSETD_REQUEST_TIMEOUT: bad }, []), ConfigError, bad);
    }
  });
});
