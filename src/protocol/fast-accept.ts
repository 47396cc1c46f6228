import type * as z from 'zod/mini';

/**
 * A fast first look at a value for a schema of the wire contract, derived from the zod schema
 * itself (its definition, read once when the module loads; no code is generated or eval'd).
 *
 * `compileAccept(schema)(value)` is true only when zod would accept `value` and give back a value
 * equal to it: every key known and every field of the right type and range. It answers false for
 * anything else (a wrong field, and also an unknown key that zod would strip, a key present as
 * `undefined`), and the caller then asks zod, which stays the one judge of what is valid and the
 * one source of error texts. Frames as the server writes them pass here at a fraction of zod's
 * cost (it builds a copy of every frame); a property test holds the two together.
 *
 * Only the kinds of schema the contract uses are known; any other throws when compiled, so a new
 * kind in the contract cannot slip past unchecked.
 */
export type Accept = (value: unknown) => boolean;

interface Def {
  type: string;
  [key: string]: unknown;
}
type Schema = { _zod: { def: Def } };

const defOf = (schema: unknown): Def => (schema as Schema)._zod.def;

/** Number checks as zod/mini records them: `greater_than`/`less_than` with `inclusive`. */
function numberCheck(check: unknown): (n: number) => boolean {
  const def = defOf(check) as Def & { check: string; value?: unknown; inclusive?: boolean; format?: string };
  switch (def.check) {
    case 'greater_than': {
      const min = def.value as number;
      return def.inclusive ? (n) => n >= min : (n) => n > min;
    }
    case 'less_than': {
      const max = def.value as number;
      return def.inclusive ? (n) => n <= max : (n) => n < max;
    }
    case 'number_format':
      if (def.format === 'safeint') return Number.isSafeInteger;
      break;
  }
  throw new Error(`fast-accept: unknown number check ${JSON.stringify(def.check)} ${def.format ?? ''}`);
}

function stringCheck(check: unknown): (s: string) => boolean {
  const def = defOf(check) as Def & { check: string; minimum?: number; maximum?: number; format?: string; pattern?: RegExp };
  if (def.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp && !def.pattern.global && !def.pattern.sticky) {
    const pattern = def.pattern;
    return (s) => pattern.test(s);
  }
  // zod measures a string's length in UTF-16 code units, as `.length` does
  if (def.check === 'min_length') return (s) => s.length >= (def.minimum as number);
  if (def.check === 'max_length') return (s) => s.length <= (def.maximum as number);
  throw new Error(`fast-accept: unknown string check ${JSON.stringify(def.check)}`);
}

function all<T>(tests: ((v: T) => boolean)[]): (v: T) => boolean {
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (v) => {
    for (const test of tests) if (!test(v)) return false;
    return true;
  };
}

/** An object as JSON.parse makes them: a value from elsewhere (a class, a prototype's fields) goes to zod. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function compileAccept(schema: z.ZodMiniType): Accept {
  return compile(schema);
}

function compile(schema: unknown): Accept {
  const def = defOf(schema);
  const checks = (def.checks as unknown[] | undefined) ?? [];
  switch (def.type) {
    case 'string': {
      const test = all(checks.map(stringCheck));
      return (v) => typeof v === 'string' && test(v);
    }
    case 'number': {
      // z.int() is a number whose definition is itself the safeint format check
      const own = def.check === 'number_format' ? [numberCheck(schema)] : [];
      const test = all([...own, ...checks.map(numberCheck)]);
      // zod refuses NaN and ±Infinity for every number
      return (v) => typeof v === 'number' && Number.isFinite(v) && test(v);
    }
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'literal': {
      const values = def.values as unknown[];
      if (values.length !== 1) throw new Error('fast-accept: a literal of several values');
      const value = values[0];
      return (v) => v === value;
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => (typeof v === 'string' || typeof v === 'number') && values.has(v);
    }
    case 'array': {
      if (checks.length > 0) throw new Error('fast-accept: checks on an array');
      const element = compile(def.element);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'optional': {
      // a missing key is handled by the object; a present one must be valid (an explicit
      // `undefined` goes to zod, which may keep or drop it)
      const inner = compile(def.innerType);
      return (v) => v !== undefined && inner(v);
    }
    case 'object':
      return compileObject(def);
    case 'union': {
      const key = def.discriminator as string | undefined;
      if (!key) {
        // a union of plain values (an item id: a whole number or a string), or of objects that no
        // value can be given in full to two of (a bid, or a sealed bid: each has fields the other
        // lacks, and an object here takes no key it does not know): each option is tried in order,
        // and zod returns a value one option takes as it came
        const options = (def.options as unknown[]).map((option) => {
          const type = defOf(option).type;
          if (type !== 'number' && type !== 'string' && type !== 'object') throw new Error('fast-accept: a union without a discriminator of other than numbers, strings and objects');
          return compile(option);
        });
        if (options.length === 2) {
          const [first, second] = options;
          return (v) => first(v) || second(v);
        }
        return (v) => {
          for (const option of options) if (option(v)) return true;
          return false;
        };
      }
      const byTag = new Map<unknown, Accept>();
      for (const option of def.options as unknown[]) {
        const tag = (defOf(option).shape as Record<string, unknown>)[key];
        const tagDef = defOf(tag);
        if (tagDef.type !== 'literal') throw new Error('fast-accept: a discriminator that is not a literal');
        for (const value of tagDef.values as unknown[]) byTag.set(value, compile(option));
      }
      return (v) => {
        if (!isPlainObject(v)) return false;
        const option = byTag.get(v[key]);
        return option !== undefined && option(v);
      };
    }
  }
  throw new Error(`fast-accept: unknown schema type ${JSON.stringify(def.type)}`);
}

function compileObject(def: Def): Accept {
  if (((def.checks as unknown[] | undefined) ?? []).length > 0) throw new Error('fast-accept: checks on an object');
  const shape = def.shape as Record<string, unknown>;
  const keys = Object.keys(shape);
  const fields = keys.map((key) => ({ key, optional: defOf(shape[key]).type === 'optional', accept: compile(shape[key]) }));
  const catchall = def.catchall as unknown;
  // z.looseObject keeps unknown keys as they are (catchall: unknown); z.object strips them, so a
  // value with one is not returned as it came and is left to zod
  const loose = catchall !== undefined && defOf(catchall).type === 'unknown';
  if (catchall !== undefined && !loose) throw new Error('fast-accept: an object with a catchall schema');
  for (const key of keys) if (key in Object.prototype) throw new Error(`fast-accept: a field named like an object method (${key})`);
  return (v) => {
    if (!isPlainObject(v)) return false;
    let present = 0;
    for (const field of fields) {
      const value = v[field.key];
      if (value === undefined) {
        if (!field.optional || Object.hasOwn(v, field.key)) return false;
        continue;
      }
      if (!field.accept(value)) return false;
      present += 1;
    }
    if (loose) return true;
    // A plain object inherits no enumerable key and no field of the shape, so every field read
    // above is an own key: as many own keys as fields present means no key zod would strip.
    let own = 0;
    for (const _ in v) own += 1;
    return own === present;
  };
}
