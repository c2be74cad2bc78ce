// The name of a ZIP entry as the archiver meant it: ZIP files name their encoding only sometimes.
import { TextDecoder } from 'node:util';
import { crc32 } from 'node:zlib';
import type { Entry } from 'yauzl';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');
const shiftJis = ((): TextDecoder | undefined => {
  try {
    return new TextDecoder('shift_jis', { fatal: true });
  } catch {
    return undefined; // a Node built without full ICU
  }
})();
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * The UTF-8 flag (bit 11) or an Info-ZIP Unicode Path field wins; otherwise valid UTF-8 is UTF-8
 * (macOS Archive Utility omits the flag), then Shift_JIS (Japanese Windows Explorer), then CP437.
 */
export function decodeName(entry: Pick<Entry, 'fileNameRaw' | 'generalPurposeBitFlag' | 'extraFields'>): string {
  const raw = entry.fileNameRaw;
  if (entry.generalPurposeBitFlag & 0x800) return utf8Lenient.decode(raw);
  const unicodePath = entry.extraFields.find((f) => f.id === 0x7075 && f.data.length >= 6 && f.data[0] === 1);
  if (unicodePath && unicodePath.data.readUInt32LE(1) === crc32(raw)) return utf8Lenient.decode(unicodePath.data.subarray(5));
  for (const decoder of [utf8Strict, shiftJis]) {
    try {
      if (decoder) return decoder.decode(raw);
    } catch {
      // not this encoding; try the next
    }
  }
  return Array.from(raw, (b) => (b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80])).join('');
}
