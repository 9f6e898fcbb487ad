import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { takeRotateKeyOptions } from '../src/cli/rotate-key.js';

describe('configuration', () => {
  it('reads the response cache size in MiB: 64 unless set, 0 turns the cache off', () => {
    assert.equal(loadConfig({}, []).responseCacheMb, 64);
    assert.equal(loadConfig({ VARSETD_RESPONSE_CACHE_MB: '0' }, []).responseCacheMb, 0);
    assert.equal(loadConfig({ VARSETD_RESPONSE_CACHE_MB: '8' }, ['--response-cache-mb', '16']).responseCacheMb, 16);
    for (const wrong of ['-1', '1.5', 'lots'])
      assert.throws(() => loadConfig({ VARSETD_RESPONSE_CACHE_MB: wrong }, []), ConfigError, wrong);
  });
  it('refuses private notification destinations unless VARSETD_NOTIFICATIONS_ALLOW_PRIVATE is true', () => {
    assert.equal(loadConfig({}, []).notificationsAllowPrivate, false);
    assert.equal(loadConfig({ VARSETD_NOTIFICATIONS_ALLOW_PRIVATE: 'true' }, []).notificationsAllowPrivate, true);
    assert.equal(
      loadConfig({ VARSETD_NOTIFICATIONS_ALLOW_PRIVATE: 'true' }, ['--notifications-private', 'false'])
        .notificationsAllowPrivate,
      false,
    );
    for (const wrong of ['yes', '1', 'TRUE'])
      assert.throws(
        () => loadConfig({ VARSETD_NOTIFICATIONS_ALLOW_PRIVATE: wrong }, []),
        /VARSETD_NOTIFICATIONS_ALLOW_PRIVATE must be true or false/,
        wrong,
      );
  });
  it('is an OpenID Connect issuer only when asked, at an https public URL (http on loopback only), refusing at start otherwise', () => {
    const off = loadConfig({}, []);
    assert.deepEqual(
      [off.workloadIdentity, off.workloadIdentityTokenTtlMs, off.workloadIdentityRunLifetimeMs],
      [false, 3_600_000, 14_400_000],
    );
    const on = { VARSETD_WORKLOAD_IDENTITY: 'true' };
    assert.equal(loadConfig({ ...on, VARSETD_PUBLIC_URL: 'https://varsetd.example.com/' }, []).workloadIdentity, true);
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:8080'])
      assert.equal(loadConfig({ ...on, VARSETD_PUBLIC_URL: url }, []).workloadIdentity, true, url);
    assert.throws(() => loadConfig(on, []), /VARSETD_WORKLOAD_IDENTITY=true needs VARSETD_PUBLIC_URL/);
    assert.throws(
      () => loadConfig({ ...on, VARSETD_PUBLIC_URL: 'http://varsetd.example.com' }, []),
      /needs an https:\/\/ VARSETD_PUBLIC_URL/,
    );
    assert.throws(() => loadConfig({ ...on, VARSETD_PUBLIC_URL: 'https://varsetd.example.com/?a=1' }, []), /no query/);
    assert.throws(() => loadConfig({ VARSETD_WORKLOAD_IDENTITY: 'yes' }, []), /must be true or false/);
    const timed = loadConfig({ VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL: '900' }, ['--identity-run-ttl', '7200']);
    assert.deepEqual([timed.workloadIdentityTokenTtlMs, timed.workloadIdentityRunLifetimeMs], [900_000, 7_200_000]);
    for (const bad of ['0', '1.5', '86401', 'x'])
      assert.throws(
        () => loadConfig({ VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL: bad }, []),
        /VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL must be/,
        bad,
      );
  });
  it('reads the timeouts in seconds (60, 10 and 5 unless set) and refuses anything but a positive number', () => {
    assert.deepEqual(loadConfig({}, []).timeouts, { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 5_000 });
    const set = loadConfig({ VARSETD_REQUEST_TIMEOUT: '120', VARSETD_KEEP_ALIVE_TIMEOUT: '0.5' }, [
      '--headers-timeout',
      '3',
    ]);
    assert.deepEqual(set.timeouts, { requestMs: 120_000, headersMs: 3_000, keepAliveMs: 500 });
    for (const bad of ['0', '-1', 'ten', '1e3', '3601']) {
      assert.throws(() => loadConfig({ VARSETD_REQUEST_TIMEOUT: bad }, []), ConfigError, bad);
    }
  });
  it('reads the PostgreSQL limits: statement timeout (30 s, 0 for none), connect timeout (5 s) and pool size (10) unless set', () => {
    const defaults = loadConfig({}, []);
    assert.deepEqual(
      [defaults.dbStatementTimeoutMs, defaults.dbConnectTimeoutMs, defaults.dbPoolSize],
      [30_000, 5_000, 10],
    );
    const set = loadConfig({ VARSETD_DB_STATEMENT_TIMEOUT: '0', VARSETD_DB_POOL_SIZE: '4' }, [
      '--db-connect-timeout',
      '0.5',
      '--db-pool-size',
      '25',
    ]);
    assert.deepEqual([set.dbStatementTimeoutMs, set.dbConnectTimeoutMs, set.dbPoolSize], [0, 500, 25]);
    assert.equal(loadConfig({}, ['--db-statement-timeout=2.5']).dbStatementTimeoutMs, 2_500);
    for (const bad of ['-1', 'ten', '1e3', '3601']) {
      assert.throws(
        () => loadConfig({ VARSETD_DB_STATEMENT_TIMEOUT: bad }, []),
        /VARSETD_DB_STATEMENT_TIMEOUT must be a number of seconds from 0 \(no limit\) to 3600/,
        bad,
      );
    }
    for (const bad of ['0', '-1', 'soon', '3601']) {
      assert.throws(
        () => loadConfig({ VARSETD_DB_CONNECT_TIMEOUT: bad }, []),
        /VARSETD_DB_CONNECT_TIMEOUT must be a number of seconds above 0/,
        bad,
      );
    }
    for (const bad of ['0', '-2', '1.5', 'many', '1001']) {
      assert.throws(
        () => loadConfig({}, ['--db-pool-size', bad]),
        /VARSETD_DB_POOL_SIZE must be a whole number from 1 to 1000/,
        bad,
      );
    }
  });
  it("takes pino's levels only", () => {
    assert.equal(loadConfig({}, []).logLevel, 'info');
    for (const level of ['trace', 'debug', 'warn', 'error', 'fatal', 'silent'])
      assert.equal(loadConfig({}, ['--log-level', level]).logLevel, level);
    for (const wrong of ['verbose', 'INFO', 'warning'])
      assert.throws(
        () => loadConfig({ LOG_LEVEL: wrong }, []),
        /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/,
        wrong,
      );
  });
  it('takes admin tokens of at least 32 printable ASCII characters, and never repeats one it refuses', () => {
    const token = 'a'.repeat(31) + '!';
    assert.equal(loadConfig({ VARSETD_ADMIN_TOKEN: token }, []).adminToken, token);
    assert.equal(loadConfig({}, ['--admin-token', `${token}~`]).adminToken, `${token}~`);
    for (const wrong of [
      'short-token',
      'b'.repeat(31),
      `${'c'.repeat(32)} d`,
      `${'e'.repeat(32)}\n`,
      `${'f'.repeat(32)}é`,
    ]) {
      assert.throws(
        () => loadConfig({ VARSETD_ADMIN_TOKEN: wrong }, []),
        (error: unknown) =>
          error instanceof ConfigError && /at least 32/.test(error.message) && !error.message.includes(wrong),
        JSON.stringify(wrong),
      );
    }
  });
  it('refuses a host that is neither an IP address nor a host name, and a database URL that is not one', () => {
    for (const host of ['127.0.0.1', '::', 'localhost', 'varsetd.internal'])
      assert.equal(loadConfig({ HOST: host }, []).host, host);
    for (const wrong of ['local host', 'http://localhost', '-x'])
      assert.throws(() => loadConfig({}, ['--host', wrong]), /HOST must be/, wrong);
    assert.equal(
      loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/varsetd' }, []).databaseUrl,
      'postgres://u:p@db:5432/varsetd',
    );
    for (const wrong of ['mysql://db/varsetd', 'postgres://db:port/x'])
      assert.throws(() => loadConfig({ DATABASE_URL: wrong }, []), /DATABASE_URL must be/, wrong);
  });
  it('takes a TLS certificate and key together or not at all, as absolute paths', () => {
    assert.equal(loadConfig({}, []).tls, undefined);
    assert.deepEqual(loadConfig({ VARSETD_TLS_CERT: 'tls/cert.pem' }, ['--tls-key', '/etc/varsetd/key.pem']).tls, {
      certFile: path.resolve('tls/cert.pem'),
      keyFile: '/etc/varsetd/key.pem',
    });
    assert.throws(
      () => loadConfig({ VARSETD_TLS_CERT: 'cert.pem' }, []),
      /VARSETD_TLS_CERT and VARSETD_TLS_KEY go together/,
    );
    assert.throws(() => loadConfig({}, ['--tls-key', 'key.pem']), /VARSETD_TLS_CERT and VARSETD_TLS_KEY go together/);
  });
  it('trusts no proxy unless told: true, false, or a list of addresses, CIDR ranges and proxy-addr names', () => {
    assert.equal(loadConfig({}, []).trustProxy, false);
    assert.equal(loadConfig({ VARSETD_TRUST_PROXY: 'true' }, []).trustProxy, true);
    assert.equal(loadConfig({ VARSETD_TRUST_PROXY: 'true' }, ['--trust-proxy', 'false']).trustProxy, false);
    assert.deepEqual(
      loadConfig({ VARSETD_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8, ::1,loopback' }, []).trustProxy,
      ['10.0.0.1', '192.168.0.0/16', 'fd00::/8', '::1', 'loopback'],
    );
    for (const bad of [
      'yes',
      '1',
      '10.0.0.0/33',
      'fd00::/129',
      '300.1.1.1',
      '10.0.0.1,,10.0.0.2',
      '10.0.0.0/8/1',
      'proxy.example.com',
    ]) {
      assert.throws(
        () => loadConfig({ VARSETD_TRUST_PROXY: bad }, []),
        /VARSETD_TRUST_PROXY must be true, false, or a comma-separated list/,
        bad,
      );
    }
  });
  it('guards /metrics with a token only when one is set: at least 16 printable ASCII characters, never repeated in an error', () => {
    assert.equal(loadConfig({}, []).metricsToken, undefined);
    assert.equal(loadConfig({ VARSETD_METRICS_TOKEN: '' }, []).metricsToken, undefined);
    const token = 'p'.repeat(15) + '!';
    assert.equal(loadConfig({ VARSETD_METRICS_TOKEN: token }, []).metricsToken, token);
    assert.equal(
      loadConfig({ VARSETD_METRICS_TOKEN: token }, ['--metrics-token', `${token}~`]).metricsToken,
      `${token}~`,
    );
    for (const wrong of ['short', 'q'.repeat(15), `${'r'.repeat(16)} s`, `${'t'.repeat(16)}\t`, `${'u'.repeat(16)}é`]) {
      assert.throws(
        () => loadConfig({ VARSETD_METRICS_TOKEN: wrong }, []),
        (error: unknown) =>
          error instanceof ConfigError &&
          /VARSETD_METRICS_TOKEN must be at least 16/.test(error.message) &&
          !error.message.includes(wrong),
        JSON.stringify(wrong),
      );
    }
    assert.throws(() => loadConfig({}, ['--metrics-token']), /--metrics-token needs a value/);
  });

  it('reads flags as `--flag value` and `--flag=value`, the last one winning, and refuses anything else by name', () => {
    assert.equal(loadConfig({ PORT: '1' }, ['--port', '2', '--port=3']).port, 3);
    const dashed = `--${'t'.repeat(32)}`;
    assert.equal(loadConfig({}, ['--admin-token', dashed, '--port', '0']).adminToken, dashed);
    for (const [args, message] of [
      [['--no-such-option', '1'], 'unknown option --no-such-option'],
      [['--no-such-option=1'], 'unknown option --no-such-option'],
      [['serve'], 'unknown option serve'],
      [['-p', '1'], 'unknown option -p'],
      [['-abc'], 'unknown option -abc'],
      [['--', '--port', '1'], 'unknown option --'],
      [['--port', '1', '--host'], '--host needs a value'],
    ] as const) {
      assert.throws(
        () => loadConfig({}, [...args]),
        (error: unknown) => error instanceof ConfigError && error.message === message,
        args.join(' '),
      );
    }
  });

  it("takes rotate-key's --new-key and --reseal out of the settings, which stay as they were given", () => {
    assert.deepEqual(takeRotateKeyOptions(['--data-dir', 'd', '--new-key', 'k1', '--new-key=k2', '--port=0']), {
      newKey: 'k2',
      reseal: false,
      batchSize: 500,
      rest: ['--data-dir=d', '--port=0'],
    });
    assert.deepEqual(takeRotateKeyOptions([]), { newKey: undefined, reseal: false, batchSize: 500, rest: [] });
    assert.deepEqual(takeRotateKeyOptions(['--reseal', '--port=0', '--batch-size', '7']), {
      newKey: undefined,
      reseal: true,
      batchSize: 7,
      rest: ['--port=0'],
    });
    assert.throws(() => takeRotateKeyOptions(['--batch-size=0']), /--batch-size must be a whole number above 0/);
    assert.throws(() => takeRotateKeyOptions(['--reseal', '--new-key=k']), /--reseal adds no key/);
    assert.throws(
      () => takeRotateKeyOptions(['--new-key']),
      (error: unknown) => error instanceof ConfigError && error.message === '--new-key needs a value',
    );
    assert.throws(
      () => takeRotateKeyOptions(['--new-kee', 'x']),
      (error: unknown) => error instanceof ConfigError && error.message === 'unknown option --new-kee',
    );
  });
});
