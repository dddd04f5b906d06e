/**
 * Crash rules from ConfigMap kube-system/kube-sim, key rules.yaml: a container whose
 * image starts with `image`, running on `node`, terminates that way after it starts.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import type { Store } from '../store.js';

const ruleSchema = z.object({
  node: z.string().min(1),
  image: z.string().min(1),
  exitCode: z.number().int().default(1),
  reason: z.string().default('Error'),
  message: z.string().optional(),
  log: z.string().optional(),
  /** Simulated seconds the container runs before it terminates. */
  afterSeconds: z.number().nonnegative().default(2),
});

export type CrashRule = z.infer<typeof ruleSchema>;

const cache = new WeakMap<Store, { rv: string; rules: CrashRule[] }>();

/** The current rules (empty when the ConfigMap is missing or invalid). */
export function crashRules(store: Store): CrashRule[] {
  const cm = store.get('ConfigMap', 'kube-system', 'kube-sim');
  if (!cm) return [];
  const rv = cm.metadata.resourceVersion ?? '';
  const cached = cache.get(store);
  if (cached && cached.rv === rv) return cached.rules;
  const text = (cm['data'] as Record<string, string> | undefined)?.['rules.yaml'] ?? '[]';
  let rules: CrashRule[] = [];
  try {
    rules = z.array(ruleSchema).parse(parse(text) ?? []);
  } catch (err) {
    console.error(
      `kube-sim: ignoring invalid rules.yaml: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  cache.set(store, { rv, rules });
  return rules;
}

/** The first rule matching a container image on a node. */
export function ruleFor(
  rules: readonly CrashRule[],
  node: string,
  image: string | undefined,
): CrashRule | undefined {
  return rules.find((r) => r.node === node && image !== undefined && image.startsWith(r.image));
}
