/**
 * What keeps a test's server off the network whatever the defaults say: only the library is
 * searched unless a test names other sources, and the catalogues' base URLs point at a closed
 * local port unless a test points them at its fake (test/helpers/fake-http.ts). test-app.ts and
 * the scale helpers put it under every config they build; test/setup/environment.ts puts it in process.env,
 * which the server processes some tests spawn inherit.
 */
export const OFFLINE_ENV: Readonly<Record<string, string>> = {
  SOURCES: 'library',
  DEEZER_BASE_URL: 'http://127.0.0.1:9',
  MUSICBRAINZ_BASE_URL: 'http://127.0.0.1:9/ws/2',
  COVERART_BASE_URL: 'http://127.0.0.1:9',
};
