// The table's sounds, made here with the Web Audio API (no sound files): a card played, your
// turn, a deal won or lost. Off until the player switches them on (prefs.js); the audio
// context is made on first use, after the click that switched sound on.
import { pref } from "./prefs.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** A short tone: `freq` Hz from `at` seconds for `length` seconds, with a soft attack. */
function tone(ctx, freq, at, length, { type = "sine", gain = 0.12 } = {}) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ctx.currentTime + at);
  amp.gain.setValueAtTime(0.0001, ctx.currentTime + at);
  amp.gain.exponentialRampToValueAtTime(gain, ctx.currentTime + at + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + at);
  osc.stop(ctx.currentTime + at + length + 0.02);
}

/** A card laid on the cloth: a burst of filtered noise, 60 ms. */
function snap(ctx) {
  const length = Math.floor(ctx.sampleRate * 0.06);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  const amp = ctx.createGain();
  amp.gain.value = 0.5;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  card: (ctx) => snap(ctx),
  turn: (ctx) => {
    tone(ctx, 660, 0, 0.18);
    tone(ctx, 880, 0.12, 0.25);
  },
  won: (ctx) => [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.09, 0.22, { type: "triangle" })),
  lost: (ctx) => [392, 330, 262].forEach((f, i) => tone(ctx, f, i * 0.12, 0.28, { type: "triangle", gain: 0.1 })),
};

/** Play `kind` ("card", "turn" — also a person sitting down at a waiting table —, "won", "lost") if the player has sound on. */
export function playSound(kind) {
  if (!pref("sound")) return;
  const ctx = audio();
  if (ctx && SOUNDS[kind]) SOUNDS[kind](ctx);
}
