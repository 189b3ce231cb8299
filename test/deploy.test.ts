// deploy/: the Kubernetes manifests match the API's schemas and fit together (an Indexed Job whose
// pods run `--shard auto/N` of one --start-at onto a shared volume, and a merge Job reading it back),
// the container recipe builds this repository as a non-root user, and the workflow parses.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandArgs, K8S_DIR, loadManifests, loadWorkflow, manifest, stepRun, validateManifest, type Manifest } from './deploy-support.js';
import { ROOT } from './helpers.js';

const docs = loadManifests();
const load = manifest(docs, 'Job', 'kbbench-load');
const merge = manifest(docs, 'Job', 'kbbench-merge');
const pvc = manifest(docs, 'PersistentVolumeClaim', 'kbbench-results');
const config = manifest(docs, 'ConfigMap', 'kbbench-load');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const containerOf = (job: Manifest): any => job.spec.template.spec.containers[0];
/** Variables a pod of this Job has: its env, the ConfigMaps it takes whole, and the Job's index. */
function envNames(job: Manifest): Set<string> {
  const container = containerOf(job);
  const names = new Set<string>((container.env ?? []).map((e: { name: string }) => e.name));
  for (const from of container.envFrom ?? []) {
    const name = from.configMapRef.name as string;
    // kbbench-run is made per run (`kubectl create configmap kbbench-run …`, see job.yaml's header).
    const keys = name === 'kbbench-run' ? ['KBBENCH_RUN', 'KBBENCH_START_AT'] : Object.keys(manifest(docs, 'ConfigMap', name).data ?? {});
    for (const key of keys) names.add(key);
  }
  if (job.spec.completionMode === 'Indexed') names.add('JOB_COMPLETION_INDEX');
  return names;
}

describe('deploy/k8s manifests', () => {
  it.each(docs.map((d) => [`${d.file}: ${d.kind} ${d.metadata.name}`, d] as const))('%s matches the Kubernetes schema', (_label, doc) => {
    const { file: _file, ...object } = doc;
    expect(() => validateManifest(object)).not.toThrow();
  });

  it('the schema check is live: it refuses a wrong type, a missing field and an unknown enum value', () => {
    const { file: _file, ...job } = load;
    const broken = (patch: (j: typeof job) => void): typeof job => {
      const copy = structuredClone(job);
      patch(copy);
      return copy;
    };
    expect(() => validateManifest(broken((j) => (j.spec.completions = 'three')))).toThrow(/completions must be integer/);
    expect(() => validateManifest(broken((j) => delete j.spec.template.spec.containers[0].name))).toThrow(/must have required property name/);
    expect(() => validateManifest(broken((j) => (j.spec.completionMode = 'Indexd')))).toThrow(/completionMode must be equal to one of the allowed values/);
    expect(() => validateManifest({ apiVersion: 'apps/v1', kind: 'Deployment' })).toThrow(/no schema check/);
  });

  it('runs N shards at once as an Indexed Job, every pod with auto/N and one --start-at', () => {
    const n = load.spec.completions as number;
    expect(load.spec.completionMode).toBe('Indexed');
    expect(load.spec.parallelism).toBe(n);
    expect(load.spec.backoffLimit).toBe(0);
    const args = containerOf(load).args as string[];
    expect(args[0]).toBe('run');
    expect(args[args.indexOf('--shard') + 1]).toBe(`auto/${n}`);
    expect(args[args.indexOf('--start-at') + 1]).toBe('$(KBBENCH_START_AT)');
    expect(args).toContain('--rate');
    expect(args[args.indexOf('--out') + 1]).toBe('/results/$(KBBENCH_RUN)/shard-$(JOB_COMPLETION_INDEX)');
    // The merge reads exactly the directories the shards write.
    const shardDirs = Array.from({ length: n }, (_, i) => expandArgs([args[args.indexOf('--out') + 1]!], { JOB_COMPLETION_INDEX: String(i) })[0]);
    const mergeArgs = containerOf(merge).args as string[];
    expect(mergeArgs[0]).toBe('merge');
    expect(mergeArgs.slice(1, mergeArgs.indexOf('--out'))).toEqual(shardDirs);
  });

  it('every $(VAR) in the args is defined for the pod, so none stays unexpanded', () => {
    for (const job of [load, merge]) {
      const names = envNames(job);
      for (const arg of containerOf(job).args as string[]) for (const [, name] of arg.matchAll(/\$\(([A-Z_0-9]+)\)/g)) expect(names, `${job.metadata.name}: $(${name})`).toContain(name);
    }
    expect(config.data).toMatchObject({ KBBENCH_RATE: expect.any(String), KBBENCH_DURATION: expect.any(String), KBBENCH_SUITE: expect.stringMatching(/^\/app\/suites\//) });
  });

  it('writes to one ReadWriteMany volume, as a non-root user, the key from a Secret', () => {
    expect(pvc.spec.accessModes).toEqual(['ReadWriteMany']);
    for (const job of [load, merge]) {
      const pod = job.spec.template.spec;
      expect(pod.volumes.find((v: { name: string }) => v.name === 'results').persistentVolumeClaim.claimName).toBe(pvc.metadata.name);
      expect(containerOf(job).volumeMounts).toContainEqual({ name: 'results', mountPath: '/results' });
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.restartPolicy).toBe('Never');
    }
    expect(containerOf(load).env).toContainEqual({ name: 'KBBENCH_API_KEY', valueFrom: { secretKeyRef: { name: 'kbbench-api-key', key: 'key' } } });
    expect(JSON.stringify(docs)).not.toMatch(/KBBENCH_API_KEY"?\s*:\s*"?kb-/);
  });
});

describe('deploy/k8s/Dockerfile', () => {
  const text = readFileSync(join(K8S_DIR, 'Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));

  it('builds on node:20-slim and runs as the unprivileged node user', () => {
    const froms = lines.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:20-slim\b/);
    const lastStage = lines.slice(lines.lastIndexOf(froms.at(-1)!));
    expect(lastStage.filter((l) => l.startsWith('USER ')).at(-1)).toBe('USER node');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { kbbench: string } };
    expect(lastStage.find((l) => l.startsWith('ENTRYPOINT'))).toBe(`ENTRYPOINT ["node", "/app/${pkg.bin.kbbench}"]`);
  });

  it('copies only what exists in the repository', () => {
    for (const line of lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
      const parts = line.split(/\s+/).slice(1).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
  });
});

describe('deploy/github workflow', () => {
  const workflow = loadWorkflow();

  it('parses, and its matrix gives each shard job its JOB_COMPLETION_INDEX for auto/N', () => {
    const shard = workflow.jobs.shard;
    const indexes = shard.strategy.matrix.index as number[];
    expect(indexes).toEqual(indexes.map((_, i) => i));
    expect(shard.env.JOB_COMPLETION_INDEX).toBe('${{ matrix.index }}');
    expect(shard.env.KBBENCH_START_AT).toBe('${{ needs.start.outputs.at }}');
    expect(stepRun(workflow, 'shard', 'run this shard')).toContain(`--shard auto/${indexes.length} --start-at "$KBBENCH_START_AT"`);
    expect(stepRun(workflow, 'merge', 'merge the shards')).toBe(`kbbench merge ${indexes.map((i) => `shards/shard-${i}`).join(' ')} --out shards/merged`);
    expect(workflow.jobs.merge.needs).toBe('shard');
  });
});

describe('docs/many-machines.md', () => {
  // The README's "Many machines" section moved to docs/many-machines.md (the README rewrite).
  const section = readFileSync(join(ROOT, 'docs', 'many-machines.md'), 'utf8');

  it("shows the workflow's shard and merge steps verbatim (the commands test/many-machines.e2e.test.ts runs)", () => {
    const workflow = loadWorkflow();
    expect(section).toContain(`\n${stepRun(workflow, 'shard', 'run this shard')}\n`);
    expect(section).toContain(`\n${stepRun(workflow, 'merge', 'merge the shards')}\n`);
  });

  it("names the pods' command as job.yaml has it", () => {
    const args = (containerOf(load).args as string[]).slice(0, -1).join(' ');
    expect(section.replace(/\s+/g, ' ')).toContain(`kbbench ${args}`);
  });
});
