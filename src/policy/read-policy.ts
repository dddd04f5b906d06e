/**
 * Who may read what: diagnose a Deployment or scan a namespace (which reads its pods'
 * previous-container logs), scan a whole cluster, and which namespaces alerts and the
 * early warning may diagnose. Rules come from the `readers` section of the policy file
 * (ROLLOUT_DOCTOR_POLICY_FILE) and from ROLLOUT_DOCTOR_READERS.
 *
 * The default, when neither names anyone, is the safe one: only approvers read. A person
 * may read a namespace when they may approve there (src/policy/approval-policy.ts), when
 * ROLLOUT_DOCTOR_READERS lists them (or is `*`), or when a `readers` rule matching the
 * cluster, namespace and channel lists them (a rule without `users` admits anyone in its
 * channels). A cluster-wide scan needs a cluster-level approver or a rule with
 * `clusterScan: true`. Alerts: with no rule setting `alerts`, every namespace (the
 * operator turned alert intake on); once any rule sets it, only the scopes it names.
 */
import type { ApprovalPolicy, MembershipCheck, ReaderRule } from './approval-policy.js';

interface ReadRequest {
  user: string;
  channel: string;
  cluster: string;
  /** Undefined: a scan of every namespace. */
  namespace: string | undefined;
}

type ReadDecision = { allowed: true } | { allowed: false; reason: string };

export interface ReadPolicy {
  /** May this person, in this channel, read this namespace (or the whole cluster)? */
  check(request: ReadRequest): Promise<ReadDecision>;
  /** May an alert or the early warning diagnose in this namespace and post in `channel`? */
  allowsAlert(scope: { cluster: string; namespace: string; channel: string }): boolean;
}

/** The cluster-wide scope in approval rules: matches only rules without a namespace. */
const WHOLE_CLUSTER = '*';

const inScope = (r: ReaderRule, cluster: string, namespace: string | undefined): boolean =>
  (r.cluster === undefined || r.cluster === cluster) &&
  (namespace === undefined
    ? r.namespace === undefined && r.clusterScan
    : r.namespace === undefined || r.namespace === namespace);

/** @example createReadPolicy({ readers: [], everyone: false, rules: [], approval, isListed }) */
export function createReadPolicy(options: {
  /** ROLLOUT_DOCTOR_READERS without `*`. */
  readers: readonly string[];
  /** ROLLOUT_DOCTOR_READERS is `*`. */
  everyone: boolean;
  /** The policy file's `readers`. */
  rules: readonly ReaderRule[];
  approval: ApprovalPolicy;
  isListed: MembershipCheck;
}): ReadPolicy {
  const alertRules = options.rules.filter((r) => r.alerts);
  return {
    async check({ user, channel, cluster, namespace }) {
      const whole = namespace === undefined;
      if (!whole && options.everyone) return { allowed: true };
      if (!whole && (await options.isListed(user, options.readers))) return { allowed: true };
      for (const rule of options.rules.filter((r) => inScope(r, cluster, namespace))) {
        if (rule.channels && !rule.channels.includes(channel)) continue;
        if (!rule.users || (await options.isListed(user, rule.users))) return { allowed: true };
      }
      const approver = await options.approval.check(user, { cluster, namespace: namespace ?? WHOLE_CLUSTER });
      if (approver.allowed) return { allowed: true };
      return {
        allowed: false,
        reason: whole
          ? `you may not scan every namespace of cluster ${cluster} (cluster-level approvers and readers rules with clusterScan may); scan one namespace with -n`
          : `you may not read namespace ${namespace} of cluster ${cluster} from this channel (approvers, ROLLOUT_DOCTOR_READERS and the policy file's readers rules decide)`,
      };
    },
    allowsAlert({ cluster, namespace, channel }) {
      if (alertRules.length === 0) return true;
      return alertRules.some(
        (r) => inScope(r, cluster, namespace) && (!r.channels || r.channels.includes(channel)),
      );
    },
  };
}
