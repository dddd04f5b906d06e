import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { isFutureDated } from '../../src/app/slack-app.js';
import { slackSignature } from '../support/slack-sign.js';
import type { IncomingMessage } from 'node:http';

// Slack's "Verifying requests from Slack" worked example (DESIGN.md §6).
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TIMESTAMP = 1531420618;
const BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';

describe('Slack request signing', () => {
  it('reproduces Slack’s worked example', () => {
    expect(slackSignature(SECRET, TIMESTAMP, BODY)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('is accepted by Bolt’s verifier at the example’s time and refused with one byte changed', () => {
    const headers = {
      'x-slack-signature': slackSignature(SECRET, TIMESTAMP, BODY),
      'x-slack-request-timestamp': TIMESTAMP,
    };
    expect(() =>
      verifySlackRequest({ signingSecret: SECRET, body: BODY, headers, nowMilliseconds: TIMESTAMP * 1000 }),
    ).not.toThrow();
    expect(() =>
      verifySlackRequest({
        signingSecret: SECRET,
        body: `${BODY}x`,
        headers,
        nowMilliseconds: TIMESTAMP * 1000,
      }),
    ).toThrow(/signature mismatch/);
  });

  it('flags timestamps more than five minutes ahead, not within the window', () => {
    const now = TIMESTAMP * 1000;
    const req = (ts: number) =>
      ({ headers: { 'x-slack-request-timestamp': String(ts) } }) as unknown as IncomingMessage;
    expect(isFutureDated(req(TIMESTAMP + 301), now)).toBe(true);
    expect(isFutureDated(req(TIMESTAMP + 299), now)).toBe(false);
    expect(isFutureDated(req(TIMESTAMP - 1000), now)).toBe(false);
  });
});
