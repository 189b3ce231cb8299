// Running a callback once a streamed body ends, however it ends: read to the end, failed, or given
// up with return() (which, unlike a generator's finally, works before the first read).

export function releasing(stream: AsyncIterable<Uint8Array>, release: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = stream[Symbol.asyncIterator]();
      return {
        next: async () => {
          try {
            const result = await inner.next();
            if (result.done) release();
            return result;
          } catch (error) {
            release();
            throw error;
          }
        },
        return: async () => {
          release();
          await inner.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
