/** An attached file as the listing (`GET .../Attachments`) and the finalise answer it. */
export interface Listing {
  Id: string;
  Parameters: Record<string, unknown>;
  SignedURL: string | null;
}

/** A telemetry-like file: compressible, and different for each call. */
export function telemetry(size: number): Buffer {
  const out = Buffer.alloc(size);
  const phase = Math.random() * 1000;
  for (let i = 0; i < size; i++) out[i] = (Math.sin((i + phase) / 40) * 100 + 128) & 0xff;
  return out;
}
