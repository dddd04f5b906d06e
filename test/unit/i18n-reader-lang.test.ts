/**
 * The reader's language as each platform says it: a Slack user's locale through
 * users.info (cached, bounded in time, the workspace's language when not known), and
 * the language a command carries into its run (the thread keeps it) and its job.
 */
import { describe, expect, it, vi } from 'vitest';
import { createSlackUsers } from '../../src/chat/slack/user-info.js';
import { runCommand } from '../../src/chat/use-cases/command.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { diagnoseJobSchema } from '../../src/queue/schemas.js';
import { fakeServices } from '../support/listener-args.js';
import { plainText } from '../../src/message/rich.js';

type UsersInfo = (args: { user: string; include_locale: boolean }) => Promise<{ user?: { locale?: string } }>;
const clientOf = (info: UsersInfo) => ({ users: { info } }) as never;

describe('a Slack user’s language', () => {
  it('is read with include_locale once, then from the cache', async () => {
    const info = vi.fn<UsersInfo>(async () => ({ user: { locale: 'ko-KR' } }));
    const locales = createSlackUsers();
    expect(await locales.langOf(clientOf(info), 'U0KO')).toBe('ko');
    expect(await locales.langOf(clientOf(info), 'U0KO')).toBe('ko');
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith({ user: 'U0KO', include_locale: true });
  });

  it('is not known for a locale we have no language for, a slow answer or a failure', async () => {
    const locales = createSlackUsers({ timeoutMs: 20 });
    expect(
      await locales.langOf(
        clientOf(async () => ({ user: { locale: 'fr-FR' } })),
        'U0FR',
      ),
    ).toBeUndefined();
    expect(
      await locales.langOf(
        clientOf(() => new Promise(() => undefined)),
        'U0SLOW',
      ),
    ).toBeUndefined();
    expect(
      await locales.langOf(
        clientOf(async () => {
          throw new Error('missing_scope');
        }),
        'U0ERR',
      ),
    ).toBeUndefined();
  });

  it('asks again a minute after a failure, and hours after an answer', async () => {
    let now = 0;
    const info = vi.fn<UsersInfo>(async () => {
      throw new Error('ratelimited');
    });
    const locales = createSlackUsers({ now: () => now });
    await locales.langOf(clientOf(info), 'U0A');
    now = 59_000;
    await locales.langOf(clientOf(info), 'U0A');
    expect(info).toHaveBeenCalledTimes(1);
    now = 61_000;
    info.mockResolvedValue({ user: { locale: 'ko_KR' } });
    expect(await locales.langOf(clientOf(info), 'U0A')).toBe('ko');
    expect(info).toHaveBeenCalledTimes(2);
  });
});

describe('the language a command carries', () => {
  const person = { platform: 'slack', id: 'U0ASK' };
  const conversation = { platform: 'slack', id: 'C0INC' };
  const words = { command: '/rollout-doctor', invite: '/invite @rollout-doctor' };

  it('goes into the run the thread keeps, and into the job', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const reply = await runCommand(
      services,
      { person, conversation, text: 'web -n shop', lang: 'ko' },
      words,
    );
    expect(reply.kind === 'started' && reply.run.owner.lang).toBe('ko');
    const [[job]] = enqueueDiagnose.mock.calls as unknown as [[DiagnoseJob]];
    expect(job.lang).toBe('ko');
  });

  it('announces the run in that language: the first message of the thread', async () => {
    const { services } = fakeServices();
    const ask = (text: string) =>
      runCommand(services, { person: { ...person, name: 'Ana' }, conversation, text, lang: 'ko' }, words);
    const diagnosis = await ask('web -n shop');
    if (diagnosis.kind !== 'started') throw new Error('not started');
    expect(plainText(diagnosis.run.announcement.summary)).toBe(
      'Ana 님이 shop 네임스페이스의 deployment/web 진단을 요청했습니다(클러스터 prod)…',
    );
    expect(plainText(diagnosis.run.cannotPost.summary)).toBe(
      '이 채널에 메시지를 올리지 못했습니다(/invite @rollout-doctor로 초대해 주세요). 요청한 작업(deployment/web in shop)은 그대로 진행됩니다.',
    );
  });

  it('is the workspace’s when the platform says none', async () => {
    const { services } = fakeServices();
    const withDefault = { ...services, config: { ...services.config, lang: 'ko' as const } };
    const reply = await runCommand(withDefault, { person, conversation, text: 'web -n shop' }, words);
    expect(reply.kind === 'started' && reply.run.owner.lang).toBe('ko');
  });

  it('is optional on a job: an older job reads as the default, an unknown language as none', () => {
    const job = { mode: 'scan', cluster: 'prod', requestedBy: 'U0ASK' };
    expect(diagnoseJobSchema.parse(job)).toEqual(job);
    expect(diagnoseJobSchema.parse({ ...job, lang: 'ko' })).toMatchObject({ lang: 'ko' });
    expect(diagnoseJobSchema.parse({ ...job, lang: 'xx' }).lang).toBeUndefined();
  });
});
