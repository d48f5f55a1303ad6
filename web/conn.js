// conn.js - the one WebSocket to the server (docs/PROTOCOL.md): opens it,
// parses frames, reconnects with a growing delay after a drop, and stops
// for good when told to (replaced by another window). No page state here:
// frames go to onFrame, the connection's state to onStatus.

export function connection({ onFrame, onStatus }) {
  let ws = null, open = false, retry = 0, stopped = false;

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
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
