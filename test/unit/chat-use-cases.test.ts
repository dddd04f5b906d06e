/**
 * The chat use-cases with no Slack in sight: a person and a conversation of another
 * platform go in, port messages come out, and what they decide (queued, refused,
 * audited) is the same as on Slack. A third platform only renders these.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage, Span } from '../../src/chat/model.js';
import { plainText } from '../../src/message/rich.js';
import { APP_REPLAY, appReplayers, type ReplayServices } from '../../src/chat/use-cases/replays.js';
import { runCommand } from '../../src/chat/use-cases/command.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import type { Replay } from '../../src/queue/replication-guard.js';
import { dismiss, rerun } from '../../src/chat/use-cases/press.js';
import { fakeServices } from '../support/listener-args.js';

const WORDS = { command: '@rollout-doctor', invite: 'add the app to the team' };
const person = { platform: 'teams', id: '29f1b2c4-0000-4000-8000-00000000abcd', name: 'Ana' };
const conversation = { platform: 'teams', id: '19:abc@thread.tacv2' };

const spans = (message: ChatMessage): Span[] => [...message.summary];

describe('the command use-case, platform-free', () => {
  it('hands the replication guard its job as data, which a restarted app queues again as it was', async () => {
    const confirm = vi.fn(async () => ({ wanted: 1, reached: 0 }));
    const { services, enqueueDiagnose } = fakeServices({ replication: { confirm, socket: () => 0 } });
    await runCommand(services, { person, conversation, text: 'sts/ledger -n pay' }, WORDS);
    const [[queued]] = enqueueDiagnose.mock.calls as unknown as [[DiagnoseJob]];
    const [[writes]] = confirm.mock.calls as unknown as [[{ replay: Replay; redo: () => Promise<void> }]];
    expect(writes).toMatchObject({
      label: 'command',
      replay: { kind: APP_REPLAY.command, data: { job: queued } },
    });
    // The journal's replayer (src/chat/use-cases/replays.ts) writes exactly that job again.
    enqueueDiagnose.mockClear();
    const producers = { enqueueDiagnose } as unknown as ReplayServices['producers'];
    const finishedSince = vi.fn(async () => false);
    const replayers = appReplayers(
      () => ({ producers, subscriptions: { finishedSince } }) as unknown as ReplayServices,
    );
    await replayers[APP_REPLAY.command]?.(JSON.parse(JSON.stringify(writes.replay.data)));
    expect(enqueueDiagnose).toHaveBeenCalledWith(queued);
    // A record journaled before the time was kept (the bare job) is queued again too.
    enqueueDiagnose.mockClear();
    await replayers[APP_REPLAY.command]?.(JSON.parse(JSON.stringify(queued)));
    expect(enqueueDiagnose).toHaveBeenCalledWith(queued);
  });

  it('does not run a lost command again once its run has answered since it was queued', async () => {
    const confirm = vi.fn(async () => ({ wanted: 1, reached: 0 }));
    const finishedSince = vi.fn(async () => true);
    const { services, enqueueDiagnose } = fakeServices({
      replication: { confirm, socket: () => 0 },
      subscriptions: { finishedSince },
    });
    const before = Date.now();
    await runCommand(services, { person, conversation, text: 'sts/ledger -n pay' }, WORDS);
    const [[writes]] = confirm.mock.calls as unknown as [[{ replay: Replay; redo: () => Promise<void> }]];
    enqueueDiagnose.mockClear();
    await writes.redo();
    expect(enqueueDiagnose).not.toHaveBeenCalled();
    const [[cluster, jobId, since]] = finishedSince.mock.calls as unknown as [[string, string, number]];
    expect({ cluster, jobId }).toEqual({ cluster: 'prod', jobId: 'diagnose.pay.ledger~statefulset' });
    expect(since).toBeGreaterThanOrEqual(before);
    // Not answered since: queued again.
    finishedSince.mockResolvedValue(false);
    await writes.redo();
    expect(enqueueDiagnose).toHaveBeenCalledTimes(1);
    const replayers = appReplayers(
      () =>
        ({ producers: { enqueueDiagnose }, subscriptions: { finishedSince } }) as unknown as ReplayServices,
    );
    finishedSince.mockResolvedValue(true);
    await replayers[APP_REPLAY.command]?.(JSON.parse(JSON.stringify(writes.replay.data)));
    expect(enqueueDiagnose).toHaveBeenCalledTimes(1);
  });

  it('a command that joined a run asks whether that run answered, whenever it published', async () => {
    const confirm = vi.fn(async () => ({ wanted: 1, reached: 0 }));
    const finishedSince = vi.fn(async (..._args: unknown[]) => true);
    const { services, enqueueDiagnose } = fakeServices({
      replication: { confirm, socket: () => 0 },
      subscriptions: { finishedSince, subscribe: vi.fn(async () => ({ state: 'none' })) },
    });
    enqueueDiagnose.mockResolvedValueOnce({ jobId: 'job-1', joined: true, joinedRun: 4_242 } as never);
    const reply = await runCommand(services, { person, conversation, text: 'sts/ledger -n pay' }, WORDS);
    // The message subscribes naming the run it joined.
    expect(reply.kind === 'started' && reply.run.joinedRun).toBe(4_242);
    const [[writes]] = confirm.mock.calls as unknown as [[{ replay: Replay; redo: () => Promise<void> }]];
    await writes.redo();
    expect(finishedSince.mock.calls.at(-1)?.[3]).toBe(4_242);
    const replayers = appReplayers(
      () =>
        ({ producers: { enqueueDiagnose }, subscriptions: { finishedSince } }) as unknown as ReplayServices,
    );
    await replayers[APP_REPLAY.command]?.(JSON.parse(JSON.stringify(writes.replay.data)));
    expect(finishedSince.mock.calls.at(-1)?.[3]).toBe(4_242);
    expect(enqueueDiagnose).toHaveBeenCalledTimes(1); // the command itself, never again
  });

  it('queues a diagnosis for the person of any platform and announces it with a mention of them', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const reply = await runCommand(services, { person, conversation, text: 'sts/ledger -n pay' }, WORDS);
    expect(enqueueDiagnose).toHaveBeenCalledWith(
      expect.objectContaining({
        requestedBy: person.id,
        target: { kind: 'StatefulSet', namespace: 'pay', name: 'ledger' },
      }),
      { deadline: expect.objectContaining({ left: expect.any(Function) }) },
    );
    expect(reply.kind).toBe('started');
    if (reply.kind !== 'started') return;
    expect(reply.run).toMatchObject({
      what: 'diagnose',
      deployment: 'ledger',
      owner: { requestedBy: person.id },
    });
    expect(spans(reply.run.announcement)).toContainEqual({ kind: 'mention', person });
    expect(plainText(reply.run.announcement.summary)).toBe(
      'Ana asked for a diagnosis of statefulset/ledger in pay (cluster prod)…',
    );
    expect(plainText(reply.run.cannotPost.summary)).toContain('invite me with add the app to the team');
  });

  it('answers help with the platform’s own command word, privately', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const reply = await runCommand(services, { person, conversation, text: 'help' }, WORDS);
    expect(reply.kind).toBe('private');
    expect(reply.kind === 'private' && plainText(reply.message.summary)).toContain('@rollout-doctor scan');
    expect(enqueueDiagnose).not.toHaveBeenCalled();
  });

  it('keeps what a person typed as text in the problem, never as a mention or link', async () => {
    const { services } = fakeServices();
    const reply = await runCommand(services, { person, conversation, text: '--<at>everyone</at>' }, WORDS);
    expect(reply.kind).toBe('private');
    if (reply.kind !== 'private') return;
    const kinds = new Set(reply.message.summary.map((s) => s.kind));
    expect(kinds.has('mention') || kinds.has('link') || kinds.has('group')).toBe(false);
    expect(reply.message.summary).toContainEqual({ kind: 'code', text: '--<at>everyone</at>' });
  });

  it('refuses a reader the policy does not allow, audited with the platform’s person id', async () => {
    const { services, audit, enqueueDiagnose } = fakeServices({
      readPolicy: { check: vi.fn(async () => ({ allowed: false, reason: 'not from this conversation' })) },
    });
    const reply = await runCommand(services, { person, conversation, text: 'web -n shop' }, WORDS);
    expect(reply.kind === 'private' && plainText(reply.message.summary)).toBe(
      'Not started: not from this conversation.',
    );
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        user: person.id,
        reason: 'not-reader',
        detail: `channel ${conversation.id}`,
      }),
    );
    expect(enqueueDiagnose).not.toHaveBeenCalled();
  });
});

describe('press use-cases, platform-free', () => {
  const message = { conversation, id: '1700000000001' };
  const press = { person, message, root: message };

  it('Re-run queues the same target for the presser and announces it', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const action = {
      kind: 'rerun' as const,
      cluster: 'prod',
      target: { namespace: 'pay', name: 'ledger', kind: 'StatefulSet' as const },
    };
    const reply = await rerun(services, { ...press, action }, action);
    expect(enqueueDiagnose).toHaveBeenCalledWith(expect.objectContaining({ requestedBy: person.id }), {
      deadline: expect.objectContaining({ left: expect.any(Function) }),
    });
    expect(reply.started && plainText(reply.started.announcement.summary)).toBe(
      'Ana re-runs the diagnosis of statefulset/ledger in pay…',
    );
    const unknownCluster = await rerun(services, { ...press, action }, { ...action, cluster: 'elsewhere' });
    expect(unknownCluster).toEqual({});
  });

  it('Dismiss by someone who neither asked nor approves: refused privately, audited, message kept', async () => {
    const { services, audit } = fakeServices({
      policy: { check: vi.fn(async () => ({ allowed: false, reason: 'no', approvers: [] })) },
    });
    const reply = await dismiss(services, { ...press, action: { kind: 'dismiss' } });
    expect(reply.replace).toBeUndefined();
    expect(reply.tell && plainText(reply.tell.summary)).toContain('Only the person who asked');
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ user: person.id, reason: 'not-requester' }),
    );
  });

  it('Dismiss by the requester replaces the message with who dismissed it', async () => {
    const { services } = fakeServices({
      subscriptions: { ownerOf: vi.fn(async () => ({ requestedBy: person.id, cluster: 'prod' })) },
    });
    const reply = await dismiss(services, { ...press, action: { kind: 'dismiss' } });
    expect(reply.replace && plainText(reply.replace.summary)).toBe('Dismissed by Ana.');
  });
});
