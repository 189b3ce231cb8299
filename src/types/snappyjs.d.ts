// snappyjs ships no types: the two functions kbbench calls (Uint8Array in, Uint8Array out).
declare module 'snappyjs' {
  const SnappyJS: {
    compress(uncompressed: Uint8Array): Uint8Array;
    uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
  };
  export default SnappyJS;
}
