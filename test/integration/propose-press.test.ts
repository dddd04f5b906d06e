/**
 * Issue 66.4, end to end in-process: the "Propose in Git" button pressed in chat on a
 * plan of incident A's Deployment, which an Argo CD Application applies from a repository
 * on a real git server (git http-backend on loopback) with a GitHub REST stand-in. The
 * press (src/chat/use-cases/propose-press.ts, real Redis) queues the job; the worker's
 * processor (src/worker/propose-processor.ts, the plan's seal and the proposal's signed
 * approval checked by the real plan trust) runs the engine on the stored plan with the
 * token; its outcome is posted in the thread (src/chat/notify/proposal-delivery.ts).
 * One pull request is opened and its link posted in the thread; a second press updates
 * the same pull request, never a second one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Job } from 'bullmq';
import { k8sTools } from '../../scripts/k8s-tools.js';
import type { ChatAdapter, PressRequest } from '../../src/chat/adapter.js';
import { createProposalApprovals } from '../../src/chat/approvals/proposal-approvals.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { deliverProposal } from '../../src/chat/notify/proposal-delivery.js';
import { plainText } from '../../src/message/rich.js';
import { proposePress } from '../../src/chat/use-cases/propose-press.js';
import { dumpSource } from '../../src/check/dump-source.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { createApprovalPolicy } from '../../src/policy/approval-policy.js';
import { proposeForPlan } from '../../src/propose/for-plan.js';
import { toolsFrom } from '../../src/propose/tool.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import type { Producers } from '../../src/queue/producers.js';
import { notifyJobSchema, type NotifyJobInput, type RemediateJob } from '../../src/queue/schemas.js';
import { sealPlan, shownDigest } from '../../src/trust/plan-seal.js';
import { createPlanTrust } from '../../src/worker/plan-trust.js';
import { createProposeProcessor } from '../../src/worker/propose-processor.js';
import { proposeHarness, TOKEN } from '../support/propose-harness.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const h = proposeHarness();
const ANN = 'U0ANN';
const ASKER = 'U0ASKER';
const THREAD = { channel: 'C0OPS', root: '1700000000.000100', message: '1700000000.000200' };

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

/** Incident A's dump with the Argo CD Application that applies the Deployment from `repoURL`. */
function argoObjects(repoURL: string) {
  const text = readFileSync(h.dump, 'utf8').replace(
    '        deployment.kubernetes.io/revision: "3"\n',
    '        deployment.kubernetes.io/revision: "3"\n        argocd.argoproj.io/tracking-id: vision:apps/Deployment:vision/vision-object-tracker\n',
  );
  const app = [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata: {name: vision, namespace: argocd}',
    'spec:',
    '  project: default',
    `  source: {repoURL: ${repoURL}, path: apps, targetRevision: main}`,
    '  destination: {server: https://kubernetes.default.svc, namespace: vision}',
    '  syncPolicy: {automated: {selfHeal: true}}',
  ].join('\n');
  const file = join(h.root, 'argo-press.yaml');
  writeFileSync(file, `${text}\n---\n${app}\n`);
  return loadObjects(readFileSync(file, 'utf8'));
}

describe('Propose in Git, pressed in chat', () => {
  it('opens one pull request, posts its link in the thread, and a second press updates it', async () => {
    const { url } = await h.repo('propose/plain');
    const objects = argoObjects(url);
    const ref = { kind: 'Deployment' as const, namespace: 'vision', name: 'vision-object-tracker' };
    const snapshot = () => assembleSnapshot(ref, objects, { argocdNamespace: 'argocd' });
    const diagnosis = diagnose(snapshot());
    expect(diagnosis.managedBy?.tool).toBe('argocd');
    const plan = diagnosis.remediations.find((p) => p.kind === 'set-rolling-update');
    if (!plan) throw new Error('incident A offers set-rolling-update');
    const unsealed: StoredPlan = {
      plan,
      cluster: 'prod',
      createdAt: Date.now(),
      expiresAt: Date.now() + 600_000,
    };
    const stored = { ...unsealed, seal: sealPlan(unsealed, testKeys.seal) };
    const plans = createPlanStore(redis);
    await plans.save(stored);

    // The app: the press, decided and queued.
    const queued: RemediateJob[] = [];
    const audit = { record: vi.fn() };
    const app = {
      plans,
      policy: createApprovalPolicy({ approvers: [ANN], rules: [], listGroupMembers: async () => [] }),
      proposals: createProposalApprovals(redis),
      audit,
      producers: {
        enqueuePropose: async (job: RemediateJob) => {
          queued.push(job);
          return { jobId: `propose.${String(queued.length)}` };
        },
      } as unknown as Producers,
      metrics: { commands: { inc: () => undefined } },
      subscriptions: { ownerOf: async () => null },
      config: {
        proposeInGit: true,
        approvalSigningKey: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
      },
      logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
    } as never;
    const conversation = { platform: 'slack', id: THREAD.channel };
    const action = {
      kind: 'propose' as const,
      planId: plan.id,
      shown: shownDigest(stored),
      requester: ASKER,
    };
    // The chat's word on the approver's name (hostile) and the thread's permalink; the second press's lookups fail.
    const LINK = `https://acme.slack.com/archives/${THREAD.channel}/p${THREAD.root.replace('.', '')}`;
    let lookups: PressRequest['lookups'] = {
      nameOf: async (id) => (id === ANN ? 'Ana [x](http://evil) @org/team' : undefined),
      threadLink: async () => LINK,
    };
    const request = () =>
      ({
        person: { platform: 'slack', id: ANN },
        message: { conversation, id: THREAD.message },
        root: { conversation, id: THREAD.root },
        action,
        lookups,
      }) as unknown as PressRequest;

    // The worker: the engine with the token, against the dump as its cluster.
    const notified: NotifyJobInput[] = [];
    const tools = k8sTools();
    const processor = createProposeProcessor({
      plans,
      trust: createPlanTrust({ seal: testKeys.seal, approvalKeys: testKeys.approval.publicKeys, redis }),
      propose: (s, context) =>
        proposeForPlan(
          {
            collect: async () => snapshot(),
            diagnose: (read) => diagnose(read),
            source: dumpSource(objects),
            against: 'the dump',
            token: TOKEN,
            githubApi: h.github().apiBase,
            tools: toolsFrom({ ROLLOUT_DOCTOR_KUBECTL: tools.kubectl, ROLLOUT_DOCTOR_HELM: tools.helm }),
          },
          s.plan,
          context,
        ),
      notify: async (job) => {
        notified.push(job);
      },
      audit,
      logger: { warn: () => undefined, error: () => undefined, info: () => undefined } as never,
    });

    // The thread, as the chat adapter shows it.
    const posted: { thread: string | undefined; text: string }[] = [];
    const chat = {
      platform: 'slack',
      post: async (to: { thread?: string }, message: ChatMessage) => {
        posted.push({ thread: to.thread, text: plainText(message.summary) });
        return { conversation, id: `1700000001.00000${String(posted.length)}` };
      },
    } as unknown as ChatAdapter;

    const pressOnce = async () => {
      const reply = await proposePress(app, request(), action);
      expect(plainText(reply.tell?.summary ?? [])).toContain('Proposing set-rolling-update in Git');
      const job = queued.at(-1);
      await processor({ id: `propose.${String(queued.length)}`, data: job } as unknown as Job<RemediateJob>);
      const outcome = notifyJobSchema.parse(notified.at(-1));
      if (outcome.kind !== 'proposal-outcome') throw new Error(`not a proposal outcome: ${outcome.kind}`);
      await deliverProposal({ logger: app['logger' as never], chats: { slack: chat }, plans }, outcome);
      return outcome;
    };

    const first = await pressOnce();
    expect(first).toMatchObject({ status: 'opened', number: 1 });
    expect(h.github().pulls).toHaveLength(1);
    expect(h.pushes()).toBe(1);
    expect(posted).toEqual([
      {
        thread: THREAD.root,
        text: expect.stringContaining(`Pull request #1 opened for set-rolling-update`) as unknown as string,
      },
    ]);
    expect(posted[0]?.text).toContain(first.url ?? 'no url');
    expect(first.url).toMatch(/\/pull\/1$/);
    // The body: the incident, the thread's link, the approver by (escaped) name beside the id.
    const body = h.github().pulls[0]?.body ?? '';
    expect(body).toContain('**Incident**: prod/vision/vision-object-tracker');
    expect(body).toContain(`**Thread**: ${LINK}`);
    expect(body).toContain(`**Approved by**: Ana \\[x\\](http:\u200b//evil) @\u200borg/team (${ANN})`);

    lookups = {
      nameOf: () => Promise.reject(new Error('users.info: ratelimited')),
      threadLink: () => new Promise(() => undefined),
    };

    const second = await pressOnce();
    expect(second).toMatchObject({ status: 'updated', number: 1, url: first.url });
    expect(h.github().pulls).toHaveLength(1);
    expect(posted).toHaveLength(2);
    expect(posted[1]?.text).toContain('Pull request #1 updated');
    // Lookups that fail or never answer: the id, said so, and no link; the proposal went on.
    const updated = h.github().pulls[0]?.body ?? '';
    expect(updated).toContain(`**Approved by**: ${ANN} (name not known)`);
    expect(updated).toContain('**Thread**: no link (the chat gave none).');
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'proposal', outcome: 'opened', url: first.url }),
    );
  }, 60_000);
});
