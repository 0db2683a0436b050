import fs from 'node:fs/promises';
import path from 'node:path';
import { pngOf } from '@parley/fixtures';
import { AVATAR_MAX_BYTES, MSG } from '@parley/protocol';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';
import { avatarFiles, avatarName, makeJpeg, profileRow, sendProfileForm } from './profile-helpers';

// PUT (and POST) /api/users/profile/update/: multipart first_name, last_name, username, bio and an
// optional image; the picture is checked by its bytes, re-encoded square, stored under a random name
// and served with nosniff (SPEC §2 Edit profile, §5, §8; DESIGN §1, §7).
const app = useTestApp();

const formOf = (u: SignedUp, changes: Record<string, string> = {}) => ({
  first_name: u.payload.first_name,
  last_name: u.payload.last_name,
  username: u.payload.username,
  bio: '',
  ...changes,
});

/** Runs a refused request and shows that neither the row nor the avatar folder changed. */
async function expectNothingChanged(t: TestApp, u: SignedUp, refused: () => Promise<void>) {
  const rowBefore = await profileRow(t, u.user.id);
  const filesBefore = await avatarFiles(t);
  await refused();
  expect(await profileRow(t, u.user.id)).toEqual(rowBefore);
  expect(await avatarFiles(t)).toEqual(filesBefore);
}

describe('profile update: text fields', () => {
  it('changes names, username and bio and answers name, username and avatar', async () => {
    const u = await app().signUpAndVerify();
    const res = await sendProfileForm(app(), u.token, {
      first_name: ' Grace ',
      last_name: 'Hopper',
      username: 'grace_h',
      bio: 'Compilers, mostly.',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Grace Hopper', username: 'grace_h', avatar: null });

    expect(await profileRow(app(), u.user.id)).toEqual({
      first_name: 'Grace',
      last_name: 'Hopper',
      displayname: 'Grace Hopper',
      username: 'grace_h',
      bio: 'Compilers, mostly.',
      avatar: null,
    });
    const own = await app().get('/api/users/profile/', u.token);
    expect(own.body).toMatchObject({
      username: 'grace_h',
      displayname: 'Grace Hopper',
      bio: 'Compilers, mostly.',
    });
    expect((await app().get('/api/users/@grace_h/')).status).toBe(200);
  });

  it('accepts POST as well as PUT, and a JSON body without a picture', async () => {
    const u = await app().signUpAndVerify();
    const post = await sendProfileForm(app(), u.token, formOf(u, { bio: 'via POST' }), [], 'POST');
    expect(post.status).toBe(200);
    const json = await app().put('/api/users/profile/update/', formOf(u, { last_name: 'Byron' }), u.token);
    expect(json.status).toBe(200);
    expect(json.body.name).toBe('Ada Byron');
    expect((await profileRow(app(), u.user.id)).bio).toBe('');
  });

  it('keeps the bio when the form leaves it out, and lets the owner change the case of their name', async () => {
    const u = await app().signUpAndVerify();
    await sendProfileForm(app(), u.token, formOf(u, { bio: 'kept' }));
    const { bio: _bio, ...withoutBio } = formOf(u, { username: u.payload.username.toUpperCase() });
    const res = await sendProfileForm(app(), u.token, withoutBio);
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(u.payload.username.toUpperCase());
    expect((await profileRow(app(), u.user.id)).bio).toBe('kept');
  });

  it('requires a session', async () => {
    const u = await app().signUpAndVerify();
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(app(), null, formOf(u, { first_name: 'Mallory' }));
      expect(res.status).toBe(401);
      const bad = await sendProfileForm(app(), 'forged-token', formOf(u, { first_name: 'Mallory' }));
      expect(bad.status).toBe(401);
    });
  });
});

describe('profile update: refusals', () => {
  it('refuses missing first name, last name or username with SPEC’s sentence and field errors', async () => {
    const u = await app().signUpAndVerify();
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(app(), u.token, { first_name: '  ', last_name: 'X', bio: 'new' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        detail: MSG.profileRequired,
        first_name: [MSG.firstNameRequired],
        username: [MSG.usernameRequired],
      });
      const json = await app().put('/api/users/profile/update/', {}, u.token);
      expect(json.status).toBe(400);
      expect(json.body.detail).toBe('First name, last name, and username are required.');
      expect(Object.keys(json.body).sort()).toEqual(['detail', 'first_name', 'last_name', 'username']);
    });
  });

  it('refuses a username another account holds, whatever its case', async () => {
    const u = await app().signUpAndVerify();
    const other = await app().signUpAndVerify();
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(
        app(),
        u.token,
        formOf(u, { username: other.payload.username.toUpperCase(), first_name: 'Changed' }),
        [{ bytes: pngOf(640, 480) }],
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ username: ['A user with that username already exists.'] });
    });
  });

  it('refuses a malformed username or an over-long bio with field errors', async () => {
    const u = await app().signUpAndVerify();
    await expectNothingChanged(app(), u, async () => {
      const short = await sendProfileForm(app(), u.token, formOf(u, { username: 'ab' }));
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ username: [MSG.usernameTooShort] });
      const spaced = await sendProfileForm(app(), u.token, formOf(u, { username: 'a b c' }));
      expect(spaced.body).toEqual({ username: [MSG.usernameInvalid] });
      const bio = await sendProfileForm(app(), u.token, formOf(u, { bio: 'x'.repeat(501) }));
      expect(bio.status).toBe(400);
      expect(bio.body.bio).toEqual(['Bio must be at most 500 characters.']);
    });
    const ok = await sendProfileForm(app(), u.token, formOf(u, { bio: 'x'.repeat(500) }));
    expect(ok.status).toBe(200);
  });

  it.each([
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['an SVG with an XML prolog', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['a script', '<script>fetch("/api/users/profile/").then(r => r.text()).then(alert)</script>'],
    ['an HTML page', '<!doctype html><html><body onload="alert(1)"></body></html>'],
    ['a shell script', '#!/bin/sh\nrm -rf /\n'],
    ['a PDF', '%PDF-1.4\n1 0 obj\n<<>>\nendobj\n'],
  ])('refuses %s posing as a PNG with 415', async (_what, content) => {
    const u = await app().signUpAndVerify();
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(app(), u.token, formOf(u, { first_name: 'Changed' }), [
        { bytes: Buffer.from(content), filename: 'avatar.png', type: 'image/png' },
      ]);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: 'Please select a valid image file: PNG, JPEG, GIF or WebP.' });
    });
  });

  it('refuses a broken image whose first bytes say PNG with 400', async () => {
    const u = await app().signUpAndVerify();
    const png = pngOf(640, 480);
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(app(), u.token, formOf(u, { first_name: 'Changed' }), [
        { bytes: Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]) },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/could not be read/);
    });
  });

  it('refuses a file over 10 MB with 413 and reads the request to its end', async () => {
    const u = await app().signUpAndVerify();
    const png = pngOf(640, 480);
    const big = Buffer.alloc(11 * 1024 * 1024, 1);
    png.copy(big);
    await expectNothingChanged(app(), u, async () => {
      const res = await sendProfileForm(app(), u.token, formOf(u, { first_name: 'Changed' }), [
        { bytes: big },
      ]);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ detail: 'Image size must be less than 10MB.' });
      // One byte over is over.
      const justOver = Buffer.alloc(AVATAR_MAX_BYTES + 1, 1);
      png.copy(justOver);
      expect((await sendProfileForm(app(), u.token, formOf(u), [{ bytes: justOver }])).status).toBe(413);
    });
    // The connection is still good for the next request.
    expect((await app().get('/api/profiles')).status).toBe(200);
  });

  it('refuses a second file or a file in another field', async () => {
    const u = await app().signUpAndVerify();
    const png = pngOf(640, 480);
    await expectNothingChanged(app(), u, async () => {
      const two = await sendProfileForm(app(), u.token, formOf(u, { first_name: 'Changed' }), [
        { bytes: png },
        { bytes: png },
      ]);
      expect(two.status).toBe(400);
      const elsewhere = await sendProfileForm(app(), u.token, formOf(u, { first_name: 'Changed' }), [
        { bytes: png, field: 'attachment' },
      ]);
      expect(elsewhere.status).toBe(400);
    });
  });
});

describe('profile update: the picture', () => {
  it('stores a real PNG as a 512×512 WebP under a random name and serves it with nosniff', async () => {
    const u = await app().signUpAndVerify();
    const res = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: pngOf(640, 480) }]);
    expect(res.status).toBe(200);
    expect(res.body.avatar).toMatch(/^\/media\/avatars\/[A-Za-z0-9_-]{22}\.webp$/);
    const name = avatarName(res.body.avatar);
    expect(await avatarFiles(app())).toEqual([name]);

    const served = await fetch(`${app().baseUrl}${res.body.avatar}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });

    // Everywhere the user is shown, the new picture is.
    expect((await app().get('/api/users/profile/', u.token)).body.avatar).toBe(res.body.avatar);
    expect((await app().get(`/api/users/@${u.user.username}/`)).body.avatar).toBe(res.body.avatar);
    expect((await app().get('/api/profiles')).body[0].avatar).toBe(res.body.avatar);
  });

  it('accepts JPEG, GIF and WebP too, and strips metadata', async () => {
    const u = await app().signUpAndVerify();
    const images = [
      await makeJpeg(),
      await sharp(pngOf(50, 80)).gif().toBuffer(),
      await sharp(pngOf(90, 40)).webp().toBuffer(),
      await sharp(pngOf(64, 64))
        .withMetadata({ exif: { IFD0: { Copyright: 'secret-location-42' } } })
        .jpeg()
        .toBuffer(),
    ];
    for (const bytes of images) {
      const res = await sendProfileForm(app(), u.token, formOf(u), [
        { bytes, filename: 'x.bin', type: 'text/plain' },
      ]);
      expect(res.status).toBe(200);
      const served = Buffer.from(await (await fetch(`${app().baseUrl}${res.body.avatar}`)).arrayBuffer());
      expect((await sharp(served).metadata()).width).toBe(512);
      expect(served.toString('latin1')).not.toContain('secret-location-42');
    }
  });

  it('removes the old file when the picture is replaced, and keeps it when only text changes', async () => {
    const u = await app().signUpAndVerify();
    const first = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: pngOf(640, 480) }]);
    const firstName = avatarName(first.body.avatar);

    const textOnly = await sendProfileForm(app(), u.token, formOf(u, { bio: 'new bio' }));
    expect(textOnly.body.avatar).toBe(first.body.avatar);
    expect(await avatarFiles(app())).toEqual([firstName]);

    const second = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: pngOf(100, 100, '#00ff00') }]);
    expect(second.status).toBe(200);
    const secondName = avatarName(second.body.avatar);
    expect(secondName).not.toBe(firstName);
    expect(await avatarFiles(app())).toEqual([secondName]);
    expect((await fetch(`${app().baseUrl}${first.body.avatar}`)).status).toBe(404);
    expect((await fetch(`${app().baseUrl}${second.body.avatar}`)).status).toBe(200);
  });

  it('treats an empty, nameless file part as no new picture', async () => {
    const u = await app().signUpAndVerify();
    const first = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: pngOf(640, 480) }]);
    const res = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: new Uint8Array(), filename: '' }]);
    expect(res.status).toBe(200);
    expect(res.body.avatar).toBe(first.body.avatar);
  });

  it('removes the picture when the account is deleted', async () => {
    const u = await app().signUpAndVerify();
    const res = await sendProfileForm(app(), u.token, formOf(u), [{ bytes: pngOf(640, 480) }]);
    expect(await avatarFiles(app())).toHaveLength(1);
    expect((await app().deleteAccount(u.token)).status).toBe(204);
    await expect.poll(() => avatarFiles(app())).toEqual([]);
    expect((await fetch(`${app().baseUrl}${res.body.avatar}`)).status).toBe(404);
  });
});

describe('GET /media/avatars/:name', () => {
  it('answers 404 for unknown, malformed and path-escaping names', async () => {
    const t = app();
    // A file the route must never reach even though it exists under DATA_DIR.
    await fs.writeFile(path.join(t.dataDir, 'secret.txt'), 'secret');
    for (const name of [
      'AAAAAAAAAAAAAAAAAAAAAA.webp',
      '..%2F..%2Fsecret.txt',
      '..%2Fparley.db',
      '%2e%2e%2fsecret.txt',
      'x.svg',
      'AAAAAAAAAAAAAAAAAAAAAA.webp%00.png',
    ]) {
      const res = await fetch(`${t.baseUrl}/media/avatars/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.text()).not.toContain('secret');
    }
    const traversal = await fetch(`${t.baseUrl}/media/avatars/../../secret.txt`);
    expect(await traversal.text()).not.toBe('secret');
  });
});
