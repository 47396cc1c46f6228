/**
 * One WebSocket text frame as a server sends it (RFC 6455 §5.2): FIN set, opcode 1 (text), no RSV
 * bits, unmasked, the payload length in 7, 7+16 or 7+64 bits, then the payload. The same bytes ws's
 * Sender writes for `ws.send(payload)` on a connection without permessage-deflate, built once so a
 * broadcast writes one buffer to every socket instead of framing it again per socket.
 */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 0x10000) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 0x1_0000_0000), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, header);
  return frame;
}
