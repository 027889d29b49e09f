// The live benchmark's baseline: a bare `ws` server that answers the same first message and, on POST /emit, sends
// every socket one events frame. No authentication, no database, no filtering: the floor for fan-out.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const server = createServer((req, res) => {
  if (req.url === '/emit' && req.method === 'POST') {
    const frame = JSON.stringify({
      t: 'events',
      list: [{ p: Date.now(), kind: 'case.changed', subject: null, data: {} }],
    });
    for (const ws of wss.clients) ws.send(frame);
    res.end('{"code":200}');
  } else res.end('ok');
});
const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false, maxPayload: 16 * 1024 });
wss.on('connection', (ws) => {
  ws.once('message', () => ws.send(JSON.stringify({ t: 'ready', position: 0 })));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
