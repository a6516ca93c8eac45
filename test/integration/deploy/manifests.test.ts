/**
 * The Kubernetes manifests are checked offline (issue 25, item 6): scripts/check-manifests.ts
 * renders deploy/k8s/base and overlays/production with the pinned kustomize and validates every
 * object against the Kubernetes schemas (kubernetes-models) and the rules of deploy/k8s/README.md.
 * The repository's manifests pass; a copy broken in one way per rule fails, naming each break.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..', '..');
const run = promisify(execFile);

async function check(dir?: string): Promise<{ code: number; out: string }> {
  try {
    const r = await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/check-manifests.ts'), ...(dir ? ['--dir', dir] : [])],
      { cwd: ROOT },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

test('the repository manifests render and validate: base and the production overlay', async () => {
  const r = await check();
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/deploy\/k8s valid \(base: \d+ objects, overlays\/production: \d+ objects\)/);
});

test('each broken rule fails the check and is named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agora-k8s-'));
  try {
    cpSync(join(ROOT, 'deploy/k8s'), dir, { recursive: true });
    const edit = (file: string, from: string | RegExp, to: string) => {
      const path = join(dir, file);
      const text = readFileSync(path, 'utf8');
      const next = text.replace(from, to);
      if (next === text) throw new Error(`${file}: nothing replaced`);
      writeFileSync(path, next);
    };
    // Schema: a replica count that is not an integer.
    edit('base/admin.yaml', 'replicas: 2', "replicas: 'two'");
    // No PodDisruptionBudget for the backup worker.
    edit('base/backup.yaml', /\n---\n# Voluntary disruptions[\s\S]*$/, '\n');
    // No readiness probe on notifications.
    edit('base/notifications.yaml', 'readinessProbe:', 'x-readinessProbe:');
    // The gateway reads social's Secret (database and S3 credentials).
    edit('base/gateway.yaml', 'name: agora-gateway', 'name: agora-social');
    // A Secret with placeholders inside the kustomization.
    writeFileSync(
      join(dir, 'base/secret.yaml'),
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: agora-secrets\nstringData:\n  MONGO_URL: REPLACE_ME\n',
    );
    edit('base/kustomization.yaml', '  - namespace.yaml', '  - namespace.yaml\n  - secret.yaml');
    // Production by tag.
    edit('overlays/production/kustomization.yaml', /digest: sha256:[0-9a-f]+/, "newTag: '0.1.0'");
    const r = await check(dir);
    expect(r.code).toBe(1);
    for (const expected of [
      'Deployment/admin: data/spec/replicas must be integer',
      'Deployment/backup: no PodDisruptionBudget selects its pods',
      'Deployment/notifications: container notifications has no readinessProbe',
      "Deployment/gateway: the gateway's Secret example holds MONGO_URL",
      'Deployment/gateway: container gateway reads Secrets [agora-social], not only agora-gateway',
      'Secret/agora-secrets: a Secret is part of the kustomization',
      'a rendered value is a REPLACE_ME placeholder',
      'overlays/production Deployment/social: image registry.example.com/agora:0.1.0 is not pinned by digest',
    ])
      expect(r.out).toContain(expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
