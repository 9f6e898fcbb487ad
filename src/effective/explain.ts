import type { EffectiveValue, EffectiveVariable } from './model.js';
import {
  RUN_LEVEL,
  varsetLevel,
  WORKSPACE_LEVEL,
  type PrecedenceLevel,
  type VarsetOwner,
  type VarsetScope,
} from './resolve.js';

/**
 * Precedence in words, for the explain view of effective variables: the name of each level and
 * why a winner won. The levels themselves come from resolve.ts; only their words are here.
 */

export type DecidedBy = 'only-value' | 'precedence' | 'name' | 'order';

export interface Explanation {
  decidedBy: DecidedBy;
  reason: string;
}

function setWords(priority: boolean, owner: VarsetOwner, scope: VarsetScope): string {
  const kind = priority ? 'priority set' : 'set';
  if (scope === 'global') return `${priority ? 'priority ' : ''}global set`;
  const where = scope === 'project' ? "applied to the workspace's project" : 'applied directly to the workspace';
  return `${kind} owned by ${owner === 'project' ? 'a project' : 'the organization'}, ${where}`;
}

function levelNames(): Map<PrecedenceLevel, string> {
  const names = new Map<PrecedenceLevel, string>([
    [RUN_LEVEL, 'run variable'],
    [WORKSPACE_LEVEL, 'workspace variable'],
  ]);
  for (const priority of [true, false]) {
    for (const owner of ['organization', 'project'] as const) {
      for (const scope of ['global', 'project', 'workspace'] as const) {
        const { level } = varsetLevel({ owner, priority, scopes: [scope] });
        if (!names.has(level)) names.set(level, setWords(priority, owner, scope));
      }
    }
  }
  return new Map([...names].sort(([a], [b]) => a - b));
}

/** Every level a server can see, highest precedence first, each with its name. */
export const PRECEDENCE_LEVELS: ReadonlyMap<PrecedenceLevel, string> = levelNames();

export function levelName(level: PrecedenceLevel): string {
  return PRECEDENCE_LEVELS.get(level)!;
}

const quoted = (name: string) => `'${name}'`;

/** Why the winner won: against the value that came closest (the first it overrode). */
export function explainWinner(variable: EffectiveVariable): Explanation {
  const { winner } = variable;
  const runnerUp: EffectiveValue | undefined = variable.overridden[0];
  if (!runnerUp)
    return { decidedBy: 'only-value', reason: 'The only value of this variable that reaches the workspace.' };
  if (runnerUp.level !== winner.level) {
    return {
      decidedBy: 'precedence',
      reason: `Level ${winner.level} (a ${levelName(winner.level)}) beats everything below level ${winner.level}; the next value is at level ${runnerUp.level} (a ${levelName(runnerUp.level)}).`,
    };
  }
  if (winner.source.kind === 'varset' && runnerUp.source.kind === 'varset') {
    const tied = [winner, ...variable.overridden].filter((v) => v.level === winner.level).length;
    const others = tied === 2 ? `set ${quoted(runnerUp.source.name)}` : `${tied - 1} other sets`;
    return {
      decidedBy: 'name',
      reason: `Set ${quoted(winner.source.name)} ties with ${others} at level ${winner.level} (${levelName(winner.level)}): a tie between sets of one kind is settled by name, and ${quoted(winner.source.name)} sorts first.`,
    };
  }
  return { decidedBy: 'order', reason: 'The run gives this variable more than once: the last value given wins.' };
}
