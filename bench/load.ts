/** Load generation with autocannon, bounded in time and in request count. */
import autocannon from 'autocannon';

export interface LoadSettings {
  /** Seconds of measured load per run. */
  duration: number;
  /** Seconds of unmeasured load before it, so both servers run JIT-compiled code. */
  warmup: number;
  connections: number;
  /** Upper bound of requests per measured run. */
  maxRequests: number;
}

export type LoadRequest = autocannon.Request;

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  /** Latencies in milliseconds, from autocannon's per-response timings (its own histogram rounds to whole milliseconds). */
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  bytesPerResponse: number;
}

export class LoadFailure extends Error {}

/**
 * Drives `requests` (cycled per connection) against `baseUrl`. Every response must be a 2xx:
 * any other status, a connection error or a timeout fails the run.
 */
export async function drive(baseUrl: string, authorization: string, requests: LoadRequest[], settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmup > 0) await once(baseUrl, authorization, requests, settings.warmup, settings.maxRequests, settings.connections);
  return once(baseUrl, authorization, requests, settings.duration, settings.maxRequests, settings.connections);
}

async function once(baseUrl: string, authorization: string, requests: LoadRequest[], duration: number, maxRequests: number, connections: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  let bytes = 0;
  const started = performance.now();
  let last = started;
  const instance = autocannon({
    url: baseUrl,
    connections,
    duration,
    maxOverallRequests: Math.max(maxRequests, connections),
    timeout: 10,
    headers: { authorization, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
    requests,
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    if (statusCode < 200 || statusCode > 299) failures.set(statusCode, (failures.get(statusCode) ?? 0) + 1);
    latencies.push(responseTime);
    last = performance.now();
    bytes += resBytes;
  });
  const result = await instance;
  const statuses = [...failures].map(([status, count]) => `${count}× ${status}`).join(', ');
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || failures.size > 0) {
    throw new LoadFailure(`load on ${baseUrl}: ${result.non2xx} non-2xx (${statuses || 'none seen'}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  if (latencies.length === 0) throw new LoadFailure(`load on ${baseUrl}: no response at all`);
  // autocannon reports whole seconds; a run ended by the request bound is shorter.
  const elapsed = (last - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    requests: latencies.length,
    durationSeconds: elapsed,
    requestsPerSecond: latencies.length / elapsed,
    latency: { mean: latencies.reduce((a, b) => a + b, 0) / latencies.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1]! },
    bytesPerResponse: bytes / latencies.length,
  };
}
