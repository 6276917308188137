/**
 * Four corpora of music people made, from the soundtracks Debian's games ship, for `npm run
 * bench:descriptors`: music of other kinds than the benchmark corpora. The shipped formulas are
 * fitted on scores, games and arcade; adventure is kept out of every fit, to be scored
 * `--unseen`.
 *
 *   npm run bench:game-music -- <out dir>
 *
 *   <out dir>/scores  orchestral and film-like scores: every other track of wesnoth-1.16-music and
 *                     of warzone2100-music (32 tracks)
 *   <out dir>/games   game songs of many kinds (pop, rock, jazz, folk, world, electronic): every
 *                     track of hedgewars-data, extremetuxracer-data, frozen-bubble-data and
 *                     lincity-ng-data (39 tracks)
 *   <out dir>/arcade  arcade, racing and action-RPG game music (chiptune-like, rock,
 *                     electronic, ambient): every other track of supertux-data, every track of
 *                     neverball-data, xmoto-data and freedroidrpg-data's music (52 tracks)
 *   <out dir>/adventure  roguelike, adventure, puzzle and strategy game music (folk, world,
 *                     orchestral, synth-pop, ambient electronic): every track of hyperrogue-music
 *                     and planetblupi-music-ogg, every other track of drascula-music and of
 *                     singularity-music (49 tracks); no fit sees it
 *
 * Needs those Debian packages installed (`apt-get install` them; their copyright files give the
 * music GPL-2 or later, GPL-3 or later, CC BY-SA, or a BSD-like licence (drascula-music); nothing
 * is committed or bundled); the service never does.
 * A package that is not installed is skipped, saying so. The tracks are copied whole, as Ogg
 * Vorbis or Opus (the engine takes its analysis window from each, as it does in the product),
 * keeping their modification time, so the descriptor cache, which keys each clip by size and
 * time, stays valid when the folder is made again.
 * Which tracks: each package's Ogg and Opus files over 500 kB, sorted by path, every `step`-th
 * from the first; named `<prefix>-<file name>` with spaces made underscores.
 */
import { execFileSync } from 'node:child_process';
import { type Stats, copyFileSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface Source {
  pkg: string;
  dir: string;
  corpus: 'scores' | 'games' | 'arcade' | 'adventure';
  prefix: string;
  step: number;
}

const SOURCES: readonly Source[] = [
  { pkg: 'wesnoth-1.16-music', dir: '/usr/share/games/wesnoth/1.16/data/core/music', corpus: 'scores', prefix: 'wesnoth', step: 2 },
  { pkg: 'warzone2100-music', dir: '/usr/share/games/warzone2100/music', corpus: 'scores', prefix: 'warzone', step: 2 },
  { pkg: 'hedgewars-data', dir: '/usr/share/games/hedgewars/Data/Music', corpus: 'games', prefix: 'hedgewars', step: 1 },
  { pkg: 'extremetuxracer-data', dir: '/usr/share/games/etr/music', corpus: 'games', prefix: 'etr', step: 1 },
  { pkg: 'frozen-bubble-data', dir: '/usr/share/games/frozen-bubble/snd', corpus: 'games', prefix: 'frozenbubble', step: 1 },
  { pkg: 'lincity-ng-data', dir: '/usr/share/games/lincity-ng/music', corpus: 'games', prefix: 'lincity', step: 1 },
  { pkg: 'supertux-data', dir: '/usr/share/games/supertux2/music', corpus: 'arcade', prefix: 'supertux', step: 2 },
  { pkg: 'neverball-data', dir: '/usr/share/games/neverball/bgm', corpus: 'arcade', prefix: 'neverball', step: 1 },
  { pkg: 'xmoto-data', dir: '/usr/share/games/xmoto/Textures/Musics', corpus: 'arcade', prefix: 'xmoto', step: 1 },
  { pkg: 'freedroidrpg-data', dir: '/usr/share/freedroidrpg/data/sound/music', corpus: 'arcade', prefix: 'freedroid', step: 1 },
  { pkg: 'hyperrogue-music', dir: '/usr/share/hyperrogue/music', corpus: 'adventure', prefix: 'hyperrogue', step: 1 },
  { pkg: 'planetblupi-music-ogg', dir: '/usr/share/planetblupi/music', corpus: 'adventure', prefix: 'blupi', step: 1 },
  { pkg: 'drascula-music', dir: '/usr/share/scummvm/drascula/audio', corpus: 'adventure', prefix: 'drascula', step: 2 },
  { pkg: 'singularity-music', dir: '/usr/share/games/singularity/music', corpus: 'adventure', prefix: 'singularity', step: 2 },
];

const MIN_BYTES = 500_000;
const AUDIO = /\.(ogg|opus)$/i;

/** The audio files under `dir` worth a track (over 500 kB: the games' short sound effects are not music), by path, with their stats. */
function tracks(dir: string): Array<{ file: string; stats: Stats }> {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((file) => AUDIO.test(file))
    .map((file) => ({ file, stats: statSync(file) }))
    .filter(({ stats }) => stats.isFile() && stats.size > MIN_BYTES)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The installed version of a Debian package, if dpkg knows it. */
function version(pkg: string): string | undefined {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function main(): void {
  const [out] = process.argv.slice(2).filter((a) => a !== '--');
  const installed = SOURCES.filter((s) => existsSync(s.dir));
  if (!out || installed.length === 0) {
    console.error(`usage: npm run bench:game-music -- <out dir> (needs: apt-get install ${SOURCES.map((s) => s.pkg).join(' ')})`);
    process.exit(2);
  }
  const lines = ['# Soundtracks of Debian games (npm run bench:game-music)', ''];
  const counts = new Map<string, number>();
  for (const source of SOURCES) {
    if (!installed.includes(source)) {
      console.log(`${source.pkg}: not installed, skipped`);
      continue;
    }
    const target = join(out, source.corpus);
    mkdirSync(target, { recursive: true });
    const chosen = tracks(source.dir).filter((_, i) => i % source.step === 0);
    for (const { file, stats } of chosen) {
      const copy = join(target, `${source.prefix}-${basename(file).replace(/ /g, '_')}`);
      copyFileSync(file, copy);
      utimesSync(copy, stats.atime, stats.mtime);
    }
    counts.set(source.corpus, (counts.get(source.corpus) ?? 0) + chosen.length);
    const line = `${source.pkg} ${version(source.pkg) ?? '(version unknown)'}: ${chosen.length} tracks to ${source.corpus}/`;
    lines.push(`- ${line}`);
    console.log(line);
  }
  writeFileSync(join(out, 'README.md'), `${lines.join('\n')}\n`);
  console.log(`wrote ${[...counts].map(([corpus, n]) => `${corpus}: ${n} tracks`).join(', ')} to ${out}`);
}

main();
