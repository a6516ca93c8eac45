/**
 * Checks the Kubernetes manifests offline (issue 25, item 6; `npm run check` and
 * test/integration/deploy/manifests.test.ts): renders deploy/k8s/base and every overlay with
 * kustomize (.tools/bin/kustomize, scripts/infra/kustomize.sh), validates every object against
 * the Kubernetes API schemas of the kubernetes-models package (types, required fields, enums,
 * formats), then holds the rules of deploy/k8s/README.md:
 *   - every Deployment has startup, readiness and liveness probes on every container and a
 *     PodDisruptionBudget that selects its pods, with at least two replicas (or an HPA minimum);
 *   - every workload reads its own Secret `agora-<name>` and no other; each has an example in
 *     secrets.example/, and the gateway's carries no database, broker or S3 credential;
 *   - no Secret and no REPLACE_ME value is rendered (secrets live outside the kustomization);
 *   - a CronJob runs `backup-now` with the backup Secret, and BACKUP_KEEP is set;
 *   - in overlays/production every container's image is pinned by digest.
 * Usage: tsx scripts/check-manifests.ts [--dir deploy/k8s]. Exit 1 with every problem listed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
} & Record<string, unknown>;
type Container = {
  name: string;
  image: string;
  args?: string[];
  envFrom?: Array<{ secretRef?: { name: string }; configMapRef?: { name: string } }>;
  env?: Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string } } }>;
  startupProbe?: unknown;
  readinessProbe?: unknown;
  livenessProbe?: unknown;
};
type PodSpec = { containers: Container[]; initContainers?: Container[] };

const ROOT = join(__dirname, '..');
const dirArg = process.argv.indexOf('--dir');
const K8S = resolve(dirArg > 0 ? process.argv[dirArg + 1]! : join(ROOT, 'deploy', 'k8s'));
const KUSTOMIZE = join(ROOT, '.tools', 'bin', 'kustomize');
/** What the gateway must never hold (docs/architecture.md: it never touches them). */
const NOT_FOR_GATEWAY = ['MONGO_URL', 'AMQP_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'ADMIN_PASSWORD'];
const DIGEST = /@sha256:[0-9a-f]{64}$/;

const problems: string[] = [];
const fail = (where: string, what: string) => problems.push(`${where}: ${what}`);

function render(dir: string): Obj[] {
  const out = execFileSync(KUSTOMIZE, ['build', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (out.includes('REPLACE_ME')) fail(dir, 'a rendered value is a REPLACE_ME placeholder');
  return parseAllDocuments(out).map((d) => d.toJSON() as Obj);
}

async function validateSchema(where: string, o: Obj): Promise<void> {
  const group = o.apiVersion.includes('/') ? o.apiVersion : `v1`;
  let Model: new (data: unknown) => { validate(): void };
  try {
    const mod = (await import(`kubernetes-models/${group}/${o.kind}`)) as Record<string, typeof Model>;
    Model = mod[o.kind]!;
  } catch {
    fail(where, `no schema for ${o.apiVersion} ${o.kind}`);
    return;
  }
  try {
    new Model(o).validate();
  } catch (err) {
    fail(where, (err as Error).message.split('\n')[0]!);
  }
}

interface WorkloadSpec {
  template?: { spec?: PodSpec };
  jobTemplate?: { spec?: { template?: { spec?: PodSpec } } };
}

function podSpecOf(o: Obj): PodSpec | undefined {
  const spec = o.spec as WorkloadSpec | undefined;
  if (o.kind === 'CronJob') return spec?.jobTemplate?.spec?.template?.spec;
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind)) return spec?.template?.spec;
  return undefined;
}

function selects(pdb: Obj, labels: Record<string, string>): boolean {
  const want =
    (pdb.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
  return Object.keys(want).length > 0 && Object.entries(want).every(([k, v]) => labels[k] === v);
}

function secretsOf(c: Container): string[] {
  return [
    ...(c.envFrom ?? []).flatMap((e) => (e.secretRef ? [e.secretRef.name] : [])),
    ...(c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [])),
  ];
}

function exampleKeys(secret: string): string[] | undefined {
  const file = join(K8S, 'secrets.example', `${secret.replace(/^agora-/, '')}.env`);
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => /^([A-Z0-9_]+)=/.exec(l)?.[1] ?? []);
}

function checkBase(objs: Obj[]): void {
  const where = (o: Obj) => `base ${o.kind}/${o.metadata.name}`;
  const pdbs = objs.filter((o) => o.kind === 'PodDisruptionBudget');
  const hpas = objs.filter((o) => o.kind === 'HorizontalPodAutoscaler');
  for (const o of objs) {
    if (o.kind === 'Secret')
      fail(where(o), 'a Secret is part of the kustomization (keep secret values outside it)');
    const pod = podSpecOf(o);
    if (!pod) continue;
    // The backup-schedule CronJob runs as the backup worker does, with its Secret.
    const owner = o.kind === 'CronJob' ? 'backup' : o.metadata.name;
    for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
      const secrets = [...new Set(secretsOf(c))];
      if (secrets.join() !== `agora-${owner}`)
        fail(where(o), `container ${c.name} reads Secrets [${secrets.join(', ')}], not only agora-${owner}`);
      for (const s of secrets) {
        const keys = exampleKeys(s);
        if (!keys) fail(where(o), `no secrets.example/${s.replace(/^agora-/, '')}.env for ${s}`);
        if (owner === 'gateway')
          for (const k of NOT_FOR_GATEWAY)
            if (keys?.includes(k)) fail(where(o), `the gateway's Secret example holds ${k}`);
      }
      if (o.kind === 'Deployment')
        for (const p of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const)
          if (!c[p]) fail(where(o), `container ${c.name} has no ${p}`);
    }
    if (o.kind !== 'Deployment') continue;
    const labels = (o.spec as { template: { metadata: { labels: Record<string, string> } } }).template
      .metadata.labels;
    if (!pdbs.some((p) => selects(p, labels))) fail(where(o), 'no PodDisruptionBudget selects its pods');
    const hpa = hpas.find(
      (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === o.metadata.name,
    );
    const replicas = hpa
      ? ((hpa.spec as { minReplicas?: number }).minReplicas ?? 1)
      : ((o.spec as { replicas?: number }).replicas ?? 1);
    if (replicas < 2)
      fail(where(o), `${replicas} replica(s): a PodDisruptionBudget of minAvailable 1 would block drains`);
  }
  const cron = objs.find(
    (o) => o.kind === 'CronJob' && podSpecOf(o)?.containers.some((c) => c.args?.[0] === 'backup-now'),
  );
  if (!cron) fail('base', 'no CronJob runs backup-now (scheduled backups)');
  const config = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'agora-config');
  const keep = Number((config?.data as Record<string, string> | undefined)?.BACKUP_KEEP ?? 0);
  if (!(keep > 0))
    fail('base ConfigMap/agora-config', 'BACKUP_KEEP is not set: scheduled backups would pile up');
}

function checkProduction(name: string, objs: Obj[]): void {
  for (const o of objs)
    for (const c of podSpecOf(o)?.containers ?? [])
      if (!DIGEST.test(c.image))
        fail(`${name} ${o.kind}/${o.metadata.name}`, `image ${c.image} is not pinned by digest`);
}

async function main(): Promise<void> {
  if (!existsSync(KUSTOMIZE)) throw new Error(`${KUSTOMIZE} is missing: run bash scripts/infra/kustomize.sh`);
  const base = render(join(K8S, 'base'));
  checkBase(base);
  const overlays = join(K8S, 'overlays');
  const rendered: Array<[string, Obj[]]> = [['base', base]];
  for (const name of existsSync(overlays) ? readdirSync(overlays).sort() : []) {
    const objs = render(join(overlays, name));
    rendered.push([`overlays/${name}`, objs]);
    if (name === 'production') checkProduction(`overlays/${name}`, objs);
  }
  if (!rendered.some(([n]) => n === 'overlays/production')) fail('overlays', 'no production overlay');
  for (const [name, objs] of rendered)
    for (const o of objs) await validateSchema(`${name} ${o.kind}/${o.metadata.name}`, o);
  const count = rendered.map(([n, objs]) => `${n}: ${objs.length} objects`).join(', ');
  if (problems.length) {
    console.error(`deploy/k8s: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exitCode = 1;
  } else console.log(`deploy/k8s valid (${count})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
