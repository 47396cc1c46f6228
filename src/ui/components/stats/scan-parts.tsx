import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { createScansApi, scansKeys, type Scan } from '../../../api/scans';
import { cn } from '../../lib/cn';
import { useApi } from '../../lib/use-api';
import { Field } from '../field';
import { NativeSelect } from '../native-select';

// The scans' parts that several page groups behind sign-in share (statistics, KvK, migrants, automatic points).

/** The scans API on the app's one REST core. */
export const useScansApi = () => useApi(createScansApi);

/** A scan's label in lists: its date, time and kind. */
export function ScanLabel({ scan }: { scan: Scan }) {
  return (
    <>
      <FormattedDate value={scan.takenAt} dateStyle="medium" timeStyle="short" /> · #{scan.id}
    </>
  );
}

/** Every scan (newest first), for the pickers: up to 50, which covers a year of weekly scans. */
export function useScans() {
  const scansApi = useScansApi();
  return useQuery({ queryKey: scansKeys.list(1), queryFn: () => scansApi.list(1) });
}

/** A scan picker: "" means the default (the latest, or the one before it for a comparison). */
export function ScanSelect({ id, value, onChange, scans, defaultLabelId }: { id: string; value: string; onChange: (v: string) => void; scans: Scan[]; defaultLabelId: string }) {
  const intl = useIntl();
  return (
    <NativeSelect id={id} className="w-full min-w-0 sm:w-64" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{intl.formatMessage({ id: defaultLabelId })}</option>
      {scans.map((s) => (
        <option key={s.id} value={String(s.id)}>
          {intl.formatDate(s.takenAt, { dateStyle: 'medium', timeStyle: 'short' })} · #{s.id}
        </option>
      ))}
    </NativeSelect>
  );
}

/** A scan picker with its label above it (`labelId`). */
export function ScanField({ labelId, ...select }: { labelId: string } & Parameters<typeof ScanSelect>[0]) {
  return (
    <Field id={select.id} labelId={labelId}>
      <ScanSelect {...select} />
    </Field>
  );
}

/**
 * A governor's name, linked to its page (every table links there). Its direction is the name's own (dir="auto"), so a name cut
 * short loses its end, not its beginning: a Latin name in an Arabic page used to show only its last
 * words. It still sits at the page's start side (rtl:text-right) when it fits.
 */
export function GovernorLink({ governorId, name, className }: { governorId: number; name: string; className?: string }) {
  return (
    <Link href={`/my-kingdom/governors/${governorId}`} dir="auto" className={cn('font-medium text-primary underline-offset-4 hover:underline rtl:text-right', className)}>
      <bdi>{name || `#${governorId}`}</bdi>
    </Link>
  );
}

export function Empty({ textId, children }: { textId: string; children?: ReactNode }) {
  return (
    <p className="text-sm text-muted-foreground">
      <FormattedMessage id={textId} />
      {children}
    </p>
  );
}
