/**
 * deploy/kubernetes/*.yaml, checked offline: every document parses and validates against the Kubernetes API schemas
 * of `kubernetes-models` (its model's validate(): types, required fields, enums; it does not reject unknown fields,
 * so the checks below read every field that matters by name, and a misspelled one fails them); then what issue 30
 * asks of the deployment: non-root, read-only root file system, no privilege, egress denied, probes on /healthz,
 * resource requests, and that the manifests agree with each other, with deploy/haproxy.cfg, with
 * deploy/Containerfile and with the server's flags.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { envName, FLAGS } from '../../src/server/flags.js';
import { CLI } from '../helpers.js';

const DEPLOY = join(CLI, '..', '..', '..', 'deploy');
const MANIFESTS = join(DEPLOY, 'kubernetes');

/** A Kubernetes object as parsed (only what the checks read is typed). */
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}
interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
    capabilities?: { drop?: string[] };
  };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
}
interface PodSpec {
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  containers: Container[];
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: unknown }[];
}

/** Every document of every manifest, with the file it came from. */
function loadManifests(): { file: string; object: K8sObject }[] {
  const files = readdirSync(MANIFESTS).filter((name) => name.endsWith('.yaml'));
  assert.ok(files.length > 0, `manifests in ${MANIFESTS}`);
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(MANIFESTS, file), 'utf8')).map((doc) => {
      assert.deepEqual(doc.errors, [], `${file} parses`);
      return { file, object: doc.toJS() as K8sObject };
    }),
  );
}

/** The kubernetes-models class of an object: kubernetes-models/apps/v1/StatefulSet, kubernetes-models/v1/Service. */
async function modelOf(apiVersion: string, kind: string): Promise<new (data: unknown) => { validate(): void }> {
  const module = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = module[kind];
  assert.ok(model, `kubernetes-models has ${apiVersion} ${kind}`);
  return model;
}

/** Megabytes in a Kubernetes quantity of memory (Mi, Gi, M, G). */
function megabytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Mi|Gi|M|G)$/.exec(quantity);
  assert.ok(match, `a memory quantity: ${quantity}`);
  const units: Record<string, number> = { Mi: 2 ** 20, Gi: 2 ** 30, M: 1e6, G: 1e9 };
  return (Number(match[1]) * units[match[2]!]!) / 2 ** 20;
}

const manifests = loadManifests();
const find = (kind: string, name: string) => {
  const found = manifests.filter(({ object }) => object.kind === kind && object.metadata?.name === name);
  assert.equal(found.length, 1, `one ${kind} ${name}`);
  return found[0]!.object;
};
const podSpecOf = (workload: K8sObject) => (workload.spec!.template as { spec: PodSpec }).spec;
const podLabelsOf = (workload: K8sObject) => (workload.spec!.template as { metadata: { labels: Record<string, string> } }).metadata.labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('deploy/kubernetes manifests', () => {
  it('every document is a valid object of its kind (kubernetes-models validate()), each named once', async () => {
    const seen = new Set<string>();
    for (const { file, object } of manifests) {
      assert.ok(object.apiVersion && object.kind && object.metadata?.name, `${file}: apiVersion, kind and metadata.name`);
      const key = `${object.kind}/${object.metadata.name}`;
      assert.ok(!seen.has(key), `${file}: ${key} defined once`);
      seen.add(key);
      const Model = await modelOf(object.apiVersion, object.kind);
      assert.doesNotThrow(() => new Model(object).validate(), `${file}: ${key} validates`);
    }
    const kinds = new Set(manifests.map(({ object }) => object.kind));
    for (const kind of ['StatefulSet', 'Service', 'PersistentVolumeClaim', 'NetworkPolicy', 'PodDisruptionBudget', 'Deployment']) {
      assert.ok(kinds.has(kind), `a ${kind}`);
    }
  });

  it('every workload runs as non-root on a read-only root file system, without privileges, with resource requests', () => {
    const workloads = manifests.filter(({ object }) => ['StatefulSet', 'Deployment'].includes(object.kind));
    assert.ok(workloads.length >= 2);
    for (const { file, object } of workloads) {
      const pod = podSpecOf(object);
      const where = `${file}: ${object.kind} ${object.metadata.name}`;
      assert.equal(pod.automountServiceAccountToken, false, `${where}: no service-account token`);
      assert.equal(pod.securityContext?.runAsNonRoot, true, `${where}: runAsNonRoot`);
      assert.ok((pod.securityContext?.runAsUser ?? 0) > 0, `${where}: a non-root uid`);
      assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', `${where}: seccomp`);
      for (const container of pod.containers) {
        const at = `${where}, container ${container.name}`;
        assert.equal(container.securityContext?.readOnlyRootFilesystem, true, `${at}: readOnlyRootFilesystem`);
        assert.equal(container.securityContext?.allowPrivilegeEscalation, false, `${at}: allowPrivilegeEscalation false`);
        assert.deepEqual(container.securityContext?.capabilities?.drop, ['ALL'], `${at}: every capability dropped`);
        assert.ok(container.resources?.requests?.cpu, `${at}: a cpu request`);
        assert.ok(container.resources?.requests?.memory, `${at}: a memory request`);
        assert.ok(container.resources?.limits?.memory, `${at}: a memory limit`);
        assert.ok(megabytes(container.resources.requests.memory) <= megabytes(container.resources.limits.memory), `${at}: request ≤ limit`);
      }
    }
  });

  it('the instances: /healthz probes, the drain within the grace period, real flags, a budget under the limit', () => {
    const set = find('StatefulSet', 'pyodide-mcp');
    const pod = podSpecOf(set);
    const server = pod.containers.find((c) => c.name === 'pyodide-mcp');
    assert.ok(server);
    const port = server.ports?.find((p) => p.name === 'mcp');
    assert.equal(port?.containerPort, 8931);
    const portOk = (value: string | number | undefined) => value === 'mcp' || value === 8931;
    // Startup and readiness on /healthz (ready once the pool is up; 503 while draining takes it out of rotation).
    for (const probe of [server.startupProbe, server.readinessProbe]) {
      assert.equal(probe?.httpGet?.path, '/healthz');
      assert.ok(portOk(probe?.httpGet?.port));
    }
    // Liveness must not read /healthz: its 503 while draining would restart the pod mid-drain.
    assert.ok(server.livenessProbe, 'a liveness probe');
    assert.notEqual(server.livenessProbe.httpGet?.path, '/healthz');

    const env = new Map((server.env ?? []).map((e) => [e.name, e]));
    // Every PYODIDE_MCP_* variable is a flag's env twin (a misspelled one would be ignored by the server).
    const twins = new Set(Object.keys(FLAGS).map(envName));
    for (const name of env.keys()) if (name.startsWith('PYODIDE_MCP_')) assert.ok(twins.has(name), `${name} is a flag's env twin`);
    // The instance id is the pod's name: the prefix of its session ids and its server name in haproxy.cfg.
    assert.equal(env.get('PYODIDE_MCP_INSTANCE_ID')?.valueFrom?.fieldRef?.fieldPath, 'metadata.name');
    assert.ok(env.get('PYODIDE_MCP_AUTH_TOKEN') ?? env.get('PYODIDE_MCP_AUTH_TOKEN_FILE'), 'a token (a non-loopback --http needs one)');
    // SIGTERM drains for --drain-grace, then the process saves state and exits: before Kubernetes kills it.
    const grace = Number(env.get('PYODIDE_MCP_DRAIN_GRACE')?.value ?? FLAGS['drain-grace'].default);
    assert.ok((pod.terminationGracePeriodSeconds ?? 30) > grace, `terminationGracePeriodSeconds > --drain-grace ${grace}`);
    // The server's memory budget (checked at its start) fits under the container's limit.
    const budget = Number(env.get('PYODIDE_MCP_MAX_TOTAL_MEMORY_MB')?.value);
    assert.ok(budget > 0 && budget <= megabytes(server.resources!.limits!.memory!), `budget ${budget} MB under the limit`);

    // What it writes goes to mounts: the shared state volume, the cache and /tmp (the root file system is read-only).
    const mounts = new Map((server.volumeMounts ?? []).map((m) => [m.mountPath, m.name]));
    const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
    const containerfile = readFileSync(join(DEPLOY, 'Containerfile'), 'utf8');
    const imageEnv = (name: string) => new RegExp(`\\b${name}=(\\S+)`).exec(containerfile)?.[1];
    const stateDir = imageEnv('PYODIDE_MCP_STATE_DIR');
    const cacheDir = imageEnv('XDG_CACHE_HOME');
    assert.ok(stateDir && cacheDir, 'the Containerfile sets the state and cache directories');
    const stateMount = [...mounts.keys()].find((path) => stateDir.startsWith(`${path}/`));
    assert.ok(stateMount, `${stateDir} is on a mount`);
    const claim = volumes.get(mounts.get(stateMount)!)?.persistentVolumeClaim?.claimName;
    const pvc = find('PersistentVolumeClaim', claim ?? '');
    assert.deepEqual((pvc.spec as { accessModes: string[] }).accessModes, ['ReadWriteMany'], 'one state volume shared by all');
    assert.ok(mounts.has(cacheDir), `${cacheDir} is a mount`);
    assert.ok(mounts.has('/tmp'), '/tmp is a mount');
  });

  it('egress is denied; ingress only from the proxy; the Service, the PDB and the proxy select what they should', () => {
    const set = find('StatefulSet', 'pyodide-mcp');
    const labels = podLabelsOf(set);
    const policy = find('NetworkPolicy', 'pyodide-mcp').spec as {
      podSelector: { matchLabels: Record<string, string> };
      policyTypes: string[];
      egress?: unknown[];
      ingress?: { from: { podSelector?: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[];
    };
    assert.ok(selects(policy.podSelector.matchLabels, labels), 'the policy selects the instances');
    assert.ok(policy.policyTypes.includes('Egress'), 'the policy governs egress');
    assert.deepEqual(policy.egress ?? [], [], 'no egress rule: all egress denied');
    const proxy = find('Deployment', 'pyodide-mcp-proxy');
    const proxyLabels = podLabelsOf(proxy);
    assert.ok(policy.policyTypes.includes('Ingress'));
    for (const rule of policy.ingress ?? []) {
      for (const peer of rule.from)
        assert.ok(peer.podSelector && selects(peer.podSelector.matchLabels, proxyLabels), 'ingress from the proxy only');
      assert.deepEqual(
        rule.ports.map((p) => p.port),
        [8931],
      );
    }

    const service = find('Service', (set.spec as { serviceName: string }).serviceName).spec as {
      clusterIP: string;
      selector: Record<string, string>;
    };
    assert.equal(service.clusterIP, 'None', 'headless: a stable name per instance');
    assert.ok(selects(service.selector, labels));
    const pdb = find('PodDisruptionBudget', 'pyodide-mcp').spec as {
      maxUnavailable: number;
      selector: { matchLabels: Record<string, string> };
    };
    assert.ok(selects(pdb.selector.matchLabels, labels));
    assert.equal(pdb.maxUnavailable, 1);
  });

  it('the proxy knows every replica, under the names haproxy.cfg routes to', () => {
    const set = find('StatefulSet', 'pyodide-mcp');
    const replicas = (set.spec as { replicas: number }).replicas;
    const proxy = podSpecOf(find('Deployment', 'pyodide-mcp-proxy')).containers[0]!;
    const env = new Map((proxy.env ?? []).map((e) => [e.name, e.value]));
    const config = readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8');
    for (const backend of ['mcp_sessions', 'mcp_new']) {
      const section = config.split(/^backend /m).find((s) => s.startsWith(backend));
      assert.ok(section, `backend ${backend}`);
      const servers = [...section.matchAll(/^\s*server (\S+) "\$\{(\w+)\}"/gm)].map((m) => [m[1], m[2]]);
      assert.equal(servers.length, replicas, `${backend}: a server per replica`);
      servers.forEach(([name, variable], i) => {
        assert.equal(name, `${set.metadata.name}-${i}`, 'server name = pod name = --instance-id');
        assert.equal(env.get(variable!), `${set.metadata.name}-${i}.${(set.spec as { serviceName: string }).serviceName}:8931`);
      });
    }
  });
});
