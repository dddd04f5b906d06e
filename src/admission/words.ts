/**
 * The webhook's warnings and refusal in every language: the words around
 * the verdict. The object, the fix (field names as written), the reason (check's own
 * words) and the undo command are parameters: headerSafe has made them printable ASCII
 * before they come here, and they are never translated.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

type Head = { ref: string; fix?: string };

export const admissionWords = registerCatalogue(
  'admission',
  defineMessages({
    head: {
      en: (p: Head) => `rollout of ${p.ref} can never finish${p.fix ? `; ${p.fix} would let it` : ''}`,
      ko: (p: Head) => `${p.ref} 롤아웃이 끝나지 않습니다${p.fix ? `. ${p.fix} 설정이면 끝납니다` : ''}`,
    },
    headWhileJobs: {
      en: (p: Head) =>
        `rollout of ${p.ref} cannot finish while running Jobs hold its room${p.fix ? `; ${p.fix} would let it` : ''}`,
      ko: (p: Head) =>
        `${p.ref} 롤아웃은 실행 중인 Job이 자리를 점유하는 동안 끝나지 않습니다${p.fix ? `. ${p.fix} 설정이면 끝납니다` : ''}`,
    },
    undo: {
      en: (p: { command: string }) => `applied; to take it back: ${p.command}`,
      ko: (p: { command: string }) => `적용되었습니다. 되돌리려면: ${p.command}`,
    },
    refused: {
      en: (p: { label: string }) => `(refused: the namespace is labelled ${p.label})`,
      ko: (p: { label: string }) => `(거부됨: 네임스페이스에 ${p.label} 레이블이 있습니다)`,
    },
  }),
  {
    head: [{ ref: 'deployment/web' }, { ref: 'deployment/web', fix: 'maxSurge 0, maxUnavailable 1' }],
    headWhileJobs: [
      { ref: 'deployment/web' },
      { ref: 'deployment/web', fix: 'maxSurge 0, maxUnavailable 1' },
    ],
    undo: [{ command: 'kubectl rollout undo deployment/web -n shop' }],
    refused: [{ label: 'rollout-doctor.io/admission=refuse' }],
  },
);
