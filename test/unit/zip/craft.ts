// Hand-written ZIP bytes for archives no well-behaved tool would make: zip-slip names, lying
// headers, symlinks, Shift_JIS names without the UTF-8 flag.

import { crc32, deflateRawSync } from 'node:zlib';

export interface CraftEntry {
  /** A string is written as UTF-8; a Buffer as is (e.g. Shift_JIS bytes). */
  name: string | Buffer;
  data?: Buffer;
  /** 0 stored, 8 deflated (default). */
  method?: number;
  /** Sets general-purpose bit 11. Default: true for string names. */
  utf8Flag?: boolean;
  /** Extra general-purpose bits (1 = encrypted). */
  flags?: number;
  /** Unix st_mode written into the external attributes (made by Unix). */
  unixMode?: number;
  /** Lie about the uncompressed size in both headers. */
  declaredSize?: number;
  /** Lie about the CRC-32 in both headers. */
  declaredCrc?: number;
  /** Pre-compressed data to write instead of compressing `data`. */
  rawData?: Buffer;
  extraField?: Buffer;
}

export function craftZip(entries: CraftEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const data = e.data ?? Buffer.alloc(0);
    const method = e.method ?? 8;
    const body = e.rawData ?? (method === 8 ? deflateRawSync(data) : data);
    const flags = ((e.utf8Flag ?? typeof e.name === 'string') ? 0x800 : 0) | (e.flags ?? 0);
    const crc = e.declaredCrc ?? crc32(data);
    const size = e.declaredSize ?? data.length;
    const extra = e.extraField ?? Buffer.alloc(0);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x5a21, 12); // date 2025-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    locals.push(local, name, extra, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5a21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt16LE(0, 32); // comment length
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(e.unixMode !== undefined ? (e.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + extra.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Info-ZIP Unicode Path extra field (0x7075) for a legacy-encoded name. */
export function unicodePathField(rawName: Buffer, utf8Name: string): Buffer {
  const name = Buffer.from(utf8Name, 'utf8');
  const field = Buffer.alloc(4 + 5 + name.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + name.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(rawName), 5);
  name.copy(field, 9);
  return field;
}
