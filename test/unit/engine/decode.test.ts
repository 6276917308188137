import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sniffFormat } from '../../../src/engine/decode';
import { RATE, encodeWav, rng } from '../../../measure/audio/audio-signals';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(__dirname, '../../fixtures/audio', name)));

describe('format recognition', () => {
  it('when the file is one of the supported containers, then its format is named from the first bytes', () => {
    expect(sniffFormat(fixture('chord-3s.mp3'))).toBe('mp3');
    expect(sniffFormat(fixture('chord-3s.ogg'))).toBe('oga');
    expect(sniffFormat(fixture('chord-3s.opus'))).toBe('opus');
    expect(sniffFormat(fixture('chord-3s.flac'))).toBe('flac');
    expect(sniffFormat(encodeWav([new Float32Array(100)], RATE))).toBe('wav');
  });

  it.each([
    ['tone-aac.m4a', 'm4a'],
    ['tone-alac.m4a', 'm4a'],
    ['tone.aac', 'aac'],
    ['tone.aiff', 'aiff'],
    ['tone-sowt.aifc', 'aiff'],
    ['tone.wma', 'wma'],
    ['tone.wv', 'wv'],
    ['tone.tta', 'tta'],
    ['tone.caf', 'caf'],
    ['tone-alac.caf', 'caf'],
    ['tone-opus.webm', 'webm'],
    ['tone-vorbis.mka', 'webm'],
    ['tone-flac.oga', 'flac'],
    ['tone.mp2', 'mp3'],
    ['tone.ac3', 'ac3'],
    ['tone.eac3', 'eac3'],
    ['tone.dts', 'dts'],
  ])('when the file is %s, then its container is named %s from the first bytes', (name, format) => {
    expect(sniffFormat(fixture(name))).toBe(format);
  });

  it('when raw AAC or TTA follows an ID3v2 tag, then the tag is skipped', () => {
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20, ...new Array<number>(20).fill(0)]);
    for (const [name, format] of [['tone.aac', 'aac'], ['tone.tta', 'tta']] as const) {
      const bytes = fixture(name);
      const tagged = new Uint8Array(id3.length + bytes.length);
      tagged.set(id3);
      tagged.set(bytes, id3.length);
      expect(sniffFormat(tagged)).toBe(format);
    }
  });

  it('when an ISO BMFF file is a still image (AVIF), then it is not taken for M4A', () => {
    const avif = new Uint8Array(readFileSync(path.join(__dirname, '../../fixtures/images/cover.avif')));
    expect(sniffFormat(avif)).toBeUndefined();
  });

  it('when an MP3 has no ID3 tag, then its frame headers are enough', () => {
    const mp3 = fixture('chord-3s.mp3');
    const size = ((mp3[6]! & 0x7f) << 21) | ((mp3[7]! & 0x7f) << 14) | ((mp3[8]! & 0x7f) << 7) | (mp3[9]! & 0x7f);
    expect(sniffFormat(mp3.subarray(10 + size))).toBe('mp3');
  });

  it('when random bytes hold a lone MPEG-like header, then they are not taken for MP3', () => {
    const random = rng(8);
    const bytes = Uint8Array.from({ length: 200_000 }, () => Math.floor(random() * 256));
    bytes.set([0xff, 0xfb, 0x90, 0x64], 100);
    // and a lone ADTS header (sync, layer 0, 22.05 kHz, a 200-byte frame) is not taken for AAC
    bytes.set([0xff, 0xf1, 0x58, 0x40, 0x19, 0x1f, 0xfc], 3000);
    expect(sniffFormat(bytes)).toBeUndefined();
    // nor a lone AC-3 or DTS sync at the start
    for (const start of [fixture('tone.ac3'), fixture('tone.dts')]) {
      const lone = bytes.slice();
      lone.set(start.subarray(0, 16), 0);
      expect(sniffFormat(lone)).toBeUndefined();
    }
    expect(sniffFormat(fixture('garbage.mp3'))).toBeUndefined();
    expect(sniffFormat(new TextEncoder().encode('<html>not audio</html>'))).toBeUndefined();
  });
});
