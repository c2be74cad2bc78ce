// Finds complete top-level JSON objects in text that arrives in arbitrary pieces.
// The generative-answer stream format is not public (docs/api.md#answer-stream), so
// this accepts NDJSON, objects back to back, SSE `data:` lines and one JSON array of objects alike.
// `push` looks at each character once, whatever the piece boundaries (it runs per network chunk); `pushLines`
// hands a whole line that is one object straight to JSON.parse.

import { isRecord } from '../../core/records';

/** The character codes the splitter looks at. */
const Ch = {
  LF: 0x0a,
  CR: 0x0d,
  SPACE: 0x20,
  TAB: 0x09,
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  OPEN: 0x7b,
  CLOSE: 0x7d,
  COLON: 0x3a,
  LOWER_D: 0x64,
} as const;

/** Longest SSE field name worth remembering; only `data` matters, the rest just end the line. */
const MAX_WORD = 16;

export class JsonObjectSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Text of the open object, in the pieces it arrived in (joined once, when it closes). */
  private parts: string[] = [];

  // Between objects.
  /** Rest of the line is ignored (SSE comment, `event:`, `id:`, `retry:` ...). */
  private skipLine = false;
  /** Nothing but whitespace seen yet on this line, so a `:` here starts an SSE comment. */
  private lineStart = true;
  /** Bare word being read (e.g. `data`, `event`, `DONE`). */
  private word = '';

  // Inside an object, outside strings: an SSE event may continue an object on a further
  // `data:` line. JSON has no token starting with `d`, so such a prefix is unambiguous.
  private objectLineStart = false;
  private strippingPrefix = false;

  /** True while an object has started and not yet closed (a stream ending now was cut short). */
  get inObject(): boolean {
    return this.depth > 0;
  }

  /** Text of the open object so far ('' between objects). */
  get partialText(): string {
    return this.depth > 0 ? this.parts.join('') : '';
  }

  /**
   * Like `push`, but a whole line that is one JSON object (NDJSON, the usual stream) is parsed at once by the
   * native JSON.parse instead of being scanned here character by character first (twice as fast). Anything
   * else (an object over several lines or chunks, SSE, arrays) goes through `push`, whose texts it returns.
   */
  pushLines(text: string): Array<string | Record<string, unknown>> {
    const out: Array<string | Record<string, unknown>> = [];
    for (let at = 0; at < text.length;) {
      const nl = text.indexOf('\n', at);
      const end = nl === -1 ? text.length : nl + 1;
      if (nl !== -1 && this.atLineStart()) {
        let last = nl - 1;
        if (last >= at && text.charCodeAt(last) === Ch.CR) last--;
        if (last < at) {
          at = end; // an empty line
          continue;
        }
        const value =
          text.charCodeAt(at) === Ch.OPEN && text.charCodeAt(last) === Ch.CLOSE ? parseLine(text.slice(at, last + 1)) : undefined;
        if (value) {
          out.push(value);
          at = end;
          continue;
        }
      }
      // Not a line that is an object on its own (or the rest of one begun earlier): the careful way, to its end.
      for (const object of this.push(at === 0 && end === text.length ? text : text.slice(at, end))) out.push(object);
      at = end;
    }
    return out;
  }

  /** Between objects with nothing read on the line: what `push` would do with a whole line is what pushLines does. */
  private atLineStart(): boolean {
    return this.depth === 0 && this.lineStart && !this.skipLine && this.word === '';
  }

  /** Feeds the next piece of decoded text; returns the objects completed by it, in order. */
  push(text: string): string[] {
    const done: string[] = [];
    // Start of the open object's text within `text`, or -1 while nothing is being kept.
    let keepFrom = this.depth > 0 && !this.strippingPrefix ? 0 : -1;

    // Next backslash at or after i (cached: recomputed only when passed), for the string fast path.
    let nextBackslash = -2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);

      if (this.depth === 0) {
        if (c === Ch.OPEN && !this.skipLine) {
          this.depth = 1;
          this.inString = false;
          this.escaped = false;
          this.objectLineStart = false;
          this.word = '';
          this.lineStart = false;
          keepFrom = i;
        } else {
          this.between(c);
        }
        continue;
      }

      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === Ch.BACKSLASH) this.escaped = true;
        else if (c === Ch.QUOTE) this.inString = false;
        else {
          // Answers are long strings: jump natively to the next quote or backslash instead of
          // looking at every character in JavaScript (3× faster on a cumulative stream).
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
          const quote = text.indexOf('"', i);
          const stop = quote === -1 ? nextBackslash : nextBackslash === -1 ? quote : Math.min(quote, nextBackslash);
          i = (stop === -1 ? text.length : stop) - 1;
        }
        continue;
      }

      if (this.strippingPrefix) {
        if (c === Ch.COLON) {
          this.strippingPrefix = false;
          keepFrom = i + 1;
        } else if (c === Ch.LF || c === Ch.CR) {
          // Not a field after all; drop what was read and keep looking at the next line.
          this.strippingPrefix = false;
          this.objectLineStart = true;
          keepFrom = i;
        }
        continue;
      }

      if (c === Ch.LF || c === Ch.CR) {
        this.objectLineStart = true;
        continue;
      }
      if (this.objectLineStart) {
        if (c === Ch.SPACE || c === Ch.TAB) continue;
        this.objectLineStart = false;
        if (c === Ch.LOWER_D) {
          if (keepFrom >= 0 && i > keepFrom) this.parts.push(text.slice(keepFrom, i));
          keepFrom = -1;
          this.strippingPrefix = true;
          continue;
        }
      }

      if (c === Ch.QUOTE) this.inString = true;
      else if (c === Ch.OPEN) this.depth++;
      else if (c === Ch.CLOSE) {
        this.depth--;
        if (this.depth === 0) {
          this.parts.push(text.slice(keepFrom, i + 1));
          done.push(this.parts.join(''));
          this.parts = [];
          keepFrom = -1;
        }
      }
    }

    if (this.depth > 0 && keepFrom >= 0 && keepFrom < text.length) this.parts.push(text.slice(keepFrom));
    return done;
  }

  /** One character outside any object: only SSE framing and array punctuation are expected here. */
  private between(c: number): void {
    if (c === Ch.LF || c === Ch.CR) {
      this.skipLine = false;
      this.lineStart = true;
      this.word = '';
      return;
    }
    if (this.skipLine) return;
    if (c === Ch.COLON) {
      // `:comment`, or `event:` / `id:` / `retry:` / unknown fields: the line carries no object.
      // `data:` is the one field whose value we read.
      if (this.word !== 'data') this.skipLine = this.lineStart || this.word !== '';
      this.word = '';
      this.lineStart = false;
      return;
    }
    if (isWordChar(c)) {
      if (this.word.length < MAX_WORD) this.word += String.fromCharCode(c);
      this.lineStart = false;
      return;
    }
    // Whitespace, BOM, `[`, `,`, `]`, `[DONE]`'s brackets and any other stray character.
    this.word = '';
    if (!isSpace(c)) this.lineStart = false;
  }
}

/** The line as an object, or undefined when it is not one (push then finds what it holds, or reports it). */
function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

function isSpace(c: number): boolean {
  return c === Ch.SPACE || c === Ch.TAB || c === 0xfeff || c === 0x0c || c === 0x0b;
}
