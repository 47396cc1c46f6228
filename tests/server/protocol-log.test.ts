import { describe, expect, it } from 'vitest';
import { ProtocolLog, type FailedFrame } from '../../server/sockets/protocol-log';

const frame = (n: number): FailedFrame => ({ channel: 'auction', reason: 'json', connectionId: n, userId: null });

describe('frames that fail the protocol are logged, bounded', () => {
  it('logs each with its reason up to the burst, counts what a flood leaves out, and says so on the next line', () => {
    let t = 0;
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const log = new ProtocolLog({ warn: ((fields: Record<string, unknown>, message: string) => lines.push({ fields, message })) as never }, () => t, { perSecond: 1, burst: 3 });
    for (let i = 0; i < 1_000; i++) log.failed(frame(i));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ fields: { frame: frame(0) }, message: 'socket frame failed the protocol' });
    t += 1_000;
    log.failed({ channel: 'user', reason: 'schema', connectionId: 7, userId: 3, type: 'GET_STATUS', issue: { path: 'data', message: 'x' } });
    expect(lines).toHaveLength(4);
    expect(lines[3].fields).toEqual({
      frame: { channel: 'user', reason: 'schema', connectionId: 7, userId: 3, type: 'GET_STATUS', issue: { path: 'data', message: 'x' } },
      suppressed: 997,
    });
    t += 1_000;
    log.failed(frame(1));
    expect(lines[4].fields).toEqual({ frame: frame(1) });
  });
});
