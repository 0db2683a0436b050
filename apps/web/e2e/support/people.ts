import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { createVerifiedAccount, type TestAccount } from './accounts';

// People signed in through the API, each in a browser context of their own, for journeys between several users.

export interface Person {
  account: TestAccount;
  token: string;
  user: { id: number; username: string; first_name: string; last_name: string };
  page: Page;
  context: BrowserContext;
}

export const fullName = (p: Person) => `${p.account.first_name} ${p.account.last_name}`;

export type PersonOptions = Pick<BrowserContextOptions, 'viewport' | 'colorScheme' | 'baseURL' | 'locale'>;

/** A verified account with its session in localStorage; the caller closes `context` (or `peoplePerTest` does). */
export async function signedInPerson(
  browser: Browser,
  request: APIRequestContext,
  prefix: string,
  options: PersonOptions = {},
): Promise<Person> {
  return signedInAs(browser, request, await createVerifiedAccount(request, prefix), options);
}

/** An existing account signed in through the API, in a browser context of its own; the caller closes it. */
export async function signedInAs(
  browser: Browser,
  request: APIRequestContext,
  account: TestAccount,
  options: PersonOptions = {},
): Promise<Person> {
  const login = await request.post('/api/users/login/', {
    data: { email: account.email, password: account.password, remember_me: true },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token, ...user } = await login.json();
  const context = await browser.newContext(options);
  await context.addInitScript(
    ({ t, u }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', t);
        window.localStorage.setItem('user', u);
        window.localStorage.setItem('rememberMe', 'true');
      }
    },
    { t: token as string, u: JSON.stringify(user) },
  );
  return { account, token, user, context, page: await context.newPage() };
}

/** A spec's way to sign people in: each test's people have their browser contexts closed after it. */
export function peoplePerTest() {
  const made: Person[] = [];
  test.afterEach(async () => {
    await Promise.all(made.splice(0).map((p) => p.context.close()));
  });
  return async (
    browser: Browser,
    request: APIRequestContext,
    prefix: string,
    options: PersonOptions = {},
  ): Promise<Person> => {
    const p = await signedInPerson(browser, request, prefix, options);
    made.push(p);
    return p;
  };
}

/** The private chat between two people, started through the API by the first. */
export async function privateChat(request: APIRequestContext, a: Person, b: Person): Promise<string> {
  const res = await request.get(`/api/chats/start/${b.account.username}/`, {
    headers: { Authorization: `Bearer ${a.token}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).chat_id as string;
}

/** A group made through the API by `admin`, with `members` added. */
export async function groupChat(
  request: APIRequestContext,
  admin: Person,
  name: string,
  members: Person[],
): Promise<string> {
  const headers = { Authorization: `Bearer ${admin.token}` };
  const created = await request.post('/api/chats/group/new/', { headers, data: { group_name: name } });
  expect(created.ok(), await created.text()).toBe(true);
  const chatId = (await created.json()).chat_id as string;
  const added = await request.post(`/api/chats/${chatId}/members/`, {
    headers,
    data: { members: members.map((m) => m.account.username) },
  });
  expect(added.ok(), await added.text()).toBe(true);
  return chatId;
}
