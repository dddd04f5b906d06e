/**
 * The Slack Web API stand-in in a process of its own, for the acknowledgement
 * benchmark: the real app posts a message per command, and answering those posts
 * inside the benchmark process would delay the load generator's timers and response
 * reads for the real app only (the bare app posts nothing), which is not what is
 * being compared. Prints `slack stand-in <apiUrl> <calls>` once listening, and the
 * call count on SIGTERM. Reads SLACK_BOT_TOKEN.
 */
import { startSlackStandin } from '../test/support/slack-standin.js';

const slack = await startSlackStandin({ botToken: process.env.SLACK_BOT_TOKEN ?? 'xoxb-bench' });
console.log(`slack stand-in ${slack.apiUrl}`);
process.on('SIGTERM', () => {
  console.log(`slack stand-in calls ${slack.calls.length}`);
  void slack.close().then(() => process.exit(0));
});
