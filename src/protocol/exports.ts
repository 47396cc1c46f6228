import * as z from 'zod/mini';
import { CARD_ERRORS } from './cards';
import { LOCALES } from './locales';

/**
 * The lists leadership downloads (governors, KvK standings, store history, the ledger, the audit
 * log) come as CSV or XLSX, with the column titles the pages show, in the reader's language:
 * `lang` when given, else the account's own language.
 */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The query every export adds to its list's own filters. */
export const exportLang = { lang: z.optional(z.enum(LOCALES, { error: CARD_ERRORS.badLang })) };
