/** Raised when a feature needs the service and the connection is not ready; the message has the next step. */
export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
  /** What is missing, for callers that offer the fix (the message is in the display language). */
  constructor(
    message: string,
    readonly reason: 'noKey' | 'misconfigured',
    /** The message without its "Run …" step, for callers that name the step their own way. */
    readonly problem = message,
  ) {
    super(message);
  }
}
