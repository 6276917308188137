import type { WindowAudio } from '../../src/engine/engine';
import { integratedLoudness } from '../../src/engine/loudness';
import { ANALYSIS_RATE } from '../../src/engine/window';

/**
 * A window's first and second half, each as the engine takes a window: its samples, its 100 ms
 * sub-blocks' powers, and the integrated loudness of those alone.
 */
export function windowHalves(audio: WindowAudio): [WindowAudio, WindowAudio] {
  const samples = Math.floor(audio.samples.length / 2);
  const blocks = Math.floor(audio.subBlockPowers.length / 2);
  const half = (first: boolean): WindowAudio => {
    const from = first ? 0 : audio.samples.length - samples;
    const blockFrom = first ? 0 : audio.subBlockPowers.length - blocks;
    const subBlockPowers = audio.subBlockPowers.slice(blockFrom, blockFrom + blocks);
    return {
      ...audio,
      samples: audio.samples.subarray(from, from + samples),
      offsetSeconds: audio.offsetSeconds + from / ANALYSIS_RATE,
      subBlockPowers,
      loudness: integratedLoudness(subBlockPowers),
    };
  };
  return [half(true), half(false)];
}
