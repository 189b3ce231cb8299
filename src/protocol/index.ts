// The protocol package: wire types shared by client/ and server/.
export * from './models.js';
export * from './wire.js';
export * from './stream.js';
