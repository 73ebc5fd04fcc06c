/**
 * Why a package did not load, as both sides carry it: the loader's own message, cut to MAX_LOAD_REASON_BYTES of
 * UTF-8. The worker cuts it when it reads it; the server cuts it again (the worker shares a realm with user code).
 * Without dependencies: the worker imports it. Built-ins are captured when the module loads, before user code exists
 * (the worker calls it inside its own package loads).
 */

/** Longest reason kept, in bytes of UTF-8: room for the loader's message (a path, the dynamic linker's `dlerror`). */
export const MAX_LOAD_REASON_BYTES = 1024;

const charCodeAt = String.prototype.charCodeAt;
const slice = String.prototype.slice;
const apply = Reflect.apply;

/** What a reason that was cut ends with. */
const CUT_MARK = ' […]';

/** `text` cut to at most MAX_LOAD_REASON_BYTES of UTF-8 (whole characters, CUT_MARK included), or as is. */
export function boundedReason(text: string, maxBytes = MAX_LOAD_REASON_BYTES): string {
  let bytes = 0;
  let end = 0;
  const room = maxBytes - utf8Length(CUT_MARK);
  let fitsAt = -1;
  while (end < text.length) {
    const unit = apply(charCodeAt, text, [end]) as number;
    const next = end + 1 < text.length ? (apply(charCodeAt, text, [end + 1]) as number) : 0;
    const pair = unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > room && fitsAt < 0) fitsAt = end;
    bytes += size;
    end += pair ? 2 : 1;
    if (bytes > maxBytes) return (apply(slice, text, [0, fitsAt]) as string) + CUT_MARK;
  }
  return text;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = apply(charCodeAt, text, [i]) as number;
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
  }
  return bytes;
}
