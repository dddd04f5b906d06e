/**
 * The SARIF rules' short and full descriptions (sarif-rules.ts) in every language, for
 * a run in the reader's language (sarif.ts). The English entries are sarif-rules.ts's
 * own; each rule's help (Markdown, with the fix) and its page stay English.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import { CHECK_RULES, type CheckRuleId } from './sarif-rules.js';

const R = CHECK_RULES;

export const SARIF_RULE_WORDS = registerCatalogue(
  'sarif-rules',
  defineMessages({
    RolloutSurgeDeadlockShort: {
      en: (): string => R.RolloutSurgeDeadlock.short,
      ko: () => '끝날 수 없는 롤아웃: 새 파드에 필요한 자리를 기존 파드가 점유하고 있습니다.',
    },
    RolloutSurgeDeadlockFull: {
      en: (): string => R.RolloutSurgeDeadlock.full,
      ko: () =>
        '새 파드에 필요한 자원(GPU, 호스트 포트, 볼륨, 노드)을 기존 파드가 점유하고 있습니다. 전략이 새 파드가 Ready가 될 때까지 기존 파드를 모두 남겨 두므로, 새 파드는 끝내 배치되지 않습니다.',
    },
    UnschedulableShort: {
      en: (): string => R.Unschedulable.short,
      ko: () => '끝날 수 없는 롤아웃: 전략과 상관없이 새 파드가 들어갈 노드가 없습니다.',
    },
    UnschedulableFull: {
      en: (): string => R.Unschedulable.full,
      ko: () =>
        '이 워크로드의 기존 파드가 모두 없어져도 새 파드를 받을 노드가 없습니다. 리소스가 부족하거나, 테인트, nodeSelector, nodeAffinity 조건을 만족하는 노드가 없습니다.',
    },
    QuotaExceededShort: {
      en: (): string => R.QuotaExceeded.short,
      ko: () => '끝날 수 없는 롤아웃: ResourceQuota가 새 파드를 거부합니다.',
    },
    QuotaExceededFull: {
      en: (): string => R.QuotaExceeded.full,
      ko: () =>
        '네임스페이스의 ResourceQuota에 새 파드가 들어갈 여유가 없고, 롤아웃이 무엇을 해도 여유가 생기지 않습니다.',
    },
    AdmissionDeniedShort: {
      en: (): string => R.AdmissionDenied.short,
      ko: () => 'API 서버가 어드미션 단계에서 이 객체나 그 파드를 거부합니다.',
    },
    AdmissionDeniedFull: {
      en: (): string => R.AdmissionDenied.full,
      ko: () =>
        'LimitRange나 ResourceQuota 때문에 어드미션이 작성된 그대로의 파드를 거부합니다(제한을 넘는 요청량, 템플릿에 없는 요청량을 요구하는 쿼터).',
    },
    RolloutStuckShort: {
      en: (): string => R.RolloutStuck.short,
      ko: () => '끝나지 않는 롤아웃: 새 파드가 Ready가 되지 않습니다.',
    },
    RolloutStuckFull: {
      en: (): string => R.RolloutStuck.full,
      ko: () =>
        '새 파드는 배치되지만 지금 클러스터에서 Ready가 되지 않습니다(계속 실패하거나, 그 리비전이 이미 실패하고 있습니다).',
    },
    IncompleteEvidenceShort: {
      en: (): string => R.IncompleteEvidence.short,
      ko: () => '롤아웃이 끝날지 알 수 없습니다.',
    },
    IncompleteEvidenceFull: {
      en: (): string => R.IncompleteEvidence.full,
      ko: () =>
        '클러스터의 일부를 읽지 못했거나(권한, 시간, 표본 읽기), 적용할 때 결과를 좌우하는 현재 필드가 유지될 수 있거나, 모델이 이 업데이트를 따라가지 못합니다. 추측하지 않습니다.',
    },
    ScaleUpNeededShort: {
      en: (): string => R.ScaleUpNeeded.short,
      ko: () => '클러스터에 노드가 추가되어야 롤아웃이 끝납니다.',
    },
    ScaleUpNeededFull: {
      en: (): string => R.ScaleUpNeeded.full,
      ko: () =>
        '지금 있는 노드에는 새 파드가 들어갈 수 없지만, 클러스터 오토스케일러가 늘릴 수 있는 노드 그룹(또는 Karpenter NodePool)이 노드를 추가하면 들어갑니다. 롤아웃은 그 스케일업을 기다립니다(보통 몇 분).',
    },
  }),
  {
    RolloutSurgeDeadlockShort: [{}],
    RolloutSurgeDeadlockFull: [{}],
    UnschedulableShort: [{}],
    UnschedulableFull: [{}],
    QuotaExceededShort: [{}],
    QuotaExceededFull: [{}],
    AdmissionDeniedShort: [{}],
    AdmissionDeniedFull: [{}],
    RolloutStuckShort: [{}],
    RolloutStuckFull: [{}],
    IncompleteEvidenceShort: [{}],
    IncompleteEvidenceFull: [{}],
    ScaleUpNeededShort: [{}],
    ScaleUpNeededFull: [{}],
  },
);

/** A rule's short and full description in `lang`, where it has one; else undefined (English stays). */
export function ruleWords(id: string, lang: 'en' | 'ko'): { short: string; full: string } | undefined {
  if (!(id in CHECK_RULES)) return undefined;
  const code = id as CheckRuleId;
  return {
    short: SARIF_RULE_WORDS[`${code}Short`][lang](),
    full: SARIF_RULE_WORDS[`${code}Full`][lang](),
  };
}
