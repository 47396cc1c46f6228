import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long lists handled a slice at a time, with a turn of the event loop between slices: a scan of
 * 25,000 governors handled in one go holds up every bid for a tenth of a second or more.
 */

/** Items of a long list handled between two turns of the event loop. */
const SLICE = 1000;

/** `list.map(fn)`, 1,000 items between two turns of the event loop. */
export async function mapInSlices<T, U>(list: readonly T[], fn: (item: T) => U): Promise<U[]> {
  const out: U[] = [];
  for (let at = 0; at < list.length; at += SLICE) {
    for (const item of list.slice(at, at + SLICE)) out.push(fn(item));
    if (at + SLICE < list.length) await nextTurn();
  }
  return out;
}

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * JSON.stringify of plain data, with a turn of the event loop after every 1,000 items of a long
 * list, so a large answer or preview (25,000 governors) is written a slice at a time instead of in
 * one pause that holds up every bid. The text is JSON.stringify's, byte for byte.
 */
export async function stringifyInSlices(value: unknown): Promise<string> {
  const parts: string[] = [];
  const write = async (v: unknown): Promise<void> => {
    if (Array.isArray(v) && v.length > SLICE) {
      parts.push('[');
      for (let at = 0; at < v.length; at += SLICE) {
        // '[a,b]' without its brackets; a slice's undefined items are written null, as JSON.stringify does
        parts.push((at > 0 ? ',' : '') + JSON.stringify(v.slice(at, at + SLICE)).slice(1, -1));
        await nextTurn();
      }
      parts.push(']');
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && isPlainObject(v)) {
      parts.push('{');
      let first = true;
      for (const [key, field] of Object.entries(v)) {
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        await write(field);
      }
      parts.push('}');
    } else parts.push(JSON.stringify(v) ?? 'null');
  };
  await write(value);
  return parts.join('');
}
