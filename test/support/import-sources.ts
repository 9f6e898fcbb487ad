import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServerProcess, varsetdEnv, type ServerProcess } from './processes.js';
import { ADMIN_TOKEN, expectStatus, type Client } from './requests.js';
import { createTestStore, type TestStore } from './store.js';

/**
 * What every workspace of an organization gets, without ids: per workspace name, each effective
 * variable's key, category, value, flags, whether it needs a value, and where it comes from.
 * Two organizations imported one from the other answer the same.
 */
export async function effectiveByWorkspace(c: Client, organization: string): Promise<Record<string, unknown[]>> {
  const listed = await c.get(`/api/v2/organizations/${organization}/workspaces?page%5Bsize%5D=100`);
  expectStatus(listed, 200);
  const all: Record<string, unknown[]> = {};
  for (const w of listed.body.data as { id: string; attributes: { name: string } }[]) {
    const res = await c.get(`/api/v2/workspaces/${w.id}/effective-variables`);
    expectStatus(res, 200);
    all[w.attributes.name] = (res.body.data as { attributes: any }[]).map(({ attributes: a }) => [
      a.key,
      a.category,
      a.value,
      a.sensitive,
      a.hcl,
      a['value-needed'] ?? false,
      a.source.type,
      a.source.varset?.name ?? null,
    ]);
  }
  return all;
}

/**
 * A source in front of `target` (a varsetd's address) that answers a request itself when
 * `intercept` does (a 429, a 500, an API without an endpoint) and passes every other one on.
 */
export async function sourceInFrontOf(
  target: string,
  intercept: (req: http.IncomingMessage, res: http.ServerResponse) => boolean,
): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    if (intercept(req, res)) return;
    const forwarded = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Two varsetd servers, each on a store of its own, answering the site administrator's token: an import's source and target. */
export interface SourceAndTarget {
  sourceStore: TestStore;
  targetStore: TestStore;
  source: ServerProcess;
  target: ServerProcess;
  /** Stops both servers, then removes both stores. */
  stop(): Promise<void>;
}

export async function startSourceAndTarget(env: NodeJS.ProcessEnv = {}): Promise<SourceAndTarget> {
  const [sourceStore, targetStore] = await Promise.all([createTestStore(), createTestStore()]);
  const [source, target] = await Promise.all(
    [sourceStore, targetStore].map((store) =>
      startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, ...env })),
    ),
  );
  return {
    sourceStore,
    targetStore,
    source: source!,
    target: target!,
    stop: async () => {
      try {
        await Promise.all([source!.stop(), target!.stop()]);
      } finally {
        await Promise.all([sourceStore.dispose(), targetStore.dispose()]);
      }
    },
  };
}
