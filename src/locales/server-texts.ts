import { ADMIN_ERRORS } from '../protocol/admin';
import { AUTH_ERRORS } from '../protocol/auth';
import { RULE_ERRORS, RULE_TEMPLATES } from '../protocol/automatic-points';
import { AGENT_TEXTS, BOT_ERRORS } from '../protocol/bots';
import { CARD_ERRORS } from '../protocol/cards';
import { DISCORD_ERRORS } from '../protocol/discord';
import { HTTP_ERRORS } from '../protocol/http';
import { KVK_ERRORS, KVK_TEMPLATES } from '../protocol/kvk';
import { MIGRANT_ERRORS } from '../protocol/migrants';
import { NOTICE_ERRORS } from '../protocol/notices';
import { BULK_ROW_ERRORS, LEDGER_REASONS, POINTS_ERRORS, POINTS_TEMPLATES } from '../protocol/points';
import { SCAN_ERRORS, SCAN_TEMPLATES } from '../protocol/scans';
import { SCAN_ROW_TEMPLATES, SENTINEL_TEXTS } from '../protocol/scan-file';
import { ALLIANCE_ERRORS, METRIC_ERRORS, PLAYER_ID_ERRORS } from '../protocol/scans-api';
import { LINK_IMPORT_ERRORS, LINK_ROW_TEMPLATES, LINK_ROW_TEXTS } from '../protocol/player-links';
import { SETTINGS_ERRORS } from '../protocol/settings';
import { STORE_ERRORS } from '../protocol/store';
import { fill, holesOf, templateReader } from '../protocol/texts';

/**
 * The texts the server sends a person (refusals, a scan's row notes, the system's ledger reasons)
 * are English on the wire, word for word as the protocol writes them. Each has a key here,
 * `GROUP.name`; src/locales/server/<locale>.json says them in the other languages, and
 * translateServerText finds a text's key (or reads a template's values back) to say it in the
 * reader's language. A text it does not know (a person's own words) stays as it is.
 */
export const SERVER_TEXT_GROUPS = {
  ADMIN_ERRORS,
  AUTH_ERRORS,
  RULE_ERRORS,
  RULE_TEMPLATES,
  BOT_ERRORS,
  AGENT_TEXTS,
  CARD_ERRORS,
  DISCORD_ERRORS,
  HTTP_ERRORS,
  KVK_ERRORS,
  KVK_TEMPLATES,
  MIGRANT_ERRORS,
  NOTICE_ERRORS,
  POINTS_ERRORS,
  POINTS_TEMPLATES,
  BULK_ROW_ERRORS,
  LEDGER_REASONS,
  SCAN_ERRORS,
  SCAN_TEMPLATES,
  SCAN_ROW_TEMPLATES,
  SENTINEL_TEXTS,
  ALLIANCE_ERRORS,
  METRIC_ERRORS,
  PLAYER_ID_ERRORS,
  LINK_IMPORT_ERRORS,
  LINK_ROW_TEXTS,
  LINK_ROW_TEMPLATES,
  SETTINGS_ERRORS,
  STORE_ERRORS,
} as const satisfies Record<string, Record<string, string>>;

/** Every server text by key, in English. */
export const SERVER_TEXTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SERVER_TEXT_GROUPS).flatMap(([group, texts]) => Object.entries(texts).map(([name, text]) => [`${group}.${name}`, text])),
);

/** A language's server texts by key; English has none (the wire's texts are English). */
export type ServerTexts = Readonly<Record<string, string>>;

/** Holes whose value is itself a server text (the ledger's refusal in a bulk line, a sentinel's meaning). */
const NESTED = new Set(['message', 'meaning']);

const keyOf = new Map<string, string>();
for (const [key, text] of Object.entries(SERVER_TEXTS)) if (holesOf(text).length === 0 && !keyOf.has(text)) keyOf.set(text, key);

const templates = Object.entries(SERVER_TEXTS)
  .filter(([, text]) => holesOf(text).length > 0)
  .map(([key, text]) => ({ key, read: templateReader(text) }));

/** Fixed texts, longest first: a row's several errors come as one text, joined by spaces. */
const fixedTexts = [...keyOf.keys()].sort((a, b) => b.length - a.length);

/** A text made of fixed texts joined by spaces, each said in the language; null when it is not one. */
function joined(text: string, texts: ServerTexts): string | null {
  const said: string[] = [];
  let rest = text;
  while (rest) {
    const found = fixedTexts.find((t) => rest.startsWith(t) && (rest.length === t.length || rest[t.length] === ' '));
    if (!found) return null;
    said.push(exact(found, texts));
    rest = rest.slice(found.length + 1);
  }
  return said.length > 1 ? said.join(' ') : null;
}

function exact(text: string, texts: ServerTexts): string {
  const key = keyOf.get(text);
  return (key && texts[key]) || text;
}

/** A value the server wrote as an English number with thousands commas ("1,896,457"). */
const GROUPED = /^-?\d{1,3}(?:,\d{3})+$/;

/**
 * A server's text in the reader's language (`texts` null: English, as sent); one it does not know,
 * as it is. `number` writes a value the server grouped in English ("1,896,457") the reader's way.
 */
export function translateServerText(text: string, texts: ServerTexts | null, number?: (n: number) => string): string {
  if (!texts || !text) return text;
  if (keyOf.has(text)) return exact(text, texts);
  for (const template of templates) {
    const values = template.read(text);
    if (!values) continue;
    const translated = texts[template.key];
    if (!translated) return text;
    // each value isolated (FSI … PDI): a Latin name or "#12" keeps its own direction in an Arabic sentence
    for (const [name, value] of Object.entries(values)) {
      const said = NESTED.has(name) ? exact(value, texts) : number && GROUPED.test(value) ? number(Number(value.replace(/,/g, ''))) : value;
      values[name] = `\u2068${said}\u2069`;
    }
    return fill(translated, values);
  }
  return joined(text, texts) ?? text;
}
