/** Load generation with autocannon, bounded in time and in request count. */
import autocannon from 'autocannon';

export interface LoadSettings {
  /** Seconds of measured load per server and scenario. */
  duration: number;
  /** Seconds of unmeasured load before it, so both servers run JIT-compiled code. */
  warmup: number;
  /** Seconds of one slice: the servers of a scenario take turns, so a burst of other work on the machine hits both alike. */
  slice: number;
  connections: number;
  /** Upper bound of measured requests per server and scenario. */
  maxRequests: number;
}

export type LoadRequest = autocannon.Request;

export interface LoadTarget {
  url: string;
  /** CPU seconds the server process has used so far. */
  cpuSeconds(): number | undefined;
  /** CPU seconds the database server (PostgreSQL's postmaster and its backends) has used so far, where measured. */
  databaseCpuSeconds?(): number | undefined;
}

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  /** Latencies in milliseconds, from autocannon's per-response timings (its own histogram rounds to whole milliseconds). */
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  bytesPerResponse: number;
  /** Server CPU time per request: what the request costs, whatever else runs on the machine. */
  cpuMsPerRequest: number | undefined;
  /** The database server's CPU time per request (PostgreSQL only), measured over the same slices. */
  databaseCpuMsPerRequest?: number;
}

export class LoadFailure extends Error {}

interface Slice {
  latencies: number[];
  bytes: number;
  seconds: number;
  cpu: number | undefined;
  databaseCpu: number | undefined;
}

/**
 * Drives `requests` (cycled on each connection) against every target in turn, slice by
 * slice, after a warm-up of each. Every response must be a 2xx: any other status, a
 * connection error or a timeout fails the run.
 */
export async function drive(
  targets: LoadTarget[],
  authorization: string,
  requests: LoadRequest[],
  settings: LoadSettings,
): Promise<LoadResult[]> {
  if (settings.warmup > 0)
    for (const target of targets)
      await once(target, authorization, requests, settings.warmup, settings.maxRequests, settings.connections);
  const slices: Slice[][] = targets.map(() => []);
  let remaining = settings.duration;
  while (remaining > 0) {
    const seconds = Math.min(settings.slice, remaining);
    remaining -= seconds;
    for (const [i, target] of targets.entries()) {
      const done = slices[i]!.reduce((n, s) => n + s.latencies.length, 0);
      if (done >= settings.maxRequests) continue;
      slices[i]!.push(
        await once(target, authorization, requests, seconds, settings.maxRequests - done, settings.connections),
      );
    }
  }
  return slices.map(summarize);
}

async function once(
  target: LoadTarget,
  authorization: string,
  requests: LoadRequest[],
  duration: number,
  maxRequests: number,
  connections: number,
): Promise<Slice> {
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  let bytes = 0;
  const cpuBefore = target.cpuSeconds();
  const databaseCpuBefore = target.databaseCpuSeconds?.();
  const started = performance.now();
  let last = started;
  const instance = autocannon({
    url: target.url,
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
    bytes += resBytes;
    last = performance.now();
  });
  const result = await instance;
  const cpuAfter = target.cpuSeconds();
  const databaseCpuAfter = target.databaseCpuSeconds?.();
  const statuses = [...failures].map(([status, count]) => `${count}× ${status}`).join(', ');
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || failures.size > 0) {
    throw new LoadFailure(
      `load on ${target.url}: ${result.non2xx} non-2xx (${statuses || 'none seen'}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  if (latencies.length === 0) throw new LoadFailure(`load on ${target.url}: no response at all`);
  // autocannon reports whole seconds; a run ended by the request bound is shorter.
  return {
    latencies,
    bytes,
    seconds: (last - started) / 1000,
    cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    databaseCpu:
      databaseCpuBefore === undefined || databaseCpuAfter === undefined
        ? undefined
        : databaseCpuAfter - databaseCpuBefore,
  };
}

function summarize(slices: Slice[]): LoadResult {
  const latencies = slices.flatMap((s) => s.latencies);
  const seconds = slices.reduce((t, s) => t + s.seconds, 0);
  const cpu = slices.some((s) => s.cpu === undefined) ? undefined : slices.reduce((t, s) => t + s.cpu!, 0);
  const databaseCpu = slices.some((s) => s.databaseCpu === undefined)
    ? undefined
    : slices.reduce((t, s) => t + s.databaseCpu!, 0);
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    requests: latencies.length,
    durationSeconds: seconds,
    requestsPerSecond: latencies.length / seconds,
    latency: {
      mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: sorted[sorted.length - 1]!,
    },
    bytesPerResponse: slices.reduce((t, s) => t + s.bytes, 0) / latencies.length,
    cpuMsPerRequest: cpu === undefined ? undefined : (cpu * 1000) / latencies.length,
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: (databaseCpu * 1000) / latencies.length }),
  };
}
