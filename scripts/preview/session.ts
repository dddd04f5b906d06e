/**
 * A preview session: the demo's machinery (scripts/demo/stack.ts: simulator with both
 * seed incidents, Redis, the real app and worker, the Slack stand-in), the preview
 * server in front of the stand-in, and both incidents brought about in the cluster:
 * the tracker's new image deadlocks its rollout on the only GPU node (incident A),
 * checkout crash-loops on node-b (incident B). The page then waits for a person to
 * type `/rollout-doctor …`.
 */
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { Cleanup } from '../demo/cleanup.js';
import { CHANNEL_NAMES, CHANNELS, PEOPLE } from '../demo/context.js';
import type { DemoProcess } from '../demo/processes.js';
import { DemoError } from '../demo/demo-error.js';
import { startDemoStack, type DemoStack } from '../demo/stack.js';
import { startDemoTeams, TEAMS_CHANNEL_NAMES, TEAMS_PEOPLE } from '../demo/teams-story.js';
import type { SlackStandin } from '../../test/support/slack-standin.js';
import type { TeamsStandin } from '../../test/support/teams-standin.js';
import { NEW_IMAGE, shipNewImage } from '../demo/tracker-story.js';
import { BAD_NODE, CHECKOUT, TRACKER } from '../demo-scenario.js';
import { startPreviewServer, type PreviewServer } from './server.js';

export interface PreviewSession {
  stack: DemoStack;
  /** The Slack stand-in the page's Slack view shows. */
  slack: SlackStandin;
  /** The Teams stand-in the app also posts to (the page's Teams view). */
  teams: TeamsStandin;
  server: PreviewServer;
  /** Resolves once both incidents are live in the simulated cluster; rejects with a DemoError. */
  incidents: Promise<void>;
}

/** The commands that diagnose the two seed incidents, as a person types them, and the name each result mentions. */
export const INCIDENT_COMMANDS = {
  a: {
    command: `/rollout-doctor diagnose deployment/${TRACKER.name} -n ${TRACKER.namespace}`,
    mentions: TRACKER.name,
  },
  b: {
    command: `/rollout-doctor diagnose deployment/${CHECKOUT.name} -n ${CHECKOUT.namespace}`,
    mentions: CHECKOUT.name,
  },
} as const;

async function until(what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new DemoError(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Both seed incidents, live: reports each step on the page's status line. */
async function bringAboutIncidents(
  stack: DemoStack,
  server: PreviewServer,
  timeoutMs: number,
): Promise<void> {
  const { sim } = stack;
  let a = 'incident A: starting the tracker';
  let b = 'incident B: starting checkout';
  const show = (ready = false): void => server.setStatus([a, b], ready);
  show();
  const incidentA = (async () => {
    await until('the tracker never became available', timeoutMs, () => {
      const d = sim.get('Deployment', TRACKER.namespace, TRACKER.name) as Deployment | undefined;
      return (d?.status?.availableReplicas ?? 0) === 1;
    });
    a = `incident A: shipping ${NEW_IMAGE}`;
    show();
    await shipNewImage(sim.url);
    await until('the new tracker pod was never refused by the scheduler', timeoutMs, () =>
      (sim.list('Event', TRACKER.namespace) as KubeEvent[]).some((e) => e.reason === 'FailedScheduling'),
    );
    a = `incident A: ${TRACKER.namespace}/${TRACKER.name} rollout stuck (new pod Pending)`;
    show();
  })();
  const incidentB = (async () => {
    await until(`no checkout pod crash-loops on ${BAD_NODE}`, timeoutMs, () =>
      (sim.list('Pod', CHECKOUT.namespace) as Pod[]).some(
        (p) =>
          !p.metadata.deletionTimestamp &&
          p.spec.nodeName === BAD_NODE &&
          p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
      ),
    );
    b = `incident B: ${CHECKOUT.namespace}/${CHECKOUT.name} crash-looping on ${BAD_NODE}`;
    show();
  })();
  await Promise.all([incidentA, incidentB]);
  server.setStatus([a, b, 'type a command below'], true);
}

/**
 * Starts everything; the page is served at once and shows progress while the
 * incidents come about. Everything is registered with `cleanup`.
 */
export async function startPreviewSession(options: {
  cleanup: Cleanup;
  say: (line: string) => void;
  timeScale: number;
  processes: DemoProcess[];
  port?: number;
  /** Per step, while bringing the incidents about. */
  stepTimeoutMs?: number;
  /** Changes the scenario objects before the simulator starts (tests: hostile text). */
  editScenario?: (objects: object[]) => object[];
}): Promise<PreviewSession> {
  // The app serves Slack and Teams at once: one stack feeds both views of the page.
  // Its stand-in starts (key generation) while Redis and the simulator do.
  const starting = startDemoTeams(options.cleanup);
  const stack = await startDemoStack({
    cleanup: options.cleanup,
    say: options.say,
    timeScale: options.timeScale,
    processes: options.processes,
    teams: starting.then((t) => t.settings),
    ...(options.editScenario ? { editScenario: options.editScenario } : {}),
  });
  const teams = await starting;
  const { slack } = stack;
  if (!slack) throw new DemoError('the preview shows Slack, and its stand-in did not start');
  const server = await options.cleanup.starting(() =>
    startPreviewServer({
      slack,
      eventsUrl: stack.eventsUrl,
      signingSecret: stack.signingSecret,
      channels: CHANNEL_NAMES,
      // The lead approves; on-call may diagnose but not approve (the demo's policy).
      users: [
        { id: PEOPLE.lead, label: 'lead, approver', teams: TEAMS_PEOPLE.lead.id },
        { id: PEOPLE.oncall, label: 'on-call', teams: TEAMS_PEOPLE.oncall.id },
      ],
      teams: {
        standin: teams.teams,
        botUrl: `${stack.appUrl}/api/messages`,
        channels: TEAMS_CHANNEL_NAMES,
        people: [TEAMS_PEOPLE.lead, TEAMS_PEOPLE.oncall],
      },
      ...(options.port !== undefined ? { port: options.port } : {}),
    }),
  );
  options.cleanup.register('preview server', () => server.close());
  const incidents = bringAboutIncidents(stack, server, options.stepTimeoutMs ?? 60_000);
  incidents.catch(() => undefined); // the caller races it
  return { stack, slack, teams: teams.teams, server, incidents };
}

/**
 * The restart count incident B's pictures show (docs/preview-incident-b.png): its crash loop
 * is held there, at the 8th restart's crash some 930 simulated seconds in. By then both
 * rollouts are well past their 600 s progress deadline (about 300 simulated seconds, 10 s at
 * the preview's ×30), so the deadline finding is in both pictures, never in one run only.
 */
export const PICTURE_RESTARTS = 8;

/** Whether the Deployment's rollout is past its progress deadline. */
function pastDeadline(sim: DemoStack['sim'], workload: { namespace: string; name: string }): boolean {
  const d = sim.get('Deployment', workload.namespace, workload.name) as Deployment | undefined;
  return (d?.status?.conditions ?? []).some(
    (c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded',
  );
}

/**
 * Stops the simulated cluster's clock (sim pauseClock) at the moment the pictures show, so
 * they do not depend on how busy the machine is: checkout's pod on the bad node waiting in
 * back-off after exactly PICTURE_RESTARTS restarts, both rollouts past their progress
 * deadline. Taken on the write that brings the moment about (onChange), before any timer can
 * move on; a run that reaches the count before both deadlines fails and says so rather than
 * showing something else. The caller resumes the clock (sim.resumeClock) once the diagnoses
 * are posted.
 */
export function holdPictureMoment(sim: DemoStack['sim'], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const container = (sim.list('Pod', CHECKOUT.namespace) as Pod[]).find(
        (p) => !p.metadata.deletionTimestamp && p.spec.nodeName === BAD_NODE,
      )?.status?.containerStatuses?.[0];
      const restarts = container?.restartCount ?? 0;
      if (restarts > PICTURE_RESTARTS) {
        finish(
          new DemoError(`checkout on ${BAD_NODE} passed ${PICTURE_RESTARTS} restarts before it was held`),
        );
      } else if (restarts === PICTURE_RESTARTS && container?.state?.waiting?.reason === 'CrashLoopBackOff') {
        const late = [TRACKER, CHECKOUT].filter((w) => !pastDeadline(sim, w)).map((w) => w.name);
        if (late.length > 0) {
          finish(new DemoError(`${late.join(', ')} not past the progress deadline at ${restarts} restarts`));
          return;
        }
        sim.pauseClock();
        finish();
      }
    };
    const unsubscribe = sim.onChange(check);
    const timer = setTimeout(
      () =>
        finish(new DemoError(`checkout never reached ${PICTURE_RESTARTS} restarts in ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    function finish(error?: Error): void {
      unsubscribe();
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    }
    check();
  });
}

/** The image the tracker's second incident ships (breakTrackerAgain). */
export const NEXT_IMAGE = 'vision/boost-track-app:1.2';

/** What Teams is asked in its view, as a person types it there. */
export const TEAMS_COMMAND = {
  text: `@rollout-doctor diagnose deployment/${TRACKER.name} -n ${TRACKER.namespace}`,
  mentions: TRACKER.name,
} as const;

/**
 * Incident A again, for the Teams view once the Slack view has fixed both seeds: the
 * rollout strategy set back to the default a surge needs (25 % surge, none unavailable:
 * for one replica a new pod beside the old one) and a newer image shipped, so its pod
 * waits for the only GPU again. The simulated cluster's clock stops (sim pauseClock) on
 * the write that brings the scheduler's refusal of that pod, so the diagnosis sees the
 * same moment on every run; the caller resumes it (sim.resumeClock) once diagnosed.
 */
export async function breakTrackerAgain(sim: DemoStack['sim'], timeoutMs: number): Promise<void> {
  const held = new Promise<void>((resolve, reject) => {
    const check = (): void => {
      const pending = (sim.list('Pod', TRACKER.namespace) as Pod[]).find(
        (p) => !p.metadata.deletionTimestamp && p.spec.containers[0]?.image === NEXT_IMAGE,
      );
      const refused =
        pending !== undefined &&
        (sim.list('Event', TRACKER.namespace) as KubeEvent[]).some(
          (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === pending.metadata.name,
        );
      if (!refused) return;
      sim.pauseClock();
      finish();
    };
    const unsubscribe = sim.onChange(check);
    const timer = setTimeout(
      () =>
        finish(
          new DemoError(`the ${NEXT_IMAGE} pod was not refused by the scheduler in ${timeoutMs / 1000} s`),
        ),
      timeoutMs,
    );
    function finish(error?: Error): void {
      unsubscribe();
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    }
  });
  held.catch(() => undefined); // awaited below, after the write
  const res = await fetch(
    `${sim.url}/apis/apps/v1/namespaces/${TRACKER.namespace}/deployments/${TRACKER.name}`,
    {
      method: 'PATCH',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
          template: { spec: { containers: [{ name: 'tracker', image: NEXT_IMAGE }] } },
        },
      }),
    },
  );
  if (!res.ok) throw new DemoError(`could not ship ${NEXT_IMAGE}: HTTP ${res.status}`);
  await held;
}

export { CHANNELS };
