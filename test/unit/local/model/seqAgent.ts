// An undici Agent that remembers the commit sequence header (http/commitSeq.ts) of the last response it
// received. Each model client owns one and has one operation in flight, so after an await the value is
// that operation's commit position; undefined when the request committed nothing.
import { Agent, type Dispatcher } from 'undici';
import { COMMIT_SEQ_HEADER } from '../../../../src/local/http/commitSeq';

export class SeqAgent {
  last: number | undefined;
  readonly dispatcher: Dispatcher;

  constructor() {
    const agent = new Agent({ connections: 2 });
    this.dispatcher = agent.compose((dispatch) => (options, handler) => dispatch(options, this.wrap(handler)));
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private wrap(handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
    const record = (value: unknown): void => {
      const text = Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
      this.last = text === undefined ? undefined : Number(text);
    };
    return new Proxy(handler, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'onResponseStart')
          return (controller: unknown, status: number, headers: Record<string, string | string[]>, message?: string) => {
            record(headers[COMMIT_SEQ_HEADER]);
            return (value as (...a: unknown[]) => unknown).call(target, controller, status, headers, message);
          };
        if (prop === 'onHeaders')
          return (status: number, raw: Buffer[], ...rest: unknown[]) => {
            let seq: string | undefined;
            for (let i = 0; i + 1 < raw.length; i += 2)
              if (raw[i].toString('latin1').toLowerCase() === COMMIT_SEQ_HEADER) seq = raw[i + 1].toString();
            record(seq);
            return (value as (...a: unknown[]) => unknown).call(target, status, raw, ...rest);
          };
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
  }
}
