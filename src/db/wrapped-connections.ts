import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/** What a wrapper puts in place of a connection's own methods. */
export type ConnectionOverrides = Partial<Pick<DatabaseConnection, 'executeQuery' | 'streamQuery'>>;

/**
 * `dialect`, with each connection its driver hands out seen through `overrides` (made once per
 * connection), and a failure to get a connection passed to `acquireFailed`, which rethrows it.
 */
export function withConnectionsWrapped(
  dialect: Dialect,
  overrides: (connection: DatabaseConnection) => ConnectionOverrides,
  acquireFailed: (error: unknown) => never = (error) => {
    throw error;
  },
): Dialect {
  const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    let proxy = wrapped.get(connection);
    if (!proxy) {
      const own: Record<PropertyKey, unknown> = overrides(connection);
      proxy = new Proxy(connection, {
        get(target, property) {
          if (Object.hasOwn(own, property)) return own[property];
          return member(target, property);
        },
      });
      wrapped.set(connection, proxy);
    }
    return proxy;
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      return new Proxy(driver, {
        get(target, property) {
          if (property === 'acquireConnection') return () => target.acquireConnection().then(wrap, acquireFailed);
          return member(target, property);
        },
      });
    },
  };
}

/** What a proxy passes through: the target's own member, a method bound to the target. */
export function member(target: object, property: PropertyKey): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
