/**
 * Whether the rendered worker RBAC (deploy/worker-rbac.yaml) grants every right the
 * registered workload kinds need, and the admission policy (deploy/admission-policy.yaml)
 * bounds every patch among them (src/kube/workload-rbac.ts derives both from the
 * registry). `npm run render-deploy` runs it; a kind added to the registry without its
 * rules fails here, naming what is missing.
 */
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import type { WorkloadApiList } from '../src/diagnosis/workload-api.js';
import { missingGrants, unboundedPatches, workloadRbacRules } from '../src/kube/workload-rbac.js';

const ruleSchema = z.object({
  apiGroups: z.array(z.string()).default([]),
  resources: z.array(z.string()).default([]),
  verbs: z.array(z.string()).default([]),
});

const documentSchema = z
  .object({
    kind: z.string().optional(),
    rules: z.array(ruleSchema).optional(),
    spec: z
      .object({
        matchConstraints: z
          .object({ resourceRules: z.array(ruleSchema.omit({ verbs: true }).passthrough()).optional() })
          .optional(),
      })
      .optional(),
  })
  .passthrough();

function documents(text: string): z.infer<typeof documentSchema>[] {
  return parseAllDocuments(text).flatMap((doc) => {
    const parsed = documentSchema.safeParse(doc.toJS());
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The problems, one line each ("deploy/worker-rbac.yaml: the ClusterRole does not grant
 * patch clonesets.apps.kruise.io"); empty when the rendered files fit the registry.
 */
export function workloadGrantProblems(
  apis: WorkloadApiList,
  rbacYaml: string,
  admissionYaml: string,
  files = { rbac: 'deploy/worker-rbac.yaml', admission: 'deploy/admission-policy.yaml' },
): string[] {
  const needed = workloadRbacRules(apis);
  const granted = documents(rbacYaml)
    .filter((d) => d.kind === 'ClusterRole')
    .flatMap((d) => d.rules ?? []);
  const policies = documents(admissionYaml)
    .filter((d) => d.kind === 'ValidatingAdmissionPolicy')
    .flatMap((d) => d.spec?.matchConstraints?.resourceRules ?? []);
  return [
    ...missingGrants(needed, granted).map(
      (g) => `${files.rbac}: the worker's ClusterRole does not grant ${g}`,
    ),
    ...unboundedPatches(needed, policies).map(
      (r) => `${files.admission}: no ValidatingAdmissionPolicy bounds the worker's patches of ${r}`,
    ),
  ];
}
