import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
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
  it('takes a TLS certificate and key together or not at all, as absolute paths', () => {
    assert.equal(loadConfig({}, []).tls, undefined);
    assert.deepEqual(loadConfig({ VARSETD_TLS_CERT: 'tls/cert.pem' }, ['--tls-key', '/etc/varsetd/key.pem']).tls, {
      certFile: path.resolve('tls/cert.pem'),
      keyFile: '/etc/varsetd/key.pem',
    });
    assert.throws(() => loadConfig({ VARSETD_TLS_CERT: 'cert.pem' }, []), /VARSETD_TLS_CERT and VARSETD_TLS_KEY go together/);
    assert.throws(() => loadConfig({}, ['--tls-key', 'key.pem']), /VARSETD_TLS_CERT and VARSETD_TLS_KEY go together/);
  });
  it('trusts no proxy unless told: true, false, or a list of addresses, CIDR ranges and proxy-addr names', () => {
    assert.equal(loadConfig({}, []).trustProxy, false);
    assert.equal(loadConfig({ VARSETD_TRUST_PROXY: 'true' }, []).trustProxy, true);
    assert.equal(loadConfig({ VARSETD_TRUST_PROXY: 'true' }, ['--trust-proxy', 'false']).trustProxy, false);
    assert.deepEqual(loadConfig({ VARSETD_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8, ::1,loopback' }, []).trustProxy, [
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['yes', '1', '10.0.0.0/33', 'fd00::/129', '300.1.1.1', '10.0.0.1,,10.0.0.2', '10.0.0.0/8/1', 'proxy.example.com']) {
      assert.throws(() => loadConfig({ VARSETD_TRUST_PROXY: bad }, []), /VARSETD_TRUST_PROXY must be true, false, or a comma-separated list/, bad);
    }
  });
});
