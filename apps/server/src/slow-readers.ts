import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Ends an answer whose reader took fewer than `slowBytes` in the last `slowMs`, by closing its
 * connection: the export behind it stops (its stream is destroyed) and frees what it held. The
 * connection's idle timeout cannot do it: a reader taking a few bytes now and then keeps it from
 * firing. Bytes count as the socket takes them (`bytesWritten`), which stops growing once the
 * kernel's buffers and Node's are full and backpressure holds the rest: what it measures is the
 * reader.
 */
export function endSlowReader(request: FastifyRequest, reply: FastifyReply, { slowBytes, slowMs }: { slowBytes: number; slowMs: number }) {
  const socket = request.raw.socket;
  let sent = socket.bytesWritten;
  const timer = setInterval(() => {
    const now = socket.bytesWritten;
    if (now - sent < slowBytes) {
      request.log.info(
        { sentBytes: now - sent, slowBytes, slowMs },
        `ended an answer whose reader took fewer than ${slowBytes} bytes in ${slowMs / 1000} s`,
      );
      socket.destroy();
    }
    sent = now;
  }, slowMs);
  timer.unref();
  reply.raw.once('close', () => clearInterval(timer));
}
