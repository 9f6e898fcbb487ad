import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import { ApiError } from '../jsonapi/errors.js';

/**
 * /metrics when `varsetd serve` runs several workers (src/workers.ts). The worker a scrape
 * reaches asks the primary; the primary asks every worker for its metrics, sums them
 * (prom-client's aggregation: counters and histograms add up, each metric's own rule
 * otherwise), adds its own, and answers the worker that asked. Every message travels on the
 * IPC channel Node's cluster gives each worker.
 */
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type WorkerMessage =
  | { type: 'metrics-answered' }
  | { type: 'metrics?'; id: number }
  | { type: 'metrics-of-worker'; id: number; metrics: MetricsJson };
type PrimaryMessage = { type: 'metrics'; id: number; text: string } | { type: 'metrics-of-worker?'; id: number };

/** How long the primary waits for the workers' metrics: a worker that does not answer by then is left out of the scrape. */
const GATHER_MS = 2_000;
/** How long a worker waits for the primary's answer. */
const ANSWER_MS = 5_000;

/** A message to a process that has just gone is lost: the scrape goes on without it (never an uncaught 'error' event). */
const unlessGone = () => {};

// ---- In a worker ----

/** Answers the primary's requests for this worker's metrics until the returned function is called. */
export function answerPrimary(registry: Registry): () => void {
  const listener = (message: PrimaryMessage | undefined) => {
    if (message?.type !== 'metrics-of-worker?') return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) =>
        process.send?.({ type: 'metrics-of-worker', id: message.id, metrics } satisfies WorkerMessage, unlessGone),
      );
  };
  process.on('message', listener);
  process.send?.({ type: 'metrics-answered' } satisfies WorkerMessage, unlessGone);
  return () => process.removeListener('message', listener);
}

let nextRequest = 0;
const answers = new Map<number, (text: string) => void>();
let listening = false;

/** The metrics of every worker and of the primary, in Prometheus' text format, as the primary gathers them. */
export function metricsOfEveryWorker(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: PrimaryMessage | undefined) => {
      if (message?.type === 'metrics') answers.get(message.id)?.(message.text);
    });
  }
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const fail = () => {
      clearTimeout(timer);
      answers.delete(id);
      reject(
        new ApiError(503, [
          {
            status: '503',
            title: 'service unavailable',
            detail: 'the metrics of the other workers did not arrive in time',
          },
        ]),
      );
    };
    const timer = setTimeout(fail, ANSWER_MS);
    answers.set(id, (text) => {
      clearTimeout(timer);
      answers.delete(id);
      resolve(text);
    });
    process.send!({ type: 'metrics?', id } satisfies WorkerMessage, (error: Error | null) => error && fail());
  });
}

// ---- In the primary ----

/** Workers whose process has not exited (Node keeps an exited one in `cluster.workers` until its channel disconnects). */
const runningWorkers = () =>
  Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined && !worker.isDead()).length;

/** Makes the primary answer its workers' requests for everyone's metrics; `workers` is how many it keeps running. */
export function serveMetricsToWorkers(workers: number): void {
  const registry = new Registry();
  const live = new Gauge({ name: 'varsetd_workers', help: 'Worker processes running.', registers: [registry] });
  new Gauge({
    name: 'varsetd_workers_desired',
    help: 'Worker processes the primary keeps running (VARSETD_WORKERS).',
    registers: [registry],
  }).set(workers);
  const exits = new Counter({
    name: 'varsetd_worker_exits_total',
    help: 'Worker processes that exited (crashed, were killed, or stopped at shutdown).',
    registers: [registry],
  });
  const restarts = new Counter({
    name: 'varsetd_worker_restarts_total',
    help: 'Worker processes started to replace one that exited.',
    registers: [registry],
  });
  let forks = 0;
  // Only a worker that said it answers has built its app; one starting up is not waited for.
  const serving = new Set<Worker>();
  cluster.on('fork', () => {
    if (++forks > workers) restarts.inc();
    live.set(runningWorkers());
  });
  cluster.on('exit', (worker) => {
    serving.delete(worker);
    exits.inc();
    live.set(runningWorkers());
  });

  const gathering = new Map<number, (worker: Worker, metrics: MetricsJson) => void>();
  let nextGathering = 0;
  cluster.on('message', (worker, message: WorkerMessage | undefined) => {
    if (message?.type === 'metrics-answered') serving.add(worker);
    if (message?.type === 'metrics-of-worker') gathering.get(message.id)?.(worker, message.metrics);
    if (message?.type !== 'metrics?') return;
    void gather(
      registry,
      [...serving].filter((serving) => serving.isConnected()),
      gathering,
      nextGathering++,
    ).then((text) => {
      if (worker.isConnected())
        worker.send({ type: 'metrics', id: message.id, text } satisfies PrimaryMessage, unlessGone);
    });
  });
}

async function gather(
  registry: Registry,
  asked: Worker[],
  gathering: Map<number, (worker: Worker, metrics: MetricsJson) => void>,
  id: number,
): Promise<string> {
  const received = new Map<Worker, MetricsJson>();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, GATHER_MS);
    gathering.set(id, (worker, metrics) => {
      received.set(worker, metrics);
      if (received.size === asked.length) {
        clearTimeout(timer);
        resolve();
      }
    });
    for (const worker of asked) worker.send({ type: 'metrics-of-worker?', id } satisfies PrimaryMessage, unlessGone);
    if (asked.length === 0) resolve();
  });
  gathering.delete(id);
  const own = await registry.getMetricsAsJSON();
  return AggregatorRegistry.aggregate([...received.values(), own, await perWorker(received)]).metrics();
}

/** Which workers answered, and how many requests each has answered: the only series labelled by worker (its cluster id). */
function perWorker(received: Map<Worker, MetricsJson>): Promise<MetricsJson> {
  const registry = new Registry();
  const registers = [registry];
  new Gauge({
    name: 'varsetd_workers_reporting',
    help: 'Workers whose metrics this scrape holds (the others did not answer in time).',
    registers,
  }).set(received.size);
  const requests = new Counter({
    name: 'varsetd_worker_http_requests_total',
    help: 'Requests each running worker has answered, by its cluster id (a replacement takes a new one).',
    labelNames: ['worker'],
    registers,
  });
  for (const [worker, metrics] of received) {
    const answered =
      metrics
        .find((metric) => metric.name === 'varsetd_http_requests_total')
        ?.values.reduce((sum, value) => sum + value.value, 0) ?? 0;
    requests.inc({ worker: String(worker.id) }, answered);
  }
  return registry.getMetricsAsJSON();
}
