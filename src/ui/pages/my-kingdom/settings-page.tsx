import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Group, KingdomSettings, SettingsBody } from '../../../api/kingdom';
import { settingsBody } from '../../../protocol/settings';
import { Alert } from '../../components/alert';
import { ErrorText, QueryError } from '../../components/query-error';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Input } from '../../components/input';
import { useApi } from '../../lib/use-api';
import { createKingdomApi, kingdomKeys } from '../../../api/kingdom';
import { cn } from '../../lib/cn';
import { readDecimal, readWhole } from '../../lib/numbers';
import { Field } from '../../components/field';
import { formErrors } from '../../lib/form-errors';
import { useServerText } from '../../lib/server-text';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useChild } from '../../app-context';
import { DiscordSettingsCard } from './discord-settings';

interface Draft {
  kingdomName: string;
  kingdomNumber: string;
  durationMinutes: string;
  minIncrement: string;
  extendWindow: string;
  maxExtensions: string;
  storeOpen: boolean;
}

const toDraft = (s: KingdomSettings): Draft => ({
  kingdomName: s.kingdomName,
  kingdomNumber: s.kingdomNumber === null ? '' : String(s.kingdomNumber),
  durationMinutes: String(s.defaults.duration / 60),
  minIncrement: String(s.defaults.minIncrement),
  extendWindow: String(s.defaults.extendWindow),
  maxExtensions: String(s.defaults.maxExtensions),
  storeOpen: s.storeOpen,
});

/** The draft as the API's body, its numbers read as `locale` writes them ("1 000" in French). */
function toBody(d: Draft, locale: string): SettingsBody {
  const whole = (v: string) => readWhole(v, locale);
  return {
    kingdomName: d.kingdomName.trim(),
    kingdomNumber: d.kingdomNumber.trim() === '' ? null : whole(d.kingdomNumber),
    storeOpen: d.storeOpen,
    defaults: {
      duration: Math.round(readDecimal(d.durationMinutes, locale) * 60),
      minIncrement: whole(d.minIncrement),
      extendWindow: whole(d.extendWindow),
      maxExtensions: whole(d.maxExtensions),
    },
  };
}

function SettingsForm({ settings }: { settings: KingdomSettings }) {
  const intl = useIntl();
  const kingdom = useApi(createKingdomApi);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const save = useMutation({
    mutationFn: (body: SettingsBody) => kingdom.saveSettings(body),
    onSuccess: (saved) => {
      queryClient.setQueryData(kingdomKeys.settings, saved);
      setDraft(toDraft(saved));
    },
  });
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    if (save.isSuccess) save.reset();
  };
  const say = useServerText();
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  function submit(e: FormEvent) {
    e.preventDefault();
    const body = toBody(draft, intl.locale);
    const parsed = settingsBody.safeParse(body);
    if (!parsed.success) {
      // in the reader's language, the field's own unit (minutes for the duration) and number format
      setErrors(
        formErrors<keyof Draft>(intl, say, parsed.error.issues, (path) => {
          const [top, sub] = path.map(String);
          return (top === 'defaults' ? (sub === 'duration' ? 'durationMinutes' : sub) : top) as keyof Draft;
        }),
      );
      return;
    }
    setErrors({});
    save.mutate(body);
  }
  const field = (key: Exclude<keyof Draft, 'storeOpen'>, labelId: string, props: Record<string, unknown> = {}) => (
    <Field id={`settings-${key}`} labelId={labelId} error={errors[key]}>
      <Input value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} {...props} />
    </Field>
  );

  return (
    <form noValidate onSubmit={submit} className="grid grid-cols-1 gap-4">
      <Card>
        <CardTitle>
          <FormattedMessage id="kingdom.identity" />
        </CardTitle>
        <div className="grid gap-4 sm:grid-cols-2">
          {field('kingdomName', 'kingdom.name', { maxLength: 50, dir: 'auto' })}
          {field('kingdomNumber', 'kingdom.number', { inputMode: 'numeric' })}
        </div>
      </Card>
      <Card>
        <CardTitle>
          <FormattedMessage id="kingdom.defaults" />
        </CardTitle>
        <p className="mb-4 text-sm text-muted-foreground">
          <FormattedMessage id="kingdom.defaults.hint" />
        </p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {field('durationMinutes', 'manage.duration', { inputMode: 'decimal' })}
          {field('minIncrement', 'manage.minIncrement', { inputMode: 'numeric' })}
          {field('extendWindow', 'manage.extendWindow', { inputMode: 'numeric' })}
          {field('maxExtensions', 'manage.maxExtensions', { inputMode: 'numeric' })}
        </div>
      </Card>
      <Card>
        <CardTitle>
          <FormattedMessage id="kingdom.store" />
        </CardTitle>
        <label className="flex items-start gap-3 text-sm">
          <Checkbox className="mt-0.5" checked={draft.storeOpen} onCheckedChange={(on) => set({ storeOpen: on === true })} />
          <span>
            <span className="font-medium">
              <FormattedMessage id="kingdom.storeOpen" />
            </span>
            <span className="block text-muted-foreground">
              <FormattedMessage id={draft.storeOpen ? 'kingdom.storeOpen.on' : 'kingdom.storeOpen.off'} />
            </span>
          </span>
        </label>
      </Card>
      {save.isError && <QueryError error={save.error} />}
      {save.isSuccess && (
        <Alert variant="success">
          <FormattedMessage id="kingdom.saved" />
        </Alert>
      )}
      <Button type="submit" disabled={save.isPending} className="justify-self-start">
        <FormattedMessage id="kingdom.save" />
      </Button>
    </form>
  );
}

function GroupCard({ group }: { group: Group }) {
  const kingdom = useApi(createKingdomApi);
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: kingdomKeys.groups });
  const member = useMutation({
    mutationFn: ({ user, on }: { user: string; on: boolean }) => kingdom.setMember(group.name, user, on),
    onSuccess: (_, { on }) => {
      if (on) setUsername('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: () => kingdom.deleteGroup(group.name), onSuccess: () => void refresh() });

  return (
    <li className="rounded-md border border-border p-4" data-name={group.name}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 dir="auto" className="font-semibold">
          {group.name} <span className="text-sm font-normal text-muted-foreground">({group.members.length})</span>
        </h3>
        <Button
          size="sm"
          variant={confirming ? 'danger' : 'ghost'}
          disabled={remove.isPending}
          onClick={() => (confirming ? remove.mutate() : setConfirming(true))}
          onBlur={() => setConfirming(false)}
        >
          <FormattedMessage id={confirming ? 'groups.confirmDelete' : 'groups.delete'} />
        </Button>
      </div>
      {group.members.length === 0 ? (
        <p className="mb-3 text-sm text-muted-foreground">
          <FormattedMessage id="groups.noMembers" />
        </p>
      ) : (
        <ul className="mb-3 flex flex-wrap gap-1.5">
          {group.members.map((m) => (
            <li key={m} className="inline-flex items-center gap-1 rounded-full bg-muted py-0.5 ps-2.5 pe-1 text-sm">
              <bdi>{m}</bdi>
              <button
                type="button"
                className="flex h-5 w-5 cursor-pointer items-center justify-center rounded-full text-muted-foreground hover:bg-danger/15 hover:text-danger"
                aria-label={intl.formatMessage({ id: 'groups.removeMember' }, { username: m })}
                disabled={member.isPending}
                onClick={() => member.mutate({ user: m, on: false })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        noValidate
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (username.trim()) member.mutate({ user: username.trim(), on: true });
        }}
      >
        <Input
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          placeholder={intl.formatMessage({ id: 'groups.memberPlaceholder' })}
          aria-label={intl.formatMessage({ id: 'groups.addMemberTo' }, { name: group.name })}
          className="h-9"
          dir="auto"
        />
        <Button type="submit" size="sm" variant="outline" className="h-9 shrink-0" disabled={member.isPending || !username.trim()}>
          <FormattedMessage id="groups.add" />
        </Button>
      </form>
      {(member.isError || remove.isError) && (
        <p role="alert" className="mt-2 text-xs text-danger">
          <bdi><ErrorText error={member.error ?? remove.error} /></bdi>
        </p>
      )}
    </li>
  );
}

function GroupsCard() {
  const kingdom = useApi(createKingdomApi);
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const groups = useQuery({ queryKey: kingdomKeys.groups, queryFn: () => kingdom.groups() });
  const create = useMutation({
    mutationFn: (n: string) => kingdom.createGroup(n),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: kingdomKeys.groups });
    },
  });
  const createOnce = useSingleFlight(create);
  const list = [...(groups.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="groups.title" />
      </CardTitle>
      <p className="mb-4 text-sm text-muted-foreground">
        <FormattedMessage id="groups.hint" />
      </p>
      <form
        noValidate
        className="mb-4 flex max-w-md gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) createOnce(name.trim());
        }}
      >
        <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} placeholder={intl.formatMessage({ id: 'groups.namePlaceholder' })} aria-label={intl.formatMessage({ id: 'groups.name' })} dir="auto" />
        <Button type="submit" className="shrink-0" disabled={create.isPending || !name.trim()}>
          <FormattedMessage id="groups.create" />
        </Button>
      </form>
      {create.isError && <QueryError error={create.error} className="mb-4" />}
      {groups.isError && <QueryError error={groups.error} />}
      {groups.isSuccess && list.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="groups.none" />
        </p>
      ) : (
        <ul className={cn('grid gap-3 lg:grid-cols-2', groups.isFetching && 'opacity-90')}>
          {list.map((g) => (
            <GroupCard key={g.name} group={g} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** /my-kingdom/settings (council, admin): the kingdom, auction defaults, the store's switch and the groups. */
export default function KingdomSettingsPage({ titleId }: { titleId: string }) {
  const kingdom = useApi(createKingdomApi);
  const settings = useQuery({ queryKey: kingdomKeys.settings, queryFn: () => kingdom.settings(), staleTime: 0 });
  const isAdmin = useSelector(useChild('auth'), (s) => s.context.user?.rank === 'admin');
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      {settings.isError && <QueryError error={settings.error} />}
      {settings.data && <SettingsForm settings={settings.data} />}
      <GroupsCard />
      {isAdmin && <DiscordSettingsCard />}
    </div>
  );
}
