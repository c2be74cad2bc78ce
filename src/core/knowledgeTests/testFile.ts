// A knowledge-test file as both readers take it (the CLI's `kd test` and the Test Explorer), so the two cannot
// drift apart in what they accept.
import { parseTestCsv } from './csvTests';
import type { ParsedTestFile } from './testSchema';
import { parseTestYaml } from './yamlTests';

/** UTF-8 (with or without BOM), else Shift_JIS: what Excel saves a Japanese CSV as. */
export function decodeTestFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('shift_jis').decode(bytes);
  }
}

/** A `.csv` file's rows or a YAML file's tests, by the file's name. */
export function parseTestFile(name: string, text: string): ParsedTestFile {
  return /\.csv$/i.test(name) ? parseTestCsv(text) : parseTestYaml(text);
}
