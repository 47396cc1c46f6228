import { createContext, useCallback, useContext } from 'react';
import { translateServerText, type ServerTexts } from '../../locales/server-texts';

/** The reader's language's server texts (null: English), given by AppIntlProvider with its messages. */
export const ServerTextsContext = createContext<ServerTexts | null>(null);

/** Says a server's text (a refusal, a row's note, a system reason) in the reader's language. */
export function useServerText(): (text: string) => string {
  const texts = useContext(ServerTextsContext);
  return useCallback((text: string) => translateServerText(text, texts), [texts]);
}
