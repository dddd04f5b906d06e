/**
 * Why a review's verdict is "not known", in a bounded word for a metric label
 * (every `unknown` counted by reason and logged, so a webhook that goes silent on
 * a class of workloads shows which). Read from the finding check wrote (check.ts,
 * predict.ts: the forward model's own words for what it could not follow).
 */
import type { CheckResult } from '../check/check.js';

export const UNKNOWN_REASONS = [
  'unread',
  'unmodelled',
  'paused',
  'devices',
  'on-delete',
  'held',
  'stored-field',
  'scheduler-disagrees',
  'unsettled',
  'live-object',
  'other',
] as const;
type UnknownReason = (typeof UNKNOWN_REASONS)[number];

const RULES: [RegExp, UnknownReason][] = [
  [/turns on what the apply stores/, 'stored-field'],
  [/^Not judged/, 'live-object'],
  [/paused/, 'paused'],
  [/OnDelete/, 'on-delete'],
  [/held before scheduling/, 'held'],
  [/room the scheduler did not find/, 'scheduler-disagrees'],
  [/did not settle/, 'unsettled'],
  [/DRA|DeviceClass|devices/, 'devices'],
  [/does not follow|ordered pods|canary steps/, 'unmodelled'],
  [/not read|were not read|not every|unread/, 'unread'],
];

export function unknownReason(result: CheckResult): UnknownReason {
  const summary = result.findings.map((f) => f.summary).join(' ');
  return RULES.find(([pattern]) => pattern.test(summary))?.[1] ?? 'other';
}
