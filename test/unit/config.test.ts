import { ConfigError, loadConfig } from '../../src/config';

describe('HTTP client timeouts', () => {
  it('default to at most 30 s for a whole request and for an idle connection', () => {
    const c = loadConfig({});
    expect(c.HTTP_HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(c.HTTP_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(c.HTTP_KEEP_ALIVE_TIMEOUT_MS).toBe(5_000);
    expect(c.HTTP_IDLE_TIMEOUT_MS).toBe(30_000);
    expect(c.HTTP_IDLE_TIMEOUT_MS).toBeGreaterThan(c.ANALYSIS_WAIT_MS);
  });

  it('lengthen the default idle timeout when requests may wait longer for an analysis', () => {
    expect(loadConfig({ ANALYSIS_WAIT_MS: '60000' }).HTTP_IDLE_TIMEOUT_MS).toBe(70_000);
    expect(loadConfig({ ANALYSIS_WAIT_MS: '60000', HTTP_IDLE_TIMEOUT_MS: '90000' }).HTTP_IDLE_TIMEOUT_MS).toBe(90_000);
  });

  it.each([
    [{ HTTP_IDLE_TIMEOUT_MS: '20000' }, /HTTP_IDLE_TIMEOUT_MS: must exceed ANALYSIS_WAIT_MS/],
    [{ HTTP_IDLE_TIMEOUT_MS: '25000', SOURCE_TIMEOUT_MS: '25000' }, /HTTP_IDLE_TIMEOUT_MS: must exceed/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '40000' }, /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/],
    [{ HTTP_REQUEST_TIMEOUT_MS: '50' }, /HTTP_REQUEST_TIMEOUT_MS/],
  ])('refuse %j at start, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('a fresh start', () => {
  it('searches the music folder, then Deezer’s public catalogue (no key), and logs readably on a terminal only', () => {
    const c = loadConfig({});
    expect(c.SOURCES).toEqual(['library', 'deezer']);
    expect(c.DEEZER_BASE_URL).toBe('https://api.deezer.com');
    expect(c.LOG_FORMAT).toBe('auto');
    expect(loadConfig({ SOURCES: 'library' }).SOURCES).toEqual(['library']);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('a Subsonic server as a source (SOURCES=subsonic)', () => {
  const server = { SOURCES: 'library,subsonic', SUBSONIC_URL: 'http://navidrome:4533', SUBSONIC_USER: 'dj', SUBSONIC_PASSWORD: 'sëcret pass' };

  it('takes the server\'s address, forgiving a trailing slash or /rest', () => {
    expect(loadConfig(server)).toMatchObject({ SOURCES: ['library', 'subsonic'], SUBSONIC_URL: 'http://navidrome:4533', SUBSONIC_USER: 'dj', SUBSONIC_PASSWORD: 'sëcret pass' });
    expect(loadConfig({ ...server, SUBSONIC_URL: 'https://music.example/navidrome/rest/' }).SUBSONIC_URL).toBe('https://music.example/navidrome');
  });

  it.each([
    [{ SUBSONIC_URL: undefined }, /SUBSONIC_URL: required when SOURCES includes subsonic/],
    [{ SUBSONIC_USER: undefined }, /SUBSONIC_USER: required when SOURCES includes subsonic/],
    [{ SUBSONIC_PASSWORD: undefined }, /SUBSONIC_PASSWORD: required when SOURCES includes subsonic/],
    [{ SUBSONIC_URL: 'ftp://navidrome' }, /SUBSONIC_URL: must be an http\(s\) URL/],
    [{ SUBSONIC_URL: 'http://dj:hunter2@navidrome:4533' }, /SUBSONIC_URL: must not carry credentials: set SUBSONIC_USER and SUBSONIC_PASSWORD/],
    [{ SUBSONIC_URL: 'http://navidrome:4533/?u=dj&p=hunter2' }, /SUBSONIC_URL: must not carry a query/],
  ])('refuses %j at start, naming the variable and never echoing a credential', (change, message) => {
    const env = { ...server, ...change } as Record<string, string | undefined>;
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).not.toThrow(/hunter2/);
  });
});
