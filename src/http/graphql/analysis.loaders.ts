import DataLoader from 'dataloader';
import { MAX_BATCH_KEYS, type AnalysisOutcome, type AnalysisService, type KeyStatus } from '../../analysis/analysis.service';
import { isClientTrackKey } from '../../core/track-key';
import type { StoredAnalysis } from '../../core/types';

export interface AnalysisHint {
  artist?: string;
  track?: string;
}

/**
 * Analysis lookups of one GraphQL request. Stored analyses of every field in the document are
 * read in one batch (AnalysisService.storedMany: one store read per MAX_BATCH_KEYS keys); only
 * keys the store lacks go on to the service's full path (metadata cache -> analyse).
 *
 * Anything the service would reject (a malformed key, too many keys) is handed to the service
 * unbatched, so its rules and messages stay the service's and one bad key never fails the batch.
 * Created per request and never shared: its cache must not outlive the request.
 */
export class AnalysisLoaders {
  private storedLoader: DataLoader<string, StoredAnalysis | null> | undefined;

  /** `requesterId`: the API key's id, handed to the service with every analysis this request asks for. */
  constructor(
    private readonly service: AnalysisService,
    private readonly requesterId?: string,
  ) {}

  /** What `analysis(trackKey)` answers: the stored analysis, or the service's outcome for a miss. */
  async analysis(trackKey: string, hint: AnalysisHint): Promise<AnalysisOutcome> {
    if (!isClientTrackKey(trackKey)) return this.service.analysis(trackKey, hint, this.requesterId);
    const stored = await this.stored().load(trackKey);
    return stored ? { status: 'done', analysis: stored } : this.service.analysis(trackKey, hint, this.requesterId);
  }

  /** Stored analyses of many keys, positional, null where a key has none. */
  async storedMany(trackKeys: readonly string[]): Promise<(StoredAnalysis | null)[]> {
    if (trackKeys.length > MAX_BATCH_KEYS || !trackKeys.every(isClientTrackKey)) return this.service.storedMany(trackKeys);
    const loader = this.stored();
    return Promise.all(trackKeys.map((k) => loader.load(k)));
  }

  /** State of a key without starting an analysis (outcome undefined when nothing is known of it). */
  async status(trackKey: string): Promise<KeyStatus> {
    if (!isClientTrackKey(trackKey)) return this.service.status(trackKey);
    const stored = await this.stored().load(trackKey);
    return stored ? { trackKey: stored.trackKey, outcome: { status: 'done', analysis: stored } } : this.service.status(trackKey);
  }

  private stored(): DataLoader<string, StoredAnalysis | null> {
    // Created on first use: a document without analyses pays nothing for it.
    this.storedLoader ??= new DataLoader((keys) => this.service.storedMany(keys), { maxBatchSize: MAX_BATCH_KEYS });
    return this.storedLoader;
  }
}
