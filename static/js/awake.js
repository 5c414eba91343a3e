// The screen stays on while the player plays a match (the Screen Wake Lock API). A phone that
// dims and locks itself during the others' turns hides the page, which the browser then slows
// or freezes and whose link may die, and the player's turn runs out on the clock. The lock is
// held only while the page is in view and the player sits in a match being played; the browser
// lets go of it whenever the tab is hidden, so it is asked for again on the way back. Where
// the API is missing or refuses (an older browser, a battery saver), nothing else changes.
import { whenShown } from "./poll.js";

/** `set(on)`: whether the screen should stay on now; `stop()`: for good (the page is left). */
export function screenAwake() {
  let wanted = false;
  let held = null; // the WakeLockSentinel while the browser holds it
  let asking = false;

  async function take() {
    if (!wanted || held || asking || !navigator.wakeLock || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const sentinel = await navigator.wakeLock.request("screen");
      sentinel.addEventListener("release", () => {
        if (held === sentinel) held = null; // the tab was hidden: taken again when shown
      });
      held = sentinel;
      if (!wanted) letGo(); // the match ended while the browser was asked
    } catch {
      // refused (not allowed here, battery saver): the screen behaves as the device says
    } finally {
      asking = false;
    }
  }

  function letGo() {
    const sentinel = held;
    held = null;
    if (sentinel) sentinel.release().catch(() => {});
  }

  const unwatch = whenShown(take);
  return {
    set(on) {
      wanted = on;
      if (on) take();
      else letGo();
    },
    stop() {
      wanted = false;
      letGo();
      unwatch();
    },
  };
}
