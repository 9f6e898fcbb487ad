import { gzipSync } from 'node:zlib';
import type { TestApp } from '../app.js';
import { expectStatus, type ApiResponse, type Client } from '../requests.js';

/** One ustar entry (header, content, padding), written by hand the way tar does. */
export function tarEntry(name: string, content: string | Buffer): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(512);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(data.length, 12), 124);
  header.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** A tar archive of the given files, ending with the two zero blocks. */
export function tar(files: Record<string, string>): Buffer {
  return Buffer.concat([
    ...Object.entries(files).map(([name, content]) => tarEntry(name, content)),
    Buffer.alloc(1024),
  ]);
}

/** What go-tfe's tests upload: a directory holding one main.tf, as a tar.gz. */
export function configArchive(): Buffer {
  return gzipSync(tar({ 'main.tf': 'resource "null_resource" "foo" {}\n' }));
}

export async function createConfigurationVersion(
  t: Client,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
): Promise<any> {
  const res = await t.post(`/api/v2/workspaces/${workspaceId}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes },
  });
  expectStatus(res, 201);
  return res.body.data;
}

export const showConfigurationVersion = (t: Client, id: string) => t.get(`/api/v2/configuration-versions/${id}`);

/** PUTs raw bytes to an upload URL (absolute; only its path is used in process), without a token unless given. */
export async function upload(
  t: TestApp,
  uploadUrl: string,
  body: Buffer,
  headers: Record<string, string> = { 'content-type': 'application/octet-stream' },
): Promise<ApiResponse> {
  const res = await t.app.inject({ method: 'PUT', url: new URL(uploadUrl).pathname, headers, payload: body });
  return { status: res.statusCode, headers: res.headers, body: res.body === '' ? undefined : JSON.parse(res.body) };
}

/** Creates a configuration version and uploads a valid archive to it; returns its id. */
export async function createUploadedConfigurationVersion(
  t: TestApp,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
): Promise<string> {
  const cv = await createConfigurationVersion(t, workspaceId, attributes);
  expectStatus(await upload(t, cv.attributes['upload-url'], configArchive()), 200);
  return cv.id;
}

/** A workspace with an uploaded configuration version and a run on it. */
export async function createRun(
  t: TestApp,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
): Promise<any> {
  const cvId = await createUploadedConfigurationVersion(t, workspaceId);
  const res = await t.post('/api/v2/runs', {
    data: {
      type: 'runs',
      attributes,
      relationships: {
        workspace: { data: { type: 'workspaces', id: workspaceId } },
        'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
      },
    },
  });
  expectStatus(res, 201);
  return res.body.data;
}

export async function createComment(t: Client, runId: string, body: string): Promise<any> {
  const res = await t.post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body } } });
  expectStatus(res, 201);
  return res.body.data;
}

/** A run of the workspace over real HTTP: a configuration version, its upload, then POST /runs. */
export async function createRunOverHttp(c: Client, workspaceId: string, message: string): Promise<string> {
  const cv = await c.post(`/api/v2/workspaces/${workspaceId}/configuration-versions`, {
    data: { type: 'configuration-versions' },
  });
  expectStatus(cv, 201);
  const uploaded = await fetch(cv.body.data.attributes['upload-url'], {
    method: 'PUT',
    body: gzipSync(tar({ 'main.tf': 'output "x" { value = 1 }\n' })),
  });
  if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}`);
  const run = await c.post('/api/v2/runs', {
    data: {
      type: 'runs',
      attributes: { message },
      relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } } },
    },
  });
  expectStatus(run, 201);
  return run.body.data.id;
}
