// A commit reads as a changelog entry: `area: what changed`, 72 characters at most, a blank line, then a body
// that says why and what was measured or tested. The area is one or more lower-case words naming the part of
// the project (web, chat-room, e2e, bench), not conventional commits' list of types. `npm run lint:commits`
// checks every commit since the first one written this way; CI runs it (.ci/run).
export default {
  extends: ['@commitlint/config-conventional'],
  parserPreset: {
    parserOpts: {
      // Any area up to the first colon (hyphens and spaces allowed; type-case below wants it lower-case).
      headerPattern: /^([^:()\s][^:()]*?)(?:\(([^()]*)\))?!?: (.+)$/,
      headerCorrespondence: ['type', 'scope', 'subject'],
    },
  },
  rules: {
    'type-enum': [0],
    'type-case': [2, 'always', 'lower-case'],
    'type-empty': [2, 'never'],
    'header-max-length': [2, 'always', 72],
    'subject-full-stop': [2, 'never', '.'],
    // A subject may open with a proper noun (PostgreSQL, Redis, Lighthouse).
    'subject-case': [0],
    'body-empty': [2, 'never'],
    'body-leading-blank': [2, 'always'],
    // Lines holding a URL are exempt.
    'body-max-line-length': [2, 'always', 100],
  },
  helpUrl: 'README.md, "Commits": `area: what changed` in 72 characters or fewer, a blank line, then why',
};
