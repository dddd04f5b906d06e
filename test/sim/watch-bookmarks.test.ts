/**
 * The simulator's watch as the API server serves it to informers: selectors on
 * events, resume from a resourceVersion, and BOOKMARK events (only when asked for with
 * allowWatchBookmarks) carrying the current resourceVersion before a timeout closes
 * the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ scenario: [], controllers: false });
});

afterAll(async () => {
  await sim.close();
});

/** Reads a whole watch stream (it ends on timeoutSeconds) as parsed events. */
async function readAll(path: string): Promise<{ type: string; object: Record<string, unknown> }[]> {
  const text = await (await fetch(`${sim.url}${path}`)).text();
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { type: string; object: Record<string, unknown> });
}

function warning(name: string, reason: string, type = 'Warning'): object {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'team' },
    involvedObject: { kind: 'Pod', namespace: 'team', name: 'api-7d9f8c6b5-x2kqz' },
    reason,
    message: 'm',
    type,
    count: 1,
  };
}

describe('watch like the API server', () => {
  it('filters events by involvedObject.kind and type, and ends a timed-out stream with a BOOKMARK at the current version', async () => {
    sim.apply(warning('e1.1879a6c2d4e5f601', 'FailedScheduling'));
    sim.apply(warning('e2.1879a6c2d4e5f602', 'Scheduled', 'Normal'));
    const list = (await (await fetch(`${sim.url}/api/v1/events`)).json()) as {
      metadata: { resourceVersion: string };
    };
    const events = await readAll(
      '/api/v1/events?watch=true&fieldSelector=involvedObject.kind%3DPod%2Ctype%3DWarning&allowWatchBookmarks=true&timeoutSeconds=1',
    );
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect((events[0]?.object['metadata'] as { name: string }).name).toBe('e1.1879a6c2d4e5f601');
    expect(events[1]?.object).toEqual({
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { resourceVersion: list.metadata.resourceVersion },
    });
  });

  it('sends no BOOKMARK unless asked, and resumes after a resourceVersion with only newer changes', async () => {
    const rv = (
      (await (await fetch(`${sim.url}/api/v1/events`)).json()) as { metadata: { resourceVersion: string } }
    ).metadata.resourceVersion;
    sim.apply(warning('e3.1879a6c2d4e5f603', 'FailedAttachVolume'));
    const events = await readAll(
      `/api/v1/namespaces/team/events?watch=true&fieldSelector=type%3DWarning&resourceVersion=${rv}&timeoutSeconds=1`,
    );
    expect(events.map((e) => [e.type, (e.object['metadata'] as { name: string }).name])).toEqual([
      ['ADDED', 'e3.1879a6c2d4e5f603'],
    ]);
  });
});
