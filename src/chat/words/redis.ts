/**
 * What an answer says about Redis when it did not take a call, in every
 * language: the trouble as src/queue/deadline.ts classified it, and when to try again
 * (src/chat/use-cases/redis-words.ts picks them). English entries are the wording
 * before the catalogue.
 */
import { defineMessages, registerCatalogue, phrase } from '../../i18n/catalogue.js';

export const REDIS_WORDS = registerCatalogue(
  'redis-trouble',
  defineMessages({
    stalled: phrase('Redis did not answer in time', 'Redis가 제때 응답하지 않았습니다'),
    full: phrase(
      'Redis is full and refuses writes (out of memory)',
      'Redis가 가득 차서 쓰기를 거부합니다(메모리 부족)',
    ),
    'read-only': phrase(
      'Redis is read-only for now (a failover is under way)',
      'Redis가 지금은 읽기 전용입니다(페일오버 진행 중)',
    ),
    unreachable: phrase('Redis is unreachable', 'Redis에 연결할 수 없습니다'),
    againMinute: phrase('in a minute', '1분 뒤에'),
    againSeconds: phrase('in a few seconds', '몇 초 뒤에'),
  }),
  {
    stalled: [{}],
    full: [{}],
    'read-only': [{}],
    unreachable: [{}],
    againMinute: [{}],
    againSeconds: [{}],
  },
);
