/**
 * The values every analyzer and plan builder of one diagnosis shares, derived once
 * from the snapshot: the rollout assessment (rollout/rollout-assessment.ts), the
 * container reports (crash/container-failures.ts), the crash pictures
 * (crash/crash-distribution.ts), the placement index (placement/placement.ts) and the
 * DRA index (dra/blockers.ts). Each module keeps owning its derivation and asks the
 * context for it through `once`, so a value is computed at most once per context and
 * lives exactly as long as the diagnosis: no module keeps a cache of its own.
 *
 * `analyze()` (run.ts) builds one context from the (redacted) snapshot and hands it to
 * every analyzer; `diagnose()` (src/engine/diagnose.ts) hands the same context to
 * the plan builders, so plans rest on the very values the findings came from.
 *
 * The snapshot is immutable by contract: build a new context for a new snapshot.
 */
import type { WorkloadSnapshot } from './snapshot/types.js';

/**
 * Settings of the one running the diagnosis that a plan builder states in its plan
 * (so the seal covers them): how long a node exclusion lasts (ROLLOUT_DOCTOR_EXCLUSION_TTL,
 * src/remediation/exclusion-ttl.ts). Absent: the defaults.
 */
interface AnalysisSettings {
  readonly exclusionTtl?: string;
}

export class AnalysisContext {
  readonly #memo = new Map<string, unknown>();
  readonly #computing = new Set<string>();

  constructor(
    readonly snapshot: WorkloadSnapshot,
    readonly settings: AnalysisSettings = {},
  ) {}

  /**
   * The value derived under `key`: `compute` runs on the first call only, later calls
   * return its result. Keys name the derivation ('rollout-assessment', ...); one key,
   * one type. A derivation that asks for itself while being computed is a bug: it throws.
   */
  once<T>(key: string, compute: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    if (this.#computing.has(key)) throw new Error(`analysis context: ${key} depends on itself`);
    this.#computing.add(key);
    try {
      const value = compute();
      this.#memo.set(key, value);
      return value;
    } finally {
      this.#computing.delete(key);
    }
  }
}
