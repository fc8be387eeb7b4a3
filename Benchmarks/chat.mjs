// Socket.IO load for chat-svc, with Node and Debian's `ws` (apt-get install node-ws).
//
//   node Benchmarks/chat.mjs fanout SOCKET_BASE REST_BASE ROOM_ID CLIENTS RATE SECONDS
//     CLIENTS websockets on /chats-ROOM_ID (SOCKET_BASE may name several servers, comma-separated:
//     the sockets are spread over them in turn); RATE messages/s POSTed for SECONDS; every message's
//     delay from just before its POST to its arrival at each socket. Prints delivered/expected,
//     p50, p99, max.
//   node Benchmarks/chat.mjs idle SOCKET_BASE ROOM_ID CLIENTS HOLD_SECONDS
//     CLIENTS websockets that connect and then only answer pings, held open HOLD_SECONDS; prints
//     "idle: N connected" once all are up and "idle: done" at the end (run.sh samples the server).
//
// Environment: HEADERS (JSON object of handshake headers: key, token or internal secret),
// POST_HEADERS (JSON object of the REST call's headers), NAMESPACE and POST_PATH (another
// room's namespace and message path, e.g. a workspace channel's: `/ws-channel-ID` and
// `/v1/workspaces/W/channels/ID/chats`).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let WebSocketImpl;
for (const p of ["ws", "/usr/share/nodejs/ws", "/usr/lib/nodejs/ws"]) {
  try { WebSocketImpl = require(p); break; } catch {}
}
if (!WebSocketImpl) { console.error("needs Node's ws module: apt-get install node-ws"); process.exit(2); }
const WebSocket = WebSocketImpl.WebSocket || WebSocketImpl;

const headers = JSON.parse(process.env.HEADERS || "{}");
const postHeaders = JSON.parse(process.env.POST_HEADERS || "{}");
const [mode, socketBases, ...rest] = process.argv.slice(2);
const bases = socketBases.split(",");
let opened = 0;

/// One Engine.IO/Socket.IO websocket on a namespace; resolves once the namespace CONNECT is answered.
function connect(namespace, onChat) {
  return new Promise((resolve, reject) => {
    const base = bases[opened++ % bases.length];
    const ws = new WebSocket(base.replace(/^http/, "ws") + "/socket.io/?EIO=4&transport=websocket", { headers });
    const prefix = "42" + namespace + ",";
    ws.on("error", reject);
    ws.on("message", (data) => {
      const text = data.toString();
      if (text === "2") { ws.send("3"); return; }
      if (text[0] === "0") { ws.send("40" + namespace + ","); return; }
      if (text.startsWith("40")) { resolve(ws); return; }
      if (text.startsWith("44")) { reject(new Error("refused: " + text)); return; }
      if (onChat && text.startsWith(prefix)) onChat(JSON.parse(text.slice(prefix.length))[1]);
    });
  });
}

/// Opens `count` sockets, at most `parallel` handshakes at a time.
async function openAll(count, parallel, make) {
  const sockets = [];
  let next = 0;
  async function worker() {
    while (next < count) { next++; sockets.push(await make()); }
  }
  await Promise.all(Array.from({ length: parallel }, worker));
  return sockets;
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;
}

if (mode === "fanout") {
  const [restBase, roomID, clients, rate, seconds] = rest;
  const namespace = process.env.NAMESPACE || "/chats-" + roomID;
  const postPath = process.env.POST_PATH || "/v1/chats/" + roomID;
  const sentAt = new Map();
  const delays = [];
  const sockets = await openAll(Number(clients), 50, () =>
    connect(namespace, (chat) => {
      const start = sentAt.get(chat.content);
      if (start !== undefined) delays.push(performance.now() - start);
    }),
  );
  console.log(`fanout: ${sockets.length} sockets on ${namespace}`);
  const total = Number(rate) * Number(seconds);
  let sent = 0, failed = 0;
  const begin = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      // Keep to the schedule: send what is due by now (timers drift under load).
      const due = Math.min(total, Math.floor(((performance.now() - begin) / 1000) * Number(rate)));
      while (sent < due) {
        const content = "m" + sent++;
        sentAt.set(content, performance.now());
        fetch(restBase + postPath, {
          method: "POST", headers: { ...postHeaders, "Content-Type": "application/json" }, body: JSON.stringify({ content }),
        }).then((r) => { if (r.status !== 200) failed++; return r.arrayBuffer(); }).catch(() => failed++);
      }
      if (sent >= total) resolve(); else setTimeout(tick, 1);
    };
    tick();
  });
  const expected = total * sockets.length;
  const deadline = performance.now() + 10_000;
  while (delays.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  delays.sort((a, b) => a - b);
  console.log(`fanout: ${total} messages at ${rate}/s (${failed} POSTs failed), delivered ${delays.length}/${expected}`);
  console.log(`fanout: POST→receipt p50 ${percentile(delays, 0.5).toFixed(1)} ms, p99 ${percentile(delays, 0.99).toFixed(1)} ms, max ${delays[delays.length - 1]?.toFixed(1)} ms`);
  for (const ws of sockets) ws.terminate();
  process.exit(delays.length === expected && failed === 0 ? 0 : 1);
} else if (mode === "idle") {
  const [roomID, clients, hold] = rest;
  const sockets = await openAll(Number(clients), 100, () => connect("/chats-" + roomID));
  console.log(`idle: ${sockets.length} connected`);
  await new Promise((r) => setTimeout(r, Number(hold) * 1000));
  const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  console.log(`idle: done, ${open} still open`);
  for (const ws of sockets) ws.terminate();
  process.exit(open === sockets.length ? 0 : 1);
} else {
  console.error("usage: chat.mjs fanout|idle ...");
  process.exit(2);
}
