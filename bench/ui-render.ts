/**
 * How fast the web UI shows the sets page of an organization of 1,000 variable sets (200 of them
 * global, 50 projects, 5,000 workspaces: the benchmark's medium organization), in Debian's
 * headless Chromium against a real varsetd process on a fresh store:
 *
 *   npm run bench:ui          (SQLite; PostgreSQL with TEST_DATABASE_URL, as the tests use it)
 *
 * Each measure opens the page in a new browser context (no HTTP cache, no TanStack Query cache)
 * and stops the clock when the first page's 20 sets are in the document. Printed, not asserted:
 * timings vary with the machine.
 */
import { chromium } from 'playwright-core';
import { openStore } from '../src/db/connect.js';
import { startServerProcess, varsetdEnv } from '../test/support/processes.js';
import { ADMIN_TOKEN } from '../test/support/requests.js';
import { createTestStore } from '../test/support/store.js';
import { buildUi, chromiumPath } from '../test/support/ui.js';
import { Api } from './api.js';
import { MEDIUM, seedOrganization } from './seed.js';

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 7);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await buildUi();
const testStore = await createTestStore();
const server = await startServerProcess(varsetdEnv(testStore, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'info' }));
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  const store = await openStore(testStore);
  const seeded = await seedOrganization(new Api(server.url, ADMIN_TOKEN), store, 'bench-ui', MEDIUM, 1);
  await store.close();
  console.log(
    `seeded ${seeded.counts.sets} sets (${seeded.counts.globalSets} global), ${seeded.counts.projects} projects, ${seeded.counts.workspaces} workspaces`,
  );

  /** Opens `path` in a fresh context, signed in; resolves with milliseconds until `ready` is in the page, and the page. */
  async function measure(path: string, ready: string) {
    const context = await browser.newContext();
    await context.addInitScript((token) => sessionStorage.setItem('varsetd.token', token), ADMIN_TOKEN);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${server.url}${path}`);
    await page.locator(ready).waitFor();
    const elapsed = performance.now() - started;
    const inPage = await page.evaluate(() => performance.now());
    return { elapsed, inPage, page, context };
  }

  const results: Record<string, { wall: number[]; navigation: number[] }> = {};
  const record = (name: string, wall: number, navigation: number) => {
    results[name] ??= { wall: [], navigation: [] };
    results[name].wall.push(wall);
    results[name].navigation.push(navigation);
  };
  const LIST = 'ul[aria-label="Variable sets"] > li:nth-child(20)';
  for (let run = 0; run <= RUNS; run++) {
    const first = await measure('/organizations/bench-ui/varsets', LIST);
    // The first run warms the server's statements and caches; it is not counted.
    if (run > 0) record('sets page, first 20 of 1,000 (cold browser)', first.elapsed, first.inPage);
    const next = performance.now();
    await first.page.getByRole('button', { name: 'Next page' }).first().click();
    await first.page
      .getByText(/^Page 2 of/)
      .first()
      .waitFor();
    await first.page.locator(LIST).waitFor();
    if (run > 0) record('next page, 21-40 (in the page)', performance.now() - next, 0);
    await first.context.close();
    const search = await measure(
      '/organizations/bench-ui/varsets?q=prod',
      'ul[aria-label="Variable sets"] > li >> nth=0',
    );
    if (run > 0) record('sets page searched with q (cold browser)', search.elapsed, search.inPage);
    await search.context.close();
    const workspace = await measure(`/workspaces/${seeded.listWorkspaceId}`, 'table.effective tbody tr >> nth=0');
    if (run > 0)
      record("a workspace's page with its effective variables (cold browser)", workspace.elapsed, workspace.inPage);
    await workspace.context.close();
  }
  console.log(
    `\nmedian of ${RUNS} runs (ms): wall clock from goto to the content in the page; navigation: the page's own performance.now()`,
  );
  for (const [name, { wall, navigation }] of Object.entries(results)) {
    const nav = median(navigation);
    console.log(
      `  ${name}: ${median(wall).toFixed(0)} ms${nav ? ` (navigation ${nav.toFixed(0)} ms)` : ''}; min ${Math.min(...wall).toFixed(0)}, max ${Math.max(...wall).toFixed(0)}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
  await testStore.dispose();
}
