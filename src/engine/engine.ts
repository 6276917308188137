import type { AudioFeatures } from '../core/types';
import { loadEssentia } from './essentia';
import { featuresFromWindow, type WindowAudio } from './features';
import { analyzeRhythm } from './rhythm';
import { analyzeTonal } from './tonal';

export interface EngineOptions {
  windowSeconds: number;
}

export interface Engine {
  analyzeWindow(audio: WindowAudio): AudioFeatures;
}

export function createEngine(_options: EngineOptions): Engine {
  const essentia = loadEssentia();
  return { analyzeWindow: (audio) => featuresFromWindow(essentia, audio, { analyzeRhythm, analyzeTonal }) };
}
