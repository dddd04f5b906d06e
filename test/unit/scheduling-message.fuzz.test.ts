import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  categorize,
  categorizeNote,
  formatSchedulingMessage,
  parseSchedulingMessage,
  SchedulingMessageError,
  type ParsedSchedulingMessage,
  type SchedulingReason,
} from '../../src/diagnosis/scheduling/scheduling-message.js';

const KNOWN = [
  'Insufficient nvidia.com/gpu',
  'Insufficient cpu',
  'Too many pods',
  "node(s) didn't match Pod's node affinity/selector",
  'node(s) had untolerated taint {dedicated: gpu}',
  "node(s) had taint {a.b/c: d:e}, that the pod didn't tolerate",
  'node(s) were unschedulable',
  "node(s) didn't have free ports for the requested pod ports",
  'node(s) had volume node affinity conflict',
  "node(s) didn't satisfy existing pods anti-affinity rules",
  'node(s) had untolerated taint(s)',
  'cannot allocate all claims',
  'resourceclaim not available on the node',
  'timed out trying to allocate devices',
];

const word = fc.stringMatching(/^[a-z][a-z0-9'/-]{0,8}(\(s\))?$/).filter((w) => !w.startsWith('preemption'));
/** Free text inside braces: anything but braces and the message structure characters. */
const braced = fc.stringMatching(/^[a-z0-9 :,=/-]{0,12}$/).map((t) => `{${t.replace(/ +/g, ' ')}}`);
/** A reason the scheduler could print: words, braces, commas and colons, but never ", <digit>" or ". ". */
const invented = fc
  .array(
    fc.oneof(
      word,
      word.map((w) => `${w},`),
      word.map((w) => `${w}:`),
      braced,
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(' ').replace(/[,:]$/, ''))
  .filter((text) => /^[a-z]/.test(text));
const reasonText = fc.oneof(fc.constantFrom(...KNOWN), invented);
const reason = fc
  .record({ count: fc.integer({ min: 1, max: 5000 }), reason: reasonText })
  .map((r): SchedulingReason => ({ ...r, ...categorize(r.reason) }));

const message = fc
  .record({
    total: fc.integer({ min: 1, max: 5000 }),
    reasons: fc.array(reason, { minLength: 1, maxLength: 6 }),
    preemption: fc.option(
      fc.oneof(
        fc.record({ total: fc.integer({ min: 0, max: 5000 }), reasons: fc.array(reason, { maxLength: 3 }) }),
        fc.constant({
          total: -1,
          reasons: [] as SchedulingReason[],
          text: 'not eligible due to preemptionPolicy=Never',
        }),
      ),
      { nil: null },
    ),
    notes: fc.array(
      fc.constantFrom(
        'no new claims to deallocate',
        'still not schedulable',
        'deallocation of ResourceClaim completed',
        'deletion of ResourceClaim completed',
      ),
      { maxLength: 1 },
    ),
  })
  .map(({ total, reasons, preemption, notes }): ParsedSchedulingMessage => {
    const parsed: ParsedSchedulingMessage = {
      total,
      reasons,
      preemption: preemption && preemption.total < 0 ? { ...preemption, total } : preemption,
    };
    if (notes.length > 0) {
      parsed.notes = notes;
      parsed.pluginNotes = notes.map((text) => ({ text, kind: categorizeNote(text) }));
    }
    return parsed;
  });

describe('parseSchedulingMessage (property based)', () => {
  it('never throws anything but SchedulingMessageError on arbitrary text', () => {
    const scheduleish = fc
      .array(
        fc.oneof(
          fc.string(),
          fc.constantFrom(
            '0/3 nodes are available:',
            ' preemption: ',
            ', 2 ',
            '{',
            '}',
            '.',
            '..',
            ', ',
            ': ',
          ),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), scheduleish), (text) => {
        try {
          const parsed = parseSchedulingMessage(text);
          expect(Number.isInteger(parsed.total)).toBe(true);
          for (const r of parsed.reasons) expect(r.reason.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(SchedulingMessageError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips generated well-formed messages', () => {
    fc.assert(
      fc.property(message, (parsed) => {
        expect(parseSchedulingMessage(formatSchedulingMessage(parsed))).toEqual(parsed);
      }),
      { numRuns: 1000 },
    );
  });

  it('tolerates the trailing ".." and newlines of older scheduler versions', () => {
    fc.assert(
      fc.property(message, (parsed) => {
        const text = formatSchedulingMessage(parsed).replace(/\.$/, '..').replaceAll(', ', ',\n  ');
        expect(parseSchedulingMessage(text)).toEqual(parsed);
      }),
      { numRuns: 300 },
    );
  });
});
