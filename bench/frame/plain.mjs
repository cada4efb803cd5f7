// The peer of bench/frame: the decoder a developer writes from the specification's state table
// (section D: START, HEADER1, HEADER2, LENGTH, DATA, CHECKSUM), byte at a time, payload gathered in
// a preallocated 255-byte buffer and copied out per frame. A bad checksum sends it back to START,
// as the table says; it does not rescan the bytes of the false frame.
export function createPlainDecoder() {
  const START = 1;
  const HEADER1 = 2;
  const LENGTH = 4;
  const DATA = 5;
  const CHECKSUM = 6;
  const payload = Buffer.alloc(255);
  let state = START;
  let type = 0;
  let first = 0;
  let length = 0;
  let have = 0;
  let sum = 0;
  let dropped = 0;
  return {
    get dropped() {
      return dropped;
    },
    /** Feeds bytes; returns the frames they completed ({ type, payload }). */
    push(chunk) {
      const frames = [];
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        switch (state) {
          case START:
            if (b === 0x75 || b === 0xdc) {
              first = b;
              state = HEADER1;
            }
            break;
          case HEADER1:
            // HEADER2 ("header accepted") is passed straight through.
            if (first === 0x75 && b === 0x46) type = 1;
            else if (first === 0x75 && b === 0x45) type = 2;
            else if (first === 0xdc && b === 0xcd) type = 3;
            else type = 0;
            if (type) state = LENGTH;
            else if (b === 0x75 || b === 0xdc) first = b;
            else state = START;
            break;
          case LENGTH:
            length = b;
            have = 0;
            sum = b;
            state = length === 0 ? CHECKSUM : DATA;
            break;
          case DATA:
            payload[have++] = b;
            sum += b;
            if (have === length) state = CHECKSUM;
            break;
          case CHECKSUM:
            if ((sum & 0xff) === b) frames.push({ type, payload: Buffer.from(payload.subarray(0, length)) });
            else dropped++;
            state = START;
            break;
        }
      }
      return frames;
    },
  };
}
