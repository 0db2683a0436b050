import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { createGroup, myChats, newClientId, people, startChat } from './chat-helpers';

// The chat list says when its preview is Parley's words rather than a person's, so the app can show a system
// line or the deleted placeholder in the reader's language and leave what people wrote as they wrote it.
const app = useTestApp();

describe('the kind of a chat list preview', () => {
  it('marks a system line and a deleted message, and nothing a person wrote', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const groupId = await createGroup(app(), ada.token, 'Kinds');
    const added = await app().post(
      `/api/chats/${groupId}/members/`,
      { members: [grace.user.username] },
      ada.token,
    );
    expect(added.status, added.text).toBeLessThan(300);
    const chatId = await startChat(app(), ada.token, grace.user.username);
    // A person may write what looks like a system line: it is theirs.
    const sent = await app().post(
      `/api/chats/${chatId}/messages/`,
      { body: 'Ada pinned a message', client_id: newClientId() },
      ada.token,
    );
    expect(sent.status, sent.text).toBe(201);

    let list = await myChats(app(), grace.token);
    const group = list.find((c) => c.chat_id === groupId);
    expect(group?.last_message).toMatch(/added/);
    expect(group?.last_message_kind).toBe('system');
    const direct = list.find((c) => c.chat_id === chatId);
    expect(direct?.last_message).toBe('Ada pinned a message');
    expect(direct).not.toHaveProperty('last_message_kind');

    const gone = await app().del(`/api/chats/${chatId}/messages/${sent.body.id}/`, ada.token);
    expect(gone.status, gone.text).toBeLessThan(300);
    list = await myChats(app(), grace.token);
    expect(list.find((c) => c.chat_id === chatId)?.last_message_kind).toBe('deleted');
  });
});
