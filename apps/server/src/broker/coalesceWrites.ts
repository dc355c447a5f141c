/**
 * One socket write per batch of frames instead of one per frame. amqplib queues each channel's
 * frames and a multiplexer hands them to the socket one `write` at a time: at 15,000 publishes a
 * second that is 15,000 syscalls, and as many small TCP segments for the broker's reader to take
 * one by one. Corking the socket for each pass of the multiplexer turns a pass into one `writev`
 * (same bytes, same order). Reaches into amqplib's internals (`connection.muxer`), so it checks
 * what it finds and leaves an amqplib that looks different alone.
 */
import type { ChannelModel } from 'amqplib';

interface MuxLike {
  _readIncoming: () => void;
  out: { cork: () => void; uncork: () => void };
}

/** true when the connection's writes are coalesced from now on */
export function coalesceWrites(conn: ChannelModel): boolean {
  const mux = (conn as unknown as { connection?: { muxer?: Partial<MuxLike> } }).connection?.muxer;
  if (
    !mux ||
    typeof mux._readIncoming !== 'function' ||
    typeof mux.out?.cork !== 'function' ||
    typeof mux.out.uncork !== 'function'
  )
    return false;
  const pass = mux._readIncoming.bind(mux);
  const out = mux.out;
  mux._readIncoming = () => {
    out.cork();
    try {
      pass();
    } finally {
      out.uncork();
    }
  };
  return true;
}
