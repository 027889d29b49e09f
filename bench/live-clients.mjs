// The live benchmark's sockets, in a process of their own (10,000 sockets need their own open-files budget and must
// not share the event loop of the process measured). Driven by the parent over IPC:
//   {cmd:'open', url, origin, token, count} → {opened, ms}
//   {cmd:'arm', kind} → {first, last} (epoch ms) once every open socket received an event of that kind
//   {cmd:'keep', count} → {kept}: closes all but `count` sockets
import WebSocket from 'ws';

const now = () => performance.timeOrigin + performance.now();
let sockets = [];
let armed = null;

function openOne(url, origin, token) {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(url, { headers: { origin }, perMessageDeflate: false });
    const entry = { ws, got: 0 };
    ws.once('open', () => ws.send(JSON.stringify({ t: 'auth', token })));
    ws.once('error', fail);
    ws.once('close', (code, reason) => fail(new Error(`closed ${code} ${reason}`)));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString('utf8'));
      if (frame.t === 'ready') ok(entry);
      else if (frame.t === 'events' && armed && !entry.got && frame.list.some((e) => e.kind === armed.kind)) {
        entry.got = now();
        armed.left -= 1;
        if (armed.left === 0) {
          const times = sockets.map((s) => s.got);
          armed = null;
          process.send({ first: Math.min(...times), last: Math.max(...times) });
        }
      }
    });
  });
}

process.on('message', async (m) => {
  try {
    if (m.cmd === 'open') {
      const t0 = performance.now();
      // A few hundred handshakes at a time: the server's accept queue stays short.
      for (let i = 0; i < m.count; i += 200) {
        const batch = Array.from({ length: Math.min(200, m.count - i) }, () => openOne(m.url, m.origin, m.token));
        sockets.push(...(await Promise.all(batch)));
      }
      process.send({ opened: sockets.length, ms: performance.now() - t0 });
    } else if (m.cmd === 'arm') {
      for (const s of sockets) s.got = 0;
      armed = { kind: m.kind, left: sockets.length };
      process.send({ armed: true });
    } else if (m.cmd === 'keep') {
      const extra = sockets.splice(m.count);
      for (const s of extra) {
        s.ws.removeAllListeners('close');
        s.ws.close();
      }
      process.send({ kept: sockets.length });
    }
  } catch (err) {
    process.send({ error: String(err?.message ?? err) });
  }
});
