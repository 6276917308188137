import { Redis } from 'ioredis';
import { silentLogger } from '../../../src/core/logger';
import { SharedRedis } from '../../../src/ops/redis';
import { REDIS_URL, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { activeTimers, timersFallTo } from '../../helpers/timers';

/** Until `check` holds, or 5 s. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describeWith({ redis: true })("a process's shared Redis connections", () => {
  const opened: SharedRedis[] = [];
  let admin: Redis;
  const open = (name: string): SharedRedis => {
    const redis = new SharedRedis(REDIS_URL, silentLogger, name);
    opened.push(redis);
    return redis;
  };
  /** The connections Redis lists under `name`, with how many channels each is subscribed to. */
  const clientsNamed = async (name: string): Promise<Array<{ name: string; sub: number }>> =>
    ((await admin.call('CLIENT', 'LIST')) as string)
      .split('\n')
      .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=') as [string, string])))
      .filter((c) => c.name?.startsWith(`${name}:`))
      .map((c) => ({ name: c.name!, sub: Number(c.sub) }));

  beforeAll(() => {
    admin = new Redis(REDIS_URL);
  });
  afterEach(() => {
    for (const redis of opened.splice(0)) redis.close();
  });
  afterAll(() => admin.disconnect());

  it('when a process listens on two channels, then one subscriber connection hears both and each message reaches its own listener', async () => {
    const name = uniqueName('shared');
    const [events, keys] = [`${name}:events`, `${name}:keys`];
    const listener = open(name);
    const heard: string[] = [];
    await listener.subscribe(events, (m) => heard.push(`events ${m}`));
    await listener.subscribe(keys, (m) => heard.push(`keys ${m}`));

    const publisher = open(uniqueName('publisher'));
    await publisher.connected();
    expect(await publisher.commands.publish(events, 'completed')).toBe(1);
    expect(await publisher.commands.publish(keys, 'revoked:k1')).toBe(1);
    await eventually(() => heard.length === 2);

    expect(heard).toEqual(['events completed', 'keys revoked:k1']);
    expect((await clientsNamed(name)).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: `${name}:commands`, sub: 0 },
      { name: `${name}:subscriber`, sub: 2 },
    ]);
  });

  it('when Redis cannot be reached, then a subscription stops waiting and a command fails at once', async () => {
    const away = new SharedRedis('redis://127.0.0.1:1', silentLogger, uniqueName('away'));
    opened.push(away);
    // Resolves (after its 2 s wait) rather than holding the start up.
    await expect(away.subscribe('anything', () => undefined)).resolves.toBeUndefined();
    await expect(away.commands.publish('anything', 'x')).rejects.toThrow();
  });

  it('when connections to a Redis that is away are closed, then no timer of theirs keeps the process up', async () => {
    const before = activeTimers();
    const away = new SharedRedis('redis://127.0.0.1:1', silentLogger, uniqueName('away'));
    await away.subscribe('anything', () => undefined);
    away.close();
    // ioredis waits disconnectTimeout for a socket that is already gone (its default: 2 s).
    expect(await timersFallTo(before, 600)).toBe(true);
  });

  it('when a channel is subscribed twice, then the second is refused rather than replacing the first listener', async () => {
    const redis = open(uniqueName('twice'));
    await redis.subscribe('twice', () => undefined);
    await expect(redis.subscribe('twice', () => undefined)).rejects.toThrow(/already subscribed/);
  });
});
