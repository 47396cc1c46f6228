import { createContext, useContext } from 'react';
import type { ServerTextTranslator } from '../../locales/load';

/** Says the server's texts in the reader's language (null: English, as sent); given by AppIntlProvider with its messages. */
export const ServerTextsContext = createContext<ServerTextTranslator | null>(null);

const asSent = (text: string) => text;

/** Says a server's text (a refusal, a row's note, a system reason) in the reader's language. */
export function useServerText(): ServerTextTranslator {
  return useContext(ServerTextsContext) ?? asSent;
}
