// Sound effects, made on the spot with WebAudio (no audio files): a soft click for a card laid
// down, a rustle for a draw, a low buzz for a refusal, a rising chime for a card sent home and a
// little tune for a win. Off unless the player turns them on (Settings); the choice is kept in
// this browser.

const KEY = "sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  // A page may only start sound after a gesture; every sound here follows one.
  if (context.state === "suspended") context.resume();
  return context;
}

// One note: a wave at `frequency` Hz that starts `at` seconds from now and dies away.
function note(ctx, { frequency, at = 0, length = 0.12, type = "triangle", volume = 0.18, slide = null }) {
  const start = ctx.currentTime + at;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  if (slide) oscillator.frequency.exponentialRampToValueAtTime(slide, start + length);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

// A short burst of noise, for cards sliding off the stock.
function rustle(ctx, length = 0.09) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  gain.gain.value = 0.25;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  move: (ctx) => note(ctx, { frequency: 520, slide: 300, length: 0.06, type: "square", volume: 0.06 }),
  draw: (ctx) => rustle(ctx),
  home: (ctx) => {
    note(ctx, { frequency: 660, length: 0.1 });
    note(ctx, { frequency: 990, at: 0.07, length: 0.14 });
  },
  refused: (ctx) => note(ctx, { frequency: 140, length: 0.18, type: "sawtooth", volume: 0.08 }),
  win: (ctx) => [523, 659, 784, 1047].forEach((frequency, index) => note(ctx, { frequency, at: index * 0.13, length: 0.3 })),
};

// Plays a sound by name when sound is on; the number of sounds played is kept for the tests.
export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return false;
  const ctx = audio();
  if (!ctx) return false;
  SOUNDS[name](ctx);
  window.soundsPlayed = (window.soundsPlayed || 0) + 1;
  return true;
}
