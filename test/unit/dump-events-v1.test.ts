/**
 * A dump whose events come from `kubectl get events.events.k8s.io -o yaml`
 * (events.k8s.io/v1: `regarding`, `note`, `series`, `deprecated*`) diagnoses exactly
 * like the same events in core/v1 form: the scheduler's text is not lost.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rd-events-v1-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;

/** What the events API returns for a core/v1 event (kubernetes/pkg/apis/events conversion). */
function toEventsV1(event: Obj): Obj {
  const { involvedObject, message, count, firstTimestamp, lastTimestamp, source, ...rest } = event;
  return {
    ...rest,
    apiVersion: 'events.k8s.io/v1',
    regarding: involvedObject,
    note: message,
    deprecatedCount: count,
    deprecatedFirstTimestamp: firstTimestamp,
    deprecatedLastTimestamp: lastTimestamp,
    deprecatedSource: source,
    reportingController: (rest['reportingComponent'] as string | undefined) ?? '',
  };
}

async function diagnoseJson(text: string): Promise<{ code: number; json: { findings: { code: string }[] } }> {
  const file = join(dir, `dump-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  const run = fakeIo();
  const code = await runCli(
    ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', file, '-o', 'json'],
    run.io,
  );
  return { code, json: JSON.parse(run.stdout()) as { findings: { code: string }[] } };
}

describe('events.k8s.io/v1 events in a dump', () => {
  it('give the same verdict and keep the FailedScheduling text', async () => {
    const original = readFileSync(FIXTURE, 'utf8');
    const list = parse(original) as { items: Obj[] };
    const converted = {
      ...list,
      items: list.items.map((item) => (item['kind'] === 'Event' ? toEventsV1(item) : item)),
    };
    expect(converted.items.filter((i) => i['apiVersion'] === 'events.k8s.io/v1').length).toBeGreaterThan(0);
    const core = await diagnoseJson(original);
    const v1 = await diagnoseJson(stringify(converted));
    expect(v1.code).toBe(core.code);
    expect(v1.json.findings.map((f) => f.code)).toEqual(core.json.findings.map((f) => f.code));
    expect(v1.json.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(JSON.stringify(v1.json)).toContain('Insufficient nvidia.com/gpu');
  });
});
