// ingboard sim: sounds (WebAudio, no files): a click for a stone placed or a clock pressed, two
// falling tones for an alert, a short beep each second of the last ten of a player's time (as
// the board's buzzer cues), a chord at the end. Mutable (the sound button; remembered in
// localStorage). Every sound played is also listed in `window.simSounds` (name and page time),
// so a test can tell what was heard without speakers.
"use strict";
const Sound = (() => {
  let ctx = null;
  let muted = false;
  try { muted = localStorage.getItem("ingboard-sim-muted") === "1"; } catch (e) { /* private */ }
  window.simSounds = [];

  function tone(freq, start, dur, gain) {
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.type = "sine";
    o.frequency.value = freq;
    g.gain.setValueAtTime(gain, ctx.currentTime + start);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + dur);
    o.connect(g).connect(ctx.destination);
    o.start(ctx.currentTime + start);
    o.stop(ctx.currentTime + start + dur + 0.02);
  }

  const SOUNDS = {
    stone: [[1400, 0, 0.04, 0.25], [700, 0.01, 0.05, 0.15]],
    press: [[900, 0, 0.06, 0.2]],
    alert: [[660, 0, 0.18, 0.25], [440, 0.2, 0.25, 0.25]],
    time: [[1000, 0, 0.08, 0.2]],
    end: [[523, 0, 0.5, 0.15], [659, 0.05, 0.5, 0.15], [784, 0.1, 0.6, 0.15]],
  };

  function play(name) {
    if (muted) return;
    window.simSounds.push({ name, t: Math.round(performance.now()) });
    try {
      if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
      if (ctx.state === "suspended") ctx.resume();
      for (const [f, s, d, g] of SOUNDS[name]) tone(f, s, d, g);
    } catch (e) { /* no audio device: the list above still says what was played */ }
  }

  function setMuted(m) {
    muted = !!m;
    try { localStorage.setItem("ingboard-sim-muted", muted ? "1" : "0"); } catch (e) { /* */ }
  }

  return { play, setMuted, isMuted: () => muted };
})();
