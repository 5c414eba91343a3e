// One room's WebSocket: hello with the seat token and the last version seen, gapless versions,
// commands answered by ack/error (matched by id), and reconnection by itself with backoff.
//
// A network can die without closing the socket (a laptop lid, a lost Wi-Fi): the browser then
// keeps the socket "open" and our frames vanish. So the connection pings every few seconds and
// takes a missing ack (or any command left unanswered) as a dead link, as it takes the
// browser's `offline` event: it drops the socket, rejects what was waiting, and reconnects.
// Only the ping is timed: the server answers it at once, while a command may wait in the room's
// queue behind a bot that thinks.
// In a cluster, a node that does not serve the room closes with 4307 and the owner's id: the
// client reconnects at once with ?node=<id>, which the proxy routes to that node
// (docs/protocol.md, routing); any other drop reconnects through the proxy to any node.
import { whenShown } from "./poll.js";
import { newEntropy } from "./shuffle.js";

const CLOSE_UNKNOWN_ROOM = 4404;
const CLOSE_ELSEWHERE = 4307;
const MAX_HOPS = 3; // redirects in a row followed at once; then the usual backoff
export const PING_EVERY_MS = 5000;
export const REPLY_WITHIN_MS = 4000;

export class RoomConnection {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.h = handlers; // { frame(frame), status(state), error(errorData), helloFailed?(error) }
    this.version = null; // the last version applied
    this.pending = new Map();
    this.nextId = 1;
    this.idPrefix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.closed = false;
    this.ws = null;
    this.ready = false; // open and the hello acknowledged: commands may be sent
    this.greeting = null; // the hello in flight ({ws, done}): commands given meanwhile wait for it
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
    // Offline only once the browser said so: `navigator.onLine` alone is not trusted (a machine
    // with only a loopback network may call itself offline and still reach its own server).
    this.offline = false;
    this.onOffline = () => {
      this.offline = true;
      this.dead("offline");
    };
    this.onOnline = () => {
      this.offline = false;
      if (!this.closed && !this.ready) this.reopen();
    };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    // Back in view after the phone slept or the person looked elsewhere, when the link may have
    // died unnoticed (the pings were held up with the page): ask at once whether it lives, or
    // reconnect now rather than at the end of a backoff.
    this.unwatchShown = whenShown(() => {
      if (this.closed || !this.online) return;
      if (this.ws) this.ping();
      else this.open();
    });
    this.node = null; // the node the last 4307 named
    this.hops = 0;
    this.open();
  }

  get online() {
    return !this.offline;
  }

  open() {
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.node ? `?node=${encodeURIComponent(this.node)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.code)}${query}`);
    this.ws = ws;
    this.ready = false;
    this.h.status(!this.online ? "offline" : this.attempt ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      const hello = {};
      if (this.token) hello.token = this.token;
      if (this.version !== null) hello.v = this.version;
      const greeting = this.rawSend("hello", hello, {}, true);
      this.greeting = { ws, done: greeting };
      greeting.then(
        () => {
          const wasRetry = this.attempt > 0;
          this.attempt = 0;
          this.ready = true;
          this.hops = 0;
          this.h.status(wasRetry ? "reconnected" : "open");
        },
        (error) => {
          if (error && error.code === "not_connected") return; // the link died: retrying
          if (this.h.helloFailed) this.h.helloFailed(error);
          else this.h.error(error);
        },
      );
    });
    ws.addEventListener("message", (event) => {
      if (ws === this.ws) this.receive(event.data);
    });
    ws.addEventListener("close", (event) => this.dropped(ws, event));
  }

  /** Waiting commands fail visibly: their callers show the refusal. */
  failPending(message) {
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject({ code: "not_connected", message });
    }
    this.pending.clear();
  }

  dropped(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    this.failPending("connection lost");
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
    this.retry();
  }

  retry() {
    this.attempt += 1;
    this.h.status(this.online ? "reconnecting" : "offline");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 5));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** The link is dead though the socket may look open: let go of it and reconnect. */
  dead(reason) {
    if (this.closed) return;
    const old = this.ws;
    this.ws = null;
    this.ready = false;
    if (old) {
      try {
        old.close(4000, reason);
      } catch {
        // closing a socket that is already gone
      }
    }
    this.failPending(reason);
    this.retry();
  }

  reopen() {
    this.attempt = Math.max(this.attempt, 1);
    if (this.ws) this.dead("reopen");
    else this.open();
  }

  ping() {
    if (this.closed || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.rawSend("ping", {}, {}, true).catch(() => {});
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return; // not a frame of the protocol (`null`, `3`)
    if (frame.t === "ack" || frame.t === "error") {
      const id = frame.d && frame.d.id;
      const waiter = id !== null && id !== undefined ? this.pending.get(String(id)) : null;
      if (waiter) {
        this.pending.delete(String(id));
        clearTimeout(waiter.timer);
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
          this.reopen();
          return;
        }
      }
      this.version = frame.v;
    }
    this.h.frame(frame);
  }

  rawSend(t, d, extra = {}, beforeHello = false) {
    // Ids are unique across page loads: the server refuses an id it has seen from this player.
    const id = `${this.idPrefix}.${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN || (!this.ready && !beforeHello) || !this.online) {
        reject({ code: "not_connected", message: "not connected" });
        return;
      }
      // A ping not answered in time: the link is dead.
      const timer =
        t === "ping"
          ? setTimeout(() => {
              if (this.pending.has(id) && ws === this.ws) this.dead("no reply");
            }, REPLY_WITHIN_MS)
          : null;
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ t, id, d, ...extra }));
    });
  }

  /** Open, and either greeted or greeting: a command given now is sent (maybe after the ack). */
  get usable() {
    return this.ready || this.joining;
  }

  /** The hello on the current socket is in flight. The server sends the room's snapshot before
   * the hello's ack, so the page shows the room (its Start button, its hand) a moment before
   * `ready`: a command given in that moment waits for the ack instead of failing. */
  get joining() {
    return Boolean(!this.ready && this.ws && this.greeting && this.greeting.ws === this.ws);
  }

  /** A command; acts carry the version they were based on so stale or doubled clicks are refused. */
  send(t, d = {}) {
    const now = () => this.rawSend(t, d, t === "act" && this.version !== null ? { v: this.version } : {});
    // Sent once the hello is answered; if it failed, rawSend refuses as "not connected".
    if (this.joining) return this.greeting.done.then(now, now);
    return now();
  }

  /** Send fresh entropy for the deal whose commitment is shown (docs/protocol.md §3); a
   *  refusal (the deal was drawn meanwhile, a seat was left) costs nothing and is not shown. */
  contribute(commitment) {
    // Sent as soon as the snapshot shows the commitment, which comes before the hello's ack:
    // the server reads this after the hello, so it need not wait for `ready`.
    return this.rawSend("entropy", { commitment, entropy: newEntropy() }, {}, true).catch(() => {});
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
    this.ready = false;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.unwatchShown();
    this.failPending("leaving");
    if (this.ws) this.ws.close(1000, "leaving");
  }
}
