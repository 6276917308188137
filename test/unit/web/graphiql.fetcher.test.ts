import { endpoints, hasBearerToken } from '../../../web/src/graphiql/fetcher';

describe('GraphiQL’s fetcher', () => {
  it('sends operations to /graphql of the page’s own origin, and subscriptions over graphql-ws to the same path', () => {
    expect(endpoints({ protocol: 'http:', host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000' })).toEqual({
      url: 'http://127.0.0.1:4000/graphql',
      subscriptionUrl: 'ws://127.0.0.1:4000/graphql',
    });
    expect(endpoints({ protocol: 'https:', host: 'music.example.org', origin: 'https://music.example.org' }).subscriptionUrl).toBe('wss://music.example.org/graphql');
  });

  it.each([
    [{ Authorization: 'Bearer k-0123' }, true],
    [{ authorization: 'bearer k-0123' }, true],
    [{ Authorization: 'Bearer ' }, false],
    [{ Authorization: 'Bearer' }, false],
    [{ Authorization: 'k-0123' }, false],
    [{}, false],
    [undefined, false],
  ])('when the Headers tab holds %j, then a request is sent: %s', (headers, sent) => {
    expect(hasBearerToken(headers)).toBe(sent);
  });
});
