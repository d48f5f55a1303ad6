// sound.js - the turn's tone (Web Audio, no file). A browser keeps audio
// locked until the page is touched; after a reload the tone would then be
// silent with no word why, so a locked tone shows onLocked(true) (a hint
// to tap) and the first touch or key unlocks it (onLocked(false)).

export function sounds({ muted, onLocked }) {
  let audio = null;

  function context() {
    try {
      audio = audio || new AudioContext();
    } catch {
      audio = null; // no audio here
    }
    return audio;
  }

  function unlock() {
    const a = context();
    if (!a) return;
    if (a.state === "suspended") a.resume().then(() => onLocked(false), () => {});
    else onLocked(false);
  }
  addEventListener("pointerdown", unlock, true);
  addEventListener("keydown", unlock, true);

  return {
    unlock,
    // a short tone on the turn's start, unless muted
    cue() {
      if (muted()) return;
      const a = context();
      if (!a) return;
      if (a.state === "suspended") onLocked(true);
      try {
        const osc = a.createOscillator(), gain = a.createGain();
        osc.frequency.value = 660;
        gain.gain.setValueAtTime(0.08, a.currentTime);
        gain.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + 0.25);
        osc.connect(gain).connect(a.destination);
        osc.start();
        osc.stop(a.currentTime + 0.25);
      } catch { /* no audio here */ }
    },
  };
}
