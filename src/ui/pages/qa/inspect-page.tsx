import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { describeActor, summariseEvent, type InspectedActor } from '../../../auction/inspection-view';
import { useRuntime } from '../../app-context';
import { Card } from '../../components/card';
import { Input } from '../../components/input';

/**
 * The inspection panel (/qa/inspect, development builds and admins): every live actor of the
 * running app, spawned item actors included, with its state value, a short summary of its
 * context and its last 20 events. Collected in the app itself, so it works offline.
 */
const REFRESH_MS = 500;

function useActors(): InspectedActor[] {
  const { inspection } = useRuntime();
  const [actors, setActors] = useState<InspectedActor[]>(() => inspection?.actors().map(describeActor) ?? []);
  useEffect(() => {
    if (!inspection) return;
    const timer = setInterval(() => setActors(inspection.actors().map(describeActor)), REFRESH_MS);
    return () => clearInterval(timer);
  }, [inspection]);
  return actors;
}

export default function InspectPage() {
  const intl = useIntl();
  const actors = useActors();
  const [filter, setFilter] = useState('');
  const shown = filter ? actors.filter((a) => `${a.id} ${a.systemId ?? ''} ${a.value}`.toLowerCase().includes(filter.toLowerCase())) : actors;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold">
          <FormattedMessage id="qa.inspect.title" />
        </h1>
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="qa.inspect.count" values={{ count: actors.length }} />
        </p>
      </div>
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="qa.inspect.hint" />
      </p>
      <Input
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        placeholder={intl.formatMessage({ id: 'qa.inspect.filter' })}
        aria-label={intl.formatMessage({ id: 'qa.inspect.filter' })}
        className="max-w-sm"
      />
      <Card className="p-0">
        <ul className="divide-y divide-border">
          {shown.map((actor) => (
            <li key={actor.sessionId} data-actor-id={actor.id}>
              <details>
                <summary className="grid cursor-pointer grid-cols-[minmax(0,12rem)_minmax(0,10rem)_minmax(0,1fr)] gap-3 px-4 py-2 text-sm">
                  <span className="truncate font-medium" title={actor.parent ? `${actor.parent} → ${actor.id}` : actor.id}>
                    {actor.id}
                  </span>
                  <span className="truncate font-mono text-xs text-primary" data-testid="inspect-value">
                    {actor.value}
                  </span>
                  <span className="truncate font-mono text-xs text-muted-foreground" dir="ltr">
                    {actor.context}
                  </span>
                </summary>
                <ol className="bg-muted/40 px-4 py-2 font-mono text-xs" dir="ltr">
                  {actor.events.length === 0 && (
                    <li className="text-muted-foreground">
                      <FormattedMessage id="qa.inspect.noEvents" />
                    </li>
                  )}
                  {actor.events.map((event, i) => (
                    <li key={i} className="flex gap-3 py-0.5">
                      <span className="shrink-0 text-muted-foreground">{new Date(event.at).toISOString().slice(11, 23)}</span>
                      <span className="shrink-0 font-semibold">{event.type}</span>
                      {event.from && <span className="shrink-0 text-muted-foreground">← {event.from}</span>}
                      <span className="min-w-0 truncate">{summariseEvent(event.event)}</span>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
