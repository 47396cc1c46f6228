import { expect, test } from '@playwright/test';
import { acceptCookies, newAccount, register, sidebar, signIn, toasts } from './support';

test.beforeEach(async ({ page }) => acceptCookies(page));

test('sign-up shows every validation message and sends nothing while invalid', async ({ page }) => {
  let registerCalls = 0;
  page.on('request', (r) => r.url().endsWith('/auth/register') && registerCalls++);
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Please fill in a valid username')).toBeVisible();
  await expect(page.getByText('Please fill in a valid governer id')).toBeVisible();
  await expect(page.getByText('Please fill in a valid email')).toBeVisible();
  await expect(page.getByText('Password must contain minimum eight characters, at least one uppercase letter, one number and one special character!')).toBeVisible();
  await expect(page.getByText('Please confirm your password!')).toBeVisible();

  await page.getByLabel('Governor ID', { exact: true }).fill('12ab');
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('Abcdefg1'); // no special character
  await page.getByLabel('Confirm Password', { exact: true }).fill('Abcdefg1!');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Please fill in a valid governer id')).toBeVisible();
  await expect(page.getByText('Please fill in a valid email')).toBeVisible();
  await expect(page.getByText('Password must contain minimum eight characters', { exact: false })).toBeVisible();
  await expect(page.getByText('The two passwords that you entered do not match!')).toBeVisible();
  expect(registerCalls).toBe(0);
});

test('password strength indicator follows the password', async ({ page }) => {
  await page.goto('/signup');
  const meter = page.getByRole('meter', { name: 'Password strength', exact: true });
  await expect(meter).toHaveAttribute('aria-valuenow', '0');
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await expect(meter).toHaveAttribute('aria-valuenow', '0');
  await page.getByLabel('Password', { exact: true }).fill('Abcdefg1');
  await expect(meter).toHaveAttribute('aria-valuenow', '2');
  await page.getByLabel('Password', { exact: true }).fill('Abcdefgh1!xyz');
  await expect(meter).toHaveAttribute('aria-valuenow', '4');
  await expect(meter).toContainText('Strong');
});

test('sign-up succeeds, clears the form, and the new account can sign in', async ({ page }) => {
  const account = newAccount('new');
  await page.goto('/signup');
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Governor ID', { exact: true }).fill(account.playerid);
  await page.getByLabel('Email', { exact: true }).fill(account.email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Your account has been created')).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('');

  // the email was stored lowercased: signing in with it works
  await signIn(page, account);
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await expect(sidebar(page).getByText(account.username, { exact: true })).toBeVisible();
});

test('sign-up with a taken email shows the error alert and the reason', async ({ page }) => {
  const existing = await register();
  await page.goto('/signup');
  await page.getByLabel('Username', { exact: true }).fill(`${existing.username}x`.slice(0, 32));
  await page.getByLabel('Governor ID', { exact: true }).fill('123');
  await page.getByLabel('Email', { exact: true }).fill(existing.email);
  await page.getByLabel('Password', { exact: true }).fill(existing.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(existing.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'There was an error creating your account' });
  await expect(alert).toContainText('There was an error creating your account');
  await expect(alert).toContainText('already exists');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(existing.email);
});

test('sign-up with a governor id another account has says so plainly, in the chosen language', async ({ page }) => {
  const existing = await register();
  const account = newAccount('gov');
  await page.goto('/signup');
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Governor ID', { exact: true }).fill(existing.playerid);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'There was an error creating your account' })).toContainText('Another account has already claimed this governor id. If it is yours, please ask an admin.');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await page.getByLabel('Nom d’utilisateur', { exact: true }).fill('ѕerver'); // a Cyrillic dze: reads as the reserved name
  await page.getByLabel('ID de gouverneur', { exact: true }).fill(account.playerid);
  await page.getByRole('button', { name: 'S’inscrire' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Une erreur est survenue lors de la création de votre compte' })).toContainText('Ce nom d’utilisateur est réservé.');
});

test('sign-in: required fields, then a failure notification titled Error with the server text', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Please fill in an email')).toBeVisible();
  await expect(page.getByText('Please fill in a password')).toBeVisible();

  const account = await register();
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong!pass1');
  await page.getByRole('button', { name: 'Login' }).click();
  const toast = toasts(page);
  await expect(toast).toContainText('Error');
  await expect(toast).toContainText('The email or password is incorrect.');
  await expect(page).toHaveURL(/\/signin$/);

  // the right password: signed in, and the failed try's notification is gone with it
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await expect(toasts(page).filter({ hasText: 'The email or password is incorrect.' })).toHaveCount(0);
});

test('an email typed in capitals with spaces signs in, and "remember me" off keeps the token for this session only', async ({ page }) => {
  const account = await register();
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(`  ${account.email.toUpperCase()} `);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Remember me', { exact: true }).click();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  expect(await page.evaluate(() => localStorage.getItem('kingdom.token'))).toBeNull();
  // kept in a session cookie, shared by the browser's tabs and gone when it closes
  const session = (await page.context().cookies()).find((c) => c.name === 'kingdom_session');
  expect(session?.value).toBeTruthy();
  expect(session?.expires).toBe(-1);
});

test('logout from the popover revokes the token and returns to /signin', async ({ page }) => {
  const account = await register();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  const token = await page.evaluate(() => localStorage.getItem('kingdom.token'));
  expect(token).toBeTruthy();
  await page.getByRole('button', { name: 'Account menu', exact: true }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('kingdom.token'))).toBeNull();
  const me = await page.request.post('/auth/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(401);
});

test('a language picked on the sign-in page stays after signing in, and becomes the account’s', async ({ page }) => {
  const account = await register();
  await page.goto('/signin');
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.locator('input[type=email]').fill(account.email);
  await page.locator('input[type=password]').fill(account.password);
  await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الملف الشخصي');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  // the landmarks are named in the page's language too
  await expect(page.getByRole('navigation', { name: 'القائمة الرئيسية', exact: true })).toBeAttached();
  // the account keeps it: a fresh page (the account's language is read again) is still in Arabic
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الملف الشخصي');
});
