/**
 * The environment a Deployment in deploy/k8s gives its container: the agora-config ConfigMap,
 * its own Secret (`agora-<service>`, envFrom; the example of deploy/k8s/secrets.example) and
 * the container's own `env`, read from the manifests so a
 * test runs a service with what the cluster sets. A small reader for the flat shape those files
 * have (`KEY: value` maps, `- name:`/`value:` pairs), not a YAML parser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const K8S = join(__dirname, '..', '..', 'deploy', 'k8s');
const BASE = join(K8S, 'base');

function unquote(v: string): string {
  const t = v.trim();
  return /^'.*'$|^".*"$/.test(t) ? t.slice(1, -1) : t;
}

/** The `KEY: value` entries of the top-level map `block` (e.g. `data`) of a manifest. */
function mapOf(file: string, block: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inside = false;
  for (const line of readFileSync(join(BASE, file), 'utf8').split('\n')) {
    if (/^\S/.test(line)) inside = line.startsWith(`${block}:`);
    else if (inside) {
      const m = /^ {2}([A-Z0-9_]+):\s*(.*)$/.exec(line);
      if (m) out[m[1]!] = unquote(m[2]!);
    }
  }
  return out;
}

/** The `KEY=value` lines of an env file (`kubectl create secret --from-env-file`). */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(join(K8S, file), 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** The `env` entries with a literal value of the containers in `file`. */
function containerEnv(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  let name: string | undefined;
  for (const line of readFileSync(join(BASE, file), 'utf8').split('\n')) {
    const n = /^\s*- name: ([A-Z][A-Z0-9_]*)\s*$/.exec(line);
    if (n) name = n[1];
    const v = /^\s*value: (.*)$/.exec(line);
    if (v && name) {
      out[name] = unquote(v[1]!);
      name = undefined;
    }
  }
  return out;
}

/** What deploy/k8s/<service>.yaml sets for its container, before any test overrides. */
export function k8sEnv(service: string): Record<string, string> {
  return {
    ...mapOf('configmap.yaml', 'data'),
    ...envFile(`secrets.example/${service}.env`),
    ...containerEnv(`${service}.yaml`),
  };
}
