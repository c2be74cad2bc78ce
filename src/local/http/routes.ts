// The local service's routes: every operation of the one table (core/operations.ts, docs/api.md) at its path
// and aliases, plus the test routes below, which exist only here. An operation without a handler answers 501.
import { operationEntries, type HttpMethod, type OperationApi, type OperationName } from '../../core/operations';

export type Method = HttpMethod;
export type Api = OperationApi;

/** The test routes' operations, served only with `testHooks`: fault injection, processing control, identity, echo. */
export const TEST_OPERATIONS = ['admin.faults', 'admin.processing', 'admin.whoami', 'admin.echo'] as const;
export type TestOperationName = (typeof TEST_OPERATIONS)[number];

export interface RouteDef {
  method: Method;
  /** Path template; `{name}` matches one segment. */
  path: string;
  op: OperationName | TestOperationName;
  api: Api;
  /** A test route: served only when the service is started with `testHooks` (LocalServiceOptions). */
  test?: true;
}

const testRoute = (method: Method, path: string, op: TestOperationName): RouteDef => ({ method, path, op, api: 'admin', test: true });

export const ROUTES: readonly RouteDef[] = [
  ...operationEntries().flatMap(([op, { method, path, api, aliases }]) =>
    [path, ...(aliases ?? [])].map((p): RouteDef => ({ method, path: p, op, api })),
  ),
  // Absent (404) unless the service was started with `testHooks` (docs/api.md#local-only-routes).
  testRoute('POST', '/_local/faults', 'admin.faults'),
  testRoute('POST', '/_local/processing', 'admin.processing'),
  testRoute('GET', '/_local/whoami', 'admin.whoami'),
  testRoute('POST', '/_local/echo', 'admin.echo'),
];
