import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sniffFormat } from '../../../src/engine/decode';
import { RATE, encodeWav, rng } from '../../helpers/audio-signals';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(__dirname, '../../fixtures/audio', name)));

describe('format recognition', () => {
  it('when the file is one of the supported containers, then its format is named from the first bytes', () => {
    expect(sniffFormat(fixture('chord-3s.mp3'))).toBe('mp3');
    expect(sniffFormat(fixture('chord-3s.ogg'))).toBe('oga');
    expect(sniffFormat(fixture('chord-3s.opus'))).toBe('opus');
    expect(sniffFormat(fixture('chord-3s.flac'))).toBe('flac');
    expect(sniffFormat(encodeWav([new Float32Array(100)], RATE))).toBe('wav');
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
    expect(sniffFormat(bytes)).toBeUndefined();
    expect(sniffFormat(fixture('garbage.mp3'))).toBeUndefined();
    expect(sniffFormat(new TextEncoder().encode('<html>not audio</html>'))).toBeUndefined();
  });
});
