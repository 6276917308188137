/**
 * The audio formats the service indexes and analyses: each container the engine recognises from
 * a file's first bytes (src/engine/decode.ts), the codecs inside it that the installed decoders
 * read, and the file endings the library indexes. One list, so that what the library picks up
 * and what the engine decodes cannot drift apart.
 */
export const AUDIO_FORMATS = {
  // MPEG-1/2 audio: layer III, and layers I and II (.mp2) through the same decoder.
  mp3: { name: 'MP3', extensions: ['.mp3', '.mp2'] },
  oga: { name: 'Ogg Vorbis', extensions: ['.ogg', '.oga'] },
  opus: { name: 'Ogg Opus', extensions: ['.opus'] },
  flac: { name: 'FLAC', extensions: ['.flac'] },
  wav: { name: 'WAV', extensions: ['.wav', '.wave'] },
  m4a: { name: 'MP4/M4A', extensions: ['.m4a'] },
  aac: { name: 'AAC (ADTS)', extensions: ['.aac'] },
  aiff: { name: 'AIFF', extensions: ['.aif', '.aiff', '.aifc'] },
  wma: { name: 'WMA', extensions: ['.wma'] },
  wv: { name: 'WavPack', extensions: ['.wv'] },
  tta: { name: 'TTA', extensions: ['.tta'] },
  caf: { name: 'CAF', extensions: ['.caf'] },
  webm: { name: 'Matroska/WebM', extensions: ['.mka', '.webm'] },
  ac3: { name: 'AC-3', extensions: ['.ac3'] },
  eac3: { name: 'E-AC-3', extensions: ['.eac3', '.ec3'] },
  dts: { name: 'DTS', extensions: ['.dts'] },
} as const satisfies Record<string, { name: string; extensions: readonly string[] }>;

/** A container the engine decodes; the key is the decoder's name in audio-decode. */
export type AudioFormat = keyof typeof AUDIO_FORMATS;

/** File endings (lower case, with the dot) the library indexes. */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set(Object.values(AUDIO_FORMATS).flatMap((f) => f.extensions));

/** The formats by name, for messages: "MP3, Ogg Vorbis, …". */
export const AUDIO_FORMAT_NAMES: string = Object.values(AUDIO_FORMATS)
  .map((f) => f.name)
  .join(', ');
