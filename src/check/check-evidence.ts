/**
 * Evidence as check writes it: a note may carry its facts as `says`, keyed
 * by the message of src/check/evidence-words.ts that says them in the reader's language.
 * Data only, so the judgment (predict.ts, scale-up.ts) names no renderer.
 */
import type { Evidence } from '../diagnosis/finding.js';

interface Group {
  name: string;
  karpenter: boolean;
}

/** A note's facts, keyed by the message that says them. */
export type NoteSays =
  | { key: 'runForward'; params: { pending: number; ticks: number } }
  | { key: 'quotaRefuses'; params: { quota: string } }
  | { key: 'notRead'; params: { what: string; reason: string; settle: string } }
  | { key: 'unread'; params: { what: string } }
  | { key: 'groupHeld'; params: Group & { held: string } }
  | { key: 'groupMayAdd'; params: Group & { canAdd: number; like: string; larger: boolean } }
  | { key: 'groupUnknownSize'; params: Group & { canAdd: number } }
  | { key: 'scaleUpAdded'; params: Group & { nodes: number; canAdd: number; like: string } }
  | { key: 'liveField'; params: { path: string; value: string } }
  | { key: 'jobPods'; params: { pods: string; jobs: string } };

/** Evidence as check writes it: a note may carry its facts as catalogue words. */
export type CheckEvidence = Evidence | (Extract<Evidence, { type: 'note' }> & { says: NoteSays });

/** The evidence without its catalogue words, as the JSON has always had it. */
export function plainEvidence(e: CheckEvidence): Evidence {
  if (!('says' in e)) return e;
  const { says: _says, ...rest } = e;
  return rest;
}
