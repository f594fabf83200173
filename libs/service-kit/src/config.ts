import { z } from 'zod';

/**
 * Validates the environment against an app's config schema, whose keys are the environment variable names.
 * A bad value stops start-up with a message naming the variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    picked[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(picked);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

/** An integer environment variable with a default, e.g. `PORT`. */
export const intVar = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
