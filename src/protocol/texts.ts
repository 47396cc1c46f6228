/**
 * Texts with holes. A refusal or a ledger reason that names a value (a run, a row, an item) is a
 * template such as 'Won "{item}"': the server fills it (fill) and sends the English sentence; the
 * client reads the values back (templateReader) to say the same sentence in the reader's language.
 * A hole is a name in braces; `{message}` holds another protocol text, which the client translates
 * too.
 */
const HOLE = /\{(\w+)\}/g;

/** The template with each hole replaced by its value (a value is never read again as a template). */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(HOLE, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The names of a template's holes, in order. */
export function holesOf(template: string): string[] {
  return [...template.matchAll(HOLE)].map((m) => m[1]);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A reader of one template: the values of its holes when a text is that template filled, or null. */
export function templateReader(template: string): (text: string) => Record<string, string> | null {
  const names = holesOf(template);
  const pattern = new RegExp(`^${template.split(HOLE).map((part, i) => (i % 2 ? '([^]*?)' : escape(part))).join('')}$`);
  return (text) => {
    const found = pattern.exec(text);
    if (!found) return null;
    return Object.fromEntries(names.map((name, i) => [name, found[i + 1]]));
  };
}
