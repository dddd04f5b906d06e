/**
 * The SARIF rules' short and full descriptions and their help (Markdown, with the fix;
 * sarif-rules.ts) in every language, for a run in the reader's language (sarif.ts). The
 * English entries are sarif-rules.ts's own; each rule's page stays English.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import { CHECK_RULES, type CheckRuleId } from './sarif-rules.js';

const R = CHECK_RULES;

const SARIF_RULE_WORDS = registerCatalogue(
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
    RolloutSurgeDeadlockHelp: {
      en: (): string => R.RolloutSurgeDeadlock.help,
      ko: () =>
        [
          '이 변경이 시작하는 롤아웃은 끝나지 않습니다: 새 파드마다 같은 워크로드의 기존 파드가 점유한 자리(GPU, 호스트 포트, ReadWriteOnce 볼륨, 노드 하나)가 필요한데, 전략은 새 파드가 Ready가 될 때까지 기존 파드를 남겨 둡니다.',
          '',
          '**조치:** 롤아웃이 기존 파드를 먼저 내리게 합니다. Deployment나 Argo Rollout은 `strategy.rollingUpdate.maxUnavailable` 값을 1 이상으로(빈 자리가 없으면 `maxSurge` 값은 0으로), DaemonSet은 `updateStrategy.rollingUpdate.maxSurge: 0`, `maxUnavailable: 1`로 설정합니다. `check` 명령이 증명한 정확한 변경을 객체에 병합할 형태로 출력합니다.',
        ].join('\n'),
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
    UnschedulableHelp: {
      en: (): string => R.Unschedulable.help,
      ko: () =>
        [
          '새 파드 템플릿이 어떤 노드에도 없는 것을 요구합니다. 이 워크로드의 기존 파드가 모두 빠져도 마찬가지입니다: 어느 노드의 여유보다 큰 요청량, 허용하지 않는 테인트, 어떤 노드와도 맞지 않는 nodeSelector나 어피니티 조건입니다.',
          '',
          '**조치:** 매니페스트에서 요청량을 낮추거나 셀렉터를 고칩니다. 또는 적용하기 전에 용량(노드, 노드 그룹)을 추가합니다.',
        ].join('\n'),
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
    QuotaExceededHelp: {
      en: (): string => R.QuotaExceeded.help,
      ko: () =>
        [
          '네임스페이스의 ResourceQuota가 새 파드를 거부합니다: 이미 쓰고 있는 양에 새 파드의 요청량을 더하면 한도를 넘고, 롤아웃이 먼저 비워 주는 것도 없습니다.',
          '',
          '**조치:** 쿼터를 늘리거나, 파드의 요청량을 줄이거나, 롤아웃이 기존 파드를 먼저 내리게 해서(`maxUnavailable` 1 이상, `maxSurge` 0) 새 파드가 오기 전에 그만큼이 돌아오게 합니다.',
        ].join('\n'),
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
    AdmissionDeniedHelp: {
      en: (): string => R.AdmissionDenied.help,
      ko: () =>
        [
          '스케줄링보다 먼저 일어나는 API 서버의 어드미션이 파드를 거부합니다: LimitRange의 범위를 벗어나거나, ResourceQuota가 컨테이너에 없는 요청량을 요구합니다. 롤아웃은 파드를 하나도 만들지 못합니다.',
          '',
          '**조치:** 해당 LimitRange나 쿼터가 요구하는 요청량과 제한을 모든 컨테이너에 설정합니다.',
        ].join('\n'),
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
    RolloutStuckHelp: {
      en: (): string => R.RolloutStuck.help,
      ko: () =>
        [
          '이 변경이 만드는 파드는 배치되지만 Ready가 되지 않습니다. 그래서 롤아웃은 첫 단계에서 멈추고, Deployment라면 진행 기한이 지나 ProgressDeadlineExceeded가 됩니다.',
          '',
          '**조치:** 다시 적용하기 전에 새 리비전이 실패하는 이유를 찾습니다. 실행 중인 워크로드에 `rollout-doctor diagnose` 명령을 실행하면 알려 줍니다.',
        ].join('\n'),
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
    IncompleteEvidenceHelp: {
      en: (): string => R.IncompleteEvidence.help,
      ko: () =>
        [
          '`check` 명령은 이 롤아웃이 끝날지 판단하지 못했고, 알 수 없을 때는 "끝납니다"라고 답하지 않습니다: 클러스터의 일부를 읽지 못했거나(무엇인지는 메시지에 있습니다), 매니페스트에 없는 필드를 적용할 때 유지하는지 지우는지에 따라 결과가 달라지거나, 모델이 이런 종류의 업데이트를 따라가지 못합니다.',
          '',
          '**조치:** `check` 명령을 실행하는 계정에 메시지가 가리키는 것을 읽을 권한을 주거나, 그 필드를 매니페스트에 직접 적습니다. 팀이 이 불확실성을 받아들인다면 `--allow-unknown` 옵션으로 종료 코드 0을 받습니다.',
        ].join('\n'),
    },
    PreemptionUnderWayShort: {
      en: (): string => R.PreemptionUnderWay.short,
      ko: () => '롤아웃은 끝나지만, 새 파드가 먼저 우선순위가 낮은 파드를 선점합니다.',
    },
    PreemptionUnderWayFull: {
      en: (): string => R.PreemptionUnderWay.full,
      ko: () =>
        '새 템플릿이 파드의 우선순위를 높입니다. 스케줄러는 새 파드를 위해 우선순위가 낮은 파드를 선점하며, 이 워크로드의 기존 파드도 대체 파드가 Ready가 되기 전에 내보냅니다.',
    },
    PreemptionUnderWayHelp: {
      en: (): string => R.PreemptionUnderWay.help,
      ko: () =>
        [
          '롤아웃은 끝나지만 전략이 말하는 방식대로는 아닙니다: 새 파드가 필요한 자리를 점유한 파드(이 워크로드의 기존 파드나, 우선순위가 낮은 다른 워크로드의 파드)보다 우선순위가 높아서, 스케줄러가 기다리지 않고 그 파드를 선점합니다. 선점된 기존 파드는 대체 파드가 Ready가 되기 전에 서비스를 멈추고, 기존 파드가 모두 선점되면 서비스가 중단됩니다.',
          '',
          '**조치:** 그 정도 감소를 감수할 수 있으면 필요 없습니다. 아니면 이번 변경에서는 이전 우선순위를 유지하고 다음 변경에서 높이거나, 먼저 자리를 만들어 선점이 일어나지 않게 합니다.',
        ].join('\n'),
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
    ScaleUpNeededHelp: {
      en: (): string => R.ScaleUpNeeded.help,
      ko: () =>
        [
          '새 파드는 지금 클러스터에 있는 어떤 노드에도 들어가지 않습니다. 클러스터 오토스케일러가 아직 늘릴 수 있는 노드 그룹(최대 크기 미만, 정상, 백오프 중이 아님)이나 한도가 남은 Karpenter NodePool이 기존과 같은 노드를 추가하면, 그 노드가 합류한 뒤 롤아웃이 끝납니다. 그때까지 새 파드는 Pending 상태입니다(FailedScheduling, 그다음 TriggeredScaleUp).',
          '',
          '**조치:** 노드를 기다려도 괜찮다면 필요 없습니다. 아니면 요청량을 낮추거나, 적용하기 전에 노드 그룹을 늘립니다. 스케일업이 실패하면(클라우드 쿼터, 영역에 남은 용량 없음) 성공할 때까지 롤아웃이 기다립니다.',
        ].join('\n'),
    },
  }),
  {
    RolloutSurgeDeadlockShort: [{}],
    RolloutSurgeDeadlockFull: [{}],
    RolloutSurgeDeadlockHelp: [{}],
    UnschedulableShort: [{}],
    UnschedulableFull: [{}],
    UnschedulableHelp: [{}],
    QuotaExceededShort: [{}],
    QuotaExceededFull: [{}],
    QuotaExceededHelp: [{}],
    AdmissionDeniedShort: [{}],
    AdmissionDeniedFull: [{}],
    AdmissionDeniedHelp: [{}],
    RolloutStuckShort: [{}],
    RolloutStuckFull: [{}],
    RolloutStuckHelp: [{}],
    IncompleteEvidenceShort: [{}],
    IncompleteEvidenceFull: [{}],
    IncompleteEvidenceHelp: [{}],
    PreemptionUnderWayShort: [{}],
    PreemptionUnderWayFull: [{}],
    PreemptionUnderWayHelp: [{}],
    ScaleUpNeededShort: [{}],
    ScaleUpNeededFull: [{}],
    ScaleUpNeededHelp: [{}],
  },
);

/** A rule's short and full description and its help (Markdown) in `lang`, where it has them; else undefined (English stays). */
export function ruleWords(
  id: string,
  lang: 'en' | 'ko',
): { short: string; full: string; help: string } | undefined {
  if (!(id in CHECK_RULES)) return undefined;
  const code = id as CheckRuleId;
  return {
    short: SARIF_RULE_WORDS[`${code}Short`][lang](),
    full: SARIF_RULE_WORDS[`${code}Full`][lang](),
    help: SARIF_RULE_WORDS[`${code}Help`][lang](),
  };
}
