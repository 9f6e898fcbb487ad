import path from 'node:path';

/**
 * Which paths of a configuration directory are left out of its upload, with Terraform's
 * `.terraformignore` rules (those of `.gitignore`): `#` comments and blank lines skipped;
 * `!` re-includes; a trailing `/` matches directories only; a pattern with a `/` other than
 * at its end is anchored at the root, one without matches at any depth; `*` and `?` stay
 * within a path segment, `**` crosses segments; the last matching rule decides. Without a
 * `.terraformignore`, `.git/` and `.terraform/` directories are left out at any depth.
 */
export interface IgnoreRule {
  negated: boolean;
  directoryOnly: boolean;
  pattern: RegExp;
}

export const DEFAULT_IGNORE = '.git/\n.terraform/\n';

export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    if (line.startsWith('\\')) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.replace(/\/+$/, '');
    const anchored = line.includes('/');
    line = line.replace(/^\/+/, '');
    if (line === '') continue;
    rules.push({
      negated,
      directoryOnly,
      pattern: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${globToRegExp(line)}$`, 'u'),
    });
  }
  return rules;
}

function globToRegExp(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (char === '\\' && i + 1 < glob.length) out += escapeRegExp(glob[++i]!);
    else out += escapeRegExp(char);
  }
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a path (relative, `/`-separated) is left out; a directory's contents go with it. */
export function isIgnored(rules: readonly IgnoreRule[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.pattern.test(relativePath)) ignored = !rule.negated;
  }
  return ignored;
}

export const toSlashes = (relative: string) => relative.split(path.sep).join('/');
