import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/processes.js';

/** The documentation whose links are checked: the README, every guide in docs/, the benchmark's history. */
const DOCUMENTS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
  'bench/results/HISTORY.md',
].filter((file) => fs.existsSync(path.join(ROOT, file)));

/** `text` without fenced code blocks, each of their lines left empty so that line numbers still count. */
function withoutCodeBlocks(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const opening = /^ *(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && opening) {
        fence = opening;
        return '';
      }
      if (fence !== undefined) {
        if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replaceAll(fence[0]!, '') === '')
          fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll('`', '')
    .replace(/\*+/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replaceAll(' ', '-');
}

/** Every anchor of a Markdown file's headings, a repeated one numbered -1, -2… as GitHub does. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeBlocks(text).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The relative links of a Markdown file (inline links, images and reference definitions), outside code. */
function relativeLinks(file: string, text: string): Link[] {
  const links: Link[] = [];
  withoutCodeBlocks(text)
    .split('\n')
    .forEach((line, index) => {
      const prose = line.replace(/(`+)[^`]*?\1/g, '');
      const targets = [
        ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
        ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
      ];
      for (const target of targets) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        links.push({ file, line: index + 1, target });
      }
    });
  return links;
}

/** What is wrong with `link`, or undefined when it leads somewhere real. */
function problem(link: Link): string | undefined {
  const [rawPath = '', anchor] = link.target.split('#', 2);
  const target =
    rawPath === ''
      ? path.join(ROOT, link.file)
      : path.resolve(path.dirname(path.join(ROOT, link.file)), decodeURIComponent(rawPath));
  if (!target.startsWith(ROOT + path.sep) && target !== ROOT) return 'leads outside the repository';
  if (!fs.existsSync(target)) return `${path.relative(ROOT, target)} does not exist`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith('.md')) return `#${anchor} points into a file that is not Markdown`;
  if (!anchors(fs.readFileSync(target, 'utf8')).has(anchor))
    return `${path.relative(ROOT, target)} has no heading whose anchor is #${anchor}`;
  return undefined;
}

describe('links in the documentation', () => {
  it('checks the README and the guides in docs/', () => {
    assert.ok(DOCUMENTS.includes('README.md'));
    assert.ok(DOCUMENTS.filter((file) => file.startsWith('docs/')).length >= 5, DOCUMENTS.join(', '));
  });

  it('makes anchors as GitHub does', () => {
    assert.equal(slug('From an empty server to a commented run'), 'from-an-empty-server-to-a-commented-run');
    assert.equal(slug('`varsetd exec`'), 'varsetd-exec');
    assert.equal(slug('HTTPS, and proxies: what (not) to do — twice'), 'https-and-proxies-what-not-to-do--twice');
    assert.equal(slug('The [tfe provider](https://example.com) *v0.79.0*'), 'the-tfe-provider-v0790');
    assert.equal(slug('Run variables_and_more'), 'run-variables_and_more');
    assert.deepEqual(
      [...anchors('# A\n## Notes\n```\n## Not a heading\n```\n### Notes\n## Notes #\n')],
      ['a', 'notes', 'notes-1', 'notes-2'],
    );
  });

  it('finds relative links and leaves out code and other sites', () => {
    const text =
      'See [a](a.md#x), ![b](img/b.png "B") and [c](https://example.com).\n`[d](d.md)`\n```\n[e](e.md)\n```\n[f]: ./f.md\n[g](#local)';
    assert.deepEqual(
      relativeLinks('docs/x.md', text).map((l) => `${l.line} ${l.target}`),
      ['1 a.md#x', '1 img/b.png', '6 ./f.md', '7 #local'],
    );
  });

  it('leads every relative link to a file that exists, and every anchor to a heading of it', () => {
    const links = DOCUMENTS.flatMap((file) => relativeLinks(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    assert.ok(links.length > 20, `only ${links.length} links`);
    const broken = links.flatMap((link) => {
      const why = problem(link);
      return why ? [`${link.file}:${link.line}: (${link.target}) ${why}`] : [];
    });
    assert.deepEqual(broken, []);
  });
});
