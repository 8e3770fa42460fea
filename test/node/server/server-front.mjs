// A loopback HTTP front that passes every request on to `target` (the backend tests put it before
// a fixture server to fail, hold or count what reaches it).
import http from 'node:http';

/**
 * Start it: { url, close }. `intercept(req, body, res)` runs first for each request (its body read
 * whole): it may answer itself (resolve true) or wait before the request is passed on.
 */
export async function startFront(target, intercept = async () => false) {
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    if (await intercept(req, body, res)) return;
    const up = http.request(new URL(req.url, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}
