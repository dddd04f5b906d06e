/**
 * Hostile text in every cluster field that reaches Slack, end to end: the crash-loop
 * incident on the simulator with a hostile termination message, previous-container
 * log, image name (so event messages carry it too), annotations, labels and node
 * facts (node diff), diagnosed by /rollout-doctor, approved, and a hostile
 * Alertmanager notification (labels, annotations, externalURL, generatorURL,
 * groupKey) through the real webhook route, firing then resolved. Afterwards every
 * Web API call the Slack stand-in recorded (blocks, fallback text, confirm dialogs,
 * thread replies with the full report, alert thread lines, updates, ephemerals) is
 * scanned for live mentions, links, control or bidi characters and broken fences.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { livePods, reproduceNodeCrashLoop, startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { HOSTILE, unsafeMarkup } from './support/hostile-text.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TOKEN = 'hostile-am-token';
const ALERT_CHANNEL = 'C0ALERTS';
const dir = mkdtempSync(join(tmpdir(), 'rd-hostile-e2e-'));

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- YAML documents of many kinds

/** The seed incident B scenario with hostile text in every field a workload owner or node image sets. */
function hostileScenario(): string {
  const text = readFileSync('sim/scenarios/crashloop-node.yaml', 'utf8');
  const docs = parseAllDocuments(text).map((d) => d.toJSON() as Obj);
  for (const doc of docs) {
    if (doc.kind === 'Node' && doc.metadata.name === 'node-b') {
      doc.status.nodeInfo.osImage += ` ${HOSTILE}`;
      doc.status.nodeInfo.kernelVersion += ` ${HOSTILE}`;
      doc.metadata.labels['example.com/note'] = HOSTILE;
    }
    if (doc.kind === 'ConfigMap' && doc.metadata.name === 'kube-sim') {
      const rules = parse(doc.data['rules.yaml'] as string) as Obj[];
      for (const rule of rules) {
        rule.message = `${rule.message as string} ${HOSTILE}`;
        rule.log = `${rule.log as string}${HOSTILE}\n${HOSTILE}\n`;
        rule.reason = `Error ${HOSTILE}`;
      }
      doc.data['rules.yaml'] = stringify(rules);
    }
    if (doc.kind === 'Deployment') {
      doc.metadata.annotations = { note: HOSTILE };
      doc.spec.template.metadata.annotations = { note: HOSTILE };
      // The crash rule matches on the image prefix, so the hostile tag keeps the incident.
      doc.spec.template.spec.containers[0].image = `shop/checkout:2.4.1 ${HOSTILE}`;
    }
  }
  // JSON is YAML: control characters survive as \u escapes.
  const path = join(dir, 'hostile-crashloop.yaml');
  writeFileSync(path, docs.map((d) => JSON.stringify(d)).join('\n---\n'));
  return path;
}

let h: E2eHarness;

beforeAll(async () => {
  h = await startE2e({
    scenario: hostileScenario(),
    appEnv: { ALERTMANAGER_TOKEN: TOKEN, ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL },
  });
  await reproduceNodeCrashLoop(h);
});

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function postAlert(status: 'firing' | 'resolved', pod: string): Promise<number> {
  const now = new Date().toISOString();
  const alert = {
    status,
    labels: {
      alertname: 'KubePodCrashLooping',
      namespace: 'shop',
      pod,
      container: 'checkout',
      severity: 'warning',
      // Labels the thread routing does not read still reach the message as rule-author text.
      team: HOSTILE,
    },
    annotations: { summary: `crash looping ${HOSTILE}`, description: HOSTILE, runbook_url: HOSTILE },
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: status === 'resolved' ? now : '0001-01-01T00:00:00Z',
    generatorURL: `https://evil.example/graph ${HOSTILE}`,
    fingerprint: 'f00d',
  };
  const body = {
    version: '4',
    groupKey: `{}:{alertname="x"} ${HOSTILE}`,
    truncatedAlerts: 3,
    status,
    receiver: `rollout-doctor ${HOSTILE}`,
    groupLabels: { alertname: HOSTILE },
    commonLabels: { team: HOSTILE },
    commonAnnotations: { summary: HOSTILE },
    externalURL: `https://evil.example/${HOSTILE}`,
    alerts: [alert],
  };
  const res = await fetch(`${h.app.handle.url}/alerts/alertmanager`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

describe('hostile cluster and alert text end to end', () => {
  it('reaches Slack only as inert text, in every recorded Web API call', async () => {
    expect((await h.command('checkout -n shop')).status).toBe(200);
    const result = await h.waitForResult('shop', 'checkout');
    // The hostile text did travel: escaped in the evidence (else this test proves nothing).
    expect(JSON.stringify(result.blocks)).toContain('&lt;!channel&gt;');

    // Approve a plan: the outcome replies and the approval mark are payloads too.
    await h.click(result, 'approve_plan.0', h.approver);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);
    // A stranger's click on the approved button gets an ephemeral answer.
    await h
      .click(h.message(result.channel, result.ts) ?? result, 'plan_status.0', 'U0STRANGER')
      .catch(() => undefined);

    const pod = livePods(h, 'shop')[0]?.metadata.name ?? 'checkout-x';
    expect(await postAlert('firing', pod)).toBeLessThan(300);
    // (alertname must be one the intake maps; its value is ours, the rest is hostile.)
    const root = await h.slack.waitFor(
      (s) => [...s.messages.values()].find((m) => m.channel === ALERT_CHANNEL && m.threadTs === undefined),
      SIGNAL_WAIT_MS,
    );
    // The rule author's summary and the externalURL reached the root message, inert.
    expect(JSON.stringify(root.blocks)).toContain('crash looping &lt;!channel&gt;');
    expect(JSON.stringify(root.blocks)).toContain('https[:]//evil.example/');
    // The alert-triggered diagnosis is posted in the incident thread.
    await h.slack.waitFor(
      (s) => [...s.messages.values()].some((m) => m.threadTs === root.ts),
      SIGNAL_WAIT_MS,
    );
    expect(await postAlert('resolved', pod)).toBeLessThan(300);
    await h.slack.waitFor(
      (s) => [...s.messages.values()].some((m) => m.threadTs === root.ts && m.text.includes('Resolved at')),
      SIGNAL_WAIT_MS,
    );

    const calls = h.slack.calls.filter((c) => c.method.startsWith('chat.'));
    expect(calls.length).toBeGreaterThan(5);
    // The full report went to a thread as a code block (the message is cut by the hostile text).
    const problems = calls.flatMap((c) => unsafeMarkup(c.args).map((p) => `${c.method} ${p}`));
    expect(problems).toEqual([]);
    expect(JSON.stringify(calls.map((c) => c.args))).toContain('&lt;!subteam^S123&gt;');
  });
});
