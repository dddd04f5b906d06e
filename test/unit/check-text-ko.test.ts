/**
 * `check` in Korean (issue 65.1–3): `--lang ko` or the shell's LANG chooses it for the
 * text output; codes, kinds, paths, the fix's YAML and exit statuses stay as written,
 * `-o json` never translates, and English stays as it was. The seed incident A's
 * manifest with a new image, checked against its dump.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

const FIXTURE = join(import.meta.dirname, '../fixtures/dumps/incident-a-gpu-surge.yaml');
const dir = mkdtempSync(join(tmpdir(), 'rd-check-ko-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const items = parseAllDocuments(readFileSync(FIXTURE, 'utf8'))
  .map((d) => d.toJSON() as Json)
  .flatMap((d) => (d['items'] as Json[] | undefined) ?? [d]);

/** The live Deployment with a new image, as a manifest. */
function manifest(): string {
  const live = items.find((i) => i['kind'] === 'Deployment') as Json;
  const m: Json = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: live['metadata']['name'], namespace: live['metadata']['namespace'] },
    spec: structuredClone(live['spec']),
  };
  m['spec']['template']['spec']['containers'][0]['image'] += '-next';
  const file = join(dir, 'deploy.yaml');
  writeFileSync(file, stringify(m));
  return file;
}

/** The dump with a pod of another namespace, so every node's pods count as read. */
function dump(extra: Json[] = []): string {
  const agent = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: { nodeName: 'gpu-node-1', containers: [{ name: 'a', image: 'agent:1' }] },
    status: { phase: 'Running' },
  };
  const file = join(dir, 'dump.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...items, agent, ...extra] }));
  return file;
}

async function check(args: string[], env: NodeJS.ProcessEnv = {}, extra: Json[] = []) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(['check', '-f', manifest(), '--from-file', dump(extra), ...args], f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

const KO_VERDICT = '롤아웃이 절대 끝나지 않습니다 (템플릿 변경: spec.containers[0].image)';
const KO_FIX = '  조치: 매니페스트에 maxSurge 0, maxUnavailable 1 설정을 넣습니다(객체에 병합됩니다):';
const KO_TALLY = '워크로드 1개: 끝나지 않음 1개, 알 수 없음 0개, 끝남 0개, 롤아웃 없음 0개.';

describe('check in Korean', () => {
  it('says the verdict, the fix and the tally in Korean under --lang ko; codes, paths and YAML as written', async () => {
    const { status, out, err } = await check(['--lang', 'ko']);
    expect(err).toBe('');
    expect(status).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^vision\/deployment\/vision-object-tracker \(.*deploy\.yaml:1\): /);
    expect(lines[0]).toContain(KO_VERDICT);
    expect(lines).toContain(KO_FIX);
    expect(lines).toContain('            maxSurge: 0');
    expect(lines.at(-2)).toBe(KO_TALLY);
    expect(lines).toContain(
      '  RolloutSurgeDeadlock: deployment/vision-object-tracker 롤아웃이 끝나지 않습니다: 새 파드는 기존 파드가 점유한 자리(1 nvidia.com/gpu)를 기다리고, 기존 파드는 새 파드가 Ready가 되어야 내려갑니다. maxSurge 0, maxUnavailable 1 설정이면 롤아웃이 끝납니다.',
    );
    // The evidence: the strategy as resolved, the capacity table and the run forward's note.
    expect(lines).toContain('    전략: RollingUpdate, 레플리카 1개');
    expect(lines).toContain('      maxSurge        25%   -> 1  (기본값, 매니페스트에 설정하지 않음)');
    expect(lines).toContain(
      '      따라서 컨트롤러는 기존 파드를 내리기 전에 새 파드 1개를 먼저 띄웁니다(maxSurge 퍼센트는 올림, maxUnavailable 퍼센트는 내림, 기준 레플리카 1개)',
    );
    expect(lines).toContain('    파드가 쓸 수 있는 노드의 용량:');
    expect(lines).toContain('      노드        리소스          할당 가능  사용 중  여유  점유한 파드');
    expect(lines).toContain(
      '      gpu-node-1  nvidia.com/gpu  1          1        0     vision-object-tracker-5c6b7d8f9-x7k2p (1, 이 워크로드)',
    );
    expect(lines).toContain(
      '    참고: 롤아웃을 따라가 보면, 컨트롤러와 스케줄러가 3단계를 진행한 뒤에도 새 파드 1개가 Pending 상태로 남습니다.',
    );
    expect(out).not.toMatch(/Strategy:|Capacity on|Run forward|Note:/);
    expect(lines).toContain(
      '    지금 클러스터 상태로 롤아웃을 따라가 보면, 컨트롤러는 기존 파드를 내리기 전에 새 파드를 만듭니다. 기존 파드가 자리를 점유하는 동안 새 파드가 들어갈 노드(또는 쿼터)가 없습니다. 기존 파드를 먼저 내리면 자리가 생깁니다. 그동안 서비스하는 레플리카가 줄어듭니다.',
    );
    expect(out).not.toContain('CAN NEVER FINISH');
    expect(out).not.toContain('Fix: set');
  });

  it('is chosen by the shell as gettext reads it (LC_ALL, LC_MESSAGES, LANG); --lang wins', async () => {
    const flag = (await check(['--lang', 'ko'])).out;
    expect(flag).toContain(KO_VERDICT);
    expect((await check([], { LANG: 'ko_KR.UTF-8' })).out).toBe(flag);
    expect((await check([], { LC_MESSAGES: 'ko_KR.UTF-8', LANG: 'en_US.UTF-8' })).out).toBe(flag);
    expect((await check(['--lang=ko'], { LANG: 'en_US.UTF-8' })).out).toBe(flag);
    expect((await check(['--lang', 'en'], { LANG: 'ko_KR.UTF-8' })).out).toBe((await check([])).out);
  });

  it('leaves English as it was', async () => {
    const { status, out } = await check([], { LANG: 'C.UTF-8' });
    expect(status).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toContain(': CAN NEVER FINISH (template changes: spec.containers[0].image)');
    expect(lines).toContain(
      '  Fix: set maxSurge 0, maxUnavailable 1 in the manifest (a merge into the object):',
    );
    expect(lines.at(-2)).toBe(
      '1 workload(s): 1 can never finish, 0 not known, 0 will finish, 0 start no rollout.',
    );
    expect(out).not.toMatch(/[가-힣]/);
  });

  it('never translates -o json, and a --lang it does not know is a usage error', async () => {
    const en = await check(['-o', 'json']);
    const ko = await check(['-o', 'json', '--lang', 'ko'], { LANG: 'ko_KR.UTF-8' });
    expect(ko.out).toBe(en.out);
    expect(ko.status).toBe(en.status);
    expect(ko.out).not.toMatch(/[가-힣]/);
    expect(ko.out).not.toContain('"says"');
    const bad = await check(['--lang', 'fr']);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('--lang must be en or ko');
    // A bad --lang is bad input like any other: -o sarif still writes its file (exit 2).
    const sarif = await check(['-o', 'sarif', '--lang', 'fr'], { LANG: 'ko_KR.UTF-8' });
    expect(sarif.status).toBe(2);
    const run = (JSON.parse(sarif.out) as Json)['runs'][0];
    expect(run['invocations'][0]['executionSuccessful']).toBe(false);
    expect(run['invocations'][0]['toolExecutionNotifications'][0]['message']['text']).toContain(
      '--lang must be en or ko',
    );
    expect(run['tool']['driver']['rules'][0]['shortDescription']['text']).toMatch(/[가-힣]/);
  });

  it("writes SARIF results' message.text and the rules' descriptions and help in Korean, and nothing else of the document differs", async () => {
    const en = JSON.parse((await check(['-o', 'sarif'])).out) as Json;
    const ko = JSON.parse((await check(['-o', 'sarif'], { LANG: 'ko_KR.UTF-8' })).out) as Json;
    const enResult = en['runs'][0]['results'][0];
    const koResult = ko['runs'][0]['results'][0];
    expect(koResult['ruleId']).toBe('RolloutSurgeDeadlock');
    expect(koResult['message']['text']).toMatch(
      /^deployment\/vision-object-tracker 롤아웃이 끝나지 않습니다: /,
    );
    expect(koResult['message']['text']).toMatch(
      / 조치: 매니페스트에 maxSurge 0, maxUnavailable 1 설정을 넣습니다\(객체에 병합됩니다, properties\.fix\)\.$/,
    );
    expect(enResult['message']['text']).toMatch(
      / Fix: set maxSurge 0, maxUnavailable 1 in the manifest \(a merge into the object, properties\.fix\)\.$/,
    );
    expect((await check(['-o', 'sarif', '--lang', 'ko'])).out).toBe(JSON.stringify(ko, null, 2) + '\n');
    const rule = (doc: Json, id: string): Json =>
      (doc['runs'][0]['tool']['driver']['rules'] as Json[]).find((r) => r['id'] === id) as Json;
    expect(rule(ko, 'RolloutSurgeDeadlock')['shortDescription']['text']).toBe(
      '끝날 수 없는 롤아웃: 새 파드에 필요한 자리를 기존 파드가 점유하고 있습니다.',
    );
    expect(rule(ko, 'RolloutSurgeDeadlock')['fullDescription']['text']).toMatch(
      /^새 파드에 필요한 자원\(GPU, /,
    );
    expect(rule(en, 'RolloutSurgeDeadlock')['shortDescription']['text']).toBe(
      'A rollout that can never finish: the new pods need room the old pods hold.',
    );
    // The help in Korean too, its fix under **조치:**, the Markdown's code spans kept and the text without them.
    const help = rule(ko, 'RolloutSurgeDeadlock')['help'] as Json;
    expect(help['markdown']).toMatch(/^이 변경이 시작하는 롤아웃은 끝나지 않습니다: /);
    expect(help['markdown']).toContain('\n\n**조치:** 롤아웃이 기존 파드를 먼저 내리게 합니다.');
    expect(help['markdown']).toContain('`strategy.rollingUpdate.maxUnavailable` 값을 1 이상으로');
    expect(help['text']).toContain('\n\n조치: 롤아웃이 기존 파드를 먼저 내리게 합니다.');
    expect(rule(en, 'RolloutSurgeDeadlock')['help']['markdown']).toContain('**Fix:** let the rollout take');
    // Everything else is the same: ids, levels, locations, fingerprints, the rules' pages.
    for (const doc of [en, ko]) {
      delete doc['runs'][0]['results'][0]['message'];
      for (const r of doc['runs'][0]['tool']['driver']['rules'] as Json[]) {
        for (const text of [r['shortDescription']['text'], r['help']['markdown']])
          expect(text).toMatch(doc === ko ? /[가-힣]/ : /^[^가-힣]*$/);
        delete r['shortDescription'];
        delete r['fullDescription'];
        delete r['help'];
      }
    }
    expect(ko).toEqual(en);
  });

  it('says an admission refusal in Korean, the LimitRange and its message as written', async () => {
    const bounds = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bounds', namespace: 'vision' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] },
    };
    const ko = await check(['--lang', 'ko'], {}, [bounds]);
    expect(ko.status).toBe(1);
    const line = ko.out.split('\n').find((l) => l.startsWith('  AdmissionDenied: ')) ?? '';
    expect(line).toMatch(
      /^ {2}AdmissionDenied: deployment\/vision-object-tracker 롤아웃이 끝나지 않습니다: LimitRange bounds 객체가 새 파드를 모두 거부합니다\(.*cpu.*\)\. 새 템플릿의 파드는 하나도 만들어지지 않습니다\.$/,
    );
    expect(ko.out).toContain('    LimitRange의 기본값으로 컨테이너에 빠진 요청량과 제한을 채운 뒤,');
    const en = await check([], {}, [bounds]);
    expect(en.out).toMatch(
      /^ {2}AdmissionDenied: The rollout of deployment\/vision-object-tracker can never finish: LimitRange bounds refuses every new pod \(/m,
    );
  });

  it('says why the apply keeps a field the manifest leaves out in Korean', async () => {
    const deployment = items.find((i) => i['kind'] === 'Deployment') as Json;
    const live = structuredClone(deployment);
    live['spec']['strategy'] = { type: 'Recreate' };
    live['metadata']['annotations'] = {
      ...live['metadata']['annotations'],
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: { replicas: 1 } }),
    };
    const dumpFile = join(dir, 'dump-omitted.json');
    const others = items.filter((i) => i !== deployment);
    writeFileSync(dumpFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...others, live] }));
    const m: Json = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: live['metadata']['name'], namespace: live['metadata']['namespace'] },
      spec: structuredClone(deployment['spec']),
    };
    delete m['spec']['strategy'];
    m['spec']['template']['spec']['containers'][0]['image'] += '-next';
    const manifestFile = join(dir, 'omitted.yaml');
    writeFileSync(manifestFile, stringify(m));
    const run = async (lang: string, ...more: string[]) => {
      const f = fakeIo();
      await runCli(['check', '-f', manifestFile, '--from-file', dumpFile, '--lang', lang, ...more], f.io);
      return f.stdout().split('\n');
    };
    const json = (await run('ko', '-o', 'json')).join('\n');
    expect(json).toContain('"omitted": [');
    expect(json).not.toContain('"says"');
    const ko = (await run('ko')).find((l) => l.includes('spec.strategy')) ?? '';
    expect(ko).toMatch(
      /^ {2}매니페스트에 spec\.strategy 필드가 없습니다\. 적용하면 현재 값\(\{"type":"Recreate"\}\)이 유지됩니다\. 이유: 마지막으로 적용한 매니페스트\(kubectl \(.*\)\)가 이 필드를 설정한 적이 없어서, 적용해도 현재 값이 유지됩니다\.$/,
    );
    const en = (await run('en')).find((l) => l.includes('spec.strategy')) ?? '';
    expect(en).toMatch(
      /^ {2}The manifest leaves out spec\.strategy: the apply keeps the live value \{"type":"Recreate"\}; the manifest kubectl \(.*\) last applied never set it, so the apply keeps it\.$/,
    );
  });

  it('says in Korean that the outcome turns on what the apply stores, and a workload it could not judge', async () => {
    // The live strategy Recreate, and nothing that says who wrote it: kept, it finishes; dropped, it deadlocks.
    const deployment = items.find((i) => i['kind'] === 'Deployment') as Json;
    const live = structuredClone(deployment);
    live['spec']['strategy'] = { type: 'Recreate' };
    delete live['metadata']['annotations']?.['kubectl.kubernetes.io/last-applied-configuration'];
    delete live['metadata']['managedFields'];
    const dumpFile = join(dir, 'dump-open.json');
    const agent = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: { nodeName: 'gpu-node-1', containers: [{ name: 'a', image: 'agent:1' }] },
      status: { phase: 'Running' },
    };
    const others = items.filter((i) => i !== deployment);
    writeFileSync(
      dumpFile,
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...others, live, agent] }),
    );
    const m: Json = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: live['metadata']['name'], namespace: live['metadata']['namespace'] },
      spec: structuredClone(deployment['spec']),
    };
    delete m['spec']['strategy'];
    m['spec']['template']['spec']['containers'][0]['image'] += '-next';
    const manifestFile = join(dir, 'open.yaml');
    writeFileSync(manifestFile, stringify(m));
    const run = async (file: string, lang: string) => {
      const f = fakeIo();
      await runCli(['check', '-f', file, '--from-file', dumpFile, '--lang', lang], f.io);
      return f.stdout().split('\n');
    };
    const ko = await run(manifestFile, 'ko');
    expect(ko).toContain(
      '  IncompleteEvidence: 롤아웃이 끝날지는 매니페스트에 없는 필드(spec.strategy)를 적용이 어떻게 저장하는지에 달려 있습니다. 현재 값이 유지되면 롤아웃이 끝납니다. 기본값이 쓰이면 롤아웃이 끝나지 않습니다.',
    );
    expect(ko).toContain('    참고: 현재 spec.strategy 값: {"type":"Recreate"}');
    expect(await run(manifestFile, 'en')).toContain('    Note: Live spec.strategy: {"type":"Recreate"}');
    // A namespace the dump holds no Deployment of: the live object is not known, nothing judged.
    m['metadata']['namespace'] = 'elsewhere';
    const elsewhere = join(dir, 'elsewhere.yaml');
    writeFileSync(elsewhere, stringify(m));
    const notJudged = (await run(elsewhere, 'ko')).find((l) => l.startsWith('  IncompleteEvidence: ')) ?? '';
    // The frame in Korean; the reason is the source's own words (English).
    expect(notJudged).toMatch(
      /^ {2}IncompleteEvidence: 판정하지 않았습니다: the dump holds no Deployment of namespace elsewhere/,
    );
  });
});
