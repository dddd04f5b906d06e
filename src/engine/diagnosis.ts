import type { Finding } from '../diagnosis/finding.js';
import type { Coverage, WorkloadRef } from '../diagnosis/snapshot.js';
import type { RemediationPlan } from '../remediation/plan.js';

/** The tool that applies the Deployment, read from its own metadata (DESIGN.md §4). */
export type ManagerTool = 'argocd' | 'flux-kustomize' | 'flux-helm' | 'helm' | 'kubectl';

export interface ManagedBy {
  tool: ManagerTool;
  /** Argo CD application, Flux Kustomization / HelmRelease, Helm release; for kubectl the field manager. */
  name: string;
  /** Namespace of the Flux object or Helm release, when the metadata says. */
  namespace?: string;
  /** The label, annotation or field manager that proves it. */
  evidence: string;
}

/**
 * The permanent fix as a change to commit: the minimal change to the Deployment's
 * manifest (a unified diff of its YAML) in its source of truth.
 */
export interface ManifestChange {
  /** The finding code it makes permanent. */
  addresses: string;
  /** Where to make it: "Git: the manifest Argo CD application shop applies", a chart, a file. */
  where: string;
  /** Unified-diff lines of the manifest (' ' context, '-' removed, '+' added). */
  diff: string;
  /** When it applies and when it helps (server versions, not a live fix). */
  notes: string[];
}

/**
 * A plan kind a builder considered for a finding and did not offer, with why: the
 * approver sees that it was weighed, never a silent absence.
 */
export interface PlanNotOffered {
  kind: RemediationPlan['kind'];
  /** The finding code it would have addressed. */
  addresses: string;
  reason: string;
}

/** The result of one diagnosis: the JSON contract of DESIGN.md §3, extended. */
export interface Diagnosis {
  target: WorkloadRef;
  capturedAt: string;
  /** Deployment identity at diagnosis time, so stored plans can be checked later. */
  observed: { uid: string; generation: number; resourceVersion: string };
  findings: Finding[];
  remediations: RemediationPlan[];
  /** Analyzers that threw; the others' findings are still reported. */
  analyzerErrors: { analyzer: string; message: string }[];
  /** What the snapshot read and what it could not (DESIGN.md §2). */
  coverage?: Coverage;
  /** Who applies the Deployment (absent when nothing proves an owner). */
  managedBy?: ManagedBy;
  /** Changes to commit to the manifest so the next rollout does not need a live fix. */
  manifestChanges?: ManifestChange[];
  /** Plans weighed and not offered, each with why. */
  notOffered?: PlanNotOffered[];
}
