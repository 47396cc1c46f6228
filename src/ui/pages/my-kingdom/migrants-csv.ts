/**
 * A CSV file made in the browser from rows already on the page (RFC 4180, UTF-8 with BOM, as the
 * server's exports): text that a spreadsheet would run as a formula (= + - @, tab, CR first) is
 * prefixed with ', and fields with commas, quotes or line breaks are quoted.
 */
export function csvBlob(header: string[], rows: (string | number | null)[][]): Blob {
  const field = (value: string | number | null) => {
    if (value === null) return '';
    if (typeof value === 'number') return String(value);
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [header, ...rows].map((r) => r.map(field).join(','));
  return new Blob(['\uFEFF', lines.join('\r\n'), '\r\n'], { type: 'text/csv;charset=utf-8' });
}
