import {
  botCommandAnswerSchema,
  botCommandCallSchema,
  botCommandCreateSchema,
  botCommandListSchema,
  botCommandSchema,
  chatCommandListSchema,
  commandResultSchema,
  commandRunSchema,
} from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of slash commands' routes (commands.routes.ts): see src/api-catalog.ts.

const params = idParams('id');

export const commandsApi: ApiSection = {
  tag: 'Commands',
  description:
    "Slash commands: the built-in ones (/me, /shrug, /topic, /invite, /leave, /mute) and those a chat's bots register. A bot's command is POSTed to its `url`, signed as its events are, with `{command, args, chat_id, user}`; its JSON answer `{text, visibility: 'chat' | 'me'}` within 3 s is posted or shown.",
  outgoing: [
    {
      name: 'botCommand',
      summary: "A bot's slash command typed in a chat, POSTed to the command's url",
      description:
        "Answered within 3 s: `visibility: 'chat'` posts the text as the bot, `'me'` (the default) shows it to the person alone. No answer in time: 'The command did not answer in time.'",
      body: botCommandCallSchema,
      answer: botCommandAnswerSchema,
    },
  ],
  routes: [
    {
      method: 'GET',
      path: '/api/chats/:chatId/commands/',
      summary: 'The commands one can type in a chat',
      auth: 'token',
      responses: { 200: chatCommandListSchema },
    },
    {
      method: 'POST',
      path: '/api/chats/:chatId/commands/',
      summary: 'Run a command in a chat',
      auth: 'token',
      body: commandRunSchema,
      responses: { 200: commandResultSchema },
      errors: [429, 502],
    },
    {
      method: 'GET',
      path: '/api/bots/:id/commands/',
      summary: "A bot's commands",
      auth: 'session',
      params,
      responses: { 200: botCommandListSchema },
    },
    {
      method: 'POST',
      path: '/api/bots/:id/commands/',
      summary: 'Register a command for a bot (a name it already has is replaced)',
      auth: 'session',
      params,
      body: botCommandCreateSchema,
      responses: { 201: botCommandSchema },
    },
    {
      method: 'DELETE',
      path: '/api/bots/:id/commands/:command/',
      summary: "Remove a bot's command",
      auth: 'session',
      params,
      responses: { 204: null },
    },
  ],
};
