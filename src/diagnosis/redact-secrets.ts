/**
 * Log tails and termination messages are what a crashing process printed last, and
 * processes print their secrets when they fail to use them (a connection string, a
 * bearer token in a failed request). These texts travel to Redis, Slack, terminals
 * and audit logs, so common secret shapes are masked where the snapshot is formed,
 * before anything else sees them.
 */
import type { ContainerStatus, Pod } from './k8s.js';
import type { WorkloadSnapshot } from './snapshot/types.js';

export const REDACTED = '[REDACTED]';

/** Names of settings whose value is a secret: `password=…`, `"api_key": "…"`, `SECRET: …`. */
const SECRET_KEY =
  '(?:[A-Za-z0-9_.-]*?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|auth))';

/** Each pattern masks its `secret` group, or the whole match where it has none. */
const PATTERNS: readonly RegExp[] = [
  // PEM private keys, whole block (GCP service-account keys, TLS keys).
  /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z]+ )?PRIVATE KEY-----|$)/g,
  // Authorization headers: Bearer, Basic, token schemes.
  /\b(?:Bearer|Basic|Token)\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})/gi,
  // JWTs: three base64url segments, the first a JSON header.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  // Cloud and SaaS keys with a fixed prefix.
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bhv[sbr]\.[A-Za-z0-9_-]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bsk_(?:live|test)_[0-9A-Za-z]{16,}\b/g,
  // URL user info: scheme://user:secret@host.
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:(?<secret>[^\s@/]+)@/gi,
  // key = value, key: value, "key": "value" (JSON), key="value".
  new RegExp(
    `(?:^|[\\s,{;&?("'])["']?${SECRET_KEY}["']?\\s*[:=]\\s*(?<secret>"[^"\\n]*"|'[^'\\n]*'|[^\\s,;&"'}\\])]+)`,
    'gim',
  ),
];

/** A value that is clearly not a secret: empty, a placeholder, or a word from a sentence. */
function harmless(value: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '');
  return (
    bare.length < 3 ||
    /^(?:\*+|x+|null|none|true|false|redacted|\[redacted\]|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)$/i.test(
      bare,
    )
  );
}

/** Masks secret-shaped substrings of `text`; everything else stays as it was. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, ...args: unknown[]) => {
      const groups = args.at(-1) as { secret?: string } | undefined;
      const secret = groups?.secret;
      if (secret === undefined) return REDACTED;
      if (harmless(secret)) return match;
      const at = match.lastIndexOf(secret);
      return `${match.slice(0, at)}${REDACTED}${match.slice(at + secret.length)}`;
    });
  }
  return out;
}

function redactStatus(status: ContainerStatus): ContainerStatus {
  const clean = <T extends { message?: string } | undefined>(state: T): T =>
    state?.message === undefined ? state : { ...state, message: redactSecrets(state.message) };
  return {
    ...status,
    ...(status.state ? { state: { ...status.state, terminated: clean(status.state.terminated) } } : {}),
    ...(status.lastState
      ? { lastState: { ...status.lastState, terminated: clean(status.lastState.terminated) } }
      : {}),
  };
}

const hasMessage = (s: ContainerStatus): boolean =>
  s.state?.terminated?.message !== undefined || s.lastState?.terminated?.message !== undefined;

function redactPod(pod: Pod): Pod {
  const { containerStatuses = [], initContainerStatuses = [] } = pod.status ?? {};
  // Nothing to redact: the pod itself (most pods of a large DaemonSet carry no message).
  if (!containerStatuses.some(hasMessage) && !initContainerStatuses.some(hasMessage)) return pod;
  if (!pod.status) return pod;
  return {
    ...pod,
    status: {
      ...pod.status,
      ...(pod.status.containerStatuses
        ? { containerStatuses: pod.status.containerStatuses.map(redactStatus) }
        : {}),
      ...(pod.status.initContainerStatuses
        ? { initContainerStatuses: pod.status.initContainerStatuses.map(redactStatus) }
        : {}),
    },
  };
}

/**
 * The snapshot with its log tails and containers' termination messages redacted;
 * nothing else changes. The input is not modified.
 */
export function redactSnapshot(snapshot: WorkloadSnapshot): WorkloadSnapshot {
  return {
    ...snapshot,
    pods: snapshot.pods.map(redactPod),
    logs: Object.fromEntries(Object.entries(snapshot.logs).map(([key, tail]) => [key, redactSecrets(tail)])),
  };
}
