// The guest identity (id, name, secret token) kept by the browser.
const KEY = "belote.player";

export function getPlayer() {
  try {
    const raw = localStorage.getItem(KEY);
    const player = raw ? JSON.parse(raw) : null;
    return player && player.token && player.id ? player : null;
  } catch {
    return null;
  }
}

export function setPlayer(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
}

export function forgetPlayer() {
  localStorage.removeItem(KEY);
}
