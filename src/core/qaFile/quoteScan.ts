// Where a record with broken quoting goes wrong, for the message: csv-parse says what failed but
// counts lines inside quoted cells its own way, so the line is found again here (error path only).

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * Lines after `start` (0 = the record's first line) where strict CSV quoting first fails in the
 * record starting at `start`: a quote inside an unquoted cell, a closing quote followed by something
 * other than a delimiter or a line end, or (at the end of the data) the quote that is never closed.
 */
export function quoteProblemLine(data: Uint8Array, start: number, delimiter: number): number | undefined {
  let line = 0;
  let quoting = false;
  let openedOn = 0;
  let fieldLength = 0;
  for (let i = start; i < data.length; i++) {
    const b = data[i];
    if (quoting) {
      if (b === QUOTE) {
        const next = data[i + 1];
        if (next === QUOTE) i++;
        else if (next === undefined || next === delimiter || next === LF || next === CR) {
          quoting = false;
          fieldLength = 1;
        } else return line;
      } else if (b === LF || (b === CR && data[i + 1] !== LF)) line++;
    } else if (b === QUOTE) {
      if (fieldLength > 0) return line;
      quoting = true;
      openedOn = line;
    } else if (b === delimiter) fieldLength = 0;
    else if (b === LF || b === CR) return undefined;
    else fieldLength++;
  }
  return quoting ? openedOn : undefined;
}
