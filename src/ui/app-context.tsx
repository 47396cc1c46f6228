import { createContext, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { KyInstance } from 'ky';
import type { Api } from '../api/client';
import type { AppActor } from '../machines/app.machine';
import type { Inspection } from '../machines/inspection';
import type { Recorder } from '../streams/recorder';

/**
 * The root actor and the API, given to every component; state is read from the actors. The
 * session recorder and the actors' inspection are there for QA and developers.
 */
export const AppContext = createContext<{ actor: AppActor; api: Api; http: KyInstance; recorder?: Recorder; inspection?: Inspection } | null>(null);

export function useRuntime() {
  const runtime = useContext(AppContext);
  if (!runtime) throw new Error('AppContext is missing');
  return runtime;
}

export function useChild<K extends 'auth' | 'settings' | 'navigation' | 'notifications' | 'board'>(key: K) {
  const { actor } = useRuntime();
  return useSelector(actor, (s) => s.context[key]);
}

export function useConnected(): boolean {
  const { actor } = useRuntime();
  return useSelector(actor, (s) => s.context.connected.auction && s.context.connected.user);
}
