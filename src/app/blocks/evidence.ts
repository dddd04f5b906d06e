import type { Evidence } from '../../diagnosis/finding.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn, trusted } from './mrkdwn.js';
import { codeSection, section, table, truncate, type Block } from './text.js';

const MAX_ROWS = 8;

function more(rows: number): string {
  return rows > MAX_ROWS ? `\n… ${rows - MAX_ROWS} more` : '';
}

/** One evidence item as at most one block; null for kinds the message leaves to the full report. */
export function evidenceBlock(evidence: Evidence): Block | null {
  switch (evidence.type) {
    case 'scheduling': {
      if (!evidence.parsed) return codeSection(mrkdwn`*Scheduler* (${evidence.pod})`, evidence.message);
      const p = evidence.parsed;
      const rows = p.reasons.slice(0, MAX_ROWS).map((r) => [String(r.count), r.reason, r.category]);
      const pre = p.preemption
        ? `\npreemption: ${p.preemption.text ?? p.preemption.reasons.map((r) => `${r.count} ${r.reason}`).join(', ')}`
        : '';
      return codeSection(
        mrkdwn`*Scheduler:* 0/${p.total} nodes available for ${evidence.pod}`,
        `${table(['nodes', 'reason', 'category'], rows)}${more(p.reasons.length)}${truncate(pre, 400)}`,
      );
    }
    case 'strategy': {
      const s = evidence.strategy;
      if (s.type === 'Recreate') return section(mrkdwn`*Strategy:* Recreate, replicas ${evidence.replicas}`);
      const v = (x: typeof s.maxSurge): string =>
        x ? `${x.value} (${String(x.raw)}${x.source === 'default' ? ', default' : ''})` : 'n/a';
      return section(
        mrkdwn`*Strategy:* RollingUpdate, replicas ${evidence.replicas}: maxSurge resolves to ${v(s.maxSurge)}, maxUnavailable to ${v(s.maxUnavailable)}`,
      );
    }
    case 'node-capacity': {
      const rows = evidence.rows
        .slice(0, MAX_ROWS)
        .map((r) => [
          r.node,
          r.resource,
          r.allocatable,
          r.used,
          r.free,
          r.holders.map((h) => h.pod + (h.ownedByThisDeployment ? ' (ours)' : '')).join(', '),
        ]);
      return codeSection(
        trusted('*Capacity on eligible nodes*'),
        table(['node', 'resource', 'alloc', 'used', 'free', 'held by'], rows) + more(evidence.rows.length),
      );
    }
    case 'crash-table': {
      const rows = evidence.rows
        .slice(0, MAX_ROWS)
        .map((r) => [
          r.node,
          `${r.ready}/${r.pods}`,
          String(r.restarts),
          String(r.crashing),
          r.lastExitCode === undefined ? '' : String(r.lastExitCode),
          r.lastReason ?? '',
        ]);
      return codeSection(
        trusted('*Pods per node*'),
        table(['node', 'ready', 'restarts', 'crashing', 'exit', 'reason'], rows) + more(evidence.rows.length),
      );
    }
    case 'node-diff': {
      const rows = evidence.differences.slice(0, MAX_ROWS).map((d) => [d.field, d.bad, d.good]);
      return codeSection(
        mrkdwn`*What differs on ${evidence.badNodes.join(', ')}*`,
        table(['field', 'bad node', 'good nodes'], rows) + more(evidence.differences.length),
      );
    }
    case 'condition':
      return section(
        joinMrkdwn(
          [
            mrkdwn`*Condition:* ${evidence.condition}=${evidence.status}`,
            ...(evidence.reason ? [mrkdwn` (${evidence.reason})`] : []),
            ...(evidence.message ? [mrkdwn`: ${truncate(evidence.message, 300)}`] : []),
          ],
          '',
        ),
      );
    case 'log':
      return codeSection(
        mrkdwn`*Previous log of ${evidence.pod}/${evidence.container}*`,
        evidence.tail.split('\n').slice(-8).join('\n'),
      );
    case 'note':
      return section(escapeMrkdwn(truncate(evidence.text, 500)));
    default:
      return null;
  }
}
