import { EXTERNAL_METHOD, SIGNAL_METHOD, engineWithMethod, methodOf } from '../../../src/core/analysis-method';
import type { StoredAnalysis } from '../../../src/core/types';
import { DEFAULT_PATCHES, DEFAULT_RANK, MODELS_METHOD, modelsMethod } from '../../../src/engine/models/model-files';
import { trackAnalysisOf } from '../../../src/http/graphql/analysis.types';
import { featuresFromBytes } from '../../../measure/http/fake-engine';

describe('the method an analysis records', () => {
  it('is read back from the engine string it is written into', () => {
    expect(methodOf('trackgraph-engine/10')).toBe(SIGNAL_METHOD);
    expect(methodOf(engineWithMethod('trackgraph-engine/10', 'models:musicnn-msd-2'))).toBe('models:musicnn-msd-2');
    expect(engineWithMethod('trackgraph-engine/10', SIGNAL_METHOD)).toBe('trackgraph-engine/10');
    expect(methodOf('upstream:audioscape-2.1 models:x')).toBe(EXTERNAL_METHOD);
  });

  it('names how the models ran where that moves values: factorised at a rank, over fewer patches', () => {
    expect(modelsMethod(0, 0)).toBe('models:musicnn-msd-2');
    expect(modelsMethod(40, 0)).toBe('models:musicnn-msd-2/r40');
    expect(modelsMethod(32, 4)).toBe('models:musicnn-msd-2/r32/p4');
    expect(MODELS_METHOD).toBe(modelsMethod(DEFAULT_RANK, DEFAULT_PATCHES));
    expect(methodOf(engineWithMethod('trackgraph-engine/11', modelsMethod(32, 4)))).toBe('models:musicnn-msd-2/r32/p4');
  });

  it('is a GraphQL field of the analysis, beside the engine build', () => {
    const features = featuresFromBytes(new Uint8Array([1, 2, 3]));
    const stored = (engine: string): StoredAnalysis => ({
      trackKey: '0123456789abcdef',
      artist: 'A',
      trackName: 'B',
      features: { ...features, engine },
      analysedAt: new Date(0).toISOString(),
      source: 'library',
    });
    const withModels = trackAnalysisOf(stored('trackgraph-engine/10 models:musicnn-msd-2'));
    expect(withModels.method).toBe('models:musicnn-msd-2');
    expect(withModels.engine).toBe('trackgraph-engine/10 models:musicnn-msd-2');
    expect(trackAnalysisOf(stored('trackgraph-engine/10')).method).toBe(SIGNAL_METHOD);
  });
});
