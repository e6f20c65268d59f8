import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The programs the several-instances tests run, and the Debian packages that ship them. */
export const REDIS_SERVER = '/usr/bin/redis-server';
export const NGINX = '/usr/sbin/nginx';
// `nginx` rather than a flavour (`nginx-light` is gone from Debian 13).
const PACKAGES = { [REDIS_SERVER]: 'redis-server', [NGINX]: 'nginx' };

/**
 * Installs Debian's redis-server and nginx when one is missing, so a fresh CI machine (Node and
 * npm only, as root) needs nothing by hand, as the e2e suites do for Chromium
 * (apps/web/e2e/global-setup.ts). Both in one go: one `apt-get update` serves both test files.
 * `flock` lets test files running at once install one after the other (the second then finds
 * both there), and the dpkg lock timeout waits out anyone else's apt-get. Their postinst may
 * start the system services on their usual ports: the tests never use those ports.
 */
export function ensureDebianPrograms(): void {
  const missing = Object.keys(PACKAGES).filter((binary) => !existsSync(binary));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${missing.join(' and ')} missing: install with \`sudo apt-get install -y redis-server nginx\` (Debian) and run again.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = [
    `[ -x ${REDIS_SERVER} ] && [ -x ${NGINX} ] && exit 0`,
    'apt-get update -qq',
    `apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends ${Object.values(PACKAGES).join(' ')}`,
  ].join('\n');
  console.log('tests: installing Debian’s redis-server and nginx (apt-get)…');
  execFileSync('flock', ['/tmp/shortlinks-test-apt.lock', 'sh', '-ec', install], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 600_000,
  });
  for (const binary of missing) {
    if (!existsSync(binary))
      throw new Error(`apt-get installed ${PACKAGES[binary as keyof typeof PACKAGES]} but ${binary} is still missing`);
  }
}

export const CADDY = '/usr/bin/caddy';

/**
 * Installs Debian's caddy when it is missing (the branded domains' HTTPS test), as
 * {@link ensureDebianPrograms} installs redis-server and nginx, under the same lock.
 */
export function ensureCaddy(): void {
  if (existsSync(CADDY)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CADDY} missing: install with \`sudo apt-get install -y caddy\` (Debian) and run again.`);
  const install = [
    `[ -x ${CADDY} ] && exit 0`,
    'apt-get update -qq',
    'apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends caddy',
  ].join('\n');
  console.log('tests: installing Debian’s caddy (apt-get)…');
  execFileSync('flock', ['/tmp/shortlinks-test-apt.lock', 'sh', '-ec', install], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 600_000,
  });
  if (!existsSync(CADDY)) throw new Error(`apt-get installed caddy but ${CADDY} is still missing`);
}
