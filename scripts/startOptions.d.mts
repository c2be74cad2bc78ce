// Types of scripts/startOptions.mjs for the TypeScript unit tests that import it.
export declare const START_USAGE: string;
export interface StartArgs {
  port?: number;
  locale?: string;
  fresh: boolean;
}
export declare function parseStartArgs(argv: string[]): StartArgs;
export declare function isPortFree(port: number): Promise<boolean>;
export declare function freePort(): Promise<number>;
export interface PortProbes {
  isPortFree(port: number): Promise<boolean>;
  freePort(): Promise<number>;
}
export interface ChosenPort {
  port: number;
  reused: boolean;
  remembered: boolean;
  busy?: number;
}
export declare function choosePort(file: string, requested: number | undefined, probes?: PortProbes): Promise<ChosenPort>;
export declare function registerLocale(userDataDir: string, locale: string | undefined, stubDir?: string): 'stub' | 'kept' | 'none';
