/**
 * Variables pasted as text: `.env` lines (environment variables) or HCL assignments, as in a
 * `terraform.tfvars` file (Terraform variables). Pure: no React, no requests; each line it cannot
 * read is reported with its number and why.
 */

export type PasteFormat = 'env' | 'hcl';

export interface PastedVariable {
  key: string;
  value: string;
  category: 'env' | 'terraform';
  hcl: boolean;
  /** The line (from 1) the variable starts on. */
  line: number;
}

export interface PasteProblem {
  line: number;
  reason: string;
}

export interface Pasted {
  variables: PastedVariable[];
  problems: PasteProblem[];
}

export function parsePasted(text: string, format: PasteFormat): Pasted {
  return format === 'env' ? parseEnv(text) : parseHcl(text);
}

const ENV_LINE = /^(?:export\s+)?([^\s=#'"]+)\s*=(.*)$/s;
const DOUBLE_QUOTED_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', $: '$' };

/**
 * `.env` lines: `KEY=value`, an optional `export ` before it, values bare (up to a ` #` comment),
 * in single quotes (as written) or double quotes (with `\n`, `\t`, `\"`, `\\` escapes); a quoted
 * value may span lines. Blank lines and `#` comments are skipped.
 */
export function parseEnv(text: string): Pasted {
  const lines = text.split(/\r?\n/);
  const variables: PastedVariable[] = [];
  const problems: PasteProblem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const trimmed = lines[i]!.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = ENV_LINE.exec(trimmed);
    if (!match) {
      problems.push({
        line,
        reason: trimmed.includes('=') ? 'the name before "=" is not a key' : 'no "=": not KEY=value',
      });
      continue;
    }
    const key = match[1]!;
    let rest = match[2]!.trimStart();
    const quote = rest[0];
    if (quote !== '"' && quote !== "'") {
      variables.push({ key, value: rest.replace(/\s+#.*$/, '').trimEnd(), category: 'env', hcl: false, line });
      continue;
    }
    // A quoted value: read up to its closing quote, across lines if it spans them.
    let value = '';
    let closed = false;
    let after = '';
    let j = i;
    rest = rest.slice(1);
    for (;;) {
      let k = 0;
      while (k < rest.length) {
        const c = rest[k]!;
        if (c === quote) {
          closed = true;
          after = rest.slice(k + 1);
          break;
        }
        if (quote === '"' && c === '\\' && k + 1 < rest.length) {
          const next = rest[k + 1]!;
          value += DOUBLE_QUOTED_ESCAPES[next] ?? `\\${next}`;
          k += 2;
          continue;
        }
        value += c;
        k++;
      }
      if (closed || j + 1 >= lines.length) break;
      j++;
      value += '\n';
      rest = lines[j]!;
    }
    if (!closed) {
      problems.push({ line, reason: `the value's ${quote === '"' ? 'double' : 'single'} quote is never closed` });
      i = j;
      continue;
    }
    if (after.trim() !== '' && !after.trim().startsWith('#')) {
      problems.push({ line, reason: 'text after the closing quote' });
    } else {
      variables.push({ key, value, category: 'env', hcl: false, line });
    }
    i = j;
  }
  return { variables, problems };
}

const HCL_NAME = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=(?!=)/;

/**
 * HCL assignments `name = value`, one after another (a value may span lines inside brackets,
 * braces, parentheses or a heredoc). A quoted string without interpolation becomes its plain
 * text; any other value (a number, a bool, a list, a map, an expression, a heredoc) is kept as
 * written, as HCL. `#`, `//` and `/* … *\/` comments are skipped.
 */
export function parseHcl(text: string): Pasted {
  const source = stripComments(text);
  const lines = source.split(/\r?\n/);
  const variables: PastedVariable[] = [];
  const problems: PasteProblem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const trimmed = lines[i]!.trim();
    if (trimmed === '') continue;
    const match = HCL_NAME.exec(trimmed);
    if (!match) {
      problems.push({ line, reason: 'not an assignment of the form name = value' });
      continue;
    }
    let expression = trimmed.slice(match[0].length).trim();
    if (expression === '') {
      problems.push({ line, reason: 'no value after "="' });
      continue;
    }
    // Continue onto the next lines while a bracket, a string or a heredoc is open.
    let j = i;
    let open = openness(expression);
    while (open !== null && j + 1 < lines.length) {
      j++;
      expression += `\n${lines[j]!}`;
      open = openness(expression);
    }
    i = j;
    if (open !== null) {
      problems.push({ line, reason: `${open} is never closed` });
      continue;
    }
    expression = expression.trim();
    const plain = plainString(expression);
    variables.push({
      key: match[1]!,
      value: plain ?? expression,
      category: 'terraform',
      hcl: plain === null,
      line,
    });
  }
  return { variables, problems };
}

/** The text with comments blanked out (strings left as they are), keeping every line where it was. */
function stripComments(text: string): string {
  let out = '';
  let inString = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (inString) {
      out += c;
      if (c === '\\' && k + 1 < text.length) out += text[++k]!;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '#' || (c === '/' && text[k + 1] === '/')) {
      while (k < text.length && text[k] !== '\n') k++;
      if (k < text.length) out += '\n';
    } else if (c === '/' && text[k + 1] === '*') {
      const end = text.indexOf('*/', k + 2);
      const comment = end === -1 ? text.slice(k) : text.slice(k, end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      k += comment.length - 1;
    } else out += c;
  }
  return out;
}

/** What is still open at the end of `expression` (null: nothing): a string, a heredoc or a bracket. */
function openness(expression: string): string | null {
  const heredoc = /^<<-?([A-Za-z_][A-Za-z0-9_]*)\s*\n?/.exec(expression);
  if (heredoc) {
    const body = expression.slice(heredoc[0].length).split('\n');
    return body.some((l) => l.trim() === heredoc[1]) ? null : `the heredoc ${heredoc[1]}`;
  }
  const stack: string[] = [];
  let inString = false;
  for (let k = 0; k < expression.length; k++) {
    const c = expression[k]!;
    if (inString) {
      if (c === '\\') k++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{' || c === '(') stack.push(c);
    else if (c === ']' || c === '}' || c === ')') stack.pop();
  }
  if (inString) return 'a string';
  const last = stack.at(-1);
  return last === undefined ? null : `a "${last}"`;
}

/** A lone quoted string without interpolation, as its text; null for anything else. */
function plainString(expression: string): string | null {
  const match = /^"((?:[^"\\]|\\.)*)"$/s.exec(expression);
  if (!match || /\$\{|%\{/.test(match[1]!)) return null;
  return match[1]!.replace(/\\(.)/g, (_, c: string) => DOUBLE_QUOTED_ESCAPES[c] ?? `\\${c}`);
}
