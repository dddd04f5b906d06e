/**
 * The Argo Rollout kind (issue 30.3) on objects shaped as the API server returns them:
 * the canary's fenceposts as argo-rollouts resolves them, the canary pod Pending on the
 * GPU the stable pod holds (RolloutSurgeDeadlock: the canary's bounds, then the abort),
 * blue-green and a traffic-routed canary (no field helps: only the abort), the
 * controller's phase read as it wrote it (Paused, aborted, invalid spec, a passed
 * deadline), and a Rollout's pods known by their owner.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { impactInWords, planImpact, planWarnings } from '../../src/remediation/plan-words.js';
import { codeSpan } from '../../src/text/code-span.js';
import { hasProblems } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { projectPod } from '../../src/worker/early-warning/signals.js';
import { workloadKind, workloadOfPod } from '../../src/diagnosis/workloads/index.js';
import { makeDeployment, makeNode } from '../support/k8s-builders.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { scanDump } from '../../src/cli/scan-dump.js';
import { scanEntry } from '../../src/kube/read/scan.js';
import { renderScan } from '../../src/cli/commands/scan.js';
import { isRolloutObjects } from '../../src/diagnosis/snapshot/types.js';
import {
  makeRollout,
  makeRolloutPod,
  makeRolloutReplicaSet,
  makeRolloutSnapshot,
  trackerMidUpdate,
} from '../support/rollout-builders.js';

type Strategy = ArgoRollout['spec']['strategy'];

describe('Argo Rollout strategy, as argo-rollouts resolves it', () => {
  const resolve = (strategy: Strategy, replicas = 4) =>
    workloadKind('Rollout').strategy(makeRollout('r', { strategy, replicas }));

  it('defaults both bounds to 25 (a percentage): surge rounds up, unavailable down', () => {
    const s = resolve({ canary: {} }, 1);
    expect(s).toMatchObject({ argo: 'canary', maxSurge: { raw: '25%', value: 1, source: 'default' } });
    expect(s.maxUnavailable).toMatchObject({ value: 0, source: 'default' });
  });

  it('reads a string as a percentage even without "%", makes 0/0 unavailable 1, caps unavailable at replicas', () => {
    expect(resolve({ canary: { maxSurge: '50', maxUnavailable: 0 } }).maxSurge?.value).toBe(2);
    expect(resolve({ canary: { maxSurge: 0, maxUnavailable: 0 } }).maxUnavailable?.value).toBe(1);
    expect(resolve({ canary: { maxSurge: 1, maxUnavailable: 9 } }, 2).maxUnavailable?.value).toBe(2);
  });

  it('models blue-green and a traffic-routed canary as keeping every stable pod', () => {
    expect(resolve({ blueGreen: { activeService: 'a', previewReplicaCount: 1 } })).toMatchObject({
      argo: 'blueGreen',
      maxSurge: { value: 1, source: 'explicit' },
      maxUnavailable: { value: 0 },
    });
    expect(resolve({ canary: { trafficRouting: { nginx: {} }, maxUnavailable: 2 } })).toMatchObject({
      argo: 'trafficRouted',
      maxUnavailable: { value: 0 },
    });
  });
});

describe('Argo Rollout surge deadlock', () => {
  it('names the canary pod waiting for the GPU the stable pod holds, and offers the canary bounds, then the abort', () => {
    const diagnosis = diagnose(trackerMidUpdate());
    const [finding] = diagnosis.findings;
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toContain('held by old pod tracker-a1-s0 of this Rollout');
    expect(finding?.explanation).toContain('maxSurge 0 / maxUnavailable 1 on spec.strategy.canary');
    expect(finding?.explanation).toContain('prints "Progressing - more replicas need to be updated"');
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['set-rolling-update', 'abort-rollout']);
    const [fix, abort] = diagnosis.remediations;
    // The bounds the Undo puts back, as Argo Rollouts defaults them (25%, not 25).
    expect(fix?.warnings[0]).toContain(
      'Undo restores the previous canary bounds (maxSurge 25% (default), maxUnavailable 25% (default))',
    );
    expect(fix?.patch).toEqual({
      type: 'merge',
      body: { spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } } },
    });
    expect(fix?.preconditions.fields.map((f) => f.path)).toEqual([
      '/spec/strategy/canary/maxSurge',
      '/spec/strategy/canary/maxUnavailable',
      '/spec/replicas',
    ]);
    expect(abort?.patch).toEqual({ type: 'merge', body: { status: { abort: true } } });
    expect(abort?.preconditions.fields).toEqual([
      { path: '/status/abort', value: undefined },
      { path: '/status/currentPodHash', value: 'b2' },
      { path: '/status/stableRS', value: 'a1' },
    ]);
    expect(abort?.summary).toContain('ReplicaSet tracker-b2 (revision 2) to 0');
    // The evidence names the canary and Argo's defaults, not a Deployment's.
    const text = renderText(diagnosis);
    expect(text).toContain('Strategy: Canary (Argo Rollouts), replicas 1');
    expect(text).toContain('maxSurge        25%   -> 1  (Argo Rollouts default, not set in the manifest)');
    expect(text).not.toContain('kubectl describe');
  });

  it('blue-green: no field lets the active pod go first, so only the abort, and the strategy fix says why it is absent', () => {
    const snapshot = trackerMidUpdate({ blueGreen: { activeService: 'tracker' } });
    // A quota refusing the preview pods would wait forever too: the active pods stay.
    expect(workloadKind(snapshot).keepsOldPods(snapshot)).toBe(true);
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(diagnosis.findings[0]?.summary).toContain(
      'blue-green (1 preview pod(s) beside the 1 active one(s)',
    );
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['abort-rollout']);
    expect(JSON.stringify(diagnosis.notOffered ?? [])).toContain('blue-green keeps every stable pod');
  });

  it('says when an abort removes the new pods: a basic canary at once, blue-green after its delay, never with 0', () => {
    const abortOf = (strategy: Strategy) =>
      diagnose(trackerMidUpdate(strategy)).remediations.find((p) => p.kind === 'abort-rollout');
    expect(abortOf(undefined)?.impact).toContain('its pods (the stuck one too) are removed at once');
    const blueGreen = abortOf({ blueGreen: { activeService: 'tracker' } });
    expect(blueGreen?.summary).toContain('to 0 after abortScaleDownDelaySeconds (30 s, the default)');
    expect(blueGreen?.impact).toContain('removed after abortScaleDownDelaySeconds (30 s, the default)');
    const kept = abortOf({ blueGreen: { activeService: 'tracker', abortScaleDownDelaySeconds: 0 } });
    expect(kept?.summary).toContain('nowhere: abortScaleDownDelaySeconds is 0');
    expect(kept?.impact).toContain('the stuck one stays Pending');
    expect(kept?.impact).not.toContain('removed');
    const routed = abortOf({ canary: { trafficRouting: { nginx: {} }, abortScaleDownDelaySeconds: 120 } });
    expect(routed?.impact).toContain('removed after abortScaleDownDelaySeconds (120 s)');
  });

  it("a Korean reader gets the canary fix's and the abort's impact and warnings in Korean; English stays as stored", () => {
    const plans = diagnose(trackerMidUpdate(undefined)).remediations;
    const fix = plans.find((p) => p.kind === 'set-rolling-update');
    const abort = plans.find((p) => p.kind === 'abort-rollout');
    if (!fix || !abort) throw new Error('expected the canary fix and the abort');
    expect(planImpact(fix, 'ko')).toMatch(/^지금과 이후의 모든 업데이트에서 .*카나리 파드/);
    expect(planWarnings(fix, 'ko')[0]).toBe(
      '되돌리면 이전 카나리 설정(maxSurge 25%(기본값), maxUnavailable 25%(기본값))으로 돌아가서 다음 업데이트가 다시 교착 상태(deadlock)가 됩니다.',
    );
    expect(planImpact(abort, 'ko')).toBe(
      '새 버전의 롤아웃이 멈춥니다: 업데이트의 파드(멈춘 파드 포함)가 바로 제거됩니다. 안정 버전 파드가 서비스합니다. Rollout은 Degraded(RolloutAborted) 상태가 되고, spec.template을 안정 버전으로 되돌리거나 업데이트를 다시 시도할 때까지 그대로입니다.',
    );
    expect(planWarnings(abort, 'ko')).toEqual([
      `spec.template에는 여전히 새 버전이 있습니다: ${codeSpan('kubectl argo rollouts retry')} 명령(또는 템플릿 변경)으로 같은 업데이트가 다시 시작되고, 원인을 고칠 때까지 같은 방식으로 막힙니다.`,
      '되돌리기는 없습니다: 업데이트가 끝날 수 있게 되면 다시 시도하는 것이 돌아가는 길입니다.',
    ]);
    expect(abort.impactSaid && impactInWords(abort.impactSaid, 'en')).toBe(abort.impact);
    expect(abort.impact).toBe(
      'The new version stops rolling out: its pods (the stuck one too) are removed at once; the stable pods serve. The Rollout turns Degraded (RolloutAborted) and stays so until spec.template is reverted to the stable version or the update is retried.',
    );
  });

  it('a traffic-routed canary with a setWeight step ahead: a deadlock beside the kept stable pods, not Unschedulable', () => {
    // 2 GPUs, 2 stable pods: the step needs 1 canary beside 2 stable ones, the end state 2 beside 2;
    // with the stable pods gone the 2 canary pods fit, so it is the kept stable pods that block it.
    const snapshot = trackerMidUpdate(
      { canary: { trafficRouting: { nginx: {} }, steps: [{ setWeight: 50 }, { pause: {} }] } },
      2,
    );
    const diagnosis = diagnose(snapshot);
    const codes = diagnosis.findings.map((f) => f.code);
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['abort-rollout']);
    // Its stable pods stay until promotion whatever maxSurge says: the why says so, not "maxSurge 2".
    const lead = diagnosis.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(lead?.explanation).toMatch(/^A traffic-routed canary keeps every stable pod until it is promoted/);
    expect(lead?.explanation).not.toContain('creates new pods first');
    // A basic canary's why keeps the surge bounds.
    const basic = diagnose(trackerMidUpdate()).findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(basic?.explanation).toMatch(/^The controller creates new pods first \(maxSurge 1\)/);
  });

  it('kubectl argo rollouts status waits with no end while paused or at an analysis step; else until the deadline', () => {
    const explanation = (edit: (rollout: ArgoRollout) => void) => {
      const snapshot = trackerMidUpdate({
        canary: { steps: [{ setWeight: 50 }, { analysis: { templates: [{ templateName: 'p' }] } }] },
      });
      edit(workloadKind(snapshot).object(snapshot) as ArgoRollout);
      return diagnose(snapshot).findings.find((f) => f.code === 'RolloutSurgeDeadlock')?.explanation ?? '';
    };
    const deadline = 'until progressDeadlineSeconds (600 s) pass, then Degraded';
    expect(explanation(() => {})).toContain(deadline);
    const paused = explanation((r) => (r.spec.paused = true));
    expect(paused).toContain(
      'waits with no end: the controller does not count progressDeadlineSeconds while the Rollout is paused',
    );
    expect(paused).not.toContain(deadline);
    const atAnalysis = explanation((r) => (r.status = { ...r.status, currentStepIndex: 1 }));
    expect(atAnalysis).toContain('does not count progressDeadlineSeconds at an analysis or experiment step');
    expect(atAnalysis).not.toContain(deadline);
  });

  it('an aborted traffic-routed canary whose canary pod still waits is no deadlock: it is not trying to finish', () => {
    const snapshot = trackerMidUpdate({
      canary: { trafficRouting: { nginx: {} }, abortScaleDownDelaySeconds: 0, steps: [{ setWeight: 50 }] },
    });
    const rollout = workloadKind(snapshot).object(snapshot) as ArgoRollout;
    rollout.status = {
      ...rollout.status,
      abort: true,
      phase: 'Degraded',
      message: 'RolloutAborted: Rollout aborted update to revision 2',
    };
    const codes = diagnose(snapshot).findings.map((f) => f.code);
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
  });

  it('no deadlock when the canary may take a stable pod down first (maxUnavailable 1)', () => {
    expect(workloadKind('Rollout').keepsOldPods(trackerMidUpdate())).toBe(true);
    const snapshot = trackerMidUpdate({ canary: { maxSurge: 1, maxUnavailable: 1 } });
    expect(workloadKind(snapshot).keepsOldPods(snapshot)).toBe(false);
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
  });

  it('picks the current ReplicaSet by status.currentPodHash, and by template while the status lags', () => {
    const snapshot = trackerMidUpdate();
    const kind = workloadKind(snapshot);
    expect(kind.revisions(snapshot).current?.name).toBe('tracker-b2');
    const rollout = kind.object(snapshot) as ArgoRollout;
    rollout.metadata.generation = 3;
    rollout.status = { ...rollout.status, currentPodHash: 'a1' };
    expect(kind.revisions(snapshot).current?.name).toBe('tracker-b2');
    expect(kind.rolloutStatus(rollout).progress.message).toBe(
      'Progressing - waiting for rollout spec update to be observed',
    );
  });

  it("matches the template with the API server's pod defaults and the injected canary metadata on the ReplicaSet side only", () => {
    const snapshot = trackerMidUpdate();
    const kind = workloadKind(snapshot);
    const rollout = kind.object(snapshot) as ArgoRollout;
    rollout.metadata.generation = 3;
    rollout.status = { ...rollout.status, currentPodHash: 'a1' };
    const canary = isRolloutObjects(snapshot)
      ? snapshot.replicaSets.find((rs) => rs.metadata.name === 'tracker-b2')
      : undefined;
    const template = canary?.spec.template;
    if (!canary || !template) throw new Error('no canary ReplicaSet');
    // What the API server and the controller leave on the ReplicaSet's copy.
    Object.assign(template.spec, {
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
    });
    const [c] = template.spec.containers;
    if (!c) throw new Error('no container');
    Object.assign(c, {
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, role: 'canary' } };
    canary.metadata.annotations = {
      ...canary.metadata.annotations,
      'rollout.argoproj.io/ephemeral-metadata': '{"labels":{"role":"canary"}}',
    };
    expect(kind.revisions(snapshot).current?.name).toBe('tracker-b2');
    // A real difference still tells them apart: the image's tag makes Always the default.
    Object.assign(c, { imagePullPolicy: 'Always' });
    expect(kind.revisions(snapshot).current?.name).not.toBe('tracker-b2');
  });

  it('sets aside the anti-affinity against the stable pods that strategy.antiAffinity injects', () => {
    const snapshot = trackerMidUpdate({
      canary: {
        antiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} },
        steps: [{ setWeight: 50 }],
      },
    });
    const kind = workloadKind(snapshot);
    const rollout = kind.object(snapshot) as ArgoRollout;
    rollout.metadata.generation = 3;
    rollout.status = { ...rollout.status, currentPodHash: 'a1' };
    const canary = isRolloutObjects(snapshot)
      ? snapshot.replicaSets.find((rs) => rs.metadata.name === 'tracker-b2')
      : undefined;
    if (!canary?.spec.template) throw new Error('no canary ReplicaSet');
    const injected = {
      labelSelector: {
        matchExpressions: [{ key: 'rollouts-pod-template-hash', operator: 'In', values: ['a1'] }],
      },
      namespaces: ['vision'],
      topologyKey: 'kubernetes.io/hostname',
    };
    Object.assign(canary.spec.template.spec, {
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [injected] } },
    });
    expect(kind.revisions(snapshot).current?.name).toBe('tracker-b2');
    // Without strategy.antiAffinity the term is the template's own: a different template.
    delete rollout.spec.strategy?.canary?.antiAffinity;
    expect(kind.revisions(snapshot).current?.name).not.toBe('tracker-b2');
  });

  it("knows a Rollout's pod by its ReplicaSet, not as a Deployment's (the early warning too)", () => {
    const snapshot = trackerMidUpdate();
    expect(workloadOfPod(snapshot.pods[0])).toEqual({ kind: 'Rollout', name: 'tracker' });
    expect(projectPod(snapshot.pods[1] as unknown as Record<string, unknown>)).toMatchObject({
      kind: 'Rollout',
      name: 'tracker',
    });
  });
});

describe("the controller's phase, as it wrote it", () => {
  function withStatus(status: Partial<NonNullable<ArgoRollout['status']>>) {
    const snapshot = trackerMidUpdate();
    const rollout = workloadKind(snapshot).object(snapshot) as ArgoRollout;
    rollout.status = { ...rollout.status, ...status };
    return snapshot;
  }

  it('spec.paused is read before the controller writes it back: paused, not "no problem"', async () => {
    // Paused by hand after the last reconcile: the status still says Progressing, or the
    // new generation is not observed yet. CalculateRolloutPhase makes it Paused either way.
    for (const unobserved of [false, true]) {
      // The stable pod alone runs (the status counts what the dump holds).
      const snapshot = withStatus({
        phase: 'Progressing',
        message: 'more replicas need to be updated',
        replicas: 1,
        updatedReplicas: 0,
        readyReplicas: 1,
        availableReplicas: 1,
      });
      snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
      snapshot.events = [];
      // Room for the canary beside the stable pod: nothing else to say but the pause.
      for (const node of snapshot.nodes)
        node.status = { ...node.status, allocatable: { ...node.status?.allocatable, 'nvidia.com/gpu': '2' } };
      const rollout = workloadKind(snapshot).object(snapshot) as ArgoRollout;
      delete rollout.status?.pauseConditions;
      rollout.spec.paused = true;
      if (unobserved) rollout.metadata.generation = Number(rollout.status?.observedGeneration ?? 1) + 1;
      const diagnosis = diagnose(snapshot);
      const paused = diagnosis.findings.find((f) => f.code === 'RolloutPaused');
      expect(paused?.summary, `unobserved: ${unobserved}`).toContain('(spec.paused): it waits for a person');
      const text = renderText(diagnosis);
      expect(text).not.toContain('No problem found');
      expect(text).toContain('Paused: the rollout waits for a person');
      // scan lists it apart (paused, not stuck) and exits 0, as diagnose does.
      const objects = [
        rollout,
        ...(isRolloutObjects(snapshot) ? snapshot.replicaSets : []),
        ...snapshot.pods,
      ];
      const report = scanDump([...objects, ...snapshot.nodes] as KubeObject[], {
        namespace: 'vision',
        allNamespaces: false,
      });
      expect(report.entries.map((e) => [e.name, e.state])).toEqual([['tracker', 'paused']]);
      const listed = renderScan(report);
      expect(listed).toContain('No stuck or at-risk workloads in namespace vision');
      expect(listed).toMatch(
        /1 workload is paused before its rollout finished[^\n]*\nSTATE +WORKLOAD[^\n]*\nPAUSED +vision\/rollout\/tracker/,
      );
      const dir = mkdtempSync(join(tmpdir(), 'rd-paused-'));
      const file = join(dir, 'dump.json');
      writeFileSync(file, JSON.stringify({ kind: 'List', items: [...objects, ...snapshot.nodes] }));
      const run = fakeIo();
      expect(await runCli(['scan', '-n', 'vision', '--from-file', file], run.io)).toBe(0);
      expect(run.stdout()).toContain('PAUSED');
      rmSync(dir, { recursive: true, force: true });
      // Not paused: as the controller wrote it, no pause is said.
      rollout.spec.paused = false;
      expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutPaused');
    }
  });

  it('a canary pause step is RolloutPaused (info, no problem) with the step and the promote', () => {
    const snapshot = withStatus({
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentStepIndex: 1,
      pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-24T10:00:00Z' }],
    });
    // No pod waits: the canary ran.
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
    snapshot.events = [];
    // Room for the promotion's surge pod beside the stable one (on one GPU its way into the
    // promotion never finishes: canary-surge-entry.test.ts).
    for (const node of snapshot.nodes)
      node.status = { ...node.status, allocatable: { ...node.status?.allocatable, 'nvidia.com/gpu': '2' } };
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutPaused', 'info']]);
    expect(diagnosis.findings[0]?.summary).toBe(
      'rollout/tracker is paused at step 2 of 2 since 2026-11-24T10:00:00Z (CanaryPauseStep): it waits for a person, not for the cluster.',
    );
    expect(diagnosis.findings[0]?.explanation).toContain('`kubectl argo rollouts promote tracker`');
    expect(hasProblems(diagnosis)).toBe(false);
    expect(workloadKind(snapshot).rolloutStatus(workloadKind(snapshot).object(snapshot))).toMatchObject({
      state: 'paused',
      step: 2,
    });
  });

  it.each([
    [
      '20m into a pause of 1h',
      20,
      /a timed pause of 1h; the controller goes on by itself at .* \(in 40m\)\.$/,
    ],
    [
      '2h into a pause of 1h',
      120,
      /its timed pause of 1h ended at .*, 1h before this was read, and it has not gone on\.$/,
    ],
  ])('a timed canary pause step does not wait for a person (%s)', (_name, minutesIn, summary) => {
    const snapshot = withStatus({ phase: 'Paused', message: 'CanaryPauseStep', currentStepIndex: 1 });
    const rollout = workloadKind(snapshot).object(snapshot) as ArgoRollout;
    const steps = rollout.spec.strategy?.canary?.steps;
    if (!steps || !rollout.status) throw new Error('fixture');
    steps[1] = { pause: { duration: '1h' } };
    const start = new Date(Date.parse(snapshot.capturedAt) - minutesIn * 60_000).toISOString();
    rollout.status.pauseConditions = [{ reason: 'CanaryPauseStep', startTime: start }];
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
    snapshot.events = [];
    // Room for the promotion's surge pod: the pause is all there is to say.
    for (const node of snapshot.nodes)
      node.status = { ...node.status, allocatable: { ...node.status?.allocatable, 'nvidia.com/gpu': '2' } };
    const diagnosis = diagnose(snapshot);
    const found = diagnosis.findings.find((f) => f.code === 'RolloutPaused');
    expect(found?.summary).toMatch(summary);
    expect(found?.summary).not.toContain('waits for a person');
    // The headline and scan say who ends it: the controller while the end is ahead.
    const ahead = minutesIn < 60;
    const text = renderText(diagnosis);
    expect(text.includes('Paused: a timed pause its controller ends by itself')).toBe(ahead);
    expect(text.includes('Paused: the rollout waits for a person')).toBe(!ahead);
    const entry = scanEntry('Rollout', rollout, 'vision', diagnosis.findings);
    expect(entry?.state).toBe('paused');
    const scope = { namespace: 'vision', allNamespaces: false };
    const report = { scope, scanned: 1, diagnosed: 1, nodesComplete: true, accessProblems: [] };
    const listed = renderScan({ ...report, entries: entry ? [entry] : [] });
    expect(listed.includes('1 workload is at a timed pause: the controller goes on by itself')).toBe(ahead);
    expect(listed.includes('1 workload is paused before its rollout finished')).toBe(!ahead);
    // The same pause by hand (spec.paused) waits for a person, whatever the step says.
    rollout.spec.paused = true;
    expect(diagnose(snapshot).findings.find((f) => f.code === 'RolloutPaused')?.summary).toContain(
      'it waits for a person',
    );
  });

  it('only a pause step of the strategy names a step: an analysis pause or spec.paused does not', () => {
    const verdictOf = (snapshot: ReturnType<typeof withStatus>) =>
      workloadKind(snapshot).rolloutStatus(workloadKind(snapshot).object(snapshot));
    const analysis = withStatus({
      phase: 'Paused',
      message: 'InconclusiveAnalysisRun',
      currentStepIndex: 1,
      pauseConditions: [{ reason: 'InconclusiveAnalysisRun' }],
    });
    expect(verdictOf(analysis).state).toBe('paused');
    expect(verdictOf(analysis)).not.toHaveProperty('step');
    const byHand = withStatus({
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentStepIndex: 1,
      pauseConditions: [{ reason: 'CanaryPauseStep' }],
    });
    (workloadKind(byHand).object(byHand) as ArgoRollout).spec.paused = true;
    expect(verdictOf(byHand)).not.toHaveProperty('step');
    // The step index on a setWeight step (the pause condition left from another): no pause step.
    const onWeight = withStatus({
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentStepIndex: 0,
      pauseConditions: [{ reason: 'CanaryPauseStep' }],
    });
    expect(verdictOf(onWeight)).not.toHaveProperty('step');
  });

  it("shows the Paused condition as written (reason RolloutPaused) and the pause's own reason beside it", () => {
    const snapshot = withStatus({
      phase: 'Paused',
      message: 'InconclusiveAnalysisRun',
      controllerPause: true,
      pauseConditions: [{ reason: 'InconclusiveAnalysisRun', startTime: '2026-11-24T10:00:00Z' }],
      conditions: [{ type: 'Paused', status: 'True', reason: 'RolloutPaused', message: 'Rollout is paused' }],
    });
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
    snapshot.events = [];
    const [finding] = diagnose(snapshot).findings;
    expect(finding?.code).toBe('RolloutPaused');
    expect(finding?.explanation).toContain('an analysis was inconclusive');
    expect(finding?.evidence).toEqual([
      {
        type: 'condition',
        condition: 'Paused',
        status: 'True',
        reason: 'RolloutPaused',
        message: 'Rollout is paused',
      },
      { type: 'note', text: 'status.pauseConditions: InconclusiveAnalysisRun' },
    ]);
  });

  it('a promoted Rollout the controller has not reconciled yet is unpausing, not paused', () => {
    // `kubectl argo rollouts promote` clears the pause conditions; status.phase still says Paused.
    const snapshot = withStatus({
      phase: 'Paused',
      message: 'CanaryPauseStep',
      controllerPause: true,
      pauseConditions: [],
    });
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
    snapshot.events = [];
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutPaused');
    const kind = workloadKind(snapshot);
    expect(kind.rolloutStatus(kind.object(snapshot))).toMatchObject({
      state: 'progressing',
      progress: { message: 'Progressing - waiting for rollout to unpause' },
    });
  });

  it("waits for the referenced Deployment's new generation to be observed (workloadRef)", () => {
    const snapshot = withStatus({ phase: 'Healthy', message: '', workloadObservedGeneration: '4' });
    const kind = workloadKind(snapshot);
    const rollout = kind.object(snapshot) as ArgoRollout;
    rollout.spec.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'tracker-template' };
    rollout.metadata.annotations = {
      ...rollout.metadata.annotations,
      'rollout.argoproj.io/workload-generation': '5',
    };
    expect(kind.rolloutStatus(rollout).progress.message).toBe(
      'Progressing - waiting for rollout spec update to be observed for the reference workload',
    );
    rollout.status = { ...rollout.status, workloadObservedGeneration: '5' };
    expect(kind.rolloutStatus(rollout).state).toBe('complete');
  });

  it('counts an observedGeneration past the generation, or not a number, as observed (isGenerationObserved)', () => {
    for (const observedGeneration of ['3', 'abc123']) {
      const snapshot = withStatus({
        observedGeneration,
        phase: 'Paused',
        message: 'CanaryPauseStep',
        pauseConditions: [{ reason: 'CanaryPauseStep' }],
      });
      const kind = workloadKind(snapshot);
      expect(kind.rolloutStatus(kind.object(snapshot)).state).toBe('paused');
    }
    const behind = withStatus({
      observedGeneration: '1',
      phase: 'Paused',
      pauseConditions: [{ reason: 'CanaryPauseStep' }],
    });
    const kind = workloadKind(behind);
    expect(kind.rolloutStatus(kind.object(behind)).progress.message).toBe(
      'Progressing - waiting for rollout spec update to be observed',
    );
  });

  it('a passed deadline written before an InvalidSpec is the deadline (the first degrading condition decides)', () => {
    const snapshot = withStatus({
      phase: 'Degraded',
      message: 'ProgressDeadlineExceeded: ReplicaSet "tracker-b2" has timed out progressing.',
      conditions: [
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out' },
        { type: 'InvalidSpec', status: 'True', reason: 'InvalidSpec', message: 'bad' },
      ],
    });
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutDegraded');
    const invalidFirst = withStatus({
      phase: 'Degraded',
      message: 'InvalidSpec: bad',
      conditions: [
        { type: 'InvalidSpec', status: 'True', reason: 'InvalidSpec', message: 'bad' },
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out' },
      ],
    });
    const found = diagnose(invalidFirst).findings.find((f) => f.code === 'RolloutDegraded');
    expect(found?.evidence[0]).toEqual({
      type: 'condition',
      condition: 'InvalidSpec',
      status: 'True',
      reason: 'InvalidSpec',
      message: 'bad',
    });
  });

  it('an abort is RolloutDegraded (warning) and offers no second abort', () => {
    const snapshot = withStatus({
      phase: 'Degraded',
      message: 'RolloutAborted: Rollout aborted update to revision 2',
      abort: true,
      abortedAt: '2026-11-24T10:05:00Z',
      conditions: [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'RolloutAborted',
          message: 'Rollout aborted update to revision 2',
        },
      ],
    });
    snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
    snapshot.events = [];
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutDegraded', 'warning']]);
    expect(diagnosis.findings[0]?.summary).toMatch(/^rollout\/tracker was aborted/);
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('abort-rollout');
  });

  it('a spec the controller refuses is RolloutDegraded (critical) quoting its error', () => {
    const error =
      'The Rollout "tracker" is invalid: spec.strategy.canary.stableService: Invalid value: "tracker": service "tracker" not found';
    const snapshot = withStatus({
      phase: 'Degraded',
      message: `InvalidSpec: ${error}`,
      conditions: [{ type: 'InvalidSpec', status: 'True', reason: 'InvalidSpec', message: error }],
    });
    const found = diagnose(snapshot).findings.find((f) => f.code === 'RolloutDegraded');
    expect(found?.severity).toBe('critical');
    expect(found?.explanation).toContain('service "tracker" not found');
  });

  it("a passed progress deadline reads in Argo's words and offers the abort", () => {
    const snapshot = withStatus({
      phase: 'Degraded',
      message: 'ProgressDeadlineExceeded: ReplicaSet "tracker-b2" has timed out progressing.',
      conditions: [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "tracker-b2" has timed out progressing.',
        },
      ],
    });
    const diagnosis = diagnose(snapshot);
    const stalled = diagnosis.findings.find((f) => f.code === 'ProgressDeadlineExceeded');
    expect(stalled?.explanation).toContain('The Argo Rollouts controller marks the Rollout Degraded');
    expect(stalled?.summary).toContain('ReplicaSet tracker-b2');
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('RolloutDegraded');
    expect(diagnosis.remediations.map((p) => p.kind)).toContain('abort-rollout');
  });
});

/** Three replicas, Healthy; the pod on the node with the other kernel crash-loops. */
function crashingApi(workloadRef = false) {
  const nodes = [
    makeNode('node-a'),
    makeNode('node-b', { kernelVersion: '6.8.0-1009-aws' }),
    makeNode('node-c'),
  ];
  const rollout = makeRollout('api', {
    replicas: 3,
    status: {
      observedGeneration: '2',
      phase: 'Progressing',
      message: 'updated replicas are still becoming available',
      currentPodHash: 'b2',
      stableRS: 'b2',
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 2,
    },
  });
  const rs = makeRolloutReplicaSet(rollout, 'b2', { revision: 2, replicas: 3, available: 2 });
  if (workloadRef)
    rollout.spec.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api-template' };
  const pods = [
    makeRolloutPod(rs, 'p1', 'node-a', { phase: 'Running' }),
    makeRolloutPod(rs, 'p2', 'node-b', { phase: 'CrashLoopBackOff', restarts: 9, exitCode: 1 }),
    makeRolloutPod(rs, 'p3', 'node-c', { phase: 'Running' }),
  ];
  return makeRolloutSnapshot({ rollout, replicaSets: [rs], pods, nodes });
}

describe('Argo Rollout crash loop on one node', () => {
  const api = crashingApi;

  it("blames the node and offers the exclusion in the Rollout's template, saying it is a new update through the canary steps", () => {
    const diagnosis = diagnose(api());
    expect(diagnosis.findings[0]?.code).toBe('CrashLoopOnNode');
    const exclude = diagnosis.remediations.find((p) => p.kind === 'exclude-node');
    expect(exclude?.patch?.type).toBe('json');
    expect(exclude?.warnings.join(' ')).toContain('it goes through the canary steps');
    // No restart annotation on a Rollout: Argo restarts through spec.restartAt.
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('rollout-restart');
  });

  it('offers no exclusion when the template lives in the Deployment a workloadRef names, and says so', () => {
    const diagnosis = diagnose(api(true));
    expect(diagnosis.findings[0]?.code).toBe('CrashLoopOnNode');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('exclude-node');
    expect(JSON.stringify(diagnosis.notOffered ?? [])).toContain('workloadRef');
  });
});

describe('a Rollout whose template lives in a Deployment (workloadRef), from a dump', () => {
  /** The api Rollout of the crash-loop case with its template moved to Deployment api-template. */
  function dumpObjects(withDeployment: boolean): object[] {
    const snapshot = crashingApi(true);
    const rollout = structuredClone(workloadKind(snapshot).object(snapshot)) as ArgoRollout;
    const template = rollout.spec.template;
    const selector = rollout.spec.selector;
    delete rollout.spec.template;
    delete rollout.spec.selector;
    const deployment = makeDeployment('api-template', { namespace: 'vision', replicas: 0 });
    if (template) deployment.spec.template = template;
    if (selector) deployment.spec.selector = selector;
    const rs = isRolloutObjects(snapshot) ? snapshot.replicaSets : [];
    return [rollout, ...(withDeployment ? [deployment] : []), ...rs, ...snapshot.pods, ...snapshot.nodes];
  }

  it("diagnoses it with the Deployment's template and selector, as the controller reads it", () => {
    const snapshot = assembleSnapshot(
      { kind: 'Rollout', namespace: 'vision', name: 'api' },
      dumpObjects(true) as KubeObject[],
    );
    const kind = workloadKind(snapshot);
    expect(kind.podTemplate(kind.object(snapshot)).spec.containers.map((c) => c.name)).toEqual(['api']);
    expect(kind.selector(kind.object(snapshot))).toEqual({ matchLabels: { app: 'api' } });
    expect(snapshot.pods).toHaveLength(3);
    expect(diagnose(snapshot).findings[0]?.code).toBe('CrashLoopOnNode');
  });

  it('says which Deployment the dump lacks instead of judging an empty template', () => {
    expect(() =>
      assembleSnapshot(
        { kind: 'Rollout', namespace: 'vision', name: 'api' },
        dumpObjects(false) as KubeObject[],
      ),
    ).toThrow(
      /Rollout vision\/api takes its pod template from deployment api-template \(workloadRef\), which the dump does not hold/,
    );
    const report = scanDump(dumpObjects(false) as KubeObject[], {
      namespace: 'vision',
      allNamespaces: false,
    });
    expect(report.entries).toEqual([
      expect.objectContaining({
        kind: 'Rollout',
        name: 'api',
        findings: [expect.objectContaining({ code: 'IncompleteEvidence' })],
      }),
    ]);
  });
});

describe('an Argo Rollout that Argo CD applies (from a dump)', () => {
  let manifestDiff = '';
  /** The tracker tracked by the Argo CD Application vision-tracker (self-heal on), diagnosed from a dump. */
  async function driftOf(ownsMaxSurge: boolean | undefined) {
    const snapshot = trackerMidUpdate({
      canary: { steps: [{ setWeight: 50 }, { pause: {} }], maxSurge: '25%' },
    });
    const rollout = workloadKind(snapshot).object(snapshot) as ArgoRollout;
    rollout.metadata.annotations = {
      ...rollout.metadata.annotations,
      'argocd.argoproj.io/tracking-id': 'vision-tracker:argoproj.io/Rollout:vision/tracker',
    };
    if (ownsMaxSurge !== undefined) {
      // What Argo CD's server-side apply owns: the canary's steps, and maxSurge when Git sets it.
      (rollout.metadata as { managedFields?: unknown[] }).managedFields = [
        {
          manager: 'argocd-controller',
          operation: 'Apply',
          apiVersion: 'argoproj.io/v1alpha1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:spec': {
              'f:strategy': { 'f:canary': { 'f:steps': {}, ...(ownsMaxSurge ? { 'f:maxSurge': {} } : {}) } },
            },
          },
        },
      ];
    }
    const items = [
      rollout,
      ...(snapshot as { replicaSets: object[] }).replicaSets,
      ...snapshot.pods,
      ...snapshot.events,
      ...snapshot.nodes,
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'vision-tracker', namespace: 'argocd' },
        spec: { syncPolicy: { automated: { selfHeal: true } } },
      },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'argo-rollout-dump-'));
    try {
      const file = join(dir, 'dump.json');
      writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
      const run = fakeIo();
      const code = await runCli(
        ['diagnose', 'rollout/tracker', '-n', 'vision', '--from-file', file, '-o', 'json'],
        run.io,
      );
      expect(run.stderr()).toBe('');
      expect(code).toBe(1);
      const report = JSON.parse(run.stdout()) as {
        remediations: { kind: string; drift?: { reverted: unknown; by: string; fields: string[] } }[];
        manifestChanges?: { diff: string }[];
      };
      manifestDiff = report.manifestChanges?.map((c) => c.diff).join('\n') ?? '';
      return Object.fromEntries(report.remediations.map((p) => [p.kind, p.drift]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("says self-heal puts the canary's bounds back when Git sets them, and that nothing reverts the abort", async () => {
    const drift = await driftOf(true);
    expect(drift['set-rolling-update']).toMatchObject({
      reverted: true,
      by: 'Argo CD application vision-tracker',
    });
    expect(drift['abort-rollout']).toMatchObject({ reverted: false, fields: ['status.abort'] });
    // The change to commit is the canary's bounds, in a Rollout's shape.
    expect(manifestDiff).toBe(
      [
        ' spec:',
        '   strategy:',
        '     canary:',
        '-      maxSurge: 25%',
        '+      maxSurge: 0',
        '+      maxUnavailable: 1',
      ].join('\n'),
    );
  });

  it('says "unknown" while the manifest Argo CD applies is not known', async () => {
    const drift = await driftOf(undefined);
    expect(drift['set-rolling-update']).toMatchObject({ reverted: 'unknown' });
    expect(drift['abort-rollout']).toMatchObject({ reverted: false });
  });
});
