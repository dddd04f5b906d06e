/**
 * The command's announcement of the run it started, in every language (the first
 * message of a thread: src/chat/use-cases/command.ts). English entries are the wording
 * before the catalogue.
 */
import type { Rich } from '../model.js';
import { code, icon, say } from '../../message/rich.js';
import { defineMessages, registerCatalogue } from '../../i18n/catalogue.js';

type Diagnosis = { who: Rich; workload: string; namespace: string; cluster: string; joining: boolean };
type Scan = { who: Rich; namespace: string; cluster: string; joining: boolean };

export const COMMAND_WORDS = registerCatalogue(
  'command',
  defineMessages({
    announceDiagnosis: {
      en: (p: Diagnosis) =>
        say`${icon('diagnosing')} ${p.who} asked for a diagnosis of ${p.workload} in ${p.namespace} (cluster ${p.cluster})${p.joining ? ': joining the run already in progress' : ''}…`,
      ko: (p: Diagnosis) =>
        say`${icon('diagnosing')} ${p.who} 님이 ${p.namespace} 네임스페이스의 ${p.workload} 진단을 요청했습니다(클러스터 ${p.cluster})${p.joining ? '. 이미 진행 중인 진단에 합류합니다' : ''}…`,
    },
    announceScan: {
      en: (p: Scan) =>
        say`${icon('diagnosing')} ${p.who} asked for a scan of ${p.namespace ? `namespace ${p.namespace}` : 'all namespaces'} (cluster ${p.cluster})${p.joining ? ': joining the run already in progress' : ''}…`,
      ko: (p: Scan) =>
        say`${icon('diagnosing')} ${p.who} 님이 ${p.namespace ? `${p.namespace} 네임스페이스` : '모든 네임스페이스'} 스캔을 요청했습니다(클러스터 ${p.cluster})${p.joining ? '. 이미 진행 중인 스캔에 합류합니다' : ''}…`,
    },
    cannotPost: {
      en: (p: { invite: string; what: Rich }) =>
        say`I could not post in this channel (invite me with ${code(p.invite)}). The ${p.what} is running anyway.`,
      ko: (p: { invite: string; what: Rich }) =>
        say`이 채널에 메시지를 올리지 못했습니다(${code(p.invite)}로 초대해 주세요). 요청한 작업(${p.what})은 그대로 진행됩니다.`,
    },
  }),
  {
    announceDiagnosis: [
      { who: say`Ana`, workload: 'statefulset/ledger', namespace: 'pay', cluster: 'prod', joining: false },
      { who: say`Ana`, workload: 'statefulset/ledger', namespace: 'pay', cluster: 'prod', joining: true },
    ],
    announceScan: [
      { who: say`Ana`, namespace: 'pay', cluster: 'prod', joining: false },
      { who: say`Ana`, namespace: '', cluster: 'prod', joining: true },
    ],
    cannotPost: [{ invite: '/invite @rollout-doctor', what: say`statefulset/ledger in pay` }],
  },
);
