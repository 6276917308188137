import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sniffImage } from '../../../src/artwork/image.sniff';

const image = (file: string): Uint8Array => new Uint8Array(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'images', file)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** An ISO BMFF ftyp box with these brands (major first), followed by a few bytes of other boxes. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const body = [major, '\0\0\0\0', ...compatible].join('');
  const size = 8 + body.length;
  return new Uint8Array([0, 0, 0, size, ...text('ftyp'), ...text(body), 0, 0, 0, 8, ...text('meta')]);
}

describe('sniffImage', () => {
  it.each([
    ['cover.png', 'image/png'],
    ['cover.jpg', 'image/jpeg'],
    ['cover.gif', 'image/gif'],
    ['cover.webp', 'image/webp'],
    ['cover-lossless.webp', 'image/webp'],
    ['cover-alpha.webp', 'image/webp'],
    ['cover.avif', 'image/avif'],
  ])('recognises %s, written by its encoder, as %s', (file, mime) => {
    expect(sniffImage(image(file))?.mime).toBe(mime);
  });

  it('recognises GIF87a and AVIF named only among the compatible brands', () => {
    expect(sniffImage(text('GIF87a\x08\x00\x08\x00'))?.mime).toBe('image/gif');
    expect(sniffImage(ftyp('mif1', 'miaf', 'avif'))?.mime).toBe('image/avif');
    expect(sniffImage(ftyp('avis', 'msf1'))?.mime).toBe('image/avif');
  });

  it.each([
    ['HTML', text('<!doctype html><script>alert(document.domain)</script>')],
    ['HTML after a byte-order mark', text('\ufeff<html><script>alert(1)</script>')],
    ['SVG (it can carry scripts)', text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ['XML', text('<?xml version="1.0"?><svg/>')],
    ['plain text', text('just some words')],
    ['nothing', new Uint8Array(0)],
    ['a cut PNG signature', image('cover.png').subarray(0, 7)],
    ['two bytes of JPEG', new Uint8Array([0xff, 0xd8])],
    ['GIF with another version', text('GIF90a')],
    ['a RIFF WAVE file', text('RIFF\x24\x00\x00\x00WAVEfmt ')],
    ['RIFF WEBP without a VP8 chunk', text('RIFF\x24\x00\x00\x00WEBPJUNK')],
    ['HEIC (ftyp without an AV1 brand)', ftyp('heic', 'mif1', 'heic')],
    ['an MP4 video', ftyp('isom', 'iso2', 'mp41')],
    ['an ftyp box larger than the data', new Uint8Array([0, 0, 1, 0, ...text('ftypavif'), 0, 0, 0, 0])],
    ['MP3 audio', text('ID3\x04\x00\x00\x00\x00\x00\x00')],
    ['a PDF', text('%PDF-1.7')],
  ])('refuses %s', (_case, bytes) => {
    expect(sniffImage(bytes)).toBeUndefined();
  });
});
