import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CADDY, ensureCaddy } from './debian-packages.ts';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { verifiedDomain } from './domain-visits.ts';
import { createAccount, startTestServer, type TestServer } from './harness.ts';
import { freePort, waitFor } from './processes.ts';

/** The Caddyfile of docs/operations.md ("Branded domains over HTTPS"), on test ports, with Caddy's internal CA. */
export function caddyfile(dir: string, httpPort: number, httpsPort: number, upstream: string): string {
  return `{
  admin off
  http_port ${httpPort}
  https_port ${httpsPort}
  storage file_system ${path.join(dir, 'data')}
  # Tests only: certificates from Caddy's own CA, never installed in the system's trust store.
  local_certs
  skip_install_trust
  on_demand_tls {
    ask http://${upstream}/.well-known/shortlinks/tls-ask
  }
}

https:// {
  tls {
    on_demand
  }
  reverse_proxy ${upstream}
}
`;
}

let dns: TestDnsServer;
let server: TestServer;
let caddy: ChildProcess;
let dir: string;
let httpsPort: number;
let output = '';

beforeAll(async () => {
  ensureCaddy();
  dns = await startDnsServer();
  server = await startTestServer({ dnsServers: [dns.address] });
  dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-caddy-'));
  const httpPort = await freePort();
  httpsPort = await freePort();
  const config = path.join(dir, 'Caddyfile');
  await writeFile(config, caddyfile(dir, httpPort, httpsPort, new URL(server.origin).host));
  caddy = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  caddy.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await waitFor(
    () => {
      if (caddy.exitCode !== null) throw new Error(`caddy exited (${caddy.exitCode}): ${output}`);
      return accepts(httpsPort);
    },
    20_000,
    `caddy on port ${httpsPort}`,
  );
}, 700_000);

afterAll(async () => {
  if (caddy && caddy.exitCode === null && caddy.signalCode === null) {
    const exited = once(caddy, 'exit');
    caddy.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  await dns?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface TlsVisit {
  status: number;
  location: string | undefined;
  names: string;
}

/** A visit of `https://name/path` through Caddy, as a client resolving `name` to 127.0.0.1 makes it. */
function visitOverTls(name: string, pathname: string): Promise<TlsVisit> {
  return new Promise((resolve, reject) => {
    const sent = request(
      // Caddy's internal CA is not trusted here: the certificate's names are checked below instead.
      { host: '127.0.0.1', port: httpsPort, servername: name, path: pathname, headers: { host: name }, rejectUnauthorized: false },
      (response) => {
        const certificate = (response.socket as import('node:tls').TLSSocket).getPeerCertificate();
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, names: certificate.subjectaltname ?? '' }),
        );
      },
    );
    sent.on('error', reject);
    sent.setTimeout(20_000, () => sent.destroy(new Error('the TLS visit took too long')));
    sent.end();
  });
}

describe('branded domains behind Caddy with on-demand TLS', () => {
  test('a verified domain gets a certificate and redirects; an unverified one gets none', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    await verifiedDomain(alice, dns, 'go.acme.example');
    const link = await alice.call('POST', '/links', {
      title: 'Launch',
      destination_url: 'https://example.com/launch',
      slug: 'launch',
      domain: 'go.acme.example',
    });
    expect(link.status).toBe(201);

    const visit = await visitOverTls('go.acme.example', '/launch');
    expect(visit.names).toContain('DNS:go.acme.example');
    expect(visit).toMatchObject({ status: 302, location: 'https://example.com/launch' });

    await alice.call('POST', '/domains', { name: 'pending.acme.example' });
    await expect(visitOverTls('pending.acme.example', '/launch')).rejects.toThrow();
    await expect(visitOverTls('never-added.example', '/launch')).rejects.toThrow();
  }, 60_000);
});

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
