import type { Method, RouteDef } from './routes';

export type RouteMatch =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  | { kind: 'wrongMethod'; allow: Method[]; api: RouteDef['api'] }
  | { kind: 'notFound' }
  | { kind: 'badPath' };

interface Compiled {
  route: RouteDef;
  segments: Array<{ literal: string } | { param: string }>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

/** Segment matcher over the route table. Literal segments win over parameters at the same depth. */
export class Router {
  private readonly compiled: Compiled[];
  /**
   * Routes without parameters by `METHOD path`: most requests name one exactly, and are found without splitting,
   * decoding and trying the whole table (a path matching every segment literally is the most literal there is).
   */
  private readonly exact = new Map<string, RouteMatch>();

  constructor(routes: readonly RouteDef[]) {
    this.compiled = routes.map((route) => ({
      route,
      segments: route.path
        .split('/')
        .slice(1)
        .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
    }));
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (!route.path.includes('{') && !this.exact.has(key)) this.exact.set(key, { kind: 'found', route, params: NO_PARAMS });
    }
  }

  match(method: string, pathname: string): RouteMatch {
    const exact = this.exact.get(`${method} ${pathname}`);
    if (exact) return exact;
    let parts: string[];
    try {
      parts = pathname
        .replace(/\/+$/, '')
        .split('/')
        .slice(1)
        .map((p) => decodeURIComponent(p));
    } catch {
      return { kind: 'badPath' };
    }
    const candidates: Array<{ c: Compiled; params: Record<string, string>; literals: number }> = [];
    for (const c of this.compiled) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      const ok = c.segments.every((seg, i) => {
        if ('literal' in seg) return seg.literal === parts[i] && ++literals > 0;
        if (parts[i] === '') return false;
        params[seg.param] = parts[i];
        return true;
      });
      if (ok) candidates.push({ c, params, literals });
    }
    if (!candidates.length) return { kind: 'notFound' };
    // The most literal path is the one meant (…/move/bulk is not …/{node_id}/replace).
    const best = candidates.reduce((max, m) => Math.max(max, m.literals), 0);
    const specific = candidates.filter((m) => m.literals === best);
    const hit = specific.find((m) => m.c.route.method === method);
    if (hit) return { kind: 'found', route: hit.c.route, params: hit.params };
    return { kind: 'wrongMethod', allow: [...new Set(specific.map((m) => m.c.route.method))], api: specific[0].c.route.api };
  }
}
