// Requests to the local service fail with LocalServiceStoppedError when its process stops under them or is
// being restarted: "the local service stopped; restarting" instead of a bare "connection reset" (or a hang).
import type { Dispatcher } from 'undici';
import { LocalServiceStoppedError } from '../../../api/errors';
import type { LocalServiceSupervisor } from './supervisor';

type Handler = Dispatcher.DispatchHandler;

/** A dispatcher over `base` whose connection failures say when the supervised local service stopped. */
export function guardLocalDispatcher(
  base: Dispatcher,
  supervisor: Pick<LocalServiceSupervisor, 'generation' | 'stoppedDuring'>,
): Dispatcher {
  return base.compose((dispatch) => (opts, handler: Handler) => {
    const generation = supervisor.generation;
    const operation = `${opts.method} ${opts.path}`;
    const host = typeof opts.origin === 'string' ? hostOf(opts.origin) : opts.origin?.host;
    const guarded: Handler = {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, headers, message),
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => {
        if (isAbort(error)) return handler.onResponseError?.(controller, error);
        void supervisor
          .stoppedDuring(generation)
          .then((stopped) =>
            handler.onResponseError?.(
              controller,
              stopped
                ? new LocalServiceStoppedError(
                    operation,
                    stopped.restarting
                      ? `The local service stopped (it ${stopped.reason}); it is restarting`
                      : `The local service stopped and is not restarted: ${stopped.reason}`,
                    stopped.restarting,
                    { cause: error, host },
                  )
                : error,
            ),
          );
      },
    };
    return dispatch(opts, guarded);
  });
}

function isAbort(error: Error): boolean {
  return error.name === 'AbortError' || (error as { code?: string }).code === 'UND_ERR_ABORTED';
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
