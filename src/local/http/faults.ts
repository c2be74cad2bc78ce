// Fault injection for tests of the client's behaviour under real failures (no mocks):
// rates of 429 / 500 / dropped connections, or a script of faults applied in order.
import { seededRandom } from '../../core/seededRandom';

export type FaultKind = 'none' | '429' | '500' | 'drop' | 'dropAfter';

export interface FaultConfig {
  rate429?: number;
  rate500?: number;
  /** Connection dropped before the request is handled. */
  rateDrop?: number;
  /** Connection dropped after the request was handled (the client cannot know it succeeded). */
  rateDropAfter?: number;
  /** Faults for the next requests, in order; consulted before the rates. */
  script?: FaultKind[];
  retryAfterSeconds?: number;
  /** Only requests whose path starts with this prefix are affected. */
  pathPrefix?: string;
  seed?: number;
}

export class FaultInjector {
  private config: FaultConfig = {};
  private script: FaultKind[] = [];
  private random: () => number = Math.random;
  readonly counts: Record<FaultKind, number> = { none: 0, '429': 0, '500': 0, drop: 0, dropAfter: 0 };

  configure(config: FaultConfig): void {
    this.config = { ...config };
    this.script = [...(config.script ?? [])];
    this.random = config.seed === undefined ? Math.random : seededRandom(config.seed);
    for (const k of Object.keys(this.counts) as FaultKind[]) this.counts[k] = 0;
  }

  get retryAfterSeconds(): number | undefined {
    return this.config.retryAfterSeconds;
  }

  next(pathname: string): FaultKind {
    const c = this.config;
    if (c.pathPrefix && !pathname.startsWith(c.pathPrefix)) return 'none';
    let kind: FaultKind = 'none';
    if (this.script.length) kind = this.script.shift()!;
    else {
      const r = this.random();
      const bands: Array<[FaultKind, number | undefined]> = [
        ['429', c.rate429],
        ['500', c.rate500],
        ['drop', c.rateDrop],
        ['dropAfter', c.rateDropAfter],
      ];
      let edge = 0;
      for (const [k, rate] of bands) {
        edge += rate ?? 0;
        if (r < edge) {
          kind = k;
          break;
        }
      }
    }
    this.counts[kind]++;
    return kind;
  }
}
