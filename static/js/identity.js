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

// The name of the guest the server no longer knows (its token was refused, `bad_token`): the
// name form offers it, and asks for it to be saved again, until a name is saved.
let forgottenName = null;

export function setPlayer(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
  forgottenName = null;
}

/** Drop the identity; `guestName`: the server forgot this guest, whose name is offered again. */
export function forgetPlayer(guestName = null) {
  localStorage.removeItem(KEY);
  forgottenName = guestName;
}

/** The forgotten guest's name, while no identity has been stored since. */
export function forgottenGuestName() {
  return getPlayer() ? null : forgottenName;
}
