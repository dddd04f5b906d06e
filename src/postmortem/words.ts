/**
 * Every sentence of a post-mortem draft, in English and Korean (src/i18n/catalogue.ts).
 * The Korean follows the seeds (../shared/seeds/): the headings 분석, 에러 메시지 분석,
 * 해결, 대안, 채택, 결과, 교훈; Kubernetes terms as the Korean documentation writes them
 * (파드, 노드, 롤아웃, 디플로이먼트, 레플리카); field names (maxSurge, nodeAffinity) and
 * codes as written; short plain sentences. Parameters are already safe Markdown
 * (render.ts makes them with markdown.ts): a message never sees raw cluster text.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

type Md = { md: string };
type At = { at: string };

export const postmortemWords = registerCatalogue(
  'postmortem',
  defineMessages({
    title: {
      en: (p: { workload: string }) => `# Post-mortem: ${p.workload}`,
      ko: (p: { workload: string }) => `# 포스트모템: ${p.workload}`,
    },
    draftNote: {
      en: () =>
        '> Draft written by rollout-doctor from the incident’s record. Check it, and add what the record cannot know: the cause behind the cause, the impact on users, the lessons.',
      ko: () =>
        '> rollout-doctor가 인시던트 기록으로 만든 초안이다. 내용을 확인하고, 기록에 없는 것(근본 원인, 사용자 영향, 교훈)을 채워 넣는다.',
    },
    headSummary: { en: () => '## Summary', ko: () => '## 요약' },
    headTimeline: { en: () => '## Timeline', ko: () => '## 타임라인' },
    headImpact: { en: () => '## Impact', ko: () => '## 영향' },
    headAnalysis: { en: () => '# Analysis', ko: () => '# 분석' },
    headErrors: { en: () => '## Error messages', ko: () => '## 에러 메시지 분석' },
    headResolution: { en: () => '# Resolution', ko: () => '# 해결' },
    headAlternatives: { en: () => '## Alternatives', ko: () => '## 대안' },
    headAdopted: { en: () => '## Adopted', ko: () => '## 채택' },
    headResult: { en: () => '# Result', ko: () => '# 결과' },
    headFollowUps: { en: () => '## Follow-ups', ko: () => '## 후속 조치' },
    headLessons: { en: () => '# Lessons', ko: () => '# 교훈' },
    lessonsToWrite: {
      en: () => '- (to write: what the team learned, and what would have caught it earlier)',
      ko: () => '- (작성 필요: 팀이 배운 점, 더 일찍 잡을 수 있었던 방법)',
    },
    workload: {
      en: (p: { kind: Md; name: Md; namespace: Md; cluster: Md }) =>
        `${p.kind.md} ${p.name.md} in namespace ${p.namespace.md} (cluster ${p.cluster.md})`,
      ko: (p: { kind: Md; name: Md; namespace: Md; cluster: Md }) =>
        `${p.namespace.md} 네임스페이스의 ${p.kind.md} ${p.name.md} (클러스터 ${p.cluster.md})`,
    },
    kindUnknown: { en: () => 'workload', ko: () => '워크로드' },
    notRecorded: { en: () => 'not recorded', ko: () => '기록 없음' },
    // How the first signal came.
    viaAlert: { en: () => 'an Alertmanager alert', ko: () => 'Alertmanager 알림' },
    viaEarlyWarning: { en: () => 'rollout-doctor’s early warning', ko: () => 'rollout-doctor 조기 경고' },
    viaAdmission: {
      en: () => 'the admission webhook’s warning at apply',
      ko: () => 'apply 시점의 어드미션 웹훅 경고',
    },
    viaCommand: {
      en: (p: { by: Md }) => `a command by ${p.by.md}`,
      ko: (p: { by: Md }) => `${p.by.md}의 명령`,
    },
    summarySignal: {
      en: (p: { via: string; at: string }) => `- First signal: ${p.via}, at ${p.at} UTC.`,
      ko: (p: { via: string; at: string }) => `- 첫 신호: ${p.via}. ${p.at} UTC.`,
    },
    summaryNoSignal: {
      en: () =>
        '- First signal: not recorded (the record starts later: no diagnosis of this incident was logged).',
      ko: () => '- 첫 신호: 기록 없음. 이 인시던트의 진단 기록이 없다.',
    },
    summaryFound: {
      en: (p: { codes: string }) => `- Diagnosis: ${p.codes}.`,
      ko: (p: { codes: string }) => `- 진단: ${p.codes}.`,
    },
    summaryNothingFound: {
      en: () => '- Diagnosis: no problem found.',
      ko: () => '- 진단: 문제를 찾지 못했다.',
    },
    summaryAdopted: {
      en: (p: { plan: Md; by: string }) => `- Fix adopted: ${p.plan.md}, approved by ${p.by}.`,
      ko: (p: { plan: Md; by: string }) => `- 채택한 조치: ${p.plan.md}. 승인: ${p.by}.`,
    },
    summaryNoFix: {
      en: () => '- Fix adopted: none approved in the record.',
      ko: () => '- 채택한 조치: 기록상 승인된 조치가 없다.',
    },
    endRolledOut: {
      en: (p: At) => `- Result: the rollout completed at ${p.at} UTC.`,
      ko: (p: At) => `- 결과: ${p.at} UTC에 롤아웃이 완료되었다.`,
    },
    endPodsReady: {
      en: (p: At) => `- Result: the replacement pods were Ready at ${p.at} UTC.`,
      ko: (p: At) => `- 결과: ${p.at} UTC에 새 파드가 Ready가 되었다.`,
    },
    endUndone: {
      en: (p: At) => `- Result: the fix was undone at ${p.at} UTC.`,
      ko: (p: At) => `- 결과: ${p.at} UTC에 조치를 되돌렸다(Undo).`,
    },
    endFailed: {
      en: (p: At) => `- Result: the fix did not end the incident (last write ${p.at} UTC).`,
      ko: (p: At) => `- 결과: 조치로 해결되지 않았다. 마지막 쓰기 ${p.at} UTC.`,
    },
    endOpen: {
      en: () => '- Result: not recorded (no completed rollout in the record).',
      ko: () => '- 결과: 기록 없음. 롤아웃 완료 기록이 없다.',
    },
    // The timeline.
    timelineHeader: {
      en: (p: { zone: string }) => `| UTC | ${p.zone} | What happened |\n| --- | --- | --- |`,
      ko: (p: { zone: string }) => `| UTC | ${p.zone} | 내용 |\n| --- | --- | --- |`,
    },
    tlSignal: {
      en: (p: { via: string }) => `First signal: ${p.via}`,
      ko: (p: { via: string }) => `첫 신호: ${p.via}`,
    },
    tlDiagnosis: {
      en: (p: { codes: string; offered: number }) =>
        `Diagnosis: ${p.codes}; ${p.offered === 1 ? '1 plan' : `${p.offered} plans`} offered`,
      ko: (p: { codes: string; offered: number }) => `진단: ${p.codes}. 제시한 조치 ${p.offered}개`,
    },
    tlApprovalClaimed: {
      en: (p: { plan: Md; user: Md }) => `${p.user.md} approved ${p.plan.md}: the write starts`,
      ko: (p: { plan: Md; user: Md }) => `${p.user.md}: ${p.plan.md} 승인. 적용 시작`,
    },
    tlApprovalRecorded: {
      en: (p: { plan: Md; user: Md }) => `${p.user.md} approved ${p.plan.md}: more approvals needed`,
      ko: (p: { plan: Md; user: Md }) => `${p.user.md}: ${p.plan.md} 승인. 추가 승인 필요`,
    },
    tlRefusal: {
      en: (p: { plan: Md; user: Md; reason: Md }) => `Refused ${p.plan.md} to ${p.user.md}: ${p.reason.md}`,
      ko: (p: { plan: Md; user: Md; reason: Md }) => `${p.user.md}의 ${p.plan.md} 요청 거부: ${p.reason.md}`,
    },
    tlWrite: {
      en: (p: { plan: Md; outcome: string }) => `${p.plan.md}: ${p.outcome}`,
      ko: (p: { plan: Md; outcome: string }) => `${p.plan.md}: ${p.outcome}`,
    },
    tlUndo: {
      en: (p: { plan: Md; outcome: string }) => `Undo ${p.plan.md}: ${p.outcome}`,
      ko: (p: { plan: Md; outcome: string }) => `${p.plan.md} 되돌리기(Undo): ${p.outcome}`,
    },
    tlExclusion: {
      en: (p: { cause: string; outcome: string }) => `Node exclusion (${p.cause}): ${p.outcome}`,
      ko: (p: { cause: string; outcome: string }) => `노드 제외 (${p.cause}): ${p.outcome}`,
    },
    // What the exclusion sweep met and did (src/worker/exclusion-expiry.ts), in words.
    exclusionExpired: { en: () => 'expired', ko: () => '만료' },
    exclusionNodesChanged: { en: () => 'its nodes changed', ko: () => '노드가 바뀜' },
    exclusionRemoved: { en: () => 'removed', ko: () => '제거됨' },
    exclusionAlreadyRemoved: { en: () => 'already removed', ko: () => '이미 제거됨' },
    exclusionRefused: { en: () => 'removal refused', ko: () => '제거 거부됨' },
    exclusionFailed: { en: () => 'removal failed', ko: () => '제거 실패' },
    exclusionOffered: { en: () => 'removal offered', ko: () => '제거 제안' },
    exclusionWaiting: { en: () => 'removal waits', ko: () => '제거 대기' },
    exclusionLine: {
      en: (p: { at: string; cause: string; outcome: string; detail: string }) =>
        `- ${p.at} UTC, node exclusion (${p.cause}): ${p.outcome}.${p.detail}`,
      ko: (p: { at: string; cause: string; outcome: string; detail: string }) =>
        `- ${p.at} UTC, 노드 제외 (${p.cause}): ${p.outcome}.${p.detail}`,
    },
    // Outcomes of a write (src/audit.ts), in words.
    outcomeApplied: { en: () => 'applied', ko: () => '적용됨' },
    outcomeAlreadyApplied: { en: () => 'already in place', ko: () => '이미 적용되어 있음' },
    outcomeRefused: { en: () => 'refused (the workload changed)', ko: () => '거부됨 (워크로드가 바뀜)' },
    outcomeFailed: { en: () => 'failed', ko: () => '실패' },
    outcomeRolledOut: { en: () => 'rollout complete', ko: () => '롤아웃 완료' },
    outcomePodsReady: { en: () => 'replacement pods Ready', ko: () => '새 파드 Ready' },
    outcomeStillFailing: { en: () => 'applied, pods still failing', ko: () => '적용됨, 파드는 계속 실패' },
    outcomeTimeout: {
      en: () => 'rollout not finished in time',
      ko: () => '제한 시간 안에 롤아웃이 끝나지 않음',
    },
    outcomePaused: {
      en: () => 'applied; the rollout is paused',
      ko: () => '적용됨, 롤아웃은 일시 중지 상태',
    },
    outcomeNotQueued: { en: () => 'not queued; nothing applied', ko: () => '큐에 넣지 못함, 적용 안 됨' },
    outcomeTampered: { en: () => 'refused: did not verify', ko: () => '거부됨: 검증 실패' },
    // Impact.
    impactHeader: {
      en: () => '| UTC | Serving | Desired | From |\n| --- | --- | --- | --- |',
      ko: () => '| UTC | 서비스 중 | 원하는 수 | 출처 |\n| --- | --- | --- | --- |',
    },
    impactFromDiagnosis: { en: () => 'diagnosis (workload status)', ko: () => '진단 (워크로드 status)' },
    impactFromRollout: { en: () => 'rollout complete', ko: () => '롤아웃 완료' },
    impactNotRecorded: {
      en: () =>
        '- Serving replicas: not recorded. No diagnosis in the record read the workload’s status; the impact is unknown, not none.',
      ko: () =>
        '- 서비스 중인 레플리카: 기록 없음. 기록된 진단이 워크로드 status를 읽지 못했다. 영향이 없었다는 뜻이 아니라 모른다는 뜻이다.',
    },
    impactLowest: {
      en: (p: { available: number; desired: number }) =>
        `- Lowest recorded: ${p.available} of ${p.desired} desired replicas available. Between the points below the record knows nothing.`,
      ko: (p: { available: number; desired: number }) =>
        `- 기록상 최저: 원하는 레플리카 ${p.desired}개 중 사용 가능 ${p.available}개. 아래 시점 사이는 기록이 없다.`,
    },
    // Analysis.
    finding: {
      en: (p: { code: Md; severity: Md; summary: Md }) =>
        `- ${p.code.md} (${p.severity.md}): ${p.summary.md}`,
      ko: (p: { code: Md; severity: Md; summary: Md }) =>
        `- ${p.code.md} (${p.severity.md}): ${p.summary.md}`,
    },
    noFindings: { en: () => '- No problem found.', ko: () => '- 문제를 찾지 못했다.' },
    noDiagnosis: {
      en: () => '- Not recorded: the record holds no diagnosis of this incident.',
      ko: () => '- 기록 없음: 이 인시던트의 진단 기록이 없다.',
    },
    errorsIntro: {
      en: (p: { code: Md }) => `${p.code.md}, as the cluster wrote it:`,
      ko: (p: { code: Md }) => `${p.code.md}. 클러스터가 남긴 메시지 그대로:`,
    },
    noErrors: {
      en: () => '- No error message in the record.',
      ko: () => '- 기록된 에러 메시지가 없다.',
    },
    // Alternatives and what was adopted.
    offeredIntro: { en: () => 'Offered:', ko: () => '제시한 조치:' },
    offered: {
      en: (p: { kind: Md; summary: Md }) => `- ${p.kind.md}: ${p.summary.md}`,
      ko: (p: { kind: Md; summary: Md }) => `- ${p.kind.md}: ${p.summary.md}`,
    },
    noneOffered: { en: () => '- No plan was offered.', ko: () => '- 제시한 조치가 없다.' },
    notOfferedIntro: { en: () => 'Weighed and not offered:', ko: () => '검토했지만 제시하지 않은 조치:' },
    notOffered: {
      en: (p: { kind: Md; code: Md; reason: Md }) => `- ${p.kind.md} (for ${p.code.md}): ${p.reason.md}`,
      ko: (p: { kind: Md; code: Md; reason: Md }) => `- ${p.kind.md} (${p.code.md} 대상): ${p.reason.md}`,
    },
    adopted: {
      en: (p: { kind: Md; summary: Md; by: string }) =>
        `- ${p.kind.md}: ${p.summary.md} Approved by ${p.by}.`,
      ko: (p: { kind: Md; summary: Md; by: string }) => `- ${p.kind.md}: ${p.summary.md} 승인: ${p.by}.`,
    },
    adoptedNoSummary: {
      en: (p: { kind: Md; plan: Md; by: string }) =>
        `- ${p.kind.md} (plan ${p.plan.md}). Approved by ${p.by}.`,
      ko: (p: { kind: Md; plan: Md; by: string }) => `- ${p.kind.md} (조치 ${p.plan.md}). 승인: ${p.by}.`,
    },
    nobody: { en: () => 'nobody recorded', ko: () => '기록 없음' },
    noneAdopted: {
      en: () => '- No plan was approved in the record.',
      ko: () => '- 기록상 승인된 조치가 없다.',
    },
    writeLine: {
      en: (p: { at: string; plan: Md; outcome: string; detail: string }) =>
        `- ${p.at} UTC, ${p.plan.md}: ${p.outcome}.${p.detail}`,
      ko: (p: { at: string; plan: Md; outcome: string; detail: string }) =>
        `- ${p.at} UTC, ${p.plan.md}: ${p.outcome}.${p.detail}`,
    },
    laterIntro: { en: () => 'Later changes:', ko: () => '이후 변경:' },
    noLater: { en: () => '- No later change in the record.', ko: () => '- 이후 변경 기록이 없다.' },
    // Follow-ups.
    followManifest: {
      en: (p: { where: Md }) =>
        `- Commit the change to the manifest (${p.where.md}), or the next apply reverts the fix:`,
      ko: (p: { where: Md }) =>
        `- 매니페스트에 변경을 반영한다(${p.where.md}). 반영하지 않으면 다음 apply에서 되돌아간다:`,
    },
    followLivePatch: {
      en: (p: { kind: Md }) =>
        `- Commit what ${p.kind.md} changed to the workload’s manifest (Git, chart or applied file): the live patch holds only until the next apply.`,
      ko: (p: { kind: Md }) =>
        `- ${p.kind.md}로 바꾼 내용을 매니페스트(Git, 차트, apply한 파일)에 반영한다. 라이브 패치는 다음 apply까지만 유지된다.`,
    },
    followExclusion: {
      en: () =>
        '- Remove the node exclusion (the nodeAffinity `NotIn` term) once the node is fixed or replaced: it is a stopgap that keeps capacity out of use.',
      ko: () =>
        '- 노드를 고치거나 교체하면 노드 제외(nodeAffinity `NotIn` 조건)를 제거한다. 임시 조치이고, 그동안 그 노드의 자원을 쓰지 못한다.',
    },
    followExclusionEnded: {
      en: (p: { at: string; cause: string }) =>
        `- The node exclusion ended itself at ${p.at} UTC (${p.cause}): if the node is still at fault, repair or replace it, as pods may land on it again.`,
      ko: (p: { at: string; cause: string }) =>
        `- 노드 제외는 ${p.at} UTC에 스스로 끝났다(${p.cause}). 노드에 아직 문제가 있다면 고치거나 교체한다. 파드가 다시 그 노드에 배치될 수 있다.`,
    },
    followGuardSurge: {
      en: () =>
        '- Add a guard: run `rollout-doctor check` in CI on the manifests, and serve its admission webhook, so a rollout that can never finish is caught before apply.',
      ko: () =>
        '- 가드를 추가한다: CI에서 매니페스트에 `rollout-doctor check`를 돌리고 어드미션 웹훅을 띄워, 끝날 수 없는 롤아웃을 apply 전에 잡는다.',
    },
    followGuardNode: {
      en: () =>
        '- Add a guard: check what set the crashing nodes apart (kernel, runtime, CPU features) before nodes join the pool.',
      ko: () =>
        '- 가드를 추가한다: 노드를 풀에 넣기 전에, 크래시가 난 노드를 구분한 속성(커널, 런타임, CPU 기능)을 확인한다.',
    },
    followGuardGeneric: {
      en: () => '- Add a guard: the check that would have caught this before the rollout (to decide).',
      ko: () => '- 가드를 추가한다: 롤아웃 전에 이 문제를 잡을 수 있는 검사 (결정 필요).',
    },
  }),
);
