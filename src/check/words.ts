/**
 * `check`'s own sentences (its text output, render.ts, and its SARIF result messages,
 * sarif.ts), in every language. Finding codes, kinds, field names, paths and the fix's
 * YAML never translate; the English entries are the output's wording before the
 * catalogue, byte for byte. Values from the manifests or the cluster arrive as
 * parameters, already made one line (render.ts lineValue) or defanged (sarif.ts).
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

type Omitted = { path: string; live?: string; why: string };

export const CHECK_WORDS = registerCatalogue(
  'check',
  defineMessages({
    finishes: { en: () => 'will finish', ko: () => '롤아웃이 끝납니다' },
    neverFinishes: { en: () => 'CAN NEVER FINISH', ko: () => '롤아웃이 절대 끝나지 않습니다' },
    unknown: { en: () => 'not known', ko: () => '알 수 없습니다' },
    noRollout: { en: () => 'no rollout', ko: () => '롤아웃 없음' },
    newObject: { en: () => 'new object', ko: () => '새 객체' },
    templateChanges: {
      en: (p: { changes: string }) => `template changes: ${p.changes}`,
      ko: (p: { changes: string }) => `템플릿 변경: ${p.changes}`,
    },
    renderedFrom: {
      en: (p: { template: string }) => `from ${p.template}`,
      ko: (p: { template: string }) => `원본 템플릿: ${p.template}`,
    },
    omitted: {
      en: (p: Omitted) =>
        `The manifest leaves out ${p.path}: the apply ${p.live === undefined ? 'removes it (the default applies)' : `keeps the live value ${p.live}`}; ${p.why}.`,
      ko: (p: Omitted) =>
        `매니페스트에 ${p.path} 필드가 없습니다. 적용하면 ${p.live === undefined ? '이 필드가 지워지고 기본값이 쓰입니다' : `현재 값(${p.live})이 유지됩니다`}. 이유: ${p.why}.`,
    },
    acceptedAnnotation: {
      en: (p: { reason: string }) => ` (accepted in the annotation: ${p.reason})`,
      ko: (p: { reason: string }) => ` (어노테이션에서 수용함: ${p.reason})`,
    },
    acceptedBaseline: {
      en: (p: { reason: string }) => ` (accepted in the baseline: ${p.reason})`,
      ko: (p: { reason: string }) => ` (베이스라인 파일에서 수용함: ${p.reason})`,
    },
    fix: {
      en: (p: { words: string }) => `Fix: set ${p.words} in the manifest (a merge into the object):`,
      ko: (p: { words: string }) => `조치: 매니페스트에 ${p.words} 설정을 넣습니다(객체에 병합됩니다):`,
    },
    noWorkloads: {
      en: (p: { titles: string }) => `No ${p.titles} in the manifests.`,
      ko: (p: { titles: string }) => `매니페스트에 판정할 워크로드(${p.titles})가 없습니다.`,
    },
    tally: {
      en: (p: {
        total: number;
        never: number;
        unknown: number;
        finishes: number;
        none: number;
        others: number;
      }) =>
        `${p.total} workload(s): ${p.never} can never finish, ${p.unknown} not known, ${p.finishes} will finish, ${p.none} start no rollout${p.others > 0 ? ` (${p.others} other object(s) not judged)` : ''}.`,
      ko: (p: {
        total: number;
        never: number;
        unknown: number;
        finishes: number;
        none: number;
        others: number;
      }) =>
        `워크로드 ${p.total}개: 끝나지 않음 ${p.never}개, 알 수 없음 ${p.unknown}개, 끝남 ${p.finishes}개, 롤아웃 없음 ${p.none}개${p.others > 0 ? ` (판정하지 않은 다른 객체 ${p.others}개)` : ''}.`,
    },
    note: { en: (p: { text: string }) => `Note: ${p.text}`, ko: (p: { text: string }) => `참고: ${p.text}` },
    notRead: {
      en: (p: { text: string }) => `not read: ${p.text}`,
      ko: (p: { text: string }) => `읽지 못함: ${p.text}`,
    },
    sarifRendered: {
      en: (p: { template: string }) => ` (rendered from ${p.template})`,
      ko: (p: { template: string }) => ` (${p.template} 템플릿에서 렌더링됨)`,
    },
    sarifFix: {
      en: (p: { words: string; field: string }) =>
        ` Fix: set ${p.words} in the manifest (a merge into the object, ${p.field}).`,
      ko: (p: { words: string; field: string }) =>
        ` 조치: 매니페스트에 ${p.words} 설정을 넣습니다(객체에 병합됩니다, ${p.field}).`,
    },
  }),
  {
    finishes: [{}],
    neverFinishes: [{}],
    unknown: [{}],
    noRollout: [{}],
    newObject: [{}],
    templateChanges: [{ changes: 'spec.template.spec.containers[0].image, …' }],
    renderedFrom: [{ template: 'tracker/templates/deployment.yaml' }],
    omitted: [
      {
        path: 'spec.strategy',
        live: '{"type":"Recreate"}',
        why: 'the manifest kubectl (last-applied-configuration) last applied never set it, so the apply keeps it',
      },
      { path: 'spec.replicas', why: 'the manifest Helm last applied set it and this one drops it' },
    ],
    acceptedAnnotation: [{ reason: 'GPU nodes are added before this ships (OPS-12)' }],
    acceptedBaseline: [{ reason: 'accepted until the next quarter' }],
    fix: [{ words: 'maxSurge 0, maxUnavailable 1' }],
    noWorkloads: [{ titles: 'Deployment, DaemonSet, StatefulSet, Argo Rollout' }],
    tally: [
      { total: 2, never: 1, unknown: 0, finishes: 1, none: 0, others: 3 },
      { total: 1, never: 0, unknown: 1, finishes: 0, none: 0, others: 0 },
    ],
    note: [{ text: 'baseline entry vision/Deployment/tracker:Unschedulable matched no finding' }],
    notRead: [{ text: 'nodes: forbidden' }],
    sarifRendered: [{ template: '"tracker/templates/deployment.yaml"' }],
    sarifFix: [{ words: 'strategy Recreate', field: 'properties.fix' }],
  },
);
