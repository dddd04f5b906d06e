import type { Analyzer } from '../analyzer.js';
import type { AccessProblem } from '../snapshot/types.js';
import { deviceClassesMatter } from '../dra/class-relevance.js';

/**
 * AccessDenied: reads the collector could not make. Said per problem, with the
 * grant that would fix it, because a missing permission otherwise looks like a
 * missing object ("no events" is not "nothing happened"). The one read made on the
 * chance that it matters, the DeviceClasses for an extended resource, is left out
 * when the workload's facts show that no class decides anything (class-relevance.ts).
 */
export const accessDenied: Analyzer = {
  name: 'access-denied',
  analyze(ctx) {
    const { snapshot } = ctx;
    const problems = snapshot.accessProblems.filter(
      (p) => p.resource !== 'deviceclasses' || deviceClassesMatter(ctx),
    );
    return problems.map((problem) => ({
      code: 'AccessDenied' as const,
      severity: 'warning' as const,
      summary: accessSummary(problem),
      explanation:
        'rollout-doctor could not read this, so the diagnosis may miss what it would have shown. ' +
        `The API answered ${problem.status === 0 ? 'with a connection error' : `HTTP ${problem.status}`}: ${problem.message}`,
      evidence: [{ type: 'note' as const, text: problem.message }],
    }));
  },
};

/** "cannot list events in namespace vision: grant list on events". */
function accessSummary(problem: AccessProblem): string {
  const scope = problem.namespace ? `in namespace ${problem.namespace}` : '(cluster-wide)';
  return `cannot ${problem.verb} ${problem.resource} ${scope}: grant ${problem.verb} on ${problem.resource}`;
}
