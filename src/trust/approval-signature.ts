/**
 * Approvals signed by the app with Ed25519: who approved which plan (by its sealed
 * digest), on which cluster, when, and until when. Only the app holds the private
 * key; workers hold the public keys (several at once during a rotation, chosen by
 * the key id in the approval), so nobody with Redis write access can make a worker
 * believe a plan was approved.
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { expiredBeyondSkew } from './clock-skew.js';
import { z } from 'zod';
import { keyKind } from './key-kind.js';
import { exclusionTtlChoiceSchema } from '../remediation/exclusion-ttl.js';
import { canonicalJson } from './plan-seal.js';
import {
  anyConversation,
  anyMessageId,
  anyPerson,
  checkRef,
  DEFAULT_PLATFORM,
  platformField,
  platformOf,
  platformOfApprover,
  platformTag,
  type ChatPlatform,
} from '../platforms/chat-refs.js';

const approvalClaimsSchema = z
  .object({
    v: z.literal(1),
    planId: z.string().min(1).max(200),
    digest: z.string().regex(/^[0-9a-f]{64}$/),
    cluster: z.string().min(1).max(100),
    /**
     * The chat platform of the message and people (src/platforms/chat-refs.ts): signed, so an
     * approval given on Slack never stands for a Teams message or the other way round.
     * Absent: Slack (approvals signed before Teams).
     */
    platform: platformField,
    /**
     * One id per approving person: Slack user ids, Entra object ids; a person of another
     * platform than the message's only when the policy knows them by no id of its own.
     */
    approvers: z.array(anyPerson).min(1),
    /**
     * Who asked for the diagnosis on the approved message: a person id, or "-" for a
     * message nobody asked for (alert threads); absent when the button named nobody.
     */
    requester: anyPerson.optional(),
    /**
     * How long the node exclusion the plan writes lasts, as its approvers chose it:
     * one of the closed set offered; the worker writes it in place of the
     * plan's own duration. Absent: as the plan says.
     */
    lasts: exclusionTtlChoiceSchema.optional(),
    at: z.number().int(),
    expiresAt: z.number().int(),
    keyId: z.string().min(1).max(64),
    /** Random per approval: a worker accepts each nonce for one job only (replay guard). */
    nonce: z.string().regex(/^[0-9a-f]{32}$/),
    /** The message whose thread gets the outcome. */
    channel: anyConversation,
    messageTs: anyMessageId,
  })
  .superRefine((c, ctx) =>
    checkRef(
      {
        platform: c.platform,
        conversation: c.channel,
        message: c.messageTs,
        approvers: c.approvers,
        requester: c.requester,
      },
      ctx,
    ),
  );
export type ApprovalClaims = z.infer<typeof approvalClaimsSchema>;

export const signedApprovalSchema = z.object({
  claims: approvalClaimsSchema,
  signature: z.string().min(1).max(200),
});
export type SignedApproval = z.infer<typeof signedApprovalSchema>;

function message(claims: ApprovalClaims): Buffer {
  return Buffer.from(`rollout-doctor approval v1\n${canonicalJson(claims)}`);
}

/** @example signApproval({ ...claims, keyId: 'a1' }, privateKey) */
/**
 * The plan id an approval to propose a plan in Git is signed (and marked) for, never the
 * plan's own: an approval to propose cannot be presented as one to apply, nor the reverse
 * (src/chat/use-cases/propose-press.ts, src/worker/propose-processor.ts).
 */
export function proposalOf(planId: string): string {
  return `propose/${planId}`;
}

export function signApproval(claims: ApprovalClaims, privateKey: KeyObject): SignedApproval {
  return { claims, signature: sign(null, message(claims), privateKey).toString('base64') };
}

/** `expired`: a genuine approval whose time is past (beyond the tolerated clock skew). */
type ApprovalVerdict = { ok: true; claims: ApprovalClaims } | { ok: false; reason: string; expired?: true };

/** Checks the signature, then that it names this plan digest, cluster and thread and is still valid. */
export function verifyApproval(
  approval: unknown,
  publicKeys: ReadonlyMap<string, KeyObject>,
  expected: {
    planId: string;
    digest: string;
    cluster: string;
    now: number;
    /** Absent: Slack. */
    platform?: ChatPlatform | undefined;
    channel: string;
    messageTs: string;
    approvedBy: readonly string[];
  },
): ApprovalVerdict {
  const parsed = signedApprovalSchema.safeParse(approval);
  if (!parsed.success) return { ok: false, reason: 'the approval is missing or malformed' };
  const { claims, signature } = parsed.data;
  const key = publicKeys.get(claims.keyId);
  if (!key) return { ok: false, reason: `the approval is signed with unknown key "${claims.keyId}"` };
  if (!verify(null, message(claims), key, Buffer.from(signature, 'base64'))) {
    return { ok: false, reason: 'the approval signature does not verify' };
  }
  if (claims.planId !== expected.planId) return { ok: false, reason: 'the approval names another plan' };
  if (claims.digest !== expected.digest)
    return { ok: false, reason: 'the approval names another plan digest' };
  if (claims.cluster !== expected.cluster) return { ok: false, reason: 'the approval names another cluster' };
  if (platformOf(claims) !== platformOf(expected))
    return { ok: false, reason: 'the job names another chat platform than the approval' };
  if (claims.channel !== expected.channel || claims.messageTs !== expected.messageTs)
    return { ok: false, reason: 'the job points at another chat thread than the approval' };
  if ([...claims.approvers].sort().join(',') !== [...expected.approvedBy].sort().join(','))
    return { ok: false, reason: 'the job names other approvers than the approval' };
  if (expiredBeyondSkew(expected.now, claims.expiresAt))
    return { ok: false, reason: 'the approval expired', expired: true };
  return { ok: true, claims };
}

/**
 * A PEM or base64 DER (SPKI) Ed25519 public key. A private key is refused, though
 * node derives a public key from one: a side that holds the other's signing key is
 * exactly what the key split prevents.
 */
function parsePublicKey(text: string): KeyObject {
  const kind = keyKind(text);
  if (kind === 'private') throw new Error('a signing (private) key was given where its public half belongs');
  if (kind === undefined) throw new Error('not a key in PEM or base64 DER');
  const key = text.includes('-----BEGIN')
    ? createPublicKey(text)
    : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('public keys must be Ed25519');
  return key;
}

/** A PEM or base64 DER (PKCS#8) Ed25519 private key. */
function parsePrivateKey(text: string): KeyObject {
  const kind = keyKind(text);
  if (kind === 'public') throw new Error('a public key was given where the signing key belongs');
  if (kind === undefined) throw new Error('not a key in PEM or base64 DER');
  const key = text.includes('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be Ed25519');
  return key;
}

/**
 * An Ed25519 signing key, `id:key`, key PEM or base64 DER: the app's approval key
 * (ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY), a worker's notify key (ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY).
 */
export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
}

export function parseSigningKey(value: string): SigningKey {
  const text = value.trim();
  const at = text.indexOf(':');
  const keyId = text.slice(0, at);
  if (at < 1 || !/^[A-Za-z0-9._-]{1,64}$/.test(keyId))
    throw new Error('the signing key needs the form id:key');
  return { keyId, privateKey: parsePrivateKey(text.slice(at + 1)) };
}

/**
 * What the app signs when a plan is claimed: the plan's digest, who approved, who
 * asked, the thread, and a validity that outlasts the plan by `retryGraceMs` so a
 * job handed back by a dying worker can still finish.
 */
export function approvalClaims(input: {
  planId: string;
  digest: string;
  cluster: string;
  planExpiresAt: number;
  approvers: string[];
  requester?: string | undefined;
  /** The duration the approvers chose for the exclusion (absent: the plan's own). */
  lasts?: ApprovalClaims['lasts'];
  /** Absent: Slack. */
  platform?: ChatPlatform | undefined;
  channel: string;
  messageTs: string;
  now: number;
  keyId: string;
  retryGraceMs?: number;
}): ApprovalClaims {
  return {
    v: 1,
    planId: input.planId,
    digest: input.digest,
    cluster: input.cluster,
    ...platformTag(input.platform),
    approvers: [...input.approvers].sort(),
    ...(input.requester ? { requester: input.requester } : {}),
    ...(input.lasts ? { lasts: input.lasts } : {}),
    at: input.now,
    expiresAt: Math.max(input.planExpiresAt, input.now) + (input.retryGraceMs ?? 15 * 60_000),
    keyId: input.keyId,
    nonce: randomBytes(16).toString('hex'),
    channel: input.channel,
    messageTs: input.messageTs,
  };
}

/** `id:key[,id:key]` (ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS, ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS), each key PEM or base64 DER. */
export function parsePublicKeys(value: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const at = pair.indexOf(':');
    if (at < 1 || !/^[A-Za-z0-9._-]{1,64}$/.test(pair.slice(0, at)))
      throw new Error('a public key needs the form id:key');
    keys.set(pair.slice(0, at), parsePublicKey(pair.slice(at + 1)));
  }
  if (keys.size === 0) throw new Error('no public key given');
  return keys;
}

/** What one approver approved: the plan as shown, and the exclusion's duration they chose (absent: the plan's). */
type Marked = { planId: string; shown: string; lasts?: string | undefined };

function markMessage(input: Marked & { user: string }): Buffer {
  // A mark without a chosen duration signs what marks always did.
  if (input.lasts === undefined) {
    const { lasts: _none, ...rest } = input;
    input = rest;
  }
  // Marks of the default platform (Slack) sign what they always did; another
  // platform's (Teams') sign its name too: the platform whose approver id it is.
  const platform = platformOfApprover(input.user);
  const signed = platform !== null && platform !== DEFAULT_PLATFORM ? { ...input, platform } : input;
  return Buffer.from(`rollout-doctor approval mark v1\n${canonicalJson(signed)}`);
}

/**
 * One approver's approval of a plan as shown, as the plan store records it:
 * `<user>~<signature>`, the app's approval key over the plan id, the shown digest and
 * the user (a domain of its own), and the duration of a node exclusion they chose, so a
 * mark stands for that duration only. Ed25519 is deterministic, so a second click of the
 * same user makes the same mark. The user is a Slack user id or a Teams Entra object id
 * (their shapes never overlap; a Teams mark also signs its platform). A user id added to the approvals in Redis by anyone
 * else carries no valid mark, so it cannot stand for a second approver.
 */
export function approvalMark(input: Marked & { user: string }, key: SigningKey): string {
  return `${input.user}~${sign(null, markMessage(input), key.privateKey).toString('base64')}`;
}

/** The user of a mark `approvalMark` made for this plan as shown; null for anything else. */
export function markedApprover(mark: string, plan: Marked, publicKey: KeyObject): string | null {
  const at = mark.indexOf('~');
  const user = mark.slice(0, at);
  if (at < 0 || platformOfApprover(user) === null) return null;
  const signature = Buffer.from(mark.slice(at + 1), 'base64');
  return verify(null, markMessage({ ...plan, user }), publicKey, signature) ? user : null;
}

/** The user id of a mark, unverified (for saying who approved); null when there is none. */
export function markUser(mark: string): string | null {
  const user = mark.split('~')[0] ?? '';
  return platformOfApprover(user) === null ? null : user;
}
