import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { cardOfPath, cardsKeys, createCardsApi, type ShareLink } from '../../../api/cards';
import { useApi } from '../../lib/use-api';
import { Button } from '../button';
import { Card, CardHeader } from '../card';
import { QueryError } from '../query-error';
import { CardRow, Table, TableBody, TableHead, Td, type Column } from '../table';

const statusOf = (link: ShareLink, now: number) => (link.revokedAt !== null ? 'revoked' : link.expiresAt <= now ? 'expired' : 'active');

/**
 * The share links to cards: the signed-in account's own (Account Settings), or every account's
 * (`all`, the Admin Dashboard); each live one revocable, after which its image answers 404.
 */
export function ShareLinks({ all = false }: { all?: boolean }) {
  const intl = useIntl();
  /** "Governor 51000002 · العربية · Dark": which card, in which language and theme. */
  const labelOf = (path: string) => {
    const card = cardOfPath(path);
    if (!card) return path;
    const language = card.lang ? new Intl.DisplayNames([intl.locale], { type: 'language' }).of(card.lang) : null;
    const theme = card.theme === 'light' || card.theme === 'dark' ? intl.formatMessage({ id: `settings.theme.${card.theme}` }) : null;
    return [intl.formatMessage({ id: `cards.links.kind.${card.kind}` }, { id: card.id }), language, theme].filter(Boolean).join(' · ');
  };
  const cards = useApi(createCardsApi);
  const client = useQueryClient();
    const links = useQuery({ queryKey: cardsKeys.links(all), queryFn: () => cards.links(all) });
  const revoke = useMutation({ mutationFn: (id: number) => cards.revoke(id), onSettled: () => client.invalidateQueries({ queryKey: cardsKeys.links() }) });
  const now = links.dataUpdatedAt || 0;
  const columns: Column[] = [
    'cards.links.card',
    ...(all ? ['cards.links.by'] : []),
    'cards.links.created',
    'cards.links.expires',
    'cards.links.status',
    { id: 'cards.links.revoke', srOnly: true },
  ];
  return (
    <Card className="grid min-w-0 gap-3" data-testid={all ? 'share-links-all' : 'share-links'}>
      <CardHeader title={<FormattedMessage id="cards.links.title" />} className="mb-0" />
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id={all ? 'cards.links.adminDescription' : 'cards.links.description'} />
      </p>
      <QueryError error={links.error ?? revoke.error} />
      {links.data?.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="cards.links.none" />
        </p>
      ) : (
        <Table minWidth="36rem" loading={links.isPending} columns={columns.length}>
          <TableHead columns={columns} className="max-md:hidden" />
          <TableBody>
            {links.data?.map((link) => {
              const status = statusOf(link, now);
              return (
                <CardRow key={link.id}>
                  <Td className="min-w-0">
                    <a href={link.url} target="_blank" rel="noreferrer" className="block truncate text-primary underline-offset-4 hover:underline" title={link.path}>
                      {labelOf(link.path)}
                    </a>
                  </Td>
                  {all && (
                    <Td>
                      <bdi>{link.username}</bdi>
                    </Td>
                  )}
                  <Td className="whitespace-nowrap text-xs">
                    <FormattedDate value={link.createdAt} year="numeric" month="short" day="numeric" />
                  </Td>
                  <Td className="whitespace-nowrap text-xs">
                    <FormattedDate value={link.expiresAt} year="numeric" month="short" day="numeric" />
                  </Td>
                  <Td>
                    <FormattedMessage id={`cards.links.${status}`} />
                  </Td>
                  <Td className="text-end">
                    {status === 'active' && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={revoke.isPending}
                        aria-label={`${intl.formatMessage({ id: 'cards.links.revoke' })} ${labelOf(link.path)}`}
                        onClick={() => revoke.mutate(link.id)}
                      >
                        <FormattedMessage id="cards.links.revoke" />
                      </Button>
                    )}
                  </Td>
                </CardRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
