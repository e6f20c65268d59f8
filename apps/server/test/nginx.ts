import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@shortlinks/db/embedded';
import { ensureDebianPrograms, NGINX } from './debian-packages.ts';
import { waitFor } from './processes.ts';

export interface TestNginx {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** The configuration it runs, as written (docs/scaling.md shows the same). */
  config: string;
  /** Its error log, for a failing test's message. */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The load balancer of docs/scaling.md in front of `upstreams` (loopback ports), as Shortlinks
 * wants one: the client's address passed on for TRUST_PROXY=1, keep-alive to the instances, and a
 * request retried on the other instance only when it cannot have reached the first (an error or
 * timeout, never `non_idempotent`: a create already sent is never sent twice). A refused
 * connection marks the instance down for 2 s. The test-only `X-Upstream` header tells which
 * instance answered (the last address when nginx tried two).
 */
export function loadBalancerConfig(dir: string, listenPort: number, upstreams: number[]): string {
  const servers = upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? 'user root root;  # CI runs as root: the worker may then use this temporary directory\n' : ''}events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream shortlinks {
${servers}
    keepalive 32;
  }

  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://shortlinks;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** A real nginx (Debian's, installed when missing) on a free loopback port, balancing over `upstreams`. */
export async function startNginx(upstreams: number[]): Promise<TestNginx> {
  ensureDebianPrograms();
  const dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-nginx-'));
  const port = await freePort();
  const config = loadBalancerConfig(dir, port, upstreams);
  const configFile = path.join(dir, 'nginx.conf');
  await writeFile(configFile, config);
  // `-e` keeps nginx from opening the packaged error log, `-p` makes the temp dir its prefix.
  const args = ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', configFile];
  execFileSync(NGINX, ['-t', '-q', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const child: ChildProcess = spawn(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const errors = () => readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output}${await errors()}`);
      return accepts(port);
    },
    15_000,
    `nginx on port ${port}`,
  );
  return {
    origin: `http://127.0.0.1:${port}`,
    config,
    errors,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether something accepts TCP connections on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
