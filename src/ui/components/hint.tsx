import type { ComponentProps } from 'react';
import { FormattedMessage } from 'react-intl';
import { cn } from '../lib/cn';

/** A sentence in muted text: a hint under a title, or "nothing here yet" in place of a list. */
export function Hint({ id, values, className, ...props }: Omit<ComponentProps<'p'>, 'children'> & { id: string; values?: ComponentProps<typeof FormattedMessage>['values'] }) {
  return (
    <p className={cn('text-sm text-muted-foreground', className)} {...props}>
      <FormattedMessage id={id} values={values} />
    </p>
  );
}
