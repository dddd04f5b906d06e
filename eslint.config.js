// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or handles loses its rejection (an
    // unhandled rejection kills the process) and its ordering; a promise handed where
    // a void callback is expected (event emitters, Bolt listeners) is not awaited by
    // the caller. The project service uses tsconfig.json, which covers every .ts file.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Slack text objects are built only by src/chat/slack/blocks/text.ts, whose builders take
    // the Mrkdwn brand (src/chat/slack/blocks/mrkdwn.ts): an inline { type: 'mrkdwn', text }
    // literal would bypass the escaping.
    files: ['src/**/*.ts'],
    ignores: ['src/chat/slack/blocks/text.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='type'][value.value=/^(mrkdwn|plain_text)$/]",
          message:
            'Build Slack text with section/context/plain from src/chat/slack/blocks/text.ts (Mrkdwn only).',
        },
        {
          // trusted() is for text we wrote; anything assembled at run time may carry cluster text.
          selector:
            "CallExpression[callee.name='trusted'] > :matches(TemplateLiteral, BinaryExpression, CallExpression, ConditionalExpression).arguments",
          message:
            'trusted() takes a literal we wrote; use mrkdwn`…` or escapeMrkdwn() for anything built at run time.',
        },
      ],
    },
  },
);
