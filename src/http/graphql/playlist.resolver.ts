import { Arg, Ctx, Int, Mutation, ObjectType, Field, ID, Resolver, registerEnumType } from 'type-graphql';
import { MAX_PLAYLIST_NAME, MAX_PLAYLIST_TRACKS, type PlaylistService, type SavedPlaylist } from '../../analysis/playlists.service';
import { requireAdmin } from '../../auth/api-keys';
import type { GraphQLContext } from './graphql.context';
import { MUTATION_COST } from './keys.resolver';

/** Where savePlaylist puts a playlist, with the service's values behind GraphQL's names. */
export enum PlaylistTarget {
  LIBRARY = 'library',
  SUBSONIC = 'subsonic',
}

registerEnumType(PlaylistTarget, {
  name: 'PlaylistTarget',
  description: 'Where a playlist is saved.',
  valuesConfig: {
    LIBRARY: { description: 'An M3U8 file in the music folder (LIBRARY_DIR), which players that watch it pick up.' },
    SUBSONIC: { description: 'A playlist of the Subsonic server (SOURCES=subsonic: Navidrome, Airsonic, gonic, Supysonic), owned by SUBSONIC_USER.' },
  },
});

@ObjectType({ description: 'A playlist saved: where, and how many of the tracks it holds.' })
export class SavedPlaylistResult {
  @Field(() => PlaylistTarget, { description: 'Where it was saved.' })
  target!: PlaylistTarget;

  @Field(() => String, { description: 'Its name.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'LIBRARY: the file written, relative to the music folder (<name>.m3u8).' })
  file!: string | null;

  @Field(() => ID, { nullable: true, description: 'SUBSONIC: the server’s id of the playlist.' })
  playlistId!: string | null;

  @Field(() => Int, { description: 'Tracks in the playlist.' })
  listed!: number;

  @Field(() => Int, { description: 'Tracks left out: not stored, not files of the music folder (LIBRARY), or songs the server does not have (SUBSONIC).' })
  skipped!: number;

  @Field(() => Boolean, { description: 'A playlist of that name was there and was replaced.' })
  replaced!: boolean;
}

function resultOf(saved: SavedPlaylist): SavedPlaylistResult {
  return {
    target: saved.target === 'library' ? PlaylistTarget.LIBRARY : PlaylistTarget.SUBSONIC,
    name: saved.name,
    file: saved.target === 'library' ? saved.file : null,
    playlistId: saved.target === 'subsonic' ? saved.playlistId : null,
    listed: saved.listed,
    skipped: saved.skipped,
    replaced: saved.replaced,
  };
}

/** Playlists saved from any list of tracks (similar, a path, recommendations, a browse page). Admin keys only. */
@Resolver()
export class PlaylistResolver {
  constructor(private readonly playlists: PlaylistService) {}

  @Mutation(() => SavedPlaylistResult, {
    description: `Saves stored tracks, in order, as a playlist: an M3U8 file in the music folder, or a playlist of the Subsonic server; the same name again replaces it. Up to ${MAX_PLAYLIST_TRACKS} trackKeys. Admin keys only.`,
    complexity: ({ childComplexity }) => MUTATION_COST + childComplexity,
  })
  async savePlaylist(
    @Arg('name', () => String, { description: `The playlist’s name: 1–${MAX_PLAYLIST_NAME} characters; in the music folder it names the file (no / \\ : * ? " < > |).` }) name: string,
    @Arg('trackKeys', () => [String], { description: 'The tracks, in the playlist’s order.' }) trackKeys: string[],
    @Arg('target', () => PlaylistTarget, { nullable: true, defaultValue: PlaylistTarget.LIBRARY, description: 'Where to save it (default LIBRARY).' }) target: PlaylistTarget | null,
    @Ctx() context: GraphQLContext,
  ): Promise<SavedPlaylistResult> {
    requireAdmin(context.principal, 'saving playlists');
    return resultOf(await this.playlists.save(name, trackKeys, target ?? PlaylistTarget.LIBRARY));
  }
}
