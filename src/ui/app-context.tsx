import { createContext, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { KyInstance } from 'ky';
import type { Api } from '../api/client';
import type { AppActor } from '../machines/app.machine';
import { isConnected } from '../machines/connection.machine';
import type { Channel } from '../protocol/socket';
import type { Inspection } from '../auction/inspection';
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

export function useChild<K extends 'auth' | 'settings' | 'navigation' | 'notifications' | 'notices' | 'board'>(key: K) {
  const { actor } = useRuntime();
  return useSelector(actor, (s) => s.context[key]);
}

/** Whether a socket is connected: its connection's own state, the one source of it. */
export function useSocketConnected(channel: Channel): boolean {
  const { actor } = useRuntime();
  const connection = useSelector(actor, (s) => s.context.connections[channel]);
  return useSelector(connection, isConnected);
}

/** Both sockets connected (the top bar's indicator). */
export function useConnected(): boolean {
  const auction = useSocketConnected('auction');
  const user = useSocketConnected('user');
  return auction && user;
}
