// Prometheus remote write 1.0 on the wire: a WriteRequest (prompb, the messages of Prometheus's
// prompb/remote.proto and types.proto that a sender needs) in protobuf, snappy block-compressed,
// POSTed with the protocol's headers. protobufjs encodes from the .proto text; snappyjs compresses
// (pure JavaScript: no native build, the block format Prometheus expects).
import protobuf from 'protobufjs';
import SnappyJS from 'snappyjs';

/** From prometheus/prompb (remote.proto, types.proto), the fields a writer sends; field numbers as there. */
export const REMOTE_WRITE_PROTO = `
syntax = "proto3";
package prometheus;
message WriteRequest {
  repeated TimeSeries timeseries = 1;
  reserved 2;
}
message TimeSeries {
  repeated Label labels = 1;
  repeated Sample samples = 2;
}
message Label {
  string name = 1;
  string value = 2;
}
message Sample {
  double value = 1;
  int64 timestamp = 2;
}
`;

export interface PromLabel {
  name: string;
  value: string;
}

export interface PromSeries {
  /** Sorted by name, `__name__` among them (the receiver expects them sorted). */
  labels: PromLabel[];
  samples: { value: number; timestamp: number }[];
}

const writeRequest = protobuf.parse(REMOTE_WRITE_PROTO).root.lookupType('prometheus.WriteRequest');

/** The request body: protobuf, then snappy's block format. */
export function encodeWriteRequest(timeseries: readonly PromSeries[]): Uint8Array {
  const message = writeRequest.fromObject({ timeseries });
  return SnappyJS.compress(writeRequest.encode(message).finish());
}

/** For tests: a body back to its series (what a receiver reads). */
export function decodeWriteRequest(body: Uint8Array): PromSeries[] {
  const message = writeRequest.decode(SnappyJS.uncompress(body));
  const object = writeRequest.toObject(message, { longs: Number, defaults: true }) as { timeseries?: PromSeries[] };
  return object.timeseries ?? [];
}

export const REMOTE_WRITE_HEADERS = {
  'content-type': 'application/x-protobuf',
  'content-encoding': 'snappy',
  'x-prometheus-remote-write-version': '0.1.0',
  'user-agent': 'kbbench',
} as const;
