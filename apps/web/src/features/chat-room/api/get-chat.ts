import { useQuery } from '@tanstack/react-query';
import { chatQuery } from './room-queries';

export { getChat } from './room-queries';

export const useChat = (chatId: string) => useQuery(chatQuery(chatId));
