/**
 * The comparison for the Slack acknowledgement benchmark: a bare Bolt app in HTTP
 * mode that only acks `/rollout-doctor`, with the same receiver settings as the real
 * app (signature check, default token verification: one auth.test at start). Run as
 * a child process by bench/slack-ack.ts; reads PORT, SLACK_SIGNING_SECRET,
 * SLACK_BOT_TOKEN and SLACK_API_URL.
 */
import { createServer } from 'node:http';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { z } from 'zod';

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535),
    SLACK_SIGNING_SECRET: z.string().min(1),
    SLACK_BOT_TOKEN: z.string().startsWith('xoxb-'),
    SLACK_API_URL: z.url(),
  })
  .parse(process.env);

const receiver = new HTTPReceiver({
  signingSecret: env.SLACK_SIGNING_SECRET,
  endpoints: '/slack/events',
  processBeforeResponse: false,
  logLevel: LogLevel.ERROR,
});
const app = new App({
  token: env.SLACK_BOT_TOKEN,
  receiver,
  logLevel: LogLevel.ERROR,
  clientOptions: { slackApiUrl: env.SLACK_API_URL },
  deferInitialization: true,
});
app.command('/rollout-doctor', async ({ ack }) => {
  await ack();
});
await app.init();
const server = createServer((req, res) => receiver.requestListener(req, res));
server.listen(env.PORT, '127.0.0.1', () => console.log('bare bolt app started'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
