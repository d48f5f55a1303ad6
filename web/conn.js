// conn.js - the one WebSocket to the server (docs/PROTOCOL.md): opens it,
// parses frames, reconnects with a growing delay after a drop, and stops
// for good when told to (replaced by another window). No page state here:
// frames go to onFrame, the connection's state to onStatus.

// room() names the room the page is in or is going to (or null): the
// connection is opened at /room/CODE then, so a proxy in front of several
// servers can send it to the one that holds the room (docs/SCALING.md);
// one server takes every path alike.
export function connection({ onFrame, onStatus, room = () => null }) {
  let ws = null, open = false, retry = 0, stopped = false;

  function connect() {
    const code = room();
    const path = code && /^[A-Z0-9]{6}$/.test(code) ? "/room/" + code : "/";
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    onStatus("connecting…");
    ws = new WebSocket(url);
    ws.onopen = () => { open = true; retry = 0; };
    ws.onmessage = (e) => {
      let f;
      try { f = JSON.parse(e.data); } catch { return; }
      if (f && typeof f === "object") onFrame(f);
    };
    ws.onclose = () => {
      open = false;
      if (stopped) return;
      const delay = Math.min(8000, 500 * 2 ** retry++);
      onStatus("connection lost: trying again…");
      setTimeout(connect, delay);
    };
  }

  return {
    start: connect,
    send(msg) { if (ws && open) ws.send(JSON.stringify(msg)); },
    get open() { return open; },
    stop() { stopped = true; },
  };
}
