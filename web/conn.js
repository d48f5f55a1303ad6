// conn.js - the one WebSocket to the server (docs/PROTOCOL.md): opens it,
// parses frames, reconnects with a growing delay after a drop, and stops
// for good when told to (replaced by another window). No page state here:
// frames go to onFrame, the connection's state to onStatus.

// room() names the room the page is in or is going to (or null): the
// connection is opened at /room/CODE then, so a proxy in front of several
// servers can send it to the one that holds the room (docs/SCALING.md);
// one server takes every path alike.
//
// A stalled network (a laptop's Wi-Fi gone, a phone between cells) keeps a
// socket open without a word, and the page would freeze on its last frame:
// after `quiet` ms without a frame the page sends a ping, and when nothing
// comes within `answer` ms more it says so, lets that socket go and
// connects again (the page's resume takes its seat over).
export function connection({ onFrame, onStatus, room = () => null, quiet = 20000,
                             answer = 10000 }) {
  let ws = null, open = false, retry = 0, stopped = false;
  let heard = 0, pinged = 0;

  function connect() {
    const code = room();
    const path = code && /^[A-Z0-9]{6}$/.test(code) ? "/room/" + code : "/";
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    onStatus("connecting…");
    const sock = new WebSocket(url);
    ws = sock;
    sock.onopen = () => { open = true; retry = 0; heard = performance.now(); pinged = 0; };
    sock.onmessage = (e) => {
      if (sock !== ws) return; // one let go for a stall
      heard = performance.now();
      pinged = 0;
      let f;
      try { f = JSON.parse(e.data); } catch { return; }
      if (f && typeof f === "object" && f.type !== "pong") onFrame(f);
    };
    sock.onclose = () => {
      if (sock !== ws) return; // one let go for a stall: already replaced
      open = false;
      if (stopped) return;
      const delay = Math.min(8000, 500 * 2 ** retry++);
      onStatus("connection lost: trying again…");
      setTimeout(connect, delay);
    };
  }

  // every second: a ping after a quiet spell; a new socket when it goes
  // unanswered (the old one closed without waiting for its end)
  setInterval(() => {
    if (!open || stopped) return;
    const now = performance.now();
    if (pinged && now - pinged > answer) {
      const old = ws;
      ws = null;
      open = false;
      try { old.close(); } catch { /* closing already */ }
      onStatus("no answer from the server: connecting again…");
      connect();
    } else if (!pinged && now - heard > quiet) {
      pinged = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }, 1000);

  return {
    start: connect,
    send(msg) { if (ws && open) ws.send(JSON.stringify(msg)); },
    get open() { return open; },
    stop() { stopped = true; },
  };
}
