import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { assign, createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * Project and workspace lists merge the organization's global sets (read a page at a time in
 * name order) with the sets that reach them otherwise. Every page, at every page size, must be
 * the slice of the full list in name order, with the right total.
 */
describe(`pages of project and workspace variable set lists (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let projectId: string;
  let workspaceId: string;
  const expected = { project: [] as string[], workspace: [] as string[] };
  const named: Array<{ id: string; name: string; project: boolean; workspace: boolean }> = [];

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    projectId = await t.createProject(org);
    const otherProject = await t.createProject(org);
    workspaceId = await t.createWorkspace(org, { projectId });
    const otherWorkspace = await t.createWorkspace(org, { projectId });
    // Names interleave the kinds, so pages mix global and assigned sets; case differs for the search.
    const sets: Array<{ name: string; global?: boolean; projects?: string[]; workspaces?: string[]; owned?: boolean }> =
      [
        { name: 'a-global', global: true },
        { name: 'B-project', projects: [projectId] },
        { name: 'c-global-also-assigned', global: true, workspaces: [workspaceId], projects: [projectId] },
        { name: 'd-workspace', workspaces: [workspaceId, otherWorkspace] },
        { name: 'e-other-project', projects: [otherProject] },
        { name: 'f-global', global: true },
        { name: 'g-other-workspace', workspaces: [otherWorkspace] },
        { name: 'H-project-and-workspace', projects: [projectId], workspaces: [workspaceId] },
        { name: 'i-global', global: true },
        { name: 'j-unassigned' },
        { name: 'k-owned', owned: true },
        { name: 'l-owned-assigned', owned: true, workspaces: [workspaceId] },
        { name: 'm-global', global: true },
        { name: 'n-workspace', workspaces: [workspaceId] },
      ];
    for (const set of sets) {
      const created = await createVarset(t, org, {
        attributes: { name: set.name, global: set.global ?? false },
        ...(set.owned ? { parent: { type: 'projects', id: projectId } } : {}),
      });
      if (set.projects) await assign(t, created.id, 'projects', set.projects);
      if (set.workspaces) await assign(t, created.id, 'workspaces', set.workspaces);
      const toProject = set.global || set.projects?.includes(projectId) || set.owned;
      const toWorkspace = set.global || set.projects?.includes(projectId) || set.workspaces?.includes(workspaceId);
      named.push({ id: created.id, name: set.name, project: Boolean(toProject), workspace: Boolean(toWorkspace) });
    }
    // Code point order: upper-case letters sort before lower-case ones.
    named.sort((a, b) => (a.name < b.name ? -1 : 1));
    expected.project = named.filter((s) => s.project).map((s) => s.id);
    expected.workspace = named.filter((s) => s.workspace).map((s) => s.id);
  });
  after(async () => t.close());

  async function walk(path: string, size: number, query = ''): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    for (let number = 1; ; number++) {
      const res = await t.get(`${path}?page%5Bsize%5D=${size}&page%5Bnumber%5D=${number}${query}`);
      expectStatus(res, 200);
      totals.push(res.body.meta.pagination['total-count']);
      ids.push(...res.body.data.map((s: any) => s.id));
      if (res.body.meta.pagination['next-page'] === null) break;
    }
    return { ids, totals };
  }

  for (const kind of ['project', 'workspace'] as const) {
    const path = () =>
      kind === 'project' ? `/api/v2/projects/${projectId}/varsets` : `/api/v2/workspaces/${workspaceId}/varsets`;

    it(`${kind}: every page size gives the full list in name order, each set once, with its total`, async () => {
      for (let size = 1; size <= expected[kind].length + 1; size++) {
        const { ids, totals } = await walk(path(), size);
        assert.deepEqual(ids, expected[kind], `page size ${size}`);
        assert.ok(
          totals.every((n) => n === expected[kind].length),
          `totals ${totals.join()} at page size ${size}`,
        );
      }
    });

    it(`${kind}: a search narrows both the pages and the total`, async () => {
      const all = await walk(path(), 100);
      const names = new Map<string, string>();
      for (const page of [await t.get(`${path()}?page%5Bsize%5D=100`)])
        for (const s of page.body.data) names.set(s.id, s.attributes.name);
      const matching = all.ids.filter((id) => names.get(id)!.toLowerCase().includes('project'));
      assert.ok(matching.length >= 2);
      for (const size of [1, 2, 100]) {
        const { ids, totals } = await walk(path(), size, '&q=PROJECT');
        assert.deepEqual(ids, matching, `page size ${size}`);
        assert.ok(totals.every((n) => n === matching.length));
      }
    });

    it(`${kind}: a page past the end is empty and still counts every set`, async () => {
      const res = await t.get(`${path()}?page%5Bsize%5D=3&page%5Bnumber%5D=50`);
      expectStatus(res, 200);
      assert.deepEqual(res.body.data, []);
      assert.equal(res.body.meta.pagination['total-count'], expected[kind].length);
    });
  }
});
