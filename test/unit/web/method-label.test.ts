import { modelsMethod } from '../../../src/engine/models/model-files';
import { methodLabel } from '../../../web/src/track/method-label';

describe('the track page names how an analysis was made', () => {
  it('in words for the signal formulas and another server', () => {
    expect(methodLabel('signal')).toBe("the engine's signal formulas");
    expect(methodLabel('external')).toBe('another server');
  });

  it('with the models, how they ran where that moves values', () => {
    expect(methodLabel(modelsMethod(0, 0))).toBe('trained models (musicnn-msd-2)');
    expect(methodLabel(modelsMethod(40, 0))).toBe('trained models (musicnn-msd-2; convolutions factorised at rank 40)');
    expect(methodLabel(modelsMethod(32, 4))).toBe('trained models (musicnn-msd-2; convolutions factorised at rank 32; 4 patches per window)');
  });

  it('as it is when it is of no shape it knows', () => {
    expect(methodLabel('models:set/x9')).toBe('models:set/x9');
  });
});
