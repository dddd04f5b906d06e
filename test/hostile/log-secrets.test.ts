/**
 * A crash-looping container that prints its database password and a Vault token as it
 * dies: the diagnosis collected from the simulator carries neither, in the JSON, the
 * text report (posted to Slack threads and printed by the CLI) or the Slack message.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { renderDiagnosis } from '../support/slack-run.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { createKubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { renderJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';

const DB_PASSWORD = ['Orders', 'Db', '-9f3k2!x'].join('');
const VAULT_TOKEN = ['hvs', '.', 'CAESIK9vX2QmZ3tLpQ7wR4sT1uV'].join('');
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- YAML documents of many kinds

const dir = mkdtempSync(join(tmpdir(), 'rd-log-secrets-'));
let sim: Simulator;

beforeAll(async () => {
  const docs = parseAllDocuments(readFileSync('sim/scenarios/crashloop-node.yaml', 'utf8')).map(
    (d) => d.toJSON() as Obj,
  );
  for (const doc of docs) {
    if (doc.kind === 'ConfigMap' && doc.metadata.name === 'kube-sim') {
      const rules = parse(doc.data['rules.yaml'] as string) as Obj[];
      for (const rule of rules) {
        rule.message = `auth failed: postgres://orders:${DB_PASSWORD}@db.shop.svc/orders`;
        rule.log = `${rule.log as string}vault: login with token ${VAULT_TOKEN} denied\nDB_PASSWORD=${DB_PASSWORD}\n`;
      }
      doc.data['rules.yaml'] = stringify(rules);
    }
  }
  const scenario = join(dir, 'scenario.yaml');
  writeFileSync(scenario, docs.map((d) => JSON.stringify(d)).join('\n---\n'));
  sim = await startSimulator({ scenario, timeScale: 50 });
  await sim.settle();
  await sim.waitFor(() =>
    (sim.list('Pod', 'shop') as Pod[]).some((p) =>
      p.status?.containerStatuses?.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff'),
    ),
  );
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets in crash output', () => {
  it('never reach the diagnosis, its reports or the Slack message', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file });
    const snapshot = await collectSnapshot(client, {
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
    });
    // The collector did read them: the test is about what happens next.
    expect(JSON.stringify(snapshot)).toContain(VAULT_TOKEN);

    const diagnosis = diagnose(snapshot);
    const slack = renderDiagnosis({ cluster: 'test', diagnosis, dryRuns: {}, plans: {} });
    const outputs = [renderJson(diagnosis), renderText(diagnosis), JSON.stringify(slack)];
    for (const output of outputs) {
      expect(output).not.toContain(DB_PASSWORD);
      expect(output).not.toContain(VAULT_TOKEN);
    }
    // The evidence itself survives: the log tail and the termination message still say what failed.
    expect(outputs[1]).toContain('vault: login with token [REDACTED] denied');
    expect(outputs[1]).toContain('auth failed: postgres://orders:[REDACTED]@db.shop.svc/orders');

    // Switched off, the text is kept as the container wrote it.
    expect(renderJson(diagnose(snapshot, { redactSecrets: false }))).toContain(VAULT_TOKEN);
  });
});
