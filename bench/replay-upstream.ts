/**
 * A recorded upstream for the proxy benchmark (bench/proxy.ts), run in a process of its own:
 * `node --import tsx bench/replay-upstream.ts <upstream origin>` prints `listening <port>` and
 * serves until killed.
 *
 * Every request is passed to the real service at <upstream origin> (sign-in, consent, the token
 * exchange), except a GET of a data path named in REPLAYED: the first such GET of a path and query
 * is passed on and its 200 answer recorded; every later GET of the same path and query is answered
 * from that recording without asking the service. So the proxy's work can be measured against an
 * upstream that costs almost nothing, which the sandbox of a second app server on the same two
 * cores is not: its own throughput would cap the proxy's. The recording is the real service's
 * answer for the same request, so the proxy parses and normalises what it does in production.
 * It checks no token: it is a benchmark's fixture, never a service.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";

const REPLAYED = /\/users\/self\/egvs$/;

const upstream = new URL(process.argv[2] ?? "");
if (!upstream.host) throw new Error("usage: replay-upstream.ts <upstream origin>");

interface Recording {
  status: number;
  contentType: string;
  body: Buffer;
}

const recordings = new Map<string, Recording>();

/** The request passed to the service as a browser would send it there (its own Host and Origin). */
function forward(req: IncomingMessage, res: ServerResponse, record?: (r: Recording) => void): void {
  const headers = { ...req.headers, host: upstream.host };
  if (headers.origin) headers.origin = upstream.origin;
  // A recording is answered to every client alike: asked uncompressed, so none has to inflate it.
  if (record) headers["accept-encoding"] = "identity";
  const out = httpRequest(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (answer) => {
      if (!record) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        const r = {
          status: answer.statusCode ?? 502,
          contentType: String(answer.headers["content-type"] ?? "application/json"),
          body: Buffer.concat(chunks),
        };
        if (r.status === 200) record(r);
        send(res, r);
      });
    },
  );
  out.on("error", (e) => {
    res.writeHead(502, { "Content-Type": "text/plain" });
    res.end(`replay-upstream: ${e.message}`);
  });
  req.pipe(out);
}

function send(res: ServerResponse, r: Recording): void {
  res.writeHead(r.status, { "Content-Type": r.contentType, "Content-Length": r.body.byteLength });
  res.end(r.body);
}

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  if (req.method !== "GET" || !REPLAYED.test(url.split("?")[0] ?? "")) return forward(req, res);
  const held = recordings.get(url);
  if (held) return send(res, held);
  forward(req, res, (r) => recordings.set(url, r));
});
// As the app servers: idle connections kept longer than any client keeps them.
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
