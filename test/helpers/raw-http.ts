import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  /** The request-target exactly as written on the request line (no normalisation, no escaping). */
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh connection (Connection: close), so a test
 * can send targets no HTTP client would (stray '%', raw non-ASCII, NUL). Reads the answer to the end.
 */
export function rawRequest(port: number, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const head = split < 0 ? raw : raw.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
      if (!Number.isFinite(status)) {
        reject(new Error(`no HTTP answer to ${request.method} ${JSON.stringify(request.target)}: ${JSON.stringify(raw.slice(0, 200))}`));
        return;
      }
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status, headers, body: split < 0 ? '' : Buffer.from(raw.slice(split + 4), 'latin1').toString('utf8') });
    });
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const head = [
      `${request.method} ${request.target} HTTP/1.1`,
      'Host: trackgraph.test',
      'Connection: close',
      ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      ...(body ? [`Content-Length: ${body.length}`] : []),
    ];
    socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), ...(body ? [body] : [])]));
  });
}
