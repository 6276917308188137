import { Query, Resolver } from 'type-graphql';
import type { SoundMapService } from '../../analysis/sound-map.service';
import { AppError } from '../../core/errors';
import { SoundMap } from './map.types';

/** Cost of soundMap: one answer of up to 5,000 points, kept by the server (computed in the background). */
export const SOUND_MAP_COST = 50;

/** The map of the library. Thin: the service computes and keeps the map; its answers change as analyses arrive. */
@Resolver(() => SoundMap)
export class SoundMapResolver {
  constructor(private readonly maps?: SoundMapService) {}

  @Query(() => SoundMap, {
    description:
      'The map of the library: every analysed track as a point of a 2-D projection of the sound embeddings (a sample of 5,000 in a larger library), with what a client colours it by. The first query waits for it; later ones get the kept map at once, `stale` while a newer one is computed.',
    complexity: SOUND_MAP_COST,
  })
  async soundMap(): Promise<SoundMap> {
    if (!this.maps) throw new AppError('SERVICE_UNAVAILABLE', 'the map of the library is not served here');
    const map = await this.maps.map();
    return { ...map, computedAt: new Date(map.computedAt) };
  }
}
