// What the pages read again and again (the lobby's tables and friends, invitations, the
// announcement, a quick-play wait), and what a table does when its tab is shown again. A hidden
// tab's timers are slowed by the browser (Chrome: to once a minute after five minutes; a phone
// freezes the page outright), so whatever changed meanwhile — a friend's invitation, "your
// match is on", a link that died while the phone slept — would wait for the next round after
// the person came back. Each is done at once instead.

/** Call `act` each time the page comes back into view; the returned function stops it. */
export function whenShown(act) {
  const shown = () => {
    if (document.visibilityState === "visible") act();
  };
  document.addEventListener("visibilitychange", shown);
  return () => document.removeEventListener("visibilitychange", shown);
}

/** Call `read` every `ms` milliseconds and each time the page comes back into view; the
 * returned function stops both. */
export function every(read, ms) {
  const timer = setInterval(read, ms);
  const unwatch = whenShown(read);
  return () => {
    clearInterval(timer);
    unwatch();
  };
}
