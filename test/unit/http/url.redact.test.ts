import { REDACTED, redactUrl } from '../../../src/http/url.redact';

describe('redactUrl', () => {
  it.each([
    ['/api/audio/search?track=Money', '/api/audio/search?track=Money'],
    ['/api/audio/search', '/api/audio/search'],
    ['/api/x?api_key=s', `/api/x?api_key=${REDACTED}`],
    ['/api/x?ApiKey=s&track=a', `/api/x?ApiKey=${REDACTED}&track=a`],
    ['/api/x?a=1&KEY=s&b=2', `/api/x?a=1&KEY=${REDACTED}&b=2`],
    ['/api/x?%74oken=s', `/api/x?%74oken=${REDACTED}`],
    ['/api/x?access%5ftoken=s', `/api/x?access%5ftoken=${REDACTED}`],
    ['/api/x?token%5B%5D=s', `/api/x?token%5B%5D=${REDACTED}`],
    ['/api/x?+key+=s', `/api/x?+key+=${REDACTED}`],
    ['/api/x?sig=a&sig=b', `/api/x?sig=${REDACTED}&sig=${REDACTED}`],
    ['/api/x?key=a=b=c', `/api/x?key=${REDACTED}`],
    ['/api/x?key=', `/api/x?key=${REDACTED}`],
    ['/api/x?token', '/api/x?token'],
    ['/api/x?keys=a,b&monkey=1&tokens=2', '/api/x?keys=a,b&monkey=1&tokens=2'],
    ['/api/x?%zz=1&key=%zz', `/api/x?%zz=1&key=${REDACTED}`],
    ['/api/x?&&key=s&&', `/api/x?&&key=${REDACTED}&&`],
  ])('%s is logged as %s', (target, logged) => {
    expect(redactUrl(target)).toBe(logged);
  });
});
