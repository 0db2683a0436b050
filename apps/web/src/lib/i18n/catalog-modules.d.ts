// A catalog imported with `?lingui` is compiled by @lingui/vite-plugin: its messages, ready for i18n.load.
declare module '*.json?lingui' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
