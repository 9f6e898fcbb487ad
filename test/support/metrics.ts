import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './processes.js';

export interface Sample {
  /** The sample's name: a family's, or with a suffix (`_bucket`, `_sum`, `_count`, `_total`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  samples: Sample[];
}

/** Where scripts/install-metrics-parser.sh installs the parser. */
const PARSER_PATH = path.join(ROOT, '.cache', 'python');

/**
 * `text` as the Prometheus project's own parser reads it (scripts/parse-metrics.py, with the parser
 * scripts/install-metrics-parser.sh puts in .cache/python): rejects what it cannot parse.
 */
export function parseMetrics(text: string): Promise<Family[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'python3',
      [path.join(ROOT, 'scripts', 'parse-metrics.py')],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PYTHONPATH: PARSER_PATH } },
      (error, stdout, stderr) => {
        if (error) {
          const missing = /No module named 'prometheus_client'/.test(stderr)
            ? ' (run scripts/install-metrics-parser.sh)'
            : '';
          return reject(new Error(`the Prometheus parser refused /metrics${missing}: ${stderr}`));
        }
        resolve(JSON.parse(stdout) as Family[]);
      },
    );
    child.stdin!.end(text);
  });
}

/** Every sample named `name` (a family's name or a sample's), whose labels include `labels`. */
export function samples(families: Family[], name: string, labels: Record<string, string> = {}): Sample[] {
  return families
    .flatMap((family) => family.samples)
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
    );
}

/** The sum of the samples `samples` finds; 0 when there is none. */
export function total(families: Family[], name: string, labels: Record<string, string> = {}): number {
  return samples(families, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}
