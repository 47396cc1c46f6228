import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, connection, createItem as createStoreItem, liveCard, register, signIn, toasts, tokenOf, uniqueTag, valueOf } from './support';

// a 1×1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function upload(token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'relic.png');
  const res = await fetch(`${BASE_URL}/store/uploads`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const answer = (await res.json()) as { result: boolean; url: string };
  expect(answer.result).toBe(true);
  return answer.url;
}

/** This file's items: dearer than the shared default, raised by 25. */
const createItem = (admin: string, body: Record<string, unknown>) => createStoreItem(admin, { start_price: 1_500, minIncrement: 25, ...body });

async function openStore(page: Page, account: { email: string; password: string }) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
}

test('every card opens the item’s details: full name, description, the image large, prices and times', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const tag = uniqueTag();
  const imageUrl = await upload(admin);
  const liveName = `Scheduled Gemstone Treasure Chest of the Northern Kingdom ${tag}`;
  const description = `A chest of gems.\nOpened only by the winner ${tag}.`;
  await createItem(admin, { itemName: liveName, description, imageUrl });
  const upcomingName = `Scheduled Gemstone Treasure Chest Collection ${tag}`;
  await createItem(admin, { itemName: upcomingName, description: `Coming soon ${tag}`, startsAt: Date.now() + 48 * 3600_000, start_price: 2_000 });
  // a ten-second auction nobody bids on: it finishes unsold (a cancelled item leaves the board instead)
  const unsoldName = `Unclaimed relic ${tag}`;
  const unsold = await createItem(admin, { itemName: unsoldName, duration: 10 });

  await openStore(page, await register());
  // a live card: its name opens the dialog; the description and start come from the store
  const card = await liveCard(page, liveName);
  await card.getByRole('button', { name: liveName, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: liveName });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(description.replace('\n', ' '));
  await expect(valueOf(dialog, 'Start price')).toHaveText('1,500');
  await expect(valueOf(dialog, 'Minimum increment')).toHaveText('25');
  await expect(valueOf(dialog, 'Starts')).not.toHaveText('—');
  await expect(valueOf(dialog, 'Ends')).not.toHaveText('—');
  await expect(valueOf(dialog, 'Leader')).toHaveText('No bids yet');
  const image = dialog.getByRole('img', { name: `Image of ${liveName}` });
  await expect(image).toBeVisible();
  expect((await image.boundingBox())!.width, 'larger than the 56 px thumbnail').toBeGreaterThan(200);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // an upcoming row: the whole name (not cut), and its details
  const row = page.getByRole('list', { name: 'Upcoming', exact: true }).getByRole('listitem').filter({ hasText: upcomingName });
  const opener = row.getByRole('button', { name: upcomingName, exact: true });
  await expect(opener).toHaveText(upcomingName);
  expect(await opener.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await opener.click();
  const upcoming = page.getByRole('dialog', { name: upcomingName });
  await expect(upcoming).toHaveAccessibleDescription(`Coming soon ${tag}`);
  await expect(valueOf(upcoming, 'Start price')).toHaveText('2,000');
  await upcoming.getByRole('button', { name: 'Close' }).click();
  await expect(upcoming).toBeHidden();

  // a finished row: the unsold item once the server's scheduler has ended it (waited on, not slept)
  await expect
    .poll(async () => (await api<{ items: { itemId: number }[] }>('store/items?state=finished', undefined, admin, 'GET')).items.some((i) => i.itemId === unsold), { timeout: 20_000 })
    .toBe(true);
  await page.getByRole('list', { name: 'Finished', exact: true }).getByRole('listitem').filter({ hasText: unsoldName }).getByRole('button', { name: unsoldName }).click();
  const finished = page.getByRole('dialog', { name: unsoldName });
  await expect(valueOf(finished, 'Result')).toHaveText('Not sold');
  await expect(valueOf(finished, 'Start price')).toHaveText('1,500');
});

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

for (const width of [1280, 375]) {
  test(`at ${width} px at most three toasts, newest on top, none over the header’s controls or Latest bids`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const admin = await tokenOf(ADMIN);
    await openStore(page, await register());
    const tag = `${width}-${uniqueTag()}`;
    const names = [1, 2, 3, 4].map((n) => `Toast relic ${n} ${tag}`);
    for (const itemName of names) {
      await createItem(admin, { itemName });
      await expect(toasts(page).filter({ hasText: itemName })).toBeVisible();
    }
    const shownToasts = toasts(page);
    await expect(shownToasts).toHaveCount(3);
    // newest on top: from the top of the screen down, the fourth item's, the third's, the second's
    const shown = await Promise.all([0, 1, 2].map(async (i) => ({ y: (await boxOf(shownToasts.nth(i))).y, text: await shownToasts.nth(i).innerText() })));
    const topDown = shown.sort((a, b) => a.y - b.y).map((t) => t.text);
    [3, 2, 1].forEach((n, i) => expect(topDown[i]).toContain(names[n]));

    const covered = [page.getByRole('banner'), page.getByRole('combobox', { name: 'Language' }), page.getByRole('button', { name: 'Account menu', exact: true }), page.getByRole('button', { name: 'Open menu', exact: true })];
    // on a wide screen Latest bids heads the end column: its title and newest bid stay in sight
    // (the toasts stack up from the bottom; older bids of a long list may pass under them)
    if (width >= 1280) covered.push(page.getByRole('heading', { name: 'Latest bids' }), page.getByRole('list', { name: 'Latest bids', exact: true }).getByRole('listitem').first());
    for (const control of covered) {
      if (!(await control.isVisible())) continue;
      const box = await boxOf(control);
      for (let i = 0; i < 3; i++) expect(overlaps(await boxOf(shownToasts.nth(i)), box), `toast ${i} over ${control}`).toBe(false);
    }
    for (let i = 0; i < 3; i++) {
      const box = await boxOf(shownToasts.nth(i));
      expect(box.x >= 0 && box.x + box.width <= width, 'inside the screen').toBe(true);
    }
    await context.close();
  });
}

test('an upcoming item leaves Upcoming and joins the live board when it starts, without a reload', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const tag = Date.now().toString(36);
  const name = `Soon-to-start relic ${tag}`;
  const itemId = await createItem(admin, { itemName: name, startsAt: Date.now() + 48 * 3600_000 });

  await openStore(page, await register());
  const upcomingRow = page.getByTestId('upcoming-item').filter({ hasText: name });
  await expect(upcomingRow.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(page.getByTestId('live-item').filter({ hasText: name })).toHaveCount(0);

  // the council moves its start to now: the server starts it at once (BIDDING_STARTED on the socket)
  const edited = await api<{ result: boolean; error?: string }>(`store/items/${itemId}`, { startsAt: Date.now() }, admin);
  expect(edited.result, edited.error).toBe(true);
  await liveCard(page, name);
  await expect(upcomingRow).toHaveCount(0);
});
