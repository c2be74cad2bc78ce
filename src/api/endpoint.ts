// A request's operation, method and path, taken by name from the one operation table (core/operations.ts),
// so that a resource cannot send an operation to a path the local service and docs/api.md do not know.
import { OPERATIONS, type HttpMethod, type OperationDef, type OperationName } from '../core/operations';
import { encodeSegment } from './url';

export interface Endpoint {
  operation: OperationName;
  method: HttpMethod;
  /** Encoded path. */
  path: string;
}

export type PathParams = Record<string, string | number>;

/** The operation `name` with its path parameters (`{node_id}` …) filled in, each encoded as one segment. */
export function endpoint(name: OperationName, params?: PathParams): Endpoint {
  const def = OPERATIONS[name];
  return { operation: name, method: def.method, path: params ? fill(def.path, params) : def.path };
}

/** Like `endpoint`, at one of the operation's alias paths (core/operations.ts). */
export function endpointAlias(name: OperationName, index: number): Endpoint {
  const def: OperationDef = OPERATIONS[name];
  const alias = def.aliases?.[index];
  if (alias === undefined) throw new RangeError(`${name} has no alias ${index}`);
  return { ...endpoint(name), path: alias };
}

function fill(template: string, params: PathParams): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new TypeError(`Missing path parameter ${key}`);
    return encodeSegment(String(value));
  });
}
