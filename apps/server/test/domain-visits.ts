import { request } from 'node:http';
import type { TestDnsServer } from './dns-server.ts';
import type { TestAccount, TestServer } from './harness.ts';

export interface Visit {
  status: number;
  location: string | undefined;
  body: string;
}

/** A visit of `path` on `server` with this Host header (fetch cannot set one). */
export function visitHost(server: TestServer, host: string, path: string): Promise<Visit> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, body }));
    });
    sent.on('error', reject);
    sent.setTimeout(5000, () => sent.destroy(new Error('the visit took too long')));
    sent.end();
  });
}

/** Adds `name` to the account, publishes its record on `dns` and verifies it; the domain's id. */
export async function verifiedDomain(account: TestAccount, dns: TestDnsServer, name: string): Promise<string> {
  const added = await account.call('POST', '/domains', { name });
  if (added.status !== 201) throw new Error(`adding ${name}: ${added.status} ${JSON.stringify(added.body)}`);
  dns.txt.set(added.body.verification.name, [added.body.verification.value]);
  const verified = await account.call('POST', `/domains/${added.body.id}/verify`);
  if (!verified.body.verified) throw new Error(`verifying ${name}: ${JSON.stringify(verified.body)}`);
  return added.body.id as string;
}
