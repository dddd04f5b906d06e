/**
 * Issue 66.3: what a Propose in Git press asks the chat for the pull request's body. Slack
 * names a person through users.info (real name, else display name; cached with the
 * locale) and links the thread through chat.getPermalink, else from the click's domain;
 * Teams names the presser alone and gives no link. A lookup that fails, is slow or gives
 * something unusable leaves the id and no link: the press goes on.
 */
import { describe, expect, it, vi } from 'vitest';
import { builtPermalink, slackPressLookups } from '../../src/chat/slack/press-lookups.js';
import { createSlackUsers } from '../../src/chat/slack/user-info.js';
import { teamsPressLookups } from '../../src/chat/teams/press-lookups.js';
import { pressRecord } from '../../src/chat/use-cases/propose-record.js';

const place = { channel: 'C0OPS', rootTs: '1700000000.000100', teamDomain: 'acme' };
const PERMALINK = 'https://acme.slack.com/archives/C0OPS/p1700000000000100';

function slackClient(options: { info?: () => Promise<unknown>; permalink?: () => Promise<unknown> }) {
  const info = vi.fn(options.info ?? (async () => ({ user: { real_name: 'Ana Kim', locale: 'ko-KR' } })));
  const getPermalink = vi.fn(options.permalink ?? (async () => ({ ok: true, permalink: PERMALINK })));
  return { client: { users: { info }, chat: { getPermalink } } as never, info, getPermalink };
}

describe('Slack’s lookups', () => {
  it('names a person from users.info, one call for the name and the locale', async () => {
    const { client, info } = slackClient({});
    const users = createSlackUsers();
    const lookups = slackPressLookups(client, users, place);
    expect(await lookups.nameOf('U0ANN')).toBe('Ana Kim');
    expect(await users.langOf(client, 'U0ANN')).toBe('ko');
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith({ user: 'U0ANN', include_locale: true });
  });

  it('takes the display name when there is no real name, and none when neither is given', async () => {
    const display = slackClient({
      info: async () => ({ user: { profile: { real_name: ' ', display_name: 'ana' } } }),
    });
    expect(await slackPressLookups(display.client, createSlackUsers(), place).nameOf('U0ANN')).toBe('ana');
    const bare = slackClient({ info: async () => ({ user: {} }) });
    expect(await slackPressLookups(bare.client, createSlackUsers(), place).nameOf('U0ANN')).toBeUndefined();
  });

  it('a users.info refused or late: no name', async () => {
    const refused = slackClient({ info: () => Promise.reject(new Error('missing_scope')) });
    expect(
      await slackPressLookups(refused.client, createSlackUsers(), place).nameOf('U0ANN'),
    ).toBeUndefined();
    const late = slackClient({ info: () => new Promise(() => undefined) });
    const users = createSlackUsers({ timeoutMs: 20 });
    expect(await slackPressLookups(late.client, users, place).nameOf('U0ANN')).toBeUndefined();
  });

  it('links the thread root through chat.getPermalink', async () => {
    const { client, getPermalink } = slackClient({});
    expect(await slackPressLookups(client, createSlackUsers(), place).threadLink()).toBe(PERMALINK);
    expect(getPermalink).toHaveBeenCalledWith({ channel: 'C0OPS', message_ts: '1700000000.000100' });
  });

  it('chat.getPermalink refused or late: the link built from the domain; no domain: none', async () => {
    const refused = slackClient({ permalink: () => Promise.reject(new Error('channel_not_found')) });
    expect(await slackPressLookups(refused.client, createSlackUsers(), place).threadLink()).toBe(PERMALINK);
    const late = slackClient({ permalink: () => new Promise(() => undefined) });
    const lookups = slackPressLookups(
      late.client,
      createSlackUsers(),
      { ...place, teamDomain: undefined },
      20,
    );
    expect(await lookups.threadLink()).toBeUndefined();
    expect(builtPermalink({ ...place, teamDomain: 'evil.com/x?' })).toBeUndefined();
    expect(builtPermalink({ ...place, rootTs: '1/2' })).toBeUndefined();
  });
});

describe('Teams’ lookups', () => {
  it('name the presser as the activity did, nobody else, and give no link', async () => {
    const lookups = teamsPressLookups({ platform: 'teams', id: 'a-b', name: 'Ana Kim' });
    expect(await lookups.nameOf('a-b')).toBe('Ana Kim');
    expect(await lookups.nameOf('c-d')).toBeUndefined();
    expect(await lookups.threadLink()).toBeUndefined();
  });
});

describe('what the press sends for the body', () => {
  it('the names read and the link, each approver once', async () => {
    const lookups = { nameOf: async (id: string) => `name of ${id}`, threadLink: async () => PERMALINK };
    expect(await pressRecord(lookups, ['U0ANN', 'U0BOB'])).toEqual({
      names: [
        { id: 'U0ANN', name: 'name of U0ANN' },
        { id: 'U0BOB', name: 'name of U0BOB' },
      ],
      threadLink: PERMALINK,
    });
  });

  it('a lookup that throws, hangs or answers nothing usable is left out, in time', async () => {
    const lookups = {
      nameOf: async (id: string) => {
        if (id === 'U0ANN') throw new Error('ratelimited');
        if (id === 'U0BOB') return new Promise<string>(() => undefined);
        return '   ';
      },
      threadLink: async () => 'javascript:alert(1)',
    };
    const started = Date.now();
    expect(await pressRecord(lookups, ['U0ANN', 'U0BOB', 'U0CAT'], { ms: 30 })).toEqual({});
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pressRecord(undefined, ['U0ANN'])).toEqual({});
  });

  it('an approver the chat does not name is named as the policy file names them', async () => {
    const teams = teamsPressLookups({ platform: 'teams', id: 'a-b', name: 'Ana Kim' });
    const known = { 'c-d': 'Bo Park', 'a-b': 'Ana (policy)' };
    expect(await pressRecord(teams, ['a-b', 'c-d', 'e-f'], { known })).toEqual({
      names: [
        { id: 'a-b', name: 'Ana Kim' },
        { id: 'c-d', name: 'Bo Park' },
      ],
    });
    expect(await pressRecord(undefined, ['c-d'], { known })).toEqual({
      names: [{ id: 'c-d', name: 'Bo Park' }],
    });
  });

  it('cuts a long name to what the job takes', async () => {
    const lookups = { nameOf: async () => 'x'.repeat(500), threadLink: async () => undefined };
    expect((await pressRecord(lookups, ['U0ANN'])).names?.[0]?.name).toHaveLength(200);
  });
});
