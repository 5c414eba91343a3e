// One room's WebSocket: hello with the seat token and the last version seen, gapless versions,
// commands answered by ack/error (matched by id), and reconnection by itself with backoff.
// In a cluster, a node that does not serve the room closes with 4307 and the owner's id: the
// client reconnects at once with ?node=<id>, which the proxy routes to that node
// (docs/protocol.md, routing); any other drop reconnects through the proxy to any node.
import { newEntropy } from "./shuffle.js";

const CLOSE_UNKNOWN_ROOM = 4404;
const CLOSE_ELSEWHERE = 4307;
const MAX_HOPS = 3; // redirects in a row followed at once; then the usual backoff

export class RoomConnection {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.h = handlers; // { frame(frame), status(state), error(errorData) }
    this.version = null; // the last version applied
    this.pending = new Map();
    this.nextId = 1;
    this.idPrefix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.closed = false;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.node = null; // the node the last 4307 named
    this.hops = 0;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.node ? `?node=${encodeURIComponent(this.node)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.code)}${query}`);
    this.ws = ws;
    this.h.status(this.attempt ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      const hello = {};
      if (this.token) hello.token = this.token;
      if (this.version !== null) hello.v = this.version;
      this.rawSend("hello", hello).then(
        () => {
          const wasRetry = this.attempt > 0;
          this.attempt = 0;
          this.hops = 0;
          this.h.status(wasRetry ? "reconnected" : "open");
        },
        (error) => {
          if (this.h.helloFailed) this.h.helloFailed(error);
          else this.h.error(error);
        },
      );
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.dropped(ws, event));
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.rawSend("ping", {}).catch(() => {});
    }, 25000);
  }

  dropped(ws, event) {
    if (ws !== this.ws) return;
    for (const { reject } of this.pending.values()) reject({ code: "network", message: "connection lost" });
    this.pending.clear();
    if (this.closed) return;
    if (event.code === CLOSE_UNKNOWN_ROOM) {
      this.closed = true;
      this.h.status("gone");
      return;
    }
    if (event.code === CLOSE_ELSEWHERE && event.reason && this.hops < MAX_HOPS) {
      this.hops += 1;
      this.node = event.reason;
      this.retryTimer = setTimeout(() => this.open(), 0); // open() shows (re)connecting
      return;
    }
    this.hops = 0;
    this.node = event.code === CLOSE_ELSEWHERE ? event.reason : null; // gone or moved: any node
    this.attempt += 1;
    this.h.status("reconnecting");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 5));
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.t === "ack" || frame.t === "error") {
      const id = frame.d && frame.d.id;
      const waiter = id !== null && id !== undefined ? this.pending.get(String(id)) : null;
      if (waiter) {
        this.pending.delete(String(id));
        if (frame.t === "ack") waiter.resolve(frame.d);
        else waiter.reject(frame.d);
      } else if (frame.t === "error") {
        this.h.error(frame.d);
      }
      return;
    }
    if (typeof frame.v === "number") {
      if (frame.t !== "snapshot" && this.version !== null) {
        if (frame.v <= this.version) return; // already applied
        if (frame.v > this.version + 1) {
          // A gap: reconnect from the last version we hold; the server replays or sends a snapshot.
          this.restart();
          return;
        }
      }
      this.version = frame.v;
    }
    this.h.frame(frame);
  }

  rawSend(t, d, extra = {}) {
    // Ids are unique across page loads: the server refuses an id it has seen from this player.
    const id = `${this.idPrefix}.${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "network", message: "not connected" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ t, id, d, ...extra }));
    });
  }

  /** A command; acts carry the version they were based on so stale or doubled clicks are refused. */
  send(t, d = {}) {
    const extra = t === "act" && this.version !== null ? { v: this.version } : {};
    return this.rawSend(t, d, extra);
  }

  /** Send fresh entropy for the deal whose commitment is shown (docs/protocol.md §3); a
   *  refusal (the deal was drawn meanwhile, a seat was left) costs nothing and is not shown. */
  contribute(commitment) {
    return this.rawSend("entropy", { commitment, entropy: newEntropy() }).catch(() => {});
  }

  restart() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
      this.dropped(old, { code: 1000 }); // no-op for a stale socket; keeps state consistent
    }
    this.attempt = Math.max(this.attempt, 1);
    clearTimeout(this.retryTimer);
    this.open();
  }

  /** For tests and for the network going away: drop the socket as a broken network would. */
  simulateDrop() {
    if (this.ws) this.ws.close(4000, "simulated drop");
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000, "leaving");
  }
}
