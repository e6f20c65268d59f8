// The test DNS server lives in the shared harness, so the dashboard's and the extension's e2e start it too.
export { startDnsServer, type TestDnsServer } from '@shortlinks/testing/dns-server';
