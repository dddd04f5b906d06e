/**
 * What `propose` says, in every language: the pull request's title and body, and the
 * command line's lines. Cluster text (names, the finding's summary, the proof) comes in
 * as parameters: the body's renderer escapes it for Markdown before it gets here.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

export type CheckWord = 'finishes' | 'never-finishes' | 'unknown' | 'no-rollout';

interface Target {
  kind: string;
  namespace: string;
  name: string;
}

/** check's verdict on the proposed manifest, with the next rollout's when none starts now. */
export interface CheckSaid {
  verdict: CheckWord;
  next?: Exclude<CheckWord, 'no-rollout'>;
}

const outcomeEn: Record<Exclude<CheckWord, 'no-rollout'>, string> = {
  finishes: 'will finish',
  'never-finishes': 'can never finish',
  unknown: 'may or may not finish (not known)',
};
const outcomeKo: Record<Exclude<CheckWord, 'no-rollout'>, string> = {
  finishes: '완료됩니다',
  'never-finishes': '완료될 수 없습니다',
  unknown: '완료될지 알 수 없습니다',
};

function saidEn(c: CheckSaid): string {
  if (c.verdict !== 'no-rollout') return `the rollout it starts ${outcomeEn[c.verdict]}`;
  const next = c.next ? `; the next rollout (any change to the pod template) ${outcomeEn[c.next]}` : '';
  return `it starts no rollout now (the pod template is unchanged)${next}`;
}

function saidKo(c: CheckSaid): string {
  if (c.verdict !== 'no-rollout') return `이 변경이 시작하는 롤링 업데이트는 ${outcomeKo[c.verdict]}`;
  const next = c.next ? `. 다음 롤링 업데이트(파드 템플릿 변경 시)는 ${outcomeKo[c.next]}` : '';
  return `지금은 롤링 업데이트를 시작하지 않습니다 (파드 템플릿 변경 없음)${next}`;
}

export const proposeWords = registerCatalogue(
  'propose',
  defineMessages({
    title: {
      en: (p: Target & { finding: string }) =>
        `rollout-doctor: keep the fix for ${p.finding} on ${p.kind} ${p.namespace}/${p.name}`,
      ko: (p: Target & { finding: string }) =>
        `rollout-doctor: ${p.kind} ${p.namespace}/${p.name}의 ${p.finding} 수정 반영`,
    },
    heading: {
      en: (p: Target) => `The permanent fix for ${p.kind} ${p.namespace}/${p.name}`,
      ko: (p: Target) => `${p.kind} ${p.namespace}/${p.name} 영구 수정`,
    },
    diagnosis: {
      en: (p: { finding: string; summary: string }) => `**Diagnosis** (${p.finding}): ${p.summary}`,
      ko: (p: { finding: string; summary: string }) => `**진단** (${p.finding}): ${p.summary}`,
    },
    change: {
      en: (p: { plan: string; fields: string; file: string }) =>
        `**Change**: ${p.fields} in \`${p.file}\`, exactly as the proved live plan \`${p.plan}\` sets them (the live restart is not committed).`,
      ko: (p: { plan: string; fields: string; file: string }) =>
        `**변경**: \`${p.file}\`의 ${p.fields}. 검증된 라이브 플랜 \`${p.plan}\`이 설정하는 값 그대로입니다 (라이브 재시작은 커밋하지 않습니다).`,
    },
    proof: {
      en: (p: { proof: string }) => `**Proof**: ${p.proof}`,
      ko: (p: { proof: string }) => `**증명**: ${p.proof}`,
    },
    noProof: {
      en: () => '**Proof**: none recorded with the plan.',
      ko: () => '**증명**: 플랜에 기록된 증명이 없습니다.',
    },
    check: {
      en: (p: { check: CheckSaid; rendered: string; against: string }) =>
        `**Check** (\`rollout-doctor check\` on ${p.rendered}, against ${p.against}): ${saidEn(p.check)}.`,
      ko: (p: { check: CheckSaid; rendered: string; against: string }) =>
        `**검사** (${p.rendered}에 \`rollout-doctor check\`, 대상 ${p.against}): ${saidKo(p.check)}.`,
    },
    approvedBy: {
      en: (p: { who: string }) => `**Approved by**: ${p.who}`,
      ko: (p: { who: string }) => `**승인자**: ${p.who}`,
    },
    notApproved: {
      en: () => '**Approved by**: nobody recorded (proposed from the command line).',
      ko: () => '**승인자**: 기록 없음 (커맨드 라인에서 제안).',
    },
    thread: {
      en: (p: { url: string }) => `**Thread**: ${p.url}`,
      ko: (p: { url: string }) => `**스레드**: ${p.url}`,
    },
    noThread: {
      en: () => '**Thread**: no link (the chat gave none).',
      ko: () => '**스레드**: 링크 없음 (채팅이 제공하지 않음).',
    },
    incident: {
      en: (p: { id: string }) => `**Incident**: ${p.id}`,
      ko: (p: { id: string }) => `**인시던트**: ${p.id}`,
    },
    approverNamed: {
      en: (p: { name: string; id: string }) => `${p.name} (${p.id})`,
      ko: (p: { name: string; id: string }) => `${p.name} (${p.id})`,
    },
    approverUnnamed: {
      en: (p: { id: string }) => `${p.id} (name not known)`,
      ko: (p: { id: string }) => `${p.id} (이름 확인 불가)`,
    },
    footer: {
      en: () =>
        '_Opened by `rollout-doctor propose`. A later run for the same incident updates this pull request; it never merges it._',
      ko: () =>
        '_`rollout-doctor propose`가 열었습니다. 같은 인시던트로 다시 실행하면 이 풀 리퀘스트를 갱신하며, 머지는 하지 않습니다._',
    },
    dryRun: {
      en: (p: { branch: string }) =>
        `Dry run: nothing pushed. A real run pushes branch ${p.branch} and opens a pull request.`,
      ko: (p: { branch: string }) =>
        `드라이 런: 아무것도 푸시하지 않았습니다. 실제 실행 시 ${p.branch} 브랜치를 푸시하고 풀 리퀘스트를 엽니다.`,
    },
    checkLine: {
      en: (p: { check: CheckSaid; rendered: string }) => `Check on ${p.rendered}: ${saidEn(p.check)}.`,
      ko: (p: { check: CheckSaid; rendered: string }) => `${p.rendered} 검사: ${saidKo(p.check)}.`,
    },
    refusedCheck: {
      en: (p: { reason: string }) =>
        `Not pushed: check says the rollout can never finish with this change${p.reason ? ` (${p.reason})` : ''}.`,
      ko: (p: { reason: string }) =>
        `푸시하지 않음: 이 변경이 시작하는 롤링 업데이트는 완료될 수 없다고 검사 결과가 말합니다${p.reason ? ` (${p.reason})` : ''}.`,
    },
    pulled: {
      en: (p: { action: 'created' | 'updated'; url: string }) =>
        `Pull request ${p.action === 'created' ? 'opened' : 'updated'}: ${p.url}`,
      ko: (p: { action: 'created' | 'updated'; url: string }) =>
        `풀 리퀘스트를 ${p.action === 'created' ? '열었습니다' : '갱신했습니다'}: ${p.url}`,
    },
    unchanged: {
      en: (p: { file: string }) => `${p.file} already has this change: nothing to propose.`,
      ko: (p: { file: string }) => `${p.file}에 이미 이 변경이 있습니다: 제안할 것이 없습니다.`,
    },
    notProposed: {
      en: (p: { why: string }) => `Not proposed: ${p.why}.`,
      ko: (p: { why: string }) => `제안하지 않음: ${p.why}.`,
    },
    byHand: {
      en: (p: { where: string }) => `Make this change by hand, in ${p.where}:`,
      ko: (p: { where: string }) => `다음 변경을 직접 하세요 (${p.where}):`,
    },
  }),
);
