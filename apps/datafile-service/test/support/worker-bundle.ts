import { join } from 'node:path';
import { bundleWorkerEntry } from '@pitwall/service-host/testing';

/** The service's pool worker bundled into `outdir` as the build bundles it; returns the bundle's absolute path. */
export function bundleShapeWorker(outdir: string): Promise<string> {
  return bundleWorkerEntry(join(__dirname, '..', '..', 'src', 'shape.worker.entry.ts'), outdir);
}
