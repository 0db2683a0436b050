import { addMember, createGroup, people } from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';

// Blocks as the tests make them: one person blocking another over HTTP, and a group of three with a block in it.

export const block = (t: TestApp, by: SignedUp, who: SignedUp) =>
  t.post(`/api/users/${who.user.username}/block/`, {}, by.token);

/** Ada, Grace and Alan in Alan's group, where Grace has blocked Ada. */
export async function threeWithABlock(t: TestApp) {
  const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
  const groupId = await createGroup(t, alan.token, 'Three');
  await addMember(t, groupId, ada.user.id);
  await addMember(t, groupId, grace.user.id);
  await block(t, grace, ada);
  return { ada, grace, alan, groupId };
}
