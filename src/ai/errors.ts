// Errors of the knowledge tools, in a module without dependencies: the extension throws them at
// activation-light paths without loading zod or the API client.

/** Input the tool cannot use: the message says what to send instead. Never a crash. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/** A key is needed but none is configured. */
export class MissingKeyError extends Error {
  override readonly name = 'MissingKeyError';
}

/** The region cannot be used as configured (a Custom region without its URL): the next step is Select Region. */
export class RegionNotConfiguredError extends Error {
  override readonly name = 'RegionNotConfiguredError';
}
