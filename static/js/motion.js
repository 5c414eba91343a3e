// Motion at the table, cosmetic only: the page always shows the server's state at once, and
// these animations only make the change readable — cards dealt out from the middle, a played
// card travelling from its player to the trick, a finished trick gathered to its winner, the
// turned card (French) flipped face up. Nothing waits for them, and with the system's
// "reduce motion" setting there are none.
//
// Use: `const shot = motion.capture()` before the table is redrawn, `motion.play(shot, state)`
// after. Animations move the `translate`/`scale`/`opacity` properties, never `transform`, so a
// card's own lift (a playable card stands up) is left alone.

const EASE = "cubic-bezier(.2,.7,.3,1)";
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Move `el` from the centre of `from` (a rect) to where it stands. */
function fly(el, from, { duration = 260, delay = 0, scale = 0.85, opacity = 1 } = {}) {
  const a = centre(from);
  const b = centre(el.getBoundingClientRect());
  el.animate(
    [
      { translate: `${a.x - b.x}px ${a.y - b.y}px`, scale: String(scale), opacity },
      { translate: "0px 0px", scale: "1", opacity: 1 },
    ],
    { duration, delay, easing: EASE, fill: "backwards" },
  );
}

const cards = (root, selector) => [...root.querySelectorAll(selector)].filter((el) => el.dataset.card);

export function createMotion(root) {
  let overlay = null;
  let last = { number: null, tricks: null }; // the deal drawn last time, and its tricks taken
  function layer() {
    if (!overlay || !overlay.isConnected) {
      overlay = document.createElement("div");
      overlay.className = "motion-layer";
      overlay.setAttribute("aria-hidden", "true");
      document.body.append(overlay);
    }
    return overlay;
  }

  /** Copies of the trick's cards flying to the winner's plate, above the redrawn table. */
  function gather(trick, to, delay) {
    const target = centre(to);
    for (const { el, rect } of trick) {
      const copy = el.cloneNode(true);
      copy.classList.remove("winner");
      copy.classList.add("in-flight");
      for (const [name, value] of Object.entries({ left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` })) copy.style.setProperty(name, value);
      layer().append(copy);
      const from = centre(rect);
      const flight = copy.animate(
        [
          { translate: "0px 0px", scale: "1", opacity: 1 },
          { translate: `${target.x - from.x}px ${target.y - from.y}px`, scale: "0.4", opacity: 0.2 },
        ],
        { duration: 320, delay, easing: "ease-in", fill: "both" },
      );
      flight.onfinish = () => copy.remove();
      flight.oncancel = () => copy.remove();
    }
  }

  return {
    /** Where things stand before a redraw. */
    capture() {
      const rects = (selector) => new Map(cards(root, selector).map((el) => [el.dataset.card, el.getBoundingClientRect()]));
      const trick = cards(root, "#trick .card").map((el) => ({ el, rect: el.getBoundingClientRect(), card: el.dataset.card }));
      const seats = new Map([...root.querySelectorAll(".seat[data-seat]")].map((el) => [Number(el.dataset.seat), el.getBoundingClientRect()]));
      const turned = root.querySelector(".turned .card");
      return { hand: rects("#hand .card"), trick, seats, turned: turned ? turned.dataset.card : null, drawn: Boolean(root.querySelector("#table .felt")) };
    },

    /** Animate what changed between `shot` and the table now drawn for `state` ({deal, number}). */
    play(shot, { deal, number }) {
      const before = last;
      last = { number, tricks: deal ? deal.tricks.length : null };
      // Cards in flight belong to the trick they left: once it is gone (the deal's result is
      // shown, a new deal), they go too, so they never cover what the table shows next.
      if (overlay && !root.querySelector("#trick")) overlay.replaceChildren();
      if (reduced() || !shot.drawn || !deal) return; // the first drawing of a page is not news
      const felt = root.querySelector("#table .felt");
      if (!felt) return;
      const middle = felt.getBoundingClientRect();
      const deck = { left: middle.left + middle.width / 2 - 1, top: middle.top + middle.height / 2 - 1, width: 2, height: 2 };
      // Where the trick's cards rest, measured before any of them is set moving.
      const shown = cards(root, "#trick .card").map((el) => ({ el, rect: el.getBoundingClientRect() }));
      const seatRect = (seat) => {
        const el = root.querySelector(`.seat[data-seat="${seat}"]`);
        return el ? el.getBoundingClientRect() : shot.seats.get(seat);
      };

      // Dealt: cards that came into the hand (a new deal, or the rest of the cards after the
      // bidding), one after the other from the middle of the table.
      const fresh = cards(root, "#hand .card").filter((el) => !shot.hand.has(el.dataset.card));
      const played = new Set(shot.trick.map((x) => x.card));
      fresh.filter((el) => !played.has(el.dataset.card)).forEach((el, i) => fly(el, deck, { duration: 300, delay: i * 45, scale: 0.5, opacity: 0 }));
      if (before.number !== number) {
        [...root.querySelectorAll(".seat .backs .card")].forEach((el, i) => fly(el, deck, { duration: 260, delay: (i % 8) * 35, scale: 0.6, opacity: 0 }));
      }

      // Played: a card new in the trick comes from the hand it left, or from its player's plate.
      for (const el of cards(root, "#trick .card")) {
        if (played.has(el.dataset.card)) continue;
        const from = shot.hand.get(el.dataset.card) || seatRect(Number(el.dataset.seat));
        if (from) fly(el, from, { duration: 260, scale: 0.9 });
      }

      // Gathered: the trick just completed goes to its winner once its last card has landed.
      // (Not the deal's last trick: its result comes at once and takes the middle of the table.)
      if (deal.phase === "playing" && before.number === number && before.tricks !== null && deal.tricks.length > before.tricks) {
        const last = deal.tricks[deal.tricks.length - 1];
        const to = seatRect(last.winner);
        if (to && shown.length) {
          gather(shown, to, 700);
          for (const { el } of shown) el.animate([{ opacity: 1 }, { opacity: 1, offset: 0.7 }, { opacity: 0, offset: 0.72 }, { opacity: 0 }], { duration: 1400, easing: "linear" });
        }
      }

      // Turned (French): the card under the deck is shown face up once the hands are dealt.
      const turned = root.querySelector(".turned .card");
      if (turned && turned.dataset.card !== shot.turned) {
        turned.animate([{ rotate: "y 90deg", opacity: 0.4 }, { rotate: "y 0deg", opacity: 1 }], { duration: 320, delay: 250, easing: EASE, fill: "backwards" });
      }
    },
  };
}
