/**
 * A diagnosis in the chat port's model (src/chat/model.ts), for every platform: the
 * result an SRE reads in ten seconds (the verdict, 3 to 5 lines of decisive evidence,
 * the recommended fix with its impact, Apply buttons naming the plan as shown and who
 * asked, Re-run, Dismiss) and the thread report under it (every finding, evidence item
 * and plan whole). The "diagnosing…" line, a failed run and a scan: run-messages.ts. Cluster
 * text is only ever interpolated into `say` (text spans) or put in code and table
 * bodies: each adapter escapes it (Slack: src/chat/slack/render.ts; Teams:
 * src/chat/teams/cards.ts).
 */
import { unreadGuardLines } from '../../diagnosis/guards/guard-gaps.js';
import { proofBrief, proofSentence, proofSteps } from '../../remediation/proof-text.js';
import { planImpact, planWarnings } from '../../remediation/plan-words.js';
import { DEFAULT_WORKLOAD_KIND, typeOfKind, type WorkloadKind } from '../../diagnosis/workload-ref.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { RemediationPlan } from '../../remediation/plan.js';
import type { DryRunSummary } from '../../queue/plan-store.js';
import { messageTime } from '../../text/time.js';
import { shownDigest, type ShownPlan } from '../../trust/plan-seal.js';
import { PLANNED, type Requester } from '../actions.js';
import type { Button, ChatMessage, Choice, Icon, Part, Rich } from '../model.js';
import { plannedTtl } from '../../remediation/exclusion-times.js';
import { EXCLUSION_TTL_CHOICES } from '../../remediation/exclusion-ttl.js';
import { choiceWords, exclusionWords } from '../../remediation/exclusion-words.js';
import { icon, join, rich, say, strong, text } from '../../message/rich.js';
import { approversText } from './approvers.js';
import { confirmDialogText } from './confirm-text.js';
import { clueLine, clueOf, evidenceLine, evidenceParts } from '../../message/evidence.js';
import { clip, dryRunText, firstSentence, headline, patchText, recommendedPlan } from './plan-text.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { findingExplanation, findingSummary, planSummary } from '../../message/words/finding.js';
import { RESULT_WORDS } from '../words/result.js';
import { PROPOSE_CHAT_WORDS } from '../words/propose.js';
import { commitChangeOf } from '../../remediation/commit-change.js';
import { sentenceIn } from '../../message/sentences.js';

const wordsOf = (lang: Lang | undefined) => wordsIn(RESULT_WORDS, lang ?? 'en');

/** Where a plan stands, as the message shows it. */
export type PlanView =
  | { state: 'open'; expiresAt: number; approvals?: number; required?: number }
  | { state: 'expired' }
  | { state: 'claimed'; approvers: string[]; at: number };

/** A message and, under a final result, its thread report. */
export interface RunMessages {
  message: ChatMessage;
  thread: ChatMessage[];
}

export interface ResultInput {
  cluster: string;
  diagnosis: Diagnosis;
  dryRuns: Record<string, DryRunSummary>;
  plans: Record<string, PlanView>;
  /** The plan approved on this message (its other plans are withdrawn). */
  approvedPlan?: string;
  /** Who asked for the run in this message (NO_REQUESTER: nobody); null: not known. */
  requester: Requester | null;
  /** The platform of the people the message names (approvers). */
  platform: string;
  /** The approval policy's names of approvers, for platforms that cannot show ids (approvers.ts). */
  names?: Readonly<Record<string, string>>;
  /** The thread's language: whoever started it (default English). */
  lang?: Lang;
  /**
   * "Propose in Git" buttons beside Apply (ROLLOUT_DOCTOR_PROPOSE_IN_GIT: the workers hold a
   * Git token), for a workload a GitOps owner applies and a plan whose change a manifest keeps.
   */
  proposeInGit?: boolean;
}

/** The owners whose manifests live in Git (src/propose/owner-source.ts reads where). */
const GITOPS_TOOLS: ReadonlySet<string> = new Set(['argocd', 'flux-kustomize', 'flux-helm']);

/**
 * The "Propose in Git" button of an open plan, or none: not offered here, no
 * GitOps owner, or a plan no manifest keeps (src/remediation/commit-change.ts). Its action
 * names the plan and what was shown as Apply's does: the press is decided the same way
 * (src/chat/use-cases/propose-press.ts).
 */
export function proposeButton(
  shown: ShownPlan,
  view: PlanView,
  input: Pick<ResultInput, 'diagnosis' | 'proposeInGit' | 'requester' | 'lang'>,
): Button | null {
  const tool = input.diagnosis.managedBy?.tool;
  if (input.proposeInGit !== true || view.state !== 'open' || !tool || !GITOPS_TOOLS.has(tool)) return null;
  if (!commitChangeOf(shown.plan).ok) return null;
  const w = wordsIn(PROPOSE_CHAT_WORDS, input.lang ?? 'en');
  return {
    label: w.button({}),
    action: { kind: 'propose', planId: shown.plan.id, shown: shownDigest(shown), requester: input.requester },
    confirm: {
      title: w.confirmTitle({}),
      text: w.confirmText({ kind: shown.plan.kind }),
      yes: w.confirmYes({}),
      no: wordsOf(input.lang).cancel({}),
    },
  };
}

const SEVERITY: Record<string, Icon> = { critical: 'red', warning: 'orange', info: 'blue' };

/** The GitOps and Helm owners by their kind; kubectl's words name its field manager (ownerKubectl). */
const TOOL_NAMES: Record<string, string> = {
  argocd: 'Argo CD application',
  'flux-kustomize': 'Flux Kustomization',
  'flux-helm': 'Flux HelmRelease',
  helm: 'Helm release',
};

/** The plans in the order offered (the recommended first), each with its dry run. */
function orderedPlans(input: Pick<ResultInput, 'cluster' | 'diagnosis' | 'dryRuns'>): ShownPlan[] {
  const first = recommendedPlan(input.diagnosis);
  const rest = input.diagnosis.remediations.filter((p) => p.id !== first?.id);
  return [...(first ? [first] : []), ...rest].map((plan) => ({
    plan,
    cluster: input.cluster,
    ...(input.dryRuns[plan.id] ? { dryRun: input.dryRuns[plan.id] } : {}),
  }));
}

/** Evidence types in the order they decide a verdict: who holds what, where it crashes, what differs. */
const DECISIVE_ORDER: string[] = [
  'node-capacity',
  'quota',
  'device-health',
  'crash-table',
  'node-diff',
  'log',
  'strategy',
  'scheduling',
  'condition',
  'pods',
  'note',
];
const MAX_EVIDENCE_LINES = 5;
const MAX_EVIDENCE_CHARS = 700;

/** 3 to 5 lines of decisive evidence for the top finding; the log clue follows what differs. */
function decisiveLines(finding: Finding, lang: Lang): Rich[] {
  const hasClue = finding.evidence.some((e) => clueOf(e) !== undefined);
  const ordered = [...finding.evidence].sort(
    (a, b) => DECISIVE_ORDER.indexOf(a.type) - DECISIVE_ORDER.indexOf(b.type),
  );
  const lines: Rich[] = [];
  let size = 0;
  for (const evidence of ordered) {
    // The engine's clue is the decisive log line; the raw tail then stays in the thread.
    if (evidence.type === 'log' && hasClue) continue;
    const clue = clueOf(evidence);
    // A clue that points at no difference of the Node objects explains the crash: it
    // comes first, and the differences follow, marked as what it does not point at.
    const candidates =
      clue && clue.pointsAt === undefined
        ? [clueLine(clue, lang), evidenceLine(evidence, { clueElsewhere: true, lang })]
        : [evidenceLine(evidence, { lang }), ...(clue ? [clueLine(clue, lang)] : [])];
    for (const line of candidates) {
      if (!line || lines.length >= MAX_EVIDENCE_LINES) continue;
      const length = plainLength(line);
      if (lines.length >= 3 && size + length > MAX_EVIDENCE_CHARS) continue;
      lines.push(line);
      size += length;
    }
  }
  return lines;
}

/** About how long a line reads (its characters; an icon counts as a short word). */
function plainLength(line: Rich): number {
  return line.reduce((n, s) => {
    if (s.kind === 'icon') return n + 8;
    if (s.kind === 'break') return n + 1;
    if (s.kind === 'mention') return n + 12;
    if (s.kind === 'group') return n + s.id.length;
    if (s.kind === 'link') return n + s.label.length;
    return n + s.text.length + (s.kind === 'text' ? 0 : 2);
  }, 0);
}

function verdict(diagnosis: Diagnosis, lang: Lang): Rich {
  const t = diagnosis.target;
  const top = diagnosis.findings[0];
  const what = `${typeOfKind(t.kind)}/${t.name}`;
  const w = wordsOf(lang);
  if (!top && diagnosis.analyzerErrors.length > 0) return w.noVerdict({ what, namespace: t.namespace });
  if (!top) return w.noProblem({ what, namespace: t.namespace });
  return say`${icon(SEVERITY[top.severity] ?? 'unknown')} ${strong(top.code)}: ${headline(findingSummary(top, lang))}`;
}

/** The longest why the result message shows whole. */
const SHORT_WHY = 120;

/**
 * One line on whether the workload's owner (Argo CD, Flux, Helm), or with none
 * recognised an unknown writer, will undo the write; null when the plan has no verdict.
 * `short` (the result message): a why longer than SHORT_WHY (per-field reasons) and
 * the why of an unrecognised owner stay in the thread report, whole; the verdict shows.
 */
export function driftLine(
  plan: RemediationPlan,
  options: { short?: boolean; lang?: Lang } = {},
): Rich | null {
  const drift = plan.drift;
  if (!drift) return null;
  const lang = options.lang ?? 'en';
  const w = wordsOf(lang);
  const reverted = drift.reverted === 'unknown' ? null : drift.reverted;
  const by = sentenceIn(drift.by, lang);
  const why = sentenceIn(drift.why, lang);
  if (drift.ownerRecognised === false) {
    const verdict = w.driftNoOwner({ reverted });
    return options.short ? w.driftWhyInThread({ verdict, by }) : w.driftWhy({ verdict, why });
  }
  const verdict = w.driftOwner({ by, reverted });
  if (options.short && drift.why.length > SHORT_WHY) return w.driftPerFieldInThread({ verdict });
  return w.driftWhy({ verdict, why });
}

/** The recommended fix and its impact in one line each (plus the owner's drift, when known). */
function fixLines({ plan, dryRun }: ShownPlan, lang: Lang): Rich {
  const w = wordsOf(lang);
  const lines = [
    w.recommended({ summary: lang === 'en' ? firstSentence(plan.summary) : planSummary(plan, lang) }),
    w.impact({ impact: clip(firstSentence(planImpact(plan, lang)), 220) }),
  ];
  if (plan.proof) lines.push(say`${clip(proofBrief(plan.proof, lang), 160)}`);
  const drift = driftLine(plan, { short: true, lang });
  if (drift) lines.push(drift);
  // A fix the API server would refuse is worth knowing before the click.
  if (dryRun && !dryRun.ok) lines.push(w.dryRunRefused({ reason: clip(firstSentence(dryRun.reason), 200) }));
  return join(lines, '\n');
}

/**
 * The Apply (or Undo, or status) button of one plan, with a confirm step quoting the
 * change and its impact. Its action names the plan and the digest of `shown`, the very
 * data the message, its thread and the confirm step are rendered from: the click is
 * refused when the stored plan is not what was shown (src/chat/approvals/approve.ts).
 * It also names `requester`, who asked for the diagnosis (NO_REQUESTER for alert
 * threads): that person does not count toward a two-person approval; null (not
 * known): a two-person approval is refused at the click. Approved and expired plans
 * keep a button that only reports the state and never applies anything.
 */
export function planButton(
  shown: ShownPlan,
  view: PlanView,
  options: { undo?: boolean; primary?: boolean; requester: Requester | null; lang?: Lang },
): Button {
  const { plan } = shown;
  const w = wordsOf(options.lang);
  if (view.state === 'expired')
    return { label: w.buttonExpired(plan), action: { kind: 'status', planId: plan.id } };
  if (view.state === 'claimed')
    return { label: w.buttonApproved(plan), action: { kind: 'status', planId: plan.id } };
  const undo = options.undo === true;
  const counted = view.required && view.required > 1 ? `${view.approvals ?? 0}/${view.required}` : '';
  // One primary button per message (the recommended fix); Undo is the danger one.
  const style = options.undo ? 'danger' : options.primary === false ? undefined : 'primary';
  return {
    label: w.buttonApply({ kind: plan.kind, undo, counted }),
    action: {
      kind: options.undo ? 'undo' : 'approve',
      planId: plan.id,
      shown: shownDigest(shown),
      requester: options.requester,
    },
    ...(style ? { style } : {}),
    confirm: {
      title: w.confirmTitle({ kind: plan.kind, name: plan.target.name, undo }),
      text: confirmDialogText(plan, { undo, lang: options.lang ?? 'en' }),
      yes: w.confirmYes({ undo }),
      no: w.cancel({}),
    },
    ...(undo ? {} : lastsChoice(plan, options.lang ?? 'en')),
  };
}

/**
 * Beside the Approve of a plan that writes a node exclusion: how long it
 * lasts, the plan's own duration (the configured default) first, then the other
 * choices; the press carries the one picked (src/chat/approvals/approve.ts signs it).
 */
function lastsChoice(plan: RemediationPlan, lang: Lang): { choice?: Choice } {
  const planned = plan.patch ? plannedTtl(plan.patch) : undefined;
  if (planned === undefined) return {};
  const options = [
    {
      value: PLANNED,
      label: translate(exclusionWords, lang, 'choiceDefault', { ttl: choiceWords(planned, lang) }),
    },
    ...EXCLUSION_TTL_CHOICES.filter((c) => c !== planned).map((c) => ({
      value: c,
      label: choiceWords(c, lang),
    })),
  ];
  return { choice: { label: translate(exclusionWords, lang, 'choiceLabel'), options } };
}

/** "✅ kind approved by A and B at 12:03 UTC", or the plan's expiry; null while open. */
function approvalLine(
  plan: RemediationPlan,
  view: PlanView,
  platform: string,
  names: Readonly<Record<string, string>> | undefined,
  lang: Lang,
): Part | null {
  const w = wordsOf(lang);
  if (view.state === 'claimed') {
    const who = approversText(platform, view.approvers, names);
    return {
      kind: 'paragraph',
      text: w.approved({ kind: plan.kind, who, at: messageTime(view.at) }),
      role: 'state',
    };
  }
  if (view.state === 'expired') return { kind: 'paragraph', text: w.expired(plan) };
  return null;
}

export type ResultTarget = { namespace: string; name: string; kind?: WorkloadKind };

/** The result's buttons: the given ones, then Re-run (when there is a target) and Dismiss. */
export function resultButtons(
  cluster: string,
  target: ResultTarget | null,
  buttons: Button[],
  lang: Lang = 'en',
): Part {
  const w = wordsOf(lang);
  const all = [...buttons];
  if (target)
    all.push({
      label: w.rerun({}),
      action: {
        kind: 'rerun',
        cluster,
        target: {
          namespace: target.namespace,
          name: target.name,
          kind: target.kind ?? DEFAULT_WORKLOAD_KIND,
        },
      },
    });
  all.push({ label: w.dismiss({}), action: { kind: 'dismiss' } });
  return { kind: 'actions', buttons: all };
}

/** "managed by Argo CD application shop"; null when no owner was seen. */
function managedByPhrase(diagnosis: Diagnosis, lang: Lang): Rich | null {
  const owner = diagnosis.managedBy;
  if (!owner?.tool) return null;
  return wordsOf(lang).managedBy({ owner: ownerPhrase(owner, lang), namespace: owner.namespace ?? '' });
}

/** "Argo CD application shop", "kubectl apply by kubectl-client-side-apply". */
function ownerPhrase(owner: NonNullable<Diagnosis['managedBy']>, lang: Lang): Rich {
  // The name its own span: a long one is clipped alone, the tool's words kept.
  return owner.tool === 'kubectl'
    ? wordsOf(lang).ownerKubectl({ manager: owner.name })
    : say`${TOOL_NAMES[owner.tool] ?? owner.tool} ${owner.name}`;
}

/**
 * The result message an SRE reads in ten seconds: the verdict, 3 to 5 lines of
 * decisive evidence, the recommended fix with its impact, and the buttons (one
 * primary: the recommended fix). Everything else goes to the thread report, whole:
 * explanations, tables, dry runs, patches, the other fixes. Once a plan of the message
 * is approved, the other Apply buttons are withdrawn. `brief` is the message for a
 * platform whose size limit the whole does not fit: the verdict, the marks and the
 * buttons.
 */
export function resultMessage(input: ResultInput): RunMessages {
  const { cluster, diagnosis } = input;
  const t = diagnosis.target;
  const top: Finding | undefined = diagnosis.findings[0];
  const plans = orderedPlans(input).slice(0, 20);
  // The plan approved on this very message (src/chat/approvals/approve.ts records it):
  // its other plans are withdrawn. A plan approved from another message of the same
  // cluster state only shows as approved here.
  const claimed = input.approvedPlan ? plans.find((p) => p.plan.id === input.approvedPlan) : undefined;
  const errors = diagnosis.analyzerErrors.length;
  const lang = input.lang ?? 'en';
  const owner = managedByPhrase(diagnosis, lang);
  const w = wordsOf(lang);
  const header: Part[] = [
    { kind: 'paragraph', text: verdict(diagnosis, lang), role: 'verdict' },
    {
      kind: 'note',
      text: w.note({
        what: `${typeOfKind(t.kind)}/${t.name}`,
        namespace: t.namespace,
        cluster,
        at: messageTime(diagnosis.capturedAt),
        owner,
        failed: errors,
      }),
    },
  ];
  const body: Part[] = [];
  const evidence = top ? decisiveLines(top, lang) : [];
  if (evidence.length > 0) body.push({ kind: 'paragraph', text: join(evidence, '\n') });
  const recommended = plans[0];
  if (recommended && !claimed) body.push({ kind: 'paragraph', text: fixLines(recommended, lang) });
  const others = diagnosis.findings.slice(1);
  if (others.length > 0)
    body.push({
      kind: 'note',
      text: w.alsoFound({
        codes: join(
          others.slice(0, 3).map((f) => say`${strong(f.code)}`),
          ', ',
        ),
        more: Math.max(0, others.length - 3),
      }),
    });
  const thread = threadReport(input);
  if (thread.length > 0)
    body.push({
      kind: 'note',
      text: w.inThread({ plans: plans.length, patch: plans.every((p) => p.plan.patch) }),
    });
  // Approved or expired plans say so above the buttons; once one is approved, the
  // others are withdrawn (src/chat/approvals/approve.ts refuses them too).
  const marks: Part[] = [];
  const buttons: Button[] = [];
  plans.forEach((shown, i) => {
    if (claimed && shown.plan.id !== claimed.plan.id) return;
    const view = input.plans[shown.plan.id] ?? { state: 'expired' };
    const line = approvalLine(shown.plan, view, input.platform, input.names, lang);
    if (line) marks.push(line);
    buttons.push(planButton(shown, view, { primary: i === 0, requester: input.requester, lang }));
    // Beside its Apply, for the first few plans only (an actions block holds 25 buttons).
    const propose = i < 3 ? proposeButton(shown, view, input) : null;
    if (propose) buttons.push(propose);
  });
  if (claimed && plans.length > 1) marks.push({ kind: 'note', text: w.withdrawn({}) });
  const actions = resultButtons(cluster, t, buttons, lang);
  const summaryWhat = { what: `${typeOfKind(t.kind)}/${t.name}`, namespace: t.namespace };
  const summary = say`${w.summaryOf({
    ...summaryWhat,
    rest: top
      ? `${top.code}: ${headline(findingSummary(top, lang))}`
      : errors > 0
        ? w.noVerdictShort({})
        : w.noProblemShort({}),
  })}`;
  const brief: Part[] = [...header, { kind: 'note', text: w.briefInThread({}) }, ...marks, actions];
  return { message: { summary, parts: [...header, ...body, ...marks, actions], brief }, thread };
}

/** A plan in full: summary, the whole impact, every warning, the owner's drift, the dry run and the exact patch. */
export function planParts(shown: ShownPlan, heading: Rich, lang: Lang = 'en'): Part[] {
  const { plan } = shown;
  const w = wordsOf(lang);
  const lines = [heading, w.planImpact({ impact: planImpact(plan, lang) })];
  if (plan.proof) {
    lines.push(say`${proofSentence(plan.proof, lang)}`);
    const steps = proofSteps(plan.proof, lang);
    if (steps) lines.push(say`${steps}`);
  }
  for (const w of planWarnings(plan, lang)) lines.push(say`${icon('warning')} ${w}`);
  const drift = driftLine(plan, { lang });
  if (drift) lines.push(drift);
  if (plan.drift?.fields.length)
    lines.push(say`${w.fieldsWritten({ fields: plan.drift.fields.join(', ') })}`);
  const patchTitle = plan.patch ? w.patchTitle({ type: plan.patch.type, id: plan.id }) : w.changeTitle(plan);
  return [
    { kind: 'paragraph', text: join(lines, '\n') },
    { kind: 'code', title: w.dryRunTitle({}), body: dryRunText(shown.dryRun) },
    { kind: 'code', title: patchTitle, body: patchText(plan), whole: true },
  ];
}

/**
 * The thread report under a result: every finding whole (summary, explanation, all
 * evidence with untruncated tables), the owner, every plan (recommended first) with
 * its impact, warnings, dry run and exact patch (the one place a patch is shown), the
 * plans not offered, the changes to commit and the checks that failed. One message:
 * adapters split it where their platform's limits need.
 */
function threadReport(input: ResultInput): ChatMessage[] {
  const { diagnosis } = input;
  const t = diagnosis.target;
  if (
    diagnosis.findings.length === 0 &&
    diagnosis.remediations.length === 0 &&
    diagnosis.analyzerErrors.length === 0
  )
    return [];
  const lang = input.lang ?? 'en';
  const w = wordsOf(lang);
  const what = `${typeOfKind(t.kind)}/${t.name}`;
  const parts: Part[] = [
    {
      kind: 'paragraph',
      text: w.fullReport({
        what,
        namespace: t.namespace,
        cluster: input.cluster,
        at: messageTime(diagnosis.capturedAt),
      }),
    },
  ];
  const owner = diagnosis.managedBy;
  if (owner?.tool)
    parts.push({
      kind: 'paragraph',
      text: w.managedByLong({
        owner: ownerPhrase(owner, lang),
        namespace: owner.namespace ?? '',
        evidence: sentenceIn(owner.evidence, lang),
      }),
    });
  diagnosis.findings.forEach((f, i) => {
    parts.push({
      kind: 'paragraph',
      text: say`${icon(SEVERITY[f.severity] ?? 'unknown')} ${strong(`${i + 1}. ${f.code}`)}: ${findingSummary(f, lang)}`,
    });
    const explanation = findingExplanation(f, lang);
    // One paragraph, as the CLI wraps it: a break inside a cluster value starts no line of ours.
    if (explanation) parts.push({ kind: 'paragraph', text: rich(text(explanation)) });
    for (const e of f.evidence) parts.push(...evidenceParts(e, lang));
  });
  // All plans, as the engine offered them (the message shows the first 20).
  const all = orderedPlans(input);
  all.forEach((shown, i) => {
    const { plan } = shown;
    const heading = w.fixHeading({ n: i + 1, kind: plan.kind, summary: planSummary(plan, lang) });
    parts.push(...planParts(shown, heading, lang));
  });
  // What guards the workload and was not read: the fixes above were not checked against it.
  const unread = all.length > 0 && diagnosis.coverage ? unreadGuardLines(diagnosis.coverage) : [];
  if (unread.length > 0)
    parts.push({
      kind: 'paragraph',
      text: w.notCheckedAgainst({ unread: unread.map((line) => sentenceIn(line, lang)).join('; ') }),
    });
  for (const note of diagnosis.notOffered ?? [])
    parts.push({
      kind: 'paragraph',
      text: w.notOffered({ ...note, reason: sentenceIn(note.reason, lang) }),
    });
  // The permanent fix, for the source of truth: never a button, always a diff to commit.
  for (const change of diagnosis.manifestChanges ?? []) {
    parts.push({
      kind: 'code',
      title: w.changeToCommit({ where: sentenceIn(change.where, lang), addresses: change.addresses }),
      body: change.diff,
    });
    if (change.notes.length > 0)
      parts.push({
        kind: 'paragraph',
        text: join(
          change.notes.map((note) => say`• ${sentenceIn(note, lang)}`),
          '\n',
        ),
      });
  }
  if (diagnosis.analyzerErrors.length > 0)
    parts.push({
      kind: 'paragraph',
      text: join(
        [w.partial({}), ...diagnosis.analyzerErrors.map((e) => say`• ${e.analyzer}: ${e.message}`)],
        '\n',
      ),
    });
  return [{ summary: w.fullReportSummary({ what, namespace: t.namespace }), parts }];
}
