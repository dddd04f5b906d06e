/**
 * `npx tsx scripts/preview-before-deploy.ts [DIR]` (default docs/): the README's "Before
 * you deploy" picture. On the simulator with seed incident A, it registers the admission
 * webhook (`rollout-doctor serve-admission` in this process, over TLS, failurePolicy
 * Ignore), applies the tracker's image bump with the real kubectl, and runs `rollout-doctor
 * check` on the same manifest; the terminal transcript is written as DIR/preview-before-
 * deploy.txt and drawn by headless chromium as DIR/preview-before-deploy.png. Nothing of it
 * is typed by hand: the words are what the tools printed.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { startSimulator } from '../sim/index.js';
import { startLocalAdmission } from '../test/support/serving-certificate.js';
import { runCli } from '../src/cli/run-cli.js';
import { cleanText } from '../src/text/clean.js';
import { k8sTools } from './k8s-tools.js';
import { findChromium, launchChromium } from './preview/browser-flow.js';
import { Writable, Readable } from 'node:stream';
import { spawn } from 'node:child_process';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests

function run(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('close', () => done({ out }));
  });
}

async function check(args: string[]): Promise<string> {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _e, next) {
      out += chunk.toString();
      next();
    },
  });
  await runCli(['check', ...args], { stdin: Readable.from([]), stdout: sink, stderr: sink, env: {} });
  return out;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function page(transcript: string): string {
  const lines = transcript.split('\n').map((line) => {
    const html = escapeHtml(line);
    if (line.startsWith('$ ')) return `<span class="prompt">$</span> <b>${html.slice(2)}</b>`;
    if (line.startsWith('Warning: ')) return `<span class="warn">${html}</span>`;
    if (/CAN NEVER FINISH/.test(line))
      return html.replace('CAN NEVER FINISH', '<span class="bad">CAN NEVER FINISH</span>');
    return html;
  });
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:#1e1e1e}
pre{margin:0;padding:18px 22px;font:13px/1.45 "DejaVu Sans Mono",monospace;color:#d4d4d4;white-space:pre-wrap;width:1040px}
.prompt{color:#6a9955}.warn{color:#dcdcaa}.bad{color:#f44747;font-weight:bold}b{color:#fff}
</style><pre id="t">${lines.join('\n')}</pre>`;
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'docs');
  const dir = await mkdtemp(join(tmpdir(), 'rd-before-deploy-'));
  const sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  let server: Awaited<ReturnType<typeof startLocalAdmission>> | undefined;
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
    await sim.settle();
    await sim.waitFor(
      () =>
        ((sim.get('Deployment', 'vision', 'vision-object-tracker') as Json)['status']?.[
          'availableReplicas'
        ] ?? 0) === 1,
    );
    server = await startLocalAdmission({ kubeconfig }, dir);
    const hook = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'rollout-doctor-admission' },
      webhooks: [
        {
          name: 'rollouts.admission.rollout-doctor.io',
          clientConfig: {
            url: `https://127.0.0.1:${server.port}/validate`,
            caBundle: Buffer.from(server.tls.ca).toString('base64'),
          },
          rules: [
            {
              operations: ['CREATE', 'UPDATE'],
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              resources: ['deployments'],
            },
          ],
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 5,
        },
      ],
    };
    await writeFile(join(dir, 'hook.yaml'), stringify(hook));
    const env = { KUBECONFIG: kubeconfig, HOME: dir };
    await run(k8sTools().kubectl, ['apply', '-f', join(dir, 'hook.yaml')], env);
    const seed = parseAllDocuments(await readFile('sim/scenarios/gpu-deadlock.yaml', 'utf8'))
      .map((d) => d.toJS() as Json)
      .find((d) => d?.['kind'] === 'Deployment') as Json;
    seed['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    const manifest = join(dir, 'tracker.yaml');
    await writeFile(manifest, stringify(seed));
    const shown = 'tracker.yaml';
    const checked = (await check(['-f', manifest, '--kubeconfig', kubeconfig])).replaceAll(manifest, shown);
    // kubectl apply: server-side, as Argo CD and Flux apply (the seed object was not made by kubectl apply).
    const applied = await run(k8sTools().kubectl, ['apply', '--server-side', '-f', manifest], env);
    const transcript = [
      `$ rollout-doctor check -f ${shown}`,
      checked.trimEnd(),
      '',
      `$ kubectl apply --server-side -f ${shown}`,
      applied.out.replaceAll(manifest, shown).trimEnd(),
      '',
    ].join('\n');
    const text = cleanText(transcript);
    await writeFile(join(out, 'preview-before-deploy.txt'), text);
    const chromium = findChromium();
    if (!chromium) throw new Error('no chromium on the PATH: wrote the .txt only');
    const browser = await launchChromium(chromium);
    try {
      const tab = await browser.newPage({ viewport: { width: 1100, height: 400 }, deviceScaleFactor: 1 });
      await tab.setContent(page(text));
      await tab.locator('#t').screenshot({ path: join(out, 'preview-before-deploy.png') });
    } finally {
      await browser.close();
    }
    console.log(`wrote ${join(out, 'preview-before-deploy.png')} and .txt`);
  } finally {
    await server?.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
