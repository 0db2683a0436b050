import { pngOf } from '@parley/fixtures';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createVerifiedAccount, logIn, type TestAccount } from './support/accounts';

// The profile journeys: the home grid, public profiles, editing one's own profile with a picture, and a
// hidden profile, in a real browser against the production build.

async function tokenOf(request: APIRequestContext, account: TestAccount): Promise<string> {
  const response = await request.post('/api/users/login/', {
    data: { email: account.email, password: account.password, remember_me: true },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).token;
}

const fullName = (a: TestAccount) => `${a.first_name} ${a.last_name}`;
const card = (page: Page, a: TestAccount) =>
  page.getByRole('list').getByRole('link', { name: new RegExp(`@${a.username}\\b`) });

test('a visitor sees the home grid and statistics, opens a public profile and is asked to log in to message', async ({
  page,
  request,
}) => {
  const ada = await createVerifiedAccount(request, 'ada');

  const statsAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/stats');
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/register');
  await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');

  // The statistics replace their placeholders with the page's own answer, abbreviated above 999.
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats.getByText('Users', { exact: true })).toBeVisible();
  await expect(stats.getByText('Messages', { exact: true })).toBeVisible();
  const { total_users, total_messages } = await (await statsAnswer).json();
  const shown = (n: number) => (n > 999 ? `${Math.floor(n / 1000)}K+` : String(n));
  await expect(stats.locator('dd')).toHaveText([shown(total_users), shown(total_messages)]);

  const adaCard = card(page, ada);
  await expect(adaCard).toBeVisible();
  await expect(adaCard).toHaveAttribute('href', `/user/${ada.username}`);
  await expect(adaCard).toContainText(fullName(ada));
  await adaCard.click();

  await expect(page).toHaveURL(new RegExp(`/user/${ada.username}$`));
  await expect(page.getByRole('heading', { level: 1, name: fullName(ada) })).toBeVisible();
  await expect(page.getByText(`@${ada.username}`)).toBeVisible();
  await expect(page.getByText('Offline')).toBeVisible();
  await expect(page.getByText(/^Joined \w+ \d{4}$/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  await expect(page.getByText('No bio available')).toBeVisible();

  // Messaging needs an account: the visitor goes to log in and comes back to the profile.
  await page.getByRole('button', { name: 'Message' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const me = await createVerifiedAccount(request, 'visitor');
  await page.getByLabel('Email').fill(me.email);
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${ada.username}$`));
  await expect(page.getByRole('button', { name: 'Message' })).toBeVisible();

  await page.goto('/user/nobody_by_this_name');
  await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${ada.username}$`));
});

test('a signed-in person edits the profile with a picture and sees it on /profile and on the home card', async ({
  page,
  request,
}) => {
  const me = await createVerifiedAccount(request, 'editor');
  await logIn(page, me.email, me.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: fullName(me) })).toBeVisible();
  await expect(page.getByText(me.email)).toBeVisible();
  await expect(page.getByText('No bio available yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add your bio' })).toHaveAttribute('href', '/profile/edit');
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
  await page.getByRole('link', { name: 'Edit Profile' }).click();

  await expect(page).toHaveURL(/\/profile\/edit$/);
  const form = page.getByRole('form', { name: 'Edit your Profile' });
  const first = form.getByLabel('First Name');
  await expect(first).toHaveValue(me.first_name);
  await expect(form.getByLabel('Username')).toHaveValue(me.username);
  await expect(form.getByText('PNG, JPG, GIF up to 10MB')).toBeVisible();

  // The client's own checks.
  await first.fill('');
  await form.getByRole('button', { name: 'Update Profile' }).click();
  await expect(form.getByText('First name, last name, and username are required.')).toBeVisible();
  await expect(first).toBeFocused();
  const picture = form.getByLabel('Profile Picture', { exact: true });
  await picture.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(form.getByText('Please select a valid image file.')).toBeVisible();

  await first.fill('Grace');
  await form.getByLabel('Last Name').fill('Hopper');
  await form.getByLabel('Bio').fill('Rear admiral and compiler pioneer.');
  await picture.setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: pngOf(48, 32, [220, 90, 40]),
  });
  await expect(form.getByRole('img', { name: 'Preview of the chosen picture' })).toHaveAttribute(
    'src',
    /^blob:/,
  );
  await form.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expect(page.getByText('Rear admiral and compiler pioneer.')).toBeVisible();
  const avatar = page.getByRole('img', { name: 'Your profile picture' });
  await expect(avatar).toHaveAttribute('src', /^\/media\/avatars\/[\w-]+\.\w+$/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const src = await avatar.getAttribute('src');

  // The home card shows the new name and picture, and leads back to one's own profile.
  await page.getByRole('link', { name: 'Parley home' }).click();
  const mine = card(page, me);
  await expect(mine).toContainText('Grace Hopper');
  await expect(mine.locator('img')).toHaveAttribute('src', src!);
  await expect(mine).toHaveAttribute('href', '/profile');
  await mine.click();
  await expect(page).toHaveURL(/\/profile$/);

  // One's own public address goes to /profile.
  await page.goto(`/user/${me.username}`);
  await expect(page).toHaveURL(/\/profile$/);
});

test('a hidden profile shows "This profile is private" to another visitor and leaves the home grid', async ({
  page,
  request,
}) => {
  const shy = await createVerifiedAccount(request, 'shy');
  const token = await tokenOf(request, shy);
  const hidden = await request.put('/api/users/profile/settings/', {
    headers: { Authorization: `Bearer ${token}` },
    data: { hide_profile: true },
  });
  expect(hidden.ok(), await hidden.text()).toBe(true);

  await page.goto(`/user/${shy.username}`);
  await expect(page.getByRole('heading', { name: 'This profile is private' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(page.getByText(shy.email)).toHaveCount(0);

  await page.goto('/');
  await expect(page.getByRole('list').getByRole('link').first()).toBeVisible();
  await expect(card(page, shy)).toHaveCount(0);
});

test('the other brand’s landing page has the professional-network link and the only footer', async ({
  page,
}) => {
  await page.goto('/coming-soon');
  await expect(page.getByRole('heading', { level: 1, name: 'Coming soon' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Follow us on LinkedIn/ })).toHaveAttribute(
    'href',
    /linkedin\.com/,
  );
  const footer = page.getByRole('contentinfo');
  const explore = footer.getByRole('navigation', { name: 'Explore' });
  for (const href of ['/', '/technologies', '/projects', '/contact']) {
    await expect(explore.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
  await expect(footer.getByText('Support')).toBeVisible();
  await expect(footer.getByRole('link', { name: /LinkedIn/ })).toBeVisible();

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
});
