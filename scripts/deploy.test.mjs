// The deploy files (Dockerfile, docker-compose.yml, deploy/nginx.conf) cannot be run here (no Docker): these
// checks keep them from rotting. Dockerfile: hadolint-style rules; compose: parsed, its services, volumes and
// environment checked against the server's own configuration; nginx: `nginx -t` on the real file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { serverEnv, serverNodeFlags } from './server-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');

/** Dockerfile instructions: continuation lines joined, comments dropped. */
function instructions(text) {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, op, args] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      return { op: op.toUpperCase(), args };
    });
}

/** The environment variables the server reads (keys of envSchema in server/src/config.ts). */
function knownEnv() {
  const source = read('server/src/config.ts');
  const body = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('export interface Config'));
  return new Set([...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
}

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const froms = steps.filter((s) => s.op === 'FROM');
  const lastFrom = steps.lastIndexOf(froms.at(-1));
  const final = steps.slice(lastFrom);

  it('is multi-stage, with pinned base images and named stages', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const [image, as, name] = from.args.split(/\s+/);
      expect(image, 'DL3006/DL3007: tag the image, never latest').toMatch(/:[\w.-]+$/);
      expect(image).not.toMatch(/:latest$/);
      expect(as?.toUpperCase()).toBe('AS');
      expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
    }
    const stages = new Set(froms.map((f) => f.args.split(/\s+/)[2]));
    for (const copy of steps.filter((s) => s.op === 'COPY' && s.args.includes('--from=')))
      expect(stages.has(/--from=(\S+)/.exec(copy.args)?.[1]), copy.args).toBe(true);
  });

  it('builds the native addon and dependencies in the build stage, not the runtime one', () => {
    const build = steps.slice(0, lastFrom);
    expect(build.some((s) => s.op === 'RUN' && /\bg\+\+/.test(s.args) && /\bmake\b/.test(s.args))).toBe(true);
    expect(build.some((s) => s.op === 'RUN' && /npm ci\b/.test(s.args))).toBe(true);
    expect(build.some((s) => s.op === 'COPY' && s.args.startsWith('native/'))).toBe(true);
    expect(final.some((s) => s.op === 'RUN' && /npm (ci|install)|g\+\+/.test(s.args))).toBe(false);
    expect(final.some((s) => s.op === 'COPY' && /--from=build \/app\/native\//.test(s.args))).toBe(true);
  });

  it('runs as a non-root user with HOST=0.0.0.0, a /data volume, a healthcheck and an exec-form CMD', () => {
    const user = final.filter((s) => s.op === 'USER').at(-1);
    expect(user, 'DL3002: the last USER is not root').toBeDefined();
    expect(user.args).not.toMatch(/^(root|0)(:|$)/);
    const env = final
      .filter((s) => s.op === 'ENV')
      .map((s) => s.args)
      .join(' ');
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(env).toMatch(/\bDATA_DIR=\/data\b/);
    expect(final.find((s) => s.op === 'VOLUME')?.args).toMatch(/\/data/);
    const health = final.find((s) => s.op === 'HEALTHCHECK');
    expect(health?.args).toMatch(/\/api\/health/);
    const cmd = final.find((s) => s.op === 'CMD');
    expect(() => JSON.parse(cmd.args), 'DL3025: CMD in JSON (exec) form').not.toThrow();
    expect(JSON.parse(cmd.args).at(-1)).toBe('server/dist/main.mjs');
    // The node flags `npm start` runs with (heap floors, --expose-gc for the resting collector), the same in the image.
    expect(JSON.parse(cmd.args).slice(1, -1)).toEqual(serverNodeFlags);
    const known = knownEnv();
    for (const [, name] of env.matchAll(/\b([A-Z_]+)=/g))
      if (name !== 'NODE_ENV' && !(name in serverEnv))
        expect(known.has(name), `${name} is read by the server`).toBe(true);
    // glibc's malloc settings `npm start` runs with (scripts/server-bundle.mjs), the same in the image.
    for (const [name, value] of Object.entries(serverEnv)) expect(env).toContain(`${name}=${value}`);
  });

  it('follows the usual hadolint rules', () => {
    for (const step of steps) {
      if (step.op === 'RUN') {
        expect(step.args, 'DL3003: use WORKDIR, not cd').not.toMatch(/(^|&&|;)\s*cd\s/);
        expect(step.args, 'DL3004: no sudo').not.toMatch(/\bsudo\b/);
        if (/apt-get install/.test(step.args)) {
          expect(step.args, 'DL3015').toMatch(/--no-install-recommends/);
          expect(step.args, 'DL3014').toMatch(/\s-y\s/);
          expect(step.args, 'DL3009: clean the apt lists').toMatch(/rm -rf \/var\/lib\/apt\/lists/);
        }
      }
      if (step.op === 'WORKDIR') expect(step.args, 'DL3000: absolute WORKDIR').toMatch(/^\//);
      expect(step.op, 'DL3020: COPY, not ADD').not.toBe('ADD');
      expect(step.op, 'DL4000: MAINTAINER is deprecated').not.toBe('MAINTAINER');
    }
    // What COPY takes from the context exists, and .dockerignore keeps node_modules and builds out.
    for (const copy of steps.filter((s) => s.op === 'COPY' && !s.args.includes('--from='))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) if (source !== '.') expect(existsSync(path.join(root, source)), source).toBe(true);
    }
    const ignore = read('.dockerignore');
    expect(ignore).toMatch(/node_modules/);
    expect(ignore).toMatch(/dist/);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true });
  const services = compose.services;

  it('has two app instances on one PostgreSQL database and one S3 service, behind a proxy', () => {
    for (const name of ['postgres', 'minio', 'app1', 'app2', 'nginx']) expect(services[name], name).toBeDefined();
    const apps = ['app1', 'app2'].map((name) => services[name]);
    for (const app of apps) {
      expect(app.build).toBe('.');
      expect(app.environment.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(app.environment.TRUST_PROXY).toBe('true');
      expect(app.depends_on.postgres.condition).toBe('service_healthy');
      // Each instance has a data volume of its own (spool files, generated keys never shared by accident).
      expect(app.volumes.some((v) => v.endsWith(':/data'))).toBe(true);
    }
    expect(apps[0].environment).toEqual(apps[1].environment);
    expect(apps[0].environment.ENCRYPTION_KEY, 'one key for every instance, required').toMatch(/:\?/);
    expect(apps[0].volumes).not.toEqual(apps[1].volumes);
    const grace = Number(/^(\d+)s$/.exec(apps[0].stop_grace_period)?.[1]);
    expect(grace, 'the container is killed only after SHUTDOWN_TIMEOUT').toBeGreaterThan(
      Number(apps[0].environment.SHUTDOWN_TIMEOUT),
    );
  });

  it('sets only variables the server reads, and declares every named volume and dependency', () => {
    const known = knownEnv();
    for (const name of Object.keys(services.app1.environment)) expect(known.has(name), name).toBe(true);
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.')) expect(existsSync(path.join(root, source)), `${name}: ${source}`).toBe(true);
        else expect(Object.keys(compose.volumes), `${name}: ${source}`).toContain(source);
      }
      const deps = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const dep of deps) expect(services[dep], `${name} depends on ${dep}`).toBeDefined();
      if (service.image) expect(service.image, `${name}: pinned image`).toMatch(/:[\w.-]+$/);
    }
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');

  it('balances over both instances, streams bodies, limits their size and forwards the client address', () => {
    expect(conf).toMatch(/server app1:8787/);
    expect(conf).toMatch(/server app2:8787/);
    expect(conf).toMatch(/client_max_body_size \d+[kmg]?;/);
    expect(conf).toMatch(/proxy_request_buffering off;/);
    expect(conf).toMatch(/proxy_buffering off;/);
    expect(conf).toMatch(/X-Forwarded-For \$proxy_add_x_forwarded_for/);
    // No method filter: WebDAV methods reach the app.
    expect(conf).not.toMatch(/limit_except/);
  });

  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  it.skipIf(!nginx)('passes `nginx -t` (skipped when nginx is not installed)', () => {
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'clipnest-nginx-t-'));
    try {
      const inner = conf.replace(/server app[12]:8787/g, 'server 127.0.0.1:8787');
      const file = path.join(prefix, 'nginx.conf');
      writeFileSync(
        file,
        `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nevents {}\nhttp {\n` +
          `client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;\n` +
          `fastcgi_temp_path ${prefix}/fastcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;\n` +
          `access_log off;\n${inner}\n}\n`,
      );
      // Port 80 may be taken or privileged: -t only parses and checks, it binds nothing.
      const result = spawnSync(nginx, ['-t', '-p', prefix, '-c', file], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/syntax is ok/);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
