/**
 * Property-based fuzzing of the parsers that read outside input and had no fuzz test
 * yet: slash-command text and kubectl dumps. (FailedScheduling messages and
 * Alertmanager payloads are fuzzed in test/unit/scheduling-message.fuzz.test.ts and
 * test/unit/alerts-webhook.test.ts.) Each must answer with a value or its own error
 * type, never crash, and never let an invalid name through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/chat/use-cases/command-parse.js';
import { plainText } from '../../src/message/rich.js';
import { toMrkdwn } from '../../src/chat/slack/render.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { DumpError, loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { WorkloadNotFoundError } from '../../src/kube/errors.js';

const OPTIONS = { clusters: ['default', 'prod'], defaultCluster: 'default' };
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Tokens an attacker or a clumsy paste would send. */
const hostileToken = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '-n',
    '--namespace',
    '--cluster',
    '--cluster=prod',
    '--namespace=',
    'scan',
    'help',
    'deployment/',
    'pods/x',
    '$(rm -rf /)',
    '`id`',
    '; kubectl delete ns prod',
    '&&',
    '|',
    '>',
    '../../etc/passwd',
    '\u0000',
    '\u001b[31m',
    '\r\n',
    'web\u200b',
    'WEB',
    'a'.repeat(300),
    'web.',
    '-web',
  ),
);

describe('slash-command text', () => {
  it('never throws, and anything it accepts is a DNS-1123 name in a known cluster', () => {
    fc.assert(
      fc.property(
        fc.array(hostileToken, { maxLength: 6 }),
        fc.constantFrom(' ', '\t', '  ', '\n'),
        (tokens, sep) => {
          const parsed = parseCommand(tokens.join(sep), OPTIONS);
          switch (parsed.kind) {
            case 'diagnose':
              expect(parsed.name).toMatch(DNS1123_SUBDOMAIN);
              expect(parsed.name.length).toBeLessThanOrEqual(253);
              expect(parsed.namespace).toMatch(DNS1123_LABEL);
              expect(OPTIONS.clusters).toContain(parsed.cluster);
              break;
            case 'scan':
              if (parsed.namespace !== undefined) expect(parsed.namespace).toMatch(DNS1123_LABEL);
              expect(OPTIONS.clusters).toContain(parsed.cluster);
              break;
            case 'invalid':
              expect(plainText(parsed.problem).length).toBeGreaterThan(0);
              // The problem is echoed to chat: bounded, whatever the input length.
              expect(toMrkdwn(parsed.problem).length).toBeLessThan(400);
              break;
            case 'help':
              break;
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses shell metacharacters, control characters and non-DNS names with a sentence', () => {
    for (const text of [
      'web;id -n shop',
      '$(whoami)',
      'web -n `id`',
      'web\u0000 -n shop',
      'web -n sh\u001bop',
      'Web -n shop',
      'web -n shop.prod',
      `${'a'.repeat(254)} -n shop`,
      'web -n shop --cluster ../prod',
    ]) {
      const parsed = parseCommand(text, OPTIONS);
      expect(parsed.kind, text).toBe('invalid');
    }
  });
});

const jsonish = fc.jsonValue({ maxDepth: 4 });
const k8sish = fc.record(
  {
    apiVersion: fc.oneof(fc.constantFrom('v1', 'apps/v1'), jsonish),
    kind: fc.oneof(fc.constantFrom('Pod', 'Deployment', 'ReplicaSet', 'Node', 'Event', 'List'), jsonish),
    metadata: fc.oneof(
      fc.record(
        { name: fc.oneof(fc.string(), jsonish), namespace: fc.oneof(fc.string(), jsonish) },
        { requiredKeys: [] },
      ),
      jsonish,
    ),
    spec: jsonish,
    status: jsonish,
    items: fc.array(jsonish, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

describe('kubectl dump loader', () => {
  it('never throws anything but DumpError or WorkloadNotFoundError on arbitrary text, JSON and object-shaped documents', () => {
    const text = fc.oneof(
      fc.string(),
      fc.json(),
      k8sish.map((o) => JSON.stringify(o)),
      fc.array(k8sish, { maxLength: 3 }).map((docs) => docs.map((d) => JSON.stringify(d)).join('\n---\n')),
    );
    fc.assert(
      fc.property(text, (input) => {
        try {
          const objects = loadObjects(input);
          // Whatever loads must also assemble or fail with a DumpError, never crash.
          assembleSnapshot({ kind: 'Deployment', namespace: 'default', name: 'web' }, objects);
        } catch (error) {
          // The two typed answers the CLI turns into a clear message and exit status.
          expect(error instanceof DumpError || error instanceof WorkloadNotFoundError, String(error)).toBe(
            true,
          );
          expect((error as Error).message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
