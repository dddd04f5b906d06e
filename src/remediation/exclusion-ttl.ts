/**
 * How long a node exclusion lasts: a stopgap, so it ends by itself unless
 * the person who approved it chose "until removed". A duration is written `4h`, `24h`,
 * `7d` (minutes `30m` too); `until-removed` never ends. The default comes from
 * ROLLOUT_DOCTOR_EXCLUSION_TTL (src/config/worker-environment.ts).
 *
 * The time an exclusion ends is not known when the plan is sealed (it is approved and
 * applied later), so its patch carries a marker, `$NOW+24h`, which the seal and the
 * approval cover like any value and the executor turns into an RFC 3339 time at the
 * apply, from the same clock that sets the restart time (restart-time.ts). Pure.
 *
 * In chat the approver picks one of EXCLUSION_TTL_CHOICES beside Approve (or keeps the
 * plan's own, the configured default); the app signs the choice into the approval and
 * the worker writes it in place of the plan's marker (exclusion-times.ts withExclusionTtl).
 *
 * A plan that carries an earlier, still live exclusion on into its record (one record per
 * workload) must not end that one early: its marker keeps the earlier end as a floor,
 * `$NOW+4h;not-before=2026-11-27T18:00:00Z` (or `;not-before=never`), and the time
 * filled is the later of the two. The floor stays when an approver picks a duration.
 */
import { z } from 'zod';
import { APPLY_TIME, rfc3339 } from './restart-time.js';

export const UNTIL_REMOVED = 'until-removed';

/** A duration (`24h`) or UNTIL_REMOVED. */
export type ExclusionTtl = string;

/**
 * The choices an approver is offered beside the plan's own duration (the configured
 * default): a closed set, the only values a press may carry (exclusionTtlChoiceSchema).
 */
export const EXCLUSION_TTL_CHOICES = ['4h', '24h', '3d', '7d', UNTIL_REMOVED] as const;

export type ExclusionTtlChoice = (typeof EXCLUSION_TTL_CHOICES)[number];

/** A chosen duration as it comes back from a chat client: one of the choices, nothing else. */
export const exclusionTtlChoiceSchema = z.enum(EXCLUSION_TTL_CHOICES);

export const DEFAULT_EXCLUSION_TTL: ExclusionTtl = '24h';

/** The longest duration accepted: past it, "until removed" says what is meant. */
const MAX_TTL_MS = 90 * 24 * 3600 * 1000;

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9]\d{0,4})([mhd])$/;

/** Milliseconds of a duration, null for UNTIL_REMOVED, undefined when it is neither. */
export function ttlMs(ttl: string): number | null | undefined {
  if (ttl === UNTIL_REMOVED) return null;
  const match = DURATION.exec(ttl);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_TTL_MS ? ms : undefined;
}

/** Why `text` is no exclusion TTL, or undefined when it is one. */
export function ttlProblem(text: string): string | undefined {
  if (ttlMs(text) !== undefined) return undefined;
  return `must be a duration such as 4h, 24h or 7d (at most 90d), or ${UNTIL_REMOVED}`;
}

/**
 * The marker an exclusion's expires-at annotation carries in a plan: `$NOW+24h`, or
 * `never`; with `floor` (an earlier exclusion's end, RFC 3339 or `never`) it ends no
 * sooner than that.
 */
export function expiresMarker(ttl: ExclusionTtl, floor?: string): string {
  const kept = floor === undefined ? '' : `${FLOOR}${floor}`;
  return ttl === UNTIL_REMOVED ? `${NEVER}${kept}` : `${APPLY_TIME}+${ttl}${kept}`;
}

/** What expires-at holds for an exclusion that lasts until removed. */
export const NEVER = 'never';

const FLOOR = ';not-before=';

/** The time an RFC 3339 text names (nothing else: a Date parse takes many other shapes), or undefined. */
export function rfc3339Time(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * A marker's parts: its duration (UNTIL_REMOVED for `never`) and its floor, or undefined
 * when it is no marker.
 */
function markerParts(value: unknown): { ttl: ExclusionTtl; floor?: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const [head = '', floor, ...rest] = value.split(FLOOR);
  const ttl =
    head === NEVER
      ? UNTIL_REMOVED
      : head.startsWith(`${APPLY_TIME}+`)
        ? head.slice(APPLY_TIME.length + 1)
        : '';
  if (rest.length > 0 || ttlMs(ttl) === undefined) return undefined;
  if (floor === undefined) return { ttl };
  return floor === NEVER || rfc3339Time(floor) !== undefined ? { ttl, floor } : undefined;
}

/** The duration an expires-at marker names (`$NOW+24h` → `24h`), UNTIL_REMOVED for `never`, else undefined. */
export function ttlOfMarker(value: unknown): ExclusionTtl | undefined {
  return markerParts(value)?.ttl;
}

/** The earlier end a marker keeps (`;not-before=…`), or undefined. */
export function floorOfMarker(value: unknown): string | undefined {
  return markerParts(value)?.floor;
}

/**
 * The marker filled in at `now`: `$NOW+24h` → RFC 3339 of now + 24 h, or its floor when
 * that is later (`never` for a floor of `never`); any other value as it is.
 */
export function fillExpiresMarker(value: unknown, now: Date): unknown {
  const parts = markerParts(value);
  if (parts === undefined) return value;
  const ms = ttlMs(parts.ttl);
  if (typeof ms !== 'number' || parts.floor === NEVER) return NEVER;
  const end = now.getTime() + ms;
  const floor = parts.floor === undefined ? undefined : rfc3339Time(parts.floor);
  return rfc3339(new Date(floor !== undefined && floor > end ? floor : end));
}
