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
});
