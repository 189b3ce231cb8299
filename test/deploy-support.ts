// Reading deploy/: the Kubernetes manifests (validated against the API's schemas by kubernetes-models,
// offline), the GitHub Actions workflow, and a container's args expanded as the kubelet expands them.
// kubernetes-models 4.5.x (pinned by package-lock.json; MIT, tommy351/kubernetes-models-ts) ships the
// stable APIs' OpenAPI schemas compiled to ajv validators: its batch/v1 JobSpec has successPolicy and
// managedBy, so Kubernetes 1.30 or later (its README badge still says 1.27). Those schemas check types,
// required fields and enums but, like the API's own OpenAPI, allow unknown fields; the tests below
// therefore also check by name every field the shards rely on (completionMode, auto/N, the volume…).
// Strict schemas (yannh/kubernetes-json-schema's *-standalone-strict) could not be vendored here: that
// repository is too large to fetch, and kubeconform is a Go binary, not an npm package.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, PersistentVolumeClaim } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from './helpers.js';

export const K8S_DIR = join(ROOT, 'deploy', 'k8s');
export const WORKFLOW = join(ROOT, 'deploy', 'github', 'kbbench-shards.yml');

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  // The manifests are data; the tests read the parts they check.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
}

/** The schema check of each kind deploy/k8s uses (kubernetes-models: the API's OpenAPI schemas, compiled). */
const VALIDATORS: Record<string, (doc: unknown) => void> = {
  'batch/v1 Job': (doc) => new Job(doc as ConstructorParameters<typeof Job>[0]).validate(),
  'v1 ConfigMap': (doc) => new ConfigMap(doc as ConstructorParameters<typeof ConfigMap>[0]).validate(),
  'v1 PersistentVolumeClaim': (doc) => new PersistentVolumeClaim(doc as ConstructorParameters<typeof PersistentVolumeClaim>[0]).validate(),
};

/** Throws when a manifest does not match its kind's schema (or is of a kind with no check here). */
export function validateManifest(doc: { apiVersion?: unknown; kind?: unknown }): void {
  const key = `${String(doc.apiVersion)} ${String(doc.kind)}`;
  const check = VALIDATORS[key];
  if (!check) throw new Error(`no schema check for ${key}`);
  check(doc);
}

export function loadManifests(): Manifest[] {
  return readdirSync(K8S_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(readFileSync(join(K8S_DIR, file), 'utf8')).map((d) => ({ ...(d.toJS() as Omit<Manifest, 'file'>), file })));
}

export function manifest(docs: readonly Manifest[], kind: string, name: string): Manifest {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`deploy/k8s has no ${kind} ${name}`);
  return found;
}

/** The kubelet's `$(VAR)` expansion of command and args: a defined variable is replaced, others stay as written. */
export function expandArgs(args: readonly string[], env: Record<string, string>): string[] {
  return args.map((arg) => arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env[name] ?? whole));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Workflow = any;

export const loadWorkflow = (): Workflow => parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;

/** The `run:` of a workflow step, found by the step's name. */
export function stepRun(workflow: Workflow, job: string, name: string): string {
  const step = (workflow.jobs[job].steps as { name?: string; run?: string }[]).find((s) => s.name === name);
  if (!step?.run) throw new Error(`workflow job ${job} has no step "${name}" with a run command`);
  return step.run;
}
