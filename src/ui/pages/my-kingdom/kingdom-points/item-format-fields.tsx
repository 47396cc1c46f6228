import { FormattedMessage, useIntl } from 'react-intl';
import { ITEM_FORMATS, type ItemFormat } from '../../../../protocol/socket';
import { Field } from '../../../components/field';
import { Input } from '../../../components/input';
import { NativeSelect } from '../../../components/native-select';
import type { ItemFormErrors, ItemFormValues } from './item-form';

/**
 * How the item is sold: the format (each explained in a line), an optional reserve and, for the
 * English format, an optional buy-now price. A sealed item has no soft close (its fields go).
 */
export function FormatFields({ form, errors, onChange }: { form: ItemFormValues; errors: ItemFormErrors; onChange: (change: Partial<ItemFormValues>) => void }) {
  const intl = useIntl();
  return (
    <>
      <Field id="item-format" labelId="manage.format" hint={<FormattedMessage id={`manage.format.${form.format}.hint`} />} className="md:col-span-2">
        <NativeSelect className="w-full md:w-80" value={form.format} onChange={(e) => onChange({ format: e.target.value as ItemFormat })}>
          {ITEM_FORMATS.map((format) => (
            <option key={format} value={format}>
              {intl.formatMessage({ id: `manage.format.${format}` })}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="item-reservePrice" labelId="manage.reservePrice" hintId="manage.reservePrice.hint" error={errors.reservePrice}>
        <Input value={form.reservePrice} inputMode="numeric" onChange={(e) => onChange({ reservePrice: e.target.value })} />
      </Field>
      {form.format === 'english' && (
        <Field id="item-buyNowPrice" labelId="manage.buyNowPrice" hintId="manage.buyNowPrice.hint" error={errors.buyNowPrice}>
          <Input value={form.buyNowPrice} inputMode="numeric" onChange={(e) => onChange({ buyNowPrice: e.target.value })} />
        </Field>
      )}
    </>
  );
}
