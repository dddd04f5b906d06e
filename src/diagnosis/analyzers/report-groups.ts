/** Small helpers the lifecycle analyzers share for turning container reports into evidence. */
import type { ContainerReport } from '../crash/container-failures.js';

/** Reports grouped by container name, in first-seen order. */
export function groupByContainer(reports: readonly ContainerReport[]): Map<string, ContainerReport[]> {
  const groups = new Map<string, ContainerReport[]>();
  for (const r of reports) groups.set(r.container, [...(groups.get(r.container) ?? []), r]);
  return groups;
}

/** Rows for a `pods` evidence table, one per pod. */
export function podRows(
  reports: readonly ContainerReport[],
  detail: (r: ContainerReport) => string,
): { name: string; node?: string; detail?: string }[] {
  return reports.map((r) => ({ name: r.pod, ...(r.node ? { node: r.node } : {}), detail: detail(r) }));
}
