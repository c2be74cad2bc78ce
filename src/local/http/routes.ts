// The local service's routes: every operation of the one table (core/operations.ts, docs/api.md) at its path
// and aliases. The test routes live in testKit.ts (the test build only). An operation without a handler answers 501.
import { operationEntries, type HttpMethod, type OperationApi, type OperationName } from '../../core/operations';

export type Method = HttpMethod;
export type Api = OperationApi;

/** The test routes' operations (testKit.ts), served only with `testHooks`: fault injection, processing control, identity, echo. */
export type TestOperationName = 'admin.faults' | 'admin.processing' | 'admin.whoami' | 'admin.echo' | 'admin.streamDelay';

export interface RouteDef {
  method: Method;
  /** Path template; `{name}` matches one segment. */
  path: string;
  op: OperationName | TestOperationName;
  api: Api;
}

export const ROUTES: readonly RouteDef[] = operationEntries().flatMap(([op, { method, path, api, aliases }]) =>
  [path, ...(aliases ?? [])].map((p): RouteDef => ({ method, path: p, op, api })),
);
