import dns2 from 'dns2';

const { Packet } = dns2;

/** A real DNS server on 127.0.0.1 (npm's dns2) whose TXT records a test sets. */
export interface TestDnsServer {
  /** `127.0.0.1:port`, for DNS_SERVERS. */
  address: string;
  /** The TXT values of a name (lower case, no trailing dot); an empty list: the name exists with no TXT record. */
  txt: Map<string, string[]>;
  /** Names answered SERVFAIL. */
  failing: Set<string>;
  close(): Promise<void>;
}

/** Starts the server: names it holds no record for answer NXDOMAIN. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const failing = new Set<string>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase().replace(/\.$/, '') ?? '';
      const values = txt.get(name);
      if (failing.has(name)) response.header.rcode = 2;
      else if (values === undefined) response.header.rcode = 3;
      else if (question?.type === Packet.TYPE.TXT) {
        for (const value of values) {
          response.answers.push(
            Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data: value }),
          );
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port ?? server.addresses().udp?.port;
  if (!port) throw new Error('the DNS server has no port');
  return { address: `127.0.0.1:${port}`, txt, failing, close: () => server.close() };
}
