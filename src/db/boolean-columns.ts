import type {
  CompiledQuery,
  Dialect,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { withConnectionsWrapped } from './wrapped-connections.js';
import type { Database } from './schema.js';

/** Every column that holds a boolean, whatever its table. */
type BooleanColumn = {
  [T in keyof Database]: {
    [C in keyof Database[T]]-?: Database[T][C] extends boolean | null ? C : never;
  }[keyof Database[T]];
}[keyof Database];

/**
 * The result columns read as booleans: every boolean column of the schema (the compiler
 * refuses a list that misses one or names another), and the booleans stores compute in a select.
 */
const BOOLEAN_COLUMNS: Record<BooleanColumn, true> = {
  allow_destroy_plan: true,
  allow_member_token_management: true,
  assessments_enabled: true,
  auto_apply: true,
  auto_apply_run_trigger: true,
  file_triggers_enabled: true,
  global_remote_state: true,
  hyok_enabled: true,
  inherits_project_auto_destroy: true,
  project_remote_state: true,
  queue_all_runs: true,
  speculative_enabled: true,
  structured_run_output_enabled: true,
  auto_queue_runs: true,
  global: true,
  hcl: true,
  is_default: true,
  execution_mode_overwritten: true,
  is_destroy: true,
  is_owners: true,
  legacy: true,
  manage_projects: true,
  manage_workspaces: true,
  plan_only: true,
  policy_overrides: true,
  priority: true,
  provisional: true,
  read_projects: true,
  read_workspaces: true,
  run_tasks: true,
  sensitive: true,
  speculative: true,
  user_tokens_enabled: true,
  value_needed: true,
  varset_priority: true,
  workspace_create: true,
  workspace_delete: true,
  workspace_locking: true,
  workspace_move: true,
  workspace_policy_overrides: true,
  workspace_run_tasks: true,
  enabled: true,
  successful: true,
};

/** Flags a store computes in a select (`x in (…) as on_workspace`): PostgreSQL answers booleans, SQLite 0 or 1. */
export const COMPUTED_BOOLEANS = ['on_workspace', 'on_project'] as const;

const BOOLEANS = new Set<string>([...Object.keys(BOOLEAN_COLUMNS), ...COMPUTED_BOOLEANS]);

/** Booleans bound to a statement become 1 and 0, the values both stores keep in flag columns. */
function withBooleansAsIntegers(query: CompiledQuery): CompiledQuery {
  if (!query.parameters.some((value) => typeof value === 'boolean')) return query;
  return {
    ...query,
    parameters: query.parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)),
  };
}

/**
 * `dialect` binding booleans as 1 and 0 (see `BooleanColumnsPlugin`). This is done on the compiled
 * statement, where the parameters are a flat list, instead of by rewriting every query's tree.
 */
export function bindingBooleansAsIntegers(dialect: Dialect): Dialect {
  return withConnectionsWrapped(dialect, (connection) => ({
    executeQuery: (query) => connection.executeQuery(withBooleansAsIntegers(query)),
    streamQuery: (query, chunkSize) => connection.streamQuery(withBooleansAsIntegers(query), chunkSize),
  }));
}

/**
 * The one place that knows how booleans are stored: statements bind 1 and 0 for true and
 * false (`bindingBooleansAsIntegers`, which the dialect must be wrapped in), and the flag columns of every result row are read back as true and false. Null
 * stays null (a flag of a row a left join did not find).
 */
export class BooleanColumnsPlugin implements KyselyPlugin {
  // Statements bind booleans as integers through `bindingBooleansAsIntegers`.
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key in row) {
        if (!BOOLEANS.has(key)) continue;
        const value = row[key];
        if (typeof value === 'number' || typeof value === 'bigint') row[key] = value !== 0 && value !== 0n;
      }
    }
    return args.result;
  }
}
