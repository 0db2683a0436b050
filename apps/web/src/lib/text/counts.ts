// Counts in words, in the singular for one (SPEC's 'N chats' / 'N members' would read '1 chats').

export const countText = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const memberCountText = (n: number) => countText(n, 'member', 'members');
